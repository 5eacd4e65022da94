/**
 * Waits for a mutation without rethrowing: its onError has already told the user (toast) and the
 * global MutationCache handler has dealt with 401/403. Forms await it to stay "submitting" meanwhile.
 */
export async function settle(promise: Promise<unknown>): Promise<void> {
  try {
    await promise;
  } catch {
    // Reported by the mutation's onError.
  }
}
