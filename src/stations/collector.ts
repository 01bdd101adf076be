// The station-list collector: the refresher around the Posts read, the log lines an operator needs from it, and
// the slice's one constructor that the composition root calls.
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { type Collector, healthOf } from '../collector/contract.js';
import type { EngineConfig } from '../config/config.js';
import { createRequestMetrics } from '../exposition/request-metrics.js';
import type { Clock } from '../refresh/clock.js';
import { type CollectorState, type RefreshPolicy, servable } from '../refresh/policy.js';
import { createRefresher, type ReadOutcome, type Refresher } from '../refresh/refresher.js';
import type { Upstream } from '../upstream/exchange.js';
import { STATION_LIST_HEALTH } from './metrics.js';
import { type FetchStations, readStations } from './read.js';
import type { StationList } from './schema.js';
import { stationSource } from './source.js';

export type StationState = CollectorState<StationList>;
export type StationRefresher = Refresher<StationList>;

/** The station list as the other slices see it. */
export interface StationsCollector extends Collector {
  /** The list that may be served now (young enough for --upstream.max-age), however it was refreshed. */
  readonly serving: (nowMs: number) => StationList | undefined;
  /** The last good list, however old: the only source of ids the readings may ask for. */
  readonly lastGood: () => StationList | undefined;
  /** Resolves at the first good list. */
  readonly firstData: Promise<void>;
  readonly state: () => StationState;
}

export interface StationsDeps {
  readonly config: Pick<EngineConfig, 'upstream'>;
  readonly upstream: Pick<Upstream, 'getJsonElements'>;
  readonly registry: Registry;
  readonly log: Logger;
  readonly clock?: Clock;
  readonly random?: () => number;
}

export function createStationsCollector(deps: StationsDeps): StationsCollector {
  const refresher = createStationRefresher({
    fetchStations: readStations(deps.upstream, deps.config.upstream.maxStations),
    policy: deps.config.upstream,
    log: deps.log,
    onRequest: createRequestMetrics(deps.registry, STATION_LIST_HEALTH),
    ...(deps.clock ? { clock: deps.clock } : {}),
    ...(deps.random ? { random: deps.random } : {}),
  });
  return stationsCollectorOf(refresher, deps.config.upstream.maxAgeMs);
}

/** The contract around a refresher: what may be served is answered here, once, for every reader. */
export function stationsCollectorOf(refresher: StationRefresher, maxAgeMs: number): StationsCollector {
  const serving = (nowMs: number) => servable(refresher.state(), nowMs, maxAgeMs)?.data;
  return {
    name: 'station list',
    gatesReadiness: true,
    source: stationSource(refresher, serving),
    health: (nowMs) =>
      healthOf('station list', refresher.state(), serving(nowMs) !== undefined, refresher.inFlight()),
    serving,
    lastGood: () => refresher.state().current?.data,
    firstData: refresher.firstData,
    state: refresher.state,
    start: refresher.start,
    stop: refresher.stop,
  };
}

export interface StationCollectorOptions {
  readonly fetchStations: FetchStations;
  readonly policy: RefreshPolicy;
  readonly log: Logger;
  /** Once per upstream request, for the request counters and histogram. */
  readonly onRequest?: (outcome: ReadOutcome<StationList>, seconds: number) => void;
  readonly clock?: Clock;
  readonly random?: () => number;
}

function createStationRefresher(options: StationCollectorOptions): StationRefresher {
  const { log } = options;
  return createRefresher<StationList>({
    read: () => options.fetchStations(),
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
  const skipped = skippedCounts(list);
  if (Object.keys(skipped).length > 0 && !sameCounts(skipped, skippedCounts(before.current?.data))) {
    log.warn(
      { fields_skipped: skipped, examples: list.fieldProblems },
      'upstream sent stations with invalid fields, which were left out',
    );
  }
}

/** The fields left out of a list, only those with a count: what a warning names. */
function skippedCounts(list: StationList | undefined): Record<string, number> {
  return Object.fromEntries(Object.entries(list?.skippedFields ?? {}).filter(([, n]) => n > 0));
}

const sameCounts = (a: Record<string, number>, b: Record<string, number>): boolean =>
  JSON.stringify(a) === JSON.stringify(b);
