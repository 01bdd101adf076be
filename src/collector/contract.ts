// What every collector is to the rest of the exporter: a part of each scrape, a start and a stop, and its health
// told the same way. The HTTP server, readiness and the status page take a list of these and know no collector by
// name; each slice adds what it may serve now for the slices that read its data.
import type { ScrapeSource } from '../exposition/scrape.js';
import type { Attempt, CollectorState } from '../refresh/policy.js';

export interface CollectorHealth {
  /** For people: 'station list', 'readings'. */
  readonly name: string;
  readonly lastSuccessMs: number | undefined;
  readonly lastAttempt: Attempt | undefined;
  readonly consecutiveFailures: number;
  /** No request before this time (Retry-After or backoff); 0 when free. */
  readonly backoffUntilMs: number;
  /** Whether data may be served now (young enough for its max-age). */
  readonly serving: boolean;
  /** A refresh is under way. */
  readonly inFlight: boolean;
}

export interface Collector {
  readonly name: string;
  readonly source: ScrapeSource;
  /** Readiness waits for this collector to serve data. */
  readonly gatesReadiness: boolean;
  readonly health: (nowMs: number) => CollectorHealth;
  readonly start: () => void;
  /** Stops its timers, waits for a request under way, and frees its connections. */
  readonly stop: () => Promise<void>;
}

export function healthOf(
  name: string,
  state: CollectorState<unknown>,
  serving: boolean,
  inFlight: boolean,
): CollectorHealth {
  return {
    name,
    lastSuccessMs: state.current?.fetchedAtMs,
    lastAttempt: state.lastAttempt,
    consecutiveFailures: state.consecutiveFailures,
    backoffUntilMs: state.notBeforeMs,
    serving,
    inFlight,
  };
}
