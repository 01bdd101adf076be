// Owns the refresh state: runs at most one upstream request at a time, on demand or on a timer, and keeps the
// last good snapshot whatever the upstream answers.
import type { Logger } from 'pino';
import type { FetchOutcome, FetchStations } from '../upstream/client.js';
import {
  afterFailure,
  afterSuccess,
  INITIAL_STATE,
  type RefreshPolicy,
  type RefreshState,
  refreshDue,
} from './policy.js';
import { makeSnapshot } from './snapshot.js';

export interface RefresherOptions {
  readonly fetchStations: FetchStations;
  readonly policy: RefreshPolicy & { readonly refreshIntervalMs: number };
  readonly log: Logger;
  /** Called once per upstream request, for the request counters and histogram. */
  readonly onAttempt?: (outcome: FetchOutcome, seconds: number) => void;
  readonly now?: () => number;
  readonly random?: () => number;
}

export interface Refresher {
  readonly state: () => RefreshState;
  /**
   * Refreshes if due (on-demand mode) and waits for it at most waitMs; never throws. Resolves false when the
   * wait ended with a refresh still running (it goes on, and its result serves the next scrape).
   */
  readonly refreshIfDue: (waitMs: number) => Promise<boolean>;
  /** Starts the background timer when refresh-interval > 0, else one refresh so /readyz can turn ready. */
  readonly start: () => void;
  /** Stops the timer and waits for a request under way. */
  readonly stop: () => Promise<void>;
}

export function createRefresher(options: RefresherOptions): Refresher {
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const { policy, log } = options;
  let state: RefreshState = INITIAL_STATE;
  let inflight: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const runOnce = async (): Promise<void> => {
    const started = now();
    const t0 = performance.now();
    const outcome = await options.fetchStations();
    const durationMs = performance.now() - t0;
    options.onAttempt?.(outcome, durationMs / 1000);
    const previous = state;
    if (outcome.ok) {
      state = afterSuccess(state, makeSnapshot(outcome.list, now()), durationMs);
      logSuccess(log, previous, state, outcome.bytes);
    } else {
      state = afterFailure(state, outcome, started, durationMs, random());
      log.warn(
        {
          reason: outcome.reason,
          consecutive_failures: state.consecutiveFailures,
          retry_in_ms: Math.max(0, state.notBeforeMs - now()),
          serving_data_from: previous.snapshot
            ? new Date(previous.snapshot.fetchedAtMs).toISOString()
            : 'none',
        },
        `refresh of the station list failed: ${outcome.message}`,
      );
    }
  };

  const refreshNow = (): Promise<void> => {
    inflight ??= runOnce()
      .catch((error: unknown) => log.error({ err: error }, 'unexpected error while refreshing'))
      .finally(() => {
        inflight = undefined;
      });
    return inflight;
  };

  const schedule = (): void => {
    if (stopped) return;
    const next = Math.max(policy.refreshIntervalMs, state.notBeforeMs - now());
    timer = setTimeout(() => void refreshNow().then(schedule), next);
  };

  return {
    state: () => state,
    refreshIfDue: async (waitMs) => {
      if (stopped || policy.refreshIntervalMs > 0) return true;
      if (!inflight && !refreshDue(state, now(), policy)) return true;
      let timeout: NodeJS.Timeout | undefined;
      const deadline = new Promise<boolean>((resolve) => {
        timeout = setTimeout(() => resolve(false), Math.max(0, waitMs));
      });
      const settled = await Promise.race([refreshNow().then(() => true), deadline]);
      clearTimeout(timeout);
      return settled;
    },
    start: () => {
      if (policy.refreshIntervalMs > 0) void refreshNow().then(schedule);
      else void refreshNow();
    },
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await inflight;
    },
  };
}

function logSuccess(log: Logger, before: RefreshState, after: RefreshState, bytes: number): void {
  const snap = after.snapshot;
  if (!snap) return;
  const { invalid, duplicate } = snap.list.rejected;
  const fields = {
    stations: snap.list.stations.length,
    online: snap.online,
    offline: snap.offline,
    rejected_invalid: invalid,
    rejected_duplicate: duplicate,
    bytes,
    duration_ms: Math.round(after.lastAttempt?.durationMs ?? 0),
  };
  const recovered = before.lastAttempt?.reason !== undefined;
  if (!before.snapshot || recovered)
    log.info(fields, recovered ? 'refresh recovered' : 'first refresh succeeded');
  else log.debug(fields, 'refreshed the station list');
  const prev = before.snapshot?.list.rejected;
  if ((invalid > 0 || duplicate > 0) && (prev?.invalid !== invalid || prev?.duplicate !== duplicate)) {
    log.warn(
      { rejected_invalid: invalid, rejected_duplicate: duplicate, examples: snap.list.problems },
      'upstream sent stations that were dropped',
    );
  }
}
