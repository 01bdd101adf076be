// The readings collector: rounds of per-station reads on their own timer, never on a scrape, asking only for
// stations of the last good station list. Its state is the newest reading per station and the last round's stats.
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { type Collector, healthOf } from '../collector/contract.js';
import type { EngineConfig } from '../config/config.js';
import type { RecordRequest } from '../exposition/request-metrics.js';
import { createRequestMetrics } from '../exposition/request-metrics.js';
import type { Clock } from '../refresh/clock.js';
import type { CollectorState } from '../refresh/policy.js';
import { createRefresher, type Refresher } from '../refresh/refresher.js';
import type { StationsCollector } from '../stations/collector.js';
import type { StationList } from '../stations/schema.js';
import type { Upstream } from '../upstream/exchange.js';
import type { ReadingsData } from './data.js';
import { READING_METRICS } from './metrics.js';
import { futureDatedNotice, missingIdsNotice, unknownUnitNotice, workingNotice } from './notices.js';
import { type FetchReadings, readReadings } from './read.js';
import type { RoundCursor } from './rotation.js';
import { idsToRead, runReadingsRound } from './round.js';
import { type ServedReadings, servedReadings } from './served.js';
import type { ReadingsConfig } from './settings.js';
import { readingsSource } from './source.js';

export type ReadingsState = CollectorState<ReadingsData>;
export type ReadingsRefresher = Refresher<ReadingsData>;

/** The readings as the other slices see them. */
export interface ReadingsCollector extends Collector {
  /** The readings that may be shown now: of served stations, no older than --measurements.max-age. */
  readonly serving: (nowMs: number) => ServedReadings | undefined;
  readonly state: () => ReadingsState;
}

export interface ReadingsDeps {
  readonly config: {
    readonly readings: ReadingsConfig;
    readonly upstream: Pick<EngineConfig['upstream'], 'maxBackoffMs'>;
  };
  readonly upstream: Pick<Upstream, 'getJson'>;
  readonly registry: Registry;
  readonly log: Logger;
  /** Readings ask only for ids of the station list, and are shown only for stations it serves. */
  readonly stations: Pick<StationsCollector, 'serving' | 'lastGood' | 'firstData'>;
  readonly clock?: Clock;
  readonly random?: () => number;
}

export function createReadingsCollector(deps: ReadingsDeps): ReadingsCollector {
  const { config, stations } = deps;
  const refresher = createReadingsRefresher({
    // A readings answer for a window of minutes is a few kB: a cap of its own, far below the station list's.
    fetchReadings: readReadings(
      {
        getJson: (path, validate) =>
          deps.upstream.getJson(path, validate, {
            maxBodyBytes: config.readings.maxBodyBytes,
            maxBodySetting: '--measurements.max-body-size',
          }),
      },
      deps.clock?.now,
    ),
    stationList: stations.lastGood,
    settings: config.readings,
    maxBackoffMs: config.upstream.maxBackoffMs,
    log: deps.log,
    onRequest: createRequestMetrics(deps.registry, READING_METRICS),
    ...(deps.clock ? { clock: deps.clock } : {}),
    ...(deps.random ? { random: deps.random } : {}),
  });
  return readingsCollectorOf(refresher, stations, config.readings.maxAgeMs);
}

/** The contract around a refresher: what may be shown is answered here, once, for the metrics and the page. */
export function readingsCollectorOf(
  refresher: ReadingsRefresher,
  stations: Pick<StationsCollector, 'serving' | 'firstData'>,
  maxAgeMs: number,
): ReadingsCollector {
  const served = servedReadings(maxAgeMs);
  const serving = (nowMs: number): ServedReadings | undefined => {
    const data = refresher.state().current?.data;
    return data && served(nowMs, data, stations.serving(nowMs));
  };
  let started = false;
  return {
    name: 'readings',
    gatesReadiness: false,
    source: readingsSource(serving),
    health: (nowMs) =>
      healthOf('readings', refresher.state(), serving(nowMs) !== undefined, refresher.inFlight()),
    serving,
    state: refresher.state,
    // The first round waits for the first station list: readings ask only for listed stations.
    start: () => {
      if (started) return;
      started = true;
      void stations.firstData.then(refresher.start);
    },
    stop: refresher.stop,
  };
}

export interface ReadingsCollectorOptions {
  readonly fetchReadings: FetchReadings;
  /** The last good station list, however old: the only source of ids to ask for. */
  readonly stationList: () => StationList | undefined;
  readonly settings: ReadingsConfig;
  readonly maxBackoffMs: number;
  readonly log: Logger;
  /** Once per request, for the readings request counters and histogram. */
  readonly onRequest?: RecordRequest;
  readonly clock?: Clock;
  readonly random?: () => number;
}

function createReadingsRefresher(options: ReadingsCollectorOptions): ReadingsRefresher {
  const { settings } = options;
  const log = options.log.child({ collector: 'readings' });
  const notices = {
    unknownUnit: unknownUnitNotice(log),
    futureDated: futureDatedNotice(log),
    missingIds: missingIdsNotice(log),
    working: workingNotice(log),
  };
  const now = options.clock?.now ?? Date.now;
  // Where the next round starts. Kept here, not in the state, because a round that fails as a whole (stopped
  // at its first request) must move it on too.
  let startAt: RoundCursor | undefined;
  return createRefresher<ReadingsData>({
    read: async (state) => {
      const list = options.stationList();
      if (list)
        notices.missingIds(
          settings.stations,
          list.stations.map((s) => s.id),
        );
      const result = await runReadingsRound({
        ids: list ? idsToRead(list.stations, settings.stations) : [],
        fetch: options.fetchReadings,
        concurrency: settings.concurrency,
        previous: state.current?.data,
        nowMs: now(),
        maxAgeMs: settings.maxAgeMs,
        interval: settings.interval,
        startAt,
        log: log,
        ...(options.onRequest ? { onRequest: options.onRequest } : {}),
      });
      const round = result.ok ? result.value.round : result.stats;
      startAt = round.resumeAt;
      for (const u of round.unknownUnits) notices.unknownUnit(u);
      for (const f of round.futureDated) notices.futureDated(f, now());
      return result;
    },
    // Rounds run only on their timer; the backoff after failed rounds has the same ceiling as the station list's.
    policy: {
      minIntervalMs: settings.refreshIntervalMs,
      refreshIntervalMs: settings.refreshIntervalMs,
      maxAgeMs: settings.maxAgeMs,
      maxBackoffMs: options.maxBackoffMs,
    },
    log: log,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.random ? { random: options.random } : {}),
    onAttempt: (_before, after, outcome) => {
      if (outcome.ok) {
        const { stations } = outcome.value.round;
        const detail = { ...stations, duration_ms: Math.round(after.lastAttempt?.durationMs ?? 0) };
        log.debug(detail, 'readings round done');
        notices.working(true, detail);
      } else {
        const detail = { reason: outcome.reason, consecutive_failures: after.consecutiveFailures };
        log.warn(detail, `every readings request of the round failed: ${outcome.message}`);
        notices.working(false, detail);
      }
    },
  });
}
