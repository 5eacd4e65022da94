// k6 provides console (it writes to k6's log) but @types/k6 does not declare it, and this project
// compiles the scripts without the DOM or Node typings.
declare global {
  const console: {
    log(...data: unknown[]): void;
    warn(...data: unknown[]): void;
    error(...data: unknown[]): void;
  };
}

export {};
