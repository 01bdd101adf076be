// The station-list collector: the refresher around the Posts read, and the log lines an operator needs from it.
import type { Logger } from 'pino';
import type { StationList } from '../boundaries/stations.js';
import type { FetchStations } from '../upstream/client.js';
import type { Clock } from './clock.js';
import type { CollectorState, RefreshPolicy } from './refresh-policy.js';
import { createRefresher, type ReadOutcome, type Refresher } from './refresher.js';

export type StationState = CollectorState<StationList>;
export type StationCollector = Refresher<StationList>;

export interface StationCollectorOptions {
  readonly fetchStations: FetchStations;
  readonly policy: RefreshPolicy;
  readonly log: Logger;
  /** Once per upstream request, for the request counters and histogram. */
  readonly onRequest?: (outcome: ReadOutcome<StationList>, seconds: number) => void;
  readonly clock?: Clock;
  readonly random?: () => number;
}

export function createStationCollector(options: StationCollectorOptions): StationCollector {
  const { log } = options;
  return createRefresher<StationList>({
    read: async () => {
      const outcome = await options.fetchStations();
      return outcome.ok ? { ok: true, data: outcome.list, bytes: outcome.bytes } : outcome;
    },
    policy: options.policy,
    log,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.random ? { random: options.random } : {}),
    onAttempt: (before, after, outcome) => {
      options.onRequest?.(outcome, (after.lastAttempt?.durationMs ?? 0) / 1000);
      if (outcome.ok) logSuccess(log, before, after, outcome.bytes ?? 0);
      else logFailure(log, after, outcome.message, options.clock?.now() ?? Date.now());
    },
  });
}

function logFailure(log: Logger, after: StationState, message: string, nowMs: number): void {
  log.warn(
    {
      reason: after.lastAttempt?.reason,
      consecutive_failures: after.consecutiveFailures,
      retry_in_ms: Math.max(0, Math.round(after.notBeforeMs - nowMs)),
      serving_data_from: after.current ? new Date(after.current.fetchedAtMs).toISOString() : 'none',
    },
    `refresh of the station list failed: ${message}`,
  );
}

function logSuccess(log: Logger, before: StationState, after: StationState, bytes: number): void {
  const list = after.current?.data;
  if (!list) return;
  const { invalid, duplicate } = list.rejected;
  let online = 0;
  for (const s of list.stations) if (s.online) online++;
  const fields = {
    stations: list.stations.length,
    online,
    offline: list.stations.length - online,
    rejected_invalid: invalid,
    rejected_duplicate: duplicate,
    bytes,
    duration_ms: Math.round(after.lastAttempt?.durationMs ?? 0),
  };
  const recovered = before.lastAttempt?.reason !== undefined;
  if (!before.current || recovered)
    log.info(fields, recovered ? 'refresh recovered' : 'first refresh succeeded');
  else log.debug(fields, 'refreshed the station list');
  const prev = before.current?.data.rejected;
  if ((invalid > 0 || duplicate > 0) && (prev?.invalid !== invalid || prev?.duplicate !== duplicate)) {
    log.warn(
      { rejected_invalid: invalid, rejected_duplicate: duplicate, examples: list.problems },
      'upstream sent stations that were dropped',
    );
  }
}
