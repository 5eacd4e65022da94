/** A logger for the ingest under test: warnings and errors only when DEBUG_TESTS is set (the fault tests provoke many on purpose). */
export function quietLogger() {
  const debug = !!process.env.DEBUG_TESTS;
  return {
    log: (m: string) => (debug ? console.log(m) : undefined),
    warn: (m: string) => (debug ? console.warn(m) : undefined),
    error: (m: string) => (debug ? console.error(m) : undefined),
  };
}
