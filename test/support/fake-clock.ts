// A clock the test moves by hand: timers fire in time order as the test advances it, and promises queued by
// what they run settle before the next timer fires.
import type { Clock } from '../../src/refresh/clock.js';

export interface FakeClock extends Clock {
  /** Moves time forward by ms, firing every timer that falls due, in order. */
  readonly advance: (ms: number) => Promise<void>;
  /** Lets pending promise callbacks run without moving time. */
  readonly flush: () => Promise<void>;
  readonly pendingTimers: () => number;
}

export function fakeClock(startMs = 1_700_000_000_000): FakeClock {
  let now = startMs;
  let seq = 0;
  const timers = new Map<number, { readonly at: number; readonly fn: () => void }>();
  const flush = async (): Promise<void> => {
    for (let i = 0; i < 20; i++) await new Promise<void>((r) => setImmediate(r));
  };
  return {
    now: () => now,
    monotonic: () => now,
    setTimer: (fn, ms) => {
      const id = seq++;
      timers.set(id, { at: now + Math.max(0, ms), fn });
      return () => void timers.delete(id);
    },
    flush,
    pendingTimers: () => timers.size,
    advance: async (ms) => {
      const end = now + ms;
      await flush();
      for (;;) {
        let next: [number, { at: number; fn: () => void }] | undefined;
        for (const entry of timers)
          if (entry[1].at <= end && (!next || entry[1].at < next[1].at)) next = entry;
        if (!next) break;
        timers.delete(next[0]);
        now = next[1].at;
        next[1].fn();
        await flush();
      }
      now = end;
      await flush();
    },
  };
}
