// The readings collector: rounds of per-station reads on their own timer, never on a scrape, asking only for
// stations of the last good station list. Its state is the newest reading per station and the last round's stats.
import type { Logger } from 'pino';
import type { Config } from '../boundaries/config.js';
import type { StationList } from '../boundaries/stations.js';
import type { FetchMeasurements, MeasurementsOutcome } from '../upstream/client.js';
import type { Clock } from './clock.js';
import type { ReadingsData } from './readings-data.js';
import { idsToRead, runReadingsRound } from './readings-round.js';
import type { CollectorState } from './refresh-policy.js';
import { createRefresher, type Refresher } from './refresher.js';

export type ReadingsState = CollectorState<ReadingsData>;
export type ReadingsCollector = Refresher<ReadingsData>;

export interface ReadingsCollectorOptions {
  readonly fetchMeasurements: FetchMeasurements;
  /** The last good station list, however old: the only source of ids to ask for. */
  readonly stationList: () => StationList | undefined;
  readonly settings: Config['measurements'];
  readonly maxBackoffMs: number;
  readonly log: Logger;
  /** Once per request, for the readings request counters. */
  readonly onRequest?: (outcome: MeasurementsOutcome) => void;
  readonly clock?: Clock;
  readonly random?: () => number;
}

export function createReadingsCollector(options: ReadingsCollectorOptions): ReadingsCollector {
  const { settings } = options;
  const log = options.log.child({ collector: 'measurements' });
  const reportUnknownUnit = unknownUnitReporter(log);
  const now = options.clock?.now ?? Date.now;
  return createRefresher<ReadingsData>({
    read: async (state) => {
      const list = options.stationList();
      const result = await runReadingsRound({
        ids: list ? idsToRead(list.stations, settings.stations) : [],
        fetch: options.fetchMeasurements,
        concurrency: settings.concurrency,
        previous: state.current?.data,
        nowMs: now(),
        maxAgeMs: settings.maxAgeMs,
        interval: settings.interval,
        log: log,
        ...(options.onRequest ? { onRequest: options.onRequest } : {}),
      });
      if (result.ok) for (const u of result.data.round.unknownUnits) reportUnknownUnit(u.field, u.unit);
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
        const { stations } = outcome.data.round;
        log.debug(
          { ...stations, duration_ms: Math.round(after.lastAttempt?.durationMs ?? 0) },
          'readings round done',
        );
      } else {
        log.warn(
          { reason: outcome.reason, consecutive_failures: after.consecutiveFailures },
          `every readings request of the round failed: ${outcome.message}`,
        );
      }
    },
  });
}

// Bounds what an API sending a new unit text every round can make the exporter remember.
const MAX_UNITS_REMEMBERED = 256;

/** Logs a unit we do not convert once per field and unit, with the unit's text, however many rounds send it. */
function unknownUnitReporter(log: Logger): (field: string, unit: string) => void {
  const seen = new Set<string>();
  return (field, unit) => {
    const key = JSON.stringify([field, unit]);
    if (seen.has(key) || seen.size >= MAX_UNITS_REMEMBERED) return;
    seen.add(key);
    log.warn({ field, unit }, 'readings field left out: its unit is not one the exporter converts');
  };
}
