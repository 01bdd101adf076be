// CityAir sees one client: a pause it asks for (429, or a 503 with Retry-After) holds every request of the pool
// that goes through this gate, the readings' rounds and the record's alike, whichever of them was told. A request
// asked for during the pause is not sent: it fails at once as rate-limited, with the time left, so the caller
// backs off exactly as if the API had answered it.

import type { Upstream } from './exchange.js';
import { failure, type Result } from './failure.js';

/** The pause every request through the gate shares: no request before `untilMs`. */
export interface PauseGate {
  untilMs: number;
}

/** A Retry-After of days would silence the exporter for days; an hour is the most honoured. */
const MAX_PAUSE_MS = 3_600_000;

export function pausedTogether(upstream: Upstream, gate: PauseGate, now: () => number = Date.now): Upstream {
  const guard = async <T>(call: () => Promise<Result<T>>): Promise<Result<T>> => {
    const left = gate.untilMs - now();
    if (left > 0)
      return failure(
        'rate_limited',
        `not sent: the API asked to wait until ${new Date(gate.untilMs).toISOString()}`,
        left,
      );
    const outcome = await call();
    if (outcome.retryAfterMs !== undefined)
      gate.untilMs = Math.max(gate.untilMs, now() + Math.min(outcome.retryAfterMs, MAX_PAUSE_MS));
    return outcome;
  };
  return {
    getJson: (path, validate, limits) => guard(() => upstream.getJson(path, validate, limits)),
    getJsonElements: (path, reader, limits) => guard(() => upstream.getJsonElements(path, reader, limits)),
    close: upstream.close,
  };
}
