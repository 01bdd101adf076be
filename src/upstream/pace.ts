// Work on an upstream answer in slices: after each slice of CPU time the event loop gets a turn, so /healthz,
// /readyz and scrapes are answered while a large body is scanned and validated, and the request's deadline is
// looked at, so that reading, parsing and validating together stay within --upstream.timeout.
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Long enough that the pauses cost nothing measurable, short enough that a probe never notices the work. */
export const SLICE_MS = 10;

export interface Pace {
  /** The current slice is used up: call pause() before going on. */
  readonly due: () => boolean;
  /** Gives the event loop a turn; false when the deadline passed meanwhile (stop, and fail as a timeout). */
  readonly pause: () => Promise<boolean>;
}

export function createPace(deadline: AbortSignal, sliceMs = SLICE_MS): Pace {
  let sliceStart = performance.now();
  return {
    due: () => performance.now() - sliceStart >= sliceMs,
    pause: async () => {
      await nextTurn();
      sliceStart = performance.now();
      return !deadline.aborted;
    },
  };
}
