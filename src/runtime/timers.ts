// Timers that keep their word: Node fires a delay above its limit at once, which turned a long Retry-After or
// backoff into a busy loop.

/** The longest delay Node's timers keep: anything above it (or not a number) runs after 1 ms instead. */
export const TIMER_LIMIT_MS = 2 ** 31 - 1;

/**
 * setTimeout for any delay: a longer one is armed in steps of at most the limit, so that it waits as long as it
 * says instead of firing at once. NaN waits like Infinity (never): a broken delay must not become a busy loop.
 */
export function armTimer(fn: () => void, ms: number): () => void {
  let timer: NodeJS.Timeout | undefined;
  const arm = (rest: number): void => {
    timer =
      rest > TIMER_LIMIT_MS
        ? setTimeout(() => arm(rest - TIMER_LIMIT_MS), TIMER_LIMIT_MS)
        : setTimeout(fn, rest);
  };
  arm(Number.isNaN(ms) ? Number.POSITIVE_INFINITY : Math.max(0, ms));
  return () => clearTimeout(timer);
}
