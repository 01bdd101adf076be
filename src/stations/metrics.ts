// Every metric of the station-list slice in one table: the station families rendered from the last good list
// (text.ts), and the health of the collector that reads it (source.ts, request counters).
import type { MetricSpec } from '../exposition/catalog.js';
import type { Station } from './schema.js';

/**
 * The labels of cityair_station_info after id, in their order, declared once: each is the Station field of the
 * same name. The live text (text.ts) and the backfill's samples write them from here.
 */
export const STATION_INFO_LABELS = [
  'name',
  'description',
  'tz',
] as const satisfies readonly (keyof Station)[];

/** cityair_station_info's label pairs for one station, id first. */
export const stationInfoLabels = (s: Station): [string, string][] => [
  ['id', String(s.id)],
  ...STATION_INFO_LABELS.map((label): [string, string] => [label, s[label]]),
];

const CACHED =
  'From the last successful refresh of the station list (cached; see cityair_last_refresh_success_timestamp_seconds).';

export const STATION_METRICS = {
  info: {
    name: 'cityair_station_info',
    type: 'gauge',
    labels: ['id', ...STATION_INFO_LABELS],
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
  fieldsSkipped: {
    name: 'cityair_stations_fields_skipped',
    type: 'gauge',
    labels: ['field'],
    help: `Optional fields of kept stations that were left out as invalid (a coordinate out of range, an offset that is not a number...), by field. ${CACHED}`,
  },
} as const satisfies Record<string, MetricSpec>;

export const STATION_LIST_HEALTH = {
  up: {
    name: 'cityair_up',
    type: 'gauge',
    labels: [],
    help: 'Whether the latest completed refresh of the station list from the CityAir API succeeded (1) or not (0).',
  },
  inProgress: {
    name: 'cityair_refresh_in_progress',
    type: 'gauge',
    labels: [],
    help: 'Whether a refresh of the station list is under way (1) or not (0).',
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
} as const satisfies Record<string, MetricSpec>;
