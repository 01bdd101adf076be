// Every metric the exporter publishes, in one table: name, type, labels and help. Station families come from
// the last good refresh and are rendered by stations-text.ts; exporter families live in prom-client.

export interface MetricSpec {
  readonly name: string;
  readonly type: 'gauge' | 'counter' | 'histogram';
  readonly labels: readonly string[];
  readonly help: string;
}

const CACHED =
  'From the last successful refresh of the station list (cached; see cityair_last_refresh_success_timestamp_seconds).';

export const STATION_METRICS = {
  info: {
    name: 'cityair_station_info',
    type: 'gauge',
    labels: ['id', 'name', 'description', 'tz'],
    help: `Descriptive labels of a station, always 1; join on id. ${CACHED}`,
  },
  online: {
    name: 'cityair_station_online',
    type: 'gauge',
    labels: ['id', 'name', 'tz'],
    help: `Whether the station is online (1) or offline (0). ${CACHED}`,
  },
  latitude: {
    name: 'cityair_station_latitude_degrees',
    type: 'gauge',
    labels: ['id'],
    help: `Latitude of the station in decimal degrees. ${CACHED}`,
  },
  longitude: {
    name: 'cityair_station_longitude_degrees',
    type: 'gauge',
    labels: ['id'],
    help: `Longitude of the station in decimal degrees. ${CACHED}`,
  },
  utcOffset: {
    name: 'cityair_station_utc_offset_seconds',
    type: 'gauge',
    labels: ['id'],
    help: `Offset of the station's local time from UTC. ${CACHED}`,
  },
  count: {
    name: 'cityair_stations',
    type: 'gauge',
    labels: ['state'],
    help: `Number of stations by state (online, offline). ${CACHED}`,
  },
  rejected: {
    name: 'cityair_stations_rejected',
    type: 'gauge',
    labels: ['reason'],
    help: `Elements of the last good answer that were dropped: invalid, or a duplicate id. ${CACHED}`,
  },
} as const satisfies Record<string, MetricSpec>;

export const EXPORTER_METRICS = {
  up: {
    name: 'cityair_up',
    type: 'gauge',
    labels: [],
    help: 'Whether the latest refresh of the station list from the CityAir API succeeded (1) or not (0).',
  },
  lastSuccess: {
    name: 'cityair_last_refresh_success_timestamp_seconds',
    type: 'gauge',
    labels: [],
    help: 'Unix time of the last successful refresh of the station list; 0 before the first.',
  },
  lastDuration: {
    name: 'cityair_last_refresh_duration_seconds',
    type: 'gauge',
    labels: [],
    help: 'Duration of the latest refresh attempt, successful or not.',
  },
  backoffUntil: {
    name: 'cityair_upstream_backoff_until_timestamp_seconds',
    type: 'gauge',
    labels: [],
    help: 'Unix time before which no request is sent to the API (Retry-After or backoff after failures); 0 when none.',
  },
  requests: {
    name: 'cityair_upstream_requests_total',
    type: 'counter',
    labels: [],
    help: 'Requests sent to the CityAir API.',
  },
  failures: {
    name: 'cityair_upstream_request_failures_total',
    type: 'counter',
    labels: ['reason'],
    help: 'Requests to the CityAir API that failed, by reason.',
  },
  requestDuration: {
    name: 'cityair_upstream_request_duration_seconds',
    type: 'histogram',
    labels: [],
    help: 'Duration of requests to the CityAir API, including reading and validating the body.',
  },
  buildInfo: {
    name: 'cityair_exporter_build_info',
    type: 'gauge',
    labels: ['version', 'revision', 'nodejs_version'],
    help: 'Build of the running cityair-exporter, always 1.',
  },
} as const satisfies Record<string, MetricSpec>;

export const REQUEST_DURATION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

const READING =
  'From the newest row of the station (cached; left out once the row is older than --measurements.max-age).';
const ROUND = 'In the last completed round of readings (cached).';

/** The readings collector's families: the reading families and health gauges in readings-text.ts, counters in prom-client. */
export const READING_METRICS = {
  concentration: {
    name: 'cityair_concentration_micrograms_per_cubic_meter',
    type: 'gauge',
    labels: ['id', 'substance'],
    help: `Mass concentration of a substance (pm2.5, pm10, co, no2, ...) in µg/m³. ${READING}`,
  },
  temperature: {
    name: 'cityair_temperature_celsius',
    type: 'gauge',
    labels: ['id'],
    help: `Air temperature in degrees Celsius. ${READING}`,
  },
  humidity: {
    name: 'cityair_relative_humidity_ratio',
    type: 'gauge',
    labels: ['id'],
    help: `Relative humidity as a ratio (0-1). ${READING}`,
  },
  pressure: {
    name: 'cityair_pressure_pascals',
    type: 'gauge',
    labels: ['id'],
    help: `Atmospheric pressure in pascals. ${READING}`,
  },
  aqi: {
    name: 'cityair_aqi',
    type: 'gauge',
    labels: ['id', 'index'],
    help: `Air-quality index by index name (cityair: 1-10, at most 3 normal, at most 6 elevated). ${READING}`,
  },
  timestamp: {
    name: 'cityair_measurement_timestamp_seconds',
    type: 'gauge',
    labels: ['id'],
    help: `Unix time of the row the station's readings come from. ${READING}`,
  },
  stations: {
    name: 'cityair_measurements_stations',
    type: 'gauge',
    labels: ['state'],
    help: `Stations by the outcome of their readings request: fresh, stale (newest row older than max-age), empty (no row), failed, deferred (not asked: the API asked to wait). ${ROUND}`,
  },
  fieldsSkipped: {
    name: 'cityair_measurements_fields_skipped',
    type: 'gauge',
    labels: ['reason'],
    help: `Fields of the newest rows left out, by reason (missing, not_a_number, no_unit, unknown_unit, unit_mismatch, invalid_name, too_many). ${ROUND}`,
  },
  rowsRejected: {
    name: 'cityair_measurements_rows_rejected',
    type: 'gauge',
    labels: [],
    help: `Rows dropped because their date was not a UTC time or they named another station. ${ROUND}`,
  },
  lastRound: {
    name: 'cityair_measurements_last_round_timestamp_seconds',
    type: 'gauge',
    labels: [],
    help: 'Unix time at which the last completed round of readings started.',
  },
  lastRoundDuration: {
    name: 'cityair_measurements_last_round_duration_seconds',
    type: 'gauge',
    labels: [],
    help: 'Duration of the last completed round of readings.',
  },
  requests: {
    name: 'cityair_measurements_requests_total',
    type: 'counter',
    labels: [],
    help: 'Readings requests sent to the CityAir API.',
  },
  failures: {
    name: 'cityair_measurements_request_failures_total',
    type: 'counter',
    labels: ['reason'],
    help: 'Readings requests to the CityAir API that failed, by reason.',
  },
} as const satisfies Record<string, MetricSpec>;
