import DataLoader from 'dataloader';

/** Keys in one statement at most. */
const MAX_BATCH = 500;

/**
 * A lookup that many requests make at once — a crowd of clients opening one live view checks its
 * invitation, buys and redeems stream tickets — made as one statement per turn of the event loop for
 * every caller that asked during it (DataLoader, without its cache: each call still reads the database
 * as it is now, so a revoked invitation is refused at once). `load(keys)` answers one value per key,
 * in the keys' order. Idle, a call waits for nothing but the end of the current turn.
 */
export function batched<K, V>(load: (keys: readonly K[]) => Promise<V[]>): (key: K) => Promise<V> {
  const loader = new DataLoader<K, V>((keys) => load(keys), {
    cache: false,
    maxBatchSize: MAX_BATCH,
    batchScheduleFn: (run) => setImmediate(run),
  });
  return (key) => loader.load(key);
}
