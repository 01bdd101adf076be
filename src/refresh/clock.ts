// Time as a dependency: the refresher asks this for the time and for timers, so tests can drive a fake one.
import { armTimer } from '../runtime/timers.js';

export interface Clock {
  /** Wall-clock time in milliseconds (Unix epoch), for timestamps. */
  readonly now: () => number;
  /** A monotonic reading in milliseconds, for durations. */
  readonly monotonic: () => number;
  /** Runs fn after ms; the returned function cancels it. */
  readonly setTimer: (fn: () => void, ms: number) => () => void;
}

export const systemClock: Clock = {
  now: Date.now,
  monotonic: () => performance.now(),
  setTimer: armTimer,
};
