// The readings slice's settings: its part of the exporter's table (src/sources.ts puts it after the upstream
// settings), and its part of the configuration, read the same way by the exporter and the backfill.
import type { ReadingsRequestConfig } from '../config/config.js';
import {
  boolText,
  byteSize,
  integerBetween,
  oneOf,
  READINGS_INTERVAL_MS,
  READINGS_INTERVALS,
  stationIds,
} from '../config/setting-values.js';
import { DAY, durationSetting, MINUTE, type ParsedOf, SECOND, setting } from '../config/settings.js';
import { formatDuration } from '../config/units.js';

export const READINGS_SETTINGS = {
  readings: setting({
    flag: 'collector.measurements',
    env: 'CITYAIR_MEASUREMENTS',
    default: 'false',
    demoDefault: 'true',
    help: "Read the stations' latest readings (concentrations, AQI, weather) from an undocumented endpoint.",
    schema: boolText,
    boolean: true,
  }),
  readingsInterval: setting({
    flag: 'measurements.interval',
    env: 'CITYAIR_MEASUREMENTS_INTERVAL',
    default: '5m',
    help: `Averaging interval asked of the API: ${READINGS_INTERVALS.join(', ')}; 20m is the averaging period of ПДК м.р.`,
    schema: oneOf(READINGS_INTERVALS, 'an averaging interval of the API'),
  }),
  readingsRefreshInterval: durationSetting({
    flag: 'measurements.refresh-interval',
    env: 'CITYAIR_MEASUREMENTS_REFRESH_INTERVAL',
    default: '5m',
    help: 'How often a round of readings requests runs.',
    range: [MINUTE, DAY],
  }),
  readingsMaxAge: durationSetting({
    flag: 'measurements.max-age',
    env: 'CITYAIR_MEASUREMENTS_MAX_AGE',
    default: '30m',
    help: 'A station whose newest row is older than this has no reading series.',
    range: [SECOND, 7 * DAY],
  }),
  readingsStations: setting({
    flag: 'measurements.stations',
    env: 'CITYAIR_MEASUREMENTS_STATIONS',
    default: undefined,
    help: 'Comma-separated station ids to read; others are not requested. Unset: every station of the list.',
    schema: stationIds,
  }),
  readingsMaxBodySize: setting({
    flag: 'measurements.max-body-size',
    env: 'CITYAIR_MEASUREMENTS_MAX_BODY_SIZE',
    default: '2MiB',
    help: "Cap on the decompressed body of one station's readings answer.",
    schema: byteSize,
  }),
  readingsConcurrency: setting({
    flag: 'measurements.concurrency',
    env: 'CITYAIR_MEASUREMENTS_CONCURRENCY',
    default: '2',
    help: 'Readings requests in flight at most (1 to 16).',
    schema: integerBetween(1, 16),
  }),
} as const;

export type ParsedReadings = ParsedOf<typeof READINGS_SETTINGS>;

/** How every command asks for readings: the part the exporter and the backfill share. */
export function readingsRequestConfig(
  p: Pick<
    ParsedReadings,
    'readingsInterval' | 'readingsStations' | 'readingsConcurrency' | 'readingsMaxBodySize'
  >,
): ReadingsRequestConfig {
  return {
    interval: p.readingsInterval,
    stations: p.readingsStations,
    concurrency: p.readingsConcurrency,
    maxBodyBytes: p.readingsMaxBodySize,
  };
}

/** The readings collector's configuration: off unless asked for or in demo mode. */
export interface ReadingsConfig extends ReadingsRequestConfig {
  readonly enabled: boolean;
  readonly refreshIntervalMs: number;
  readonly maxAgeMs: number;
}

export function readingsConfig(p: ParsedReadings): ReadingsConfig {
  return {
    ...readingsRequestConfig(p),
    enabled: p.readings,
    refreshIntervalMs: p.readingsRefreshInterval,
    maxAgeMs: p.readingsMaxAge,
  };
}

/** Settings that would leave the collector with nothing to show. */
export function readingsWarnings(c: ReadingsConfig): string[] {
  if (!c.enabled) return [];
  const warnings: string[] = [];
  if (c.refreshIntervalMs >= c.maxAgeMs) {
    warnings.push(
      `--measurements.refresh-interval (${formatDuration(c.refreshIntervalMs)}) is not below --measurements.max-age (${formatDuration(c.maxAgeMs)}): readings will expire between rounds`,
    );
  }
  // A row averages a whole interval and is dated at its start or end: with max-age at or below the interval,
  // most rows are already too old when they arrive, and stations show no readings at all.
  if (c.maxAgeMs <= READINGS_INTERVAL_MS[c.interval]) {
    warnings.push(
      `--measurements.max-age (${formatDuration(c.maxAgeMs)}) is not above --measurements.interval (${c.interval}): most readings will be too old to export`,
    );
  }
  return warnings;
}
