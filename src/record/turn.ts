// Live readings first: a record request goes out only while no readings round is under way, no pause the API
// asked for is in force, and the next readings round is far enough off that the request (at most the upstream
// timeout) ends before it. So a record round never makes a readings round late, and CityAir never sees more
// requests at once than --measurements.concurrency.
import type { CollectorHealth } from '../collector/contract.js';
import type { PauseGate } from '../upstream/shared-pause.js';

export interface TurnOptions {
  readonly readings: () => Pick<CollectorHealth, 'inFlight' | 'lastAttempt' | 'backoffUntilMs'>;
  readonly readingsIntervalMs: number;
  readonly gate: PauseGate;
  /** The longest a request may take: --upstream.timeout. */
  readonly requestMs: number;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
}

/** How long to wait before a record request may go out; 0 when it may go now. Pure. */
export function waitBeforeRequest(
  health: Pick<CollectorHealth, 'inFlight' | 'lastAttempt' | 'backoffUntilMs'>,
  readingsIntervalMs: number,
  gate: PauseGate,
  requestMs: number,
  nowMs: number,
): number {
  const paused = Math.max(gate.untilMs, health.backoffUntilMs) - nowMs;
  if (paused > 0) return paused;
  if (health.inFlight) return 100;
  const last = health.lastAttempt;
  // The first readings round has not run yet: it comes first.
  if (last === undefined) return 100;
  // When the rounds leave no room that long between them, the record goes between them all the same.
  if (readingsIntervalMs - last.durationMs < 2 * requestMs) return 0;
  const nextRound = last.atMs + readingsIntervalMs;
  const left = nextRound - nowMs;
  return left > 0 && left < requestMs ? left + 100 : 0;
}

export function liveFirst(options: TurnOptions): () => Promise<void> {
  return async () => {
    for (;;) {
      const wait = waitBeforeRequest(
        options.readings(),
        options.readingsIntervalMs,
        options.gate,
        options.requestMs,
        options.now(),
      );
      if (wait <= 0) return;
      await options.sleep(Math.min(wait, 1000));
    }
  };
}
