// Every metric of the readings slice in one table: the reading families and round health rendered by text.ts,
// the request counters kept in prom-client.
import type { MetricSpec } from '../exposition/catalog.js';
import { FUTURE_TOLERANCE_MS } from './dates.js';

const READING =
  'From the newest row of the station (cached; left out once the row is older than --measurements.max-age).';
const ROUND = 'In the last completed round of readings (cached).';

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
    help: `Fields of the newest rows left out, by reason (missing, not_a_number, no_unit, unknown_unit, unit_mismatch, invalid_name, too_many, out_of_range). ${ROUND}`,
  },
  rowsRejected: {
    name: 'cityair_measurements_rows_rejected',
    type: 'gauge',
    labels: [],
    help: `Rows dropped because their date was not an ISO time with an offset or they named another station. ${ROUND}`,
  },
  rowsFutureDated: {
    name: 'cityair_measurements_rows_future_dated',
    type: 'gauge',
    labels: [],
    help: `Rows dated more than ${FUTURE_TOLERANCE_MS / 60_000} minutes ahead of the exporter's clock (a station clock running ahead), never served. ${ROUND}`,
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
  requestDuration: {
    name: 'cityair_measurements_request_duration_seconds',
    type: 'histogram',
    labels: [],
    help: 'Duration of readings requests to the CityAir API, including reading and validating the body.',
  },
} as const satisfies Record<string, MetricSpec>;
