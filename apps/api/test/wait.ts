/**
 * Polls until `probe` returns a value (not undefined/null/false), for things that happen after the
 * response, such as mail delivery. The deadline only bounds a hung test; nothing is asserted about time.
 */
export async function waitFor<T>(probe: () => T | null | undefined | false | Promise<T | null | undefined | false>, what: string, deadlineMs = 15_000): Promise<T> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > until) throw new Error(`Gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
