// k6 provides console (it writes to k6's log) but @types/k6 does not declare it, and this project
// compiles the scripts without the DOM or Node typings.
declare global {
  const console: {
    log(...data: unknown[]): void;
    warn(...data: unknown[]): void;
    error(...data: unknown[]): void;
  };
  // stream.ts runs the dashboard's frame ordering (libs/contracts/src/live-order.ts), whose frame type comes from
  // libs/contracts/src/daq.ts: that file is type-checked with the scripts but never runs in k6 (only its types are
  // imported), so its two module-level codecs are declared here as far as it uses them, for the check alone.
  class TextDecoder {
    constructor(label?: string, options?: { fatal?: boolean });
    decode(input?: Uint8Array): string;
  }
  class TextEncoder {
    encode(input?: string): Uint8Array;
  }
}

export {};
