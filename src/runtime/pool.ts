// The one worker pool: a fixed set of workers pulling the next item, so never more than `concurrency` pieces of
// work run at once, and a stop asked by one piece keeps every worker from taking another. Used by the readings
// round and the backfill run alike.

/**
 * Runs `work` on the items in their order, at most `concurrency` at a time (below 1 counts as 1), until every
 * item is taken or `stopped()` is true before the next; answers how many items were taken.
 */
export async function forEachAtMost<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
  stopped: () => boolean = () => false,
): Promise<number> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (!stopped() && next < items.length) await work(items[next++] as T);
  };
  const workers = Math.max(1, Math.min(Math.floor(concurrency) || 1, items.length));
  await Promise.all(Array.from({ length: items.length === 0 ? 0 : workers }, worker));
  return next;
}
