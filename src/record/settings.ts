// The record's settings, one table written like the backfill's: when it is on (a remote-write URL), the store it
// reads (a query URL), the labels of the exporter's series there, how far back and how often; then the backfill's
// remote-write credentials for writing and the same kinds for querying. The exporter's own settings (the API,
// --measurements.*) are not repeated: the record reads what the readings collector reads.
import { z } from 'zod';
import { headerPair, type ListSettingSpec, labelPair, serviceUrl } from '../backfill/settings.js';
import { integerBetween } from '../config/setting-values.js';
import { durationSetting, type SettingSpec } from '../config/settings.js';

const setting = <T, const D extends string | undefined>(spec: SettingSpec<T, D>): SettingSpec<T, D> => spec;

const path = z.string().min(1, 'must not be empty');
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/**
 * A store's URL: the record adds its own paths (/api/v1/query…) and parameters, so a query or a fragment in it
 * would be lost or garble what is asked; refused rather than silently dropped.
 */
const storeUrl = (example: string, credentialFlags: string) =>
  serviceUrl(example, credentialFlags).refine((href) => !href.includes('?') && !href.includes('#'), {
    message: 'must not carry a query or a fragment',
  });

/** The record's settings: order is the order of --help. */
export const RECORD_SETTINGS = {
  remoteWriteUrl: setting({
    flag: 'record.remote-write.url',
    env: 'CITYAIR_RECORD_REMOTE_WRITE_URL',
    default: undefined,
    help: 'Turns the record on: rows the store lacks are read from CityAir and written here with Prometheus remote write 1.0 (Prometheus with its receiver on, VictoriaMetrics, Mimir, Thanos Receive, Cortex). Needs the readings collector and --record.query.url.',
    schema: storeUrl(
      'http://prometheus:9090/api/v1/write',
      '--record.remote-write.username and --record.remote-write.password-file',
    ),
  }),
  queryUrl: setting({
    flag: 'record.query.url',
    env: 'CITYAIR_RECORD_QUERY_URL',
    default: undefined,
    help: 'The Prometheus-compatible query API of the same store (Prometheus, VictoriaMetrics, Thanos Query, Mimir), e.g. http://prometheus:9090: where the record looks for the rows it holds.',
    schema: storeUrl('http://prometheus:9090', '--record.query.username and --record.query.password-file'),
  }),
  lookback: durationSetting({
    flag: 'record.lookback',
    env: 'CITYAIR_RECORD_LOOKBACK',
    default: '48h',
    help: 'How far back gaps are looked for and filled (a Prometheus store needs an out_of_order_time_window at least this long).',
    range: [60 * MINUTE, 31 * DAY],
  }),
  interval: durationSetting({
    flag: 'record.interval',
    env: 'CITYAIR_RECORD_INTERVAL',
    default: '15m',
    help: 'How often a round runs.',
    range: [MINUTE, DAY],
  }),
  remoteWriteUsername: setting({
    flag: 'record.remote-write.username',
    env: 'CITYAIR_RECORD_REMOTE_WRITE_USERNAME',
    default: undefined,
    help: 'Basic auth user name for the record’s remote write (with --record.remote-write.password-file).',
    schema: z.string().min(1, 'must not be empty'),
  }),
  remoteWritePasswordFile: setting({
    flag: 'record.remote-write.password-file',
    env: 'CITYAIR_RECORD_REMOTE_WRITE_PASSWORD_FILE',
    default: undefined,
    help: 'File holding the basic auth password for the record’s remote write.',
    schema: path,
  }),
  remoteWriteBearerTokenFile: setting({
    flag: 'record.remote-write.bearer-token-file',
    env: 'CITYAIR_RECORD_REMOTE_WRITE_BEARER_TOKEN_FILE',
    default: undefined,
    help: 'File holding a bearer token for the record’s remote write.',
    schema: path,
  }),
  remoteWriteCaFile: setting({
    flag: 'record.remote-write.ca-file',
    env: 'CITYAIR_RECORD_REMOTE_WRITE_CA_FILE',
    default: undefined,
    help: 'PEM file of extra CA certificates to trust for the record’s remote-write URL.',
    schema: path,
  }),
  remoteWriteTimeout: durationSetting({
    flag: 'record.remote-write.timeout',
    env: 'CITYAIR_RECORD_REMOTE_WRITE_TIMEOUT',
    default: '30s',
    help: 'Deadline of one remote-write request of the record.',
    range: [1000, 3_600_000],
  }),
  remoteWriteBatch: setting({
    flag: 'record.remote-write.max-samples-per-send',
    env: 'CITYAIR_RECORD_REMOTE_WRITE_MAX_SAMPLES_PER_SEND',
    default: '10000',
    help: 'Samples per remote-write request of the record at most (100 to 100000).',
    schema: integerBetween(100, 100_000),
  }),
  queryUsername: setting({
    flag: 'record.query.username',
    env: 'CITYAIR_RECORD_QUERY_USERNAME',
    default: undefined,
    help: 'Basic auth user name for the store’s query API (with --record.query.password-file).',
    schema: z.string().min(1, 'must not be empty'),
  }),
  queryPasswordFile: setting({
    flag: 'record.query.password-file',
    env: 'CITYAIR_RECORD_QUERY_PASSWORD_FILE',
    default: undefined,
    help: 'File holding the basic auth password for the store’s query API.',
    schema: path,
  }),
  queryBearerTokenFile: setting({
    flag: 'record.query.bearer-token-file',
    env: 'CITYAIR_RECORD_QUERY_BEARER_TOKEN_FILE',
    default: undefined,
    help: 'File holding a bearer token for the store’s query API.',
    schema: path,
  }),
  queryCaFile: setting({
    flag: 'record.query.ca-file',
    env: 'CITYAIR_RECORD_QUERY_CA_FILE',
    default: undefined,
    help: 'PEM file of extra CA certificates to trust for the query URL.',
    schema: path,
  }),
  queryTimeout: durationSetting({
    flag: 'record.query.timeout',
    env: 'CITYAIR_RECORD_QUERY_TIMEOUT',
    default: '1m',
    help: 'Deadline of one store query of the record.',
    range: [1000, 3_600_000],
  }),
} as const;

/** Flags that may repeat. */
export const RECORD_LISTS = {
  labels: {
    flag: 'record.label',
    help: 'name=value the store’s copy of this exporter’s series carries (repeatable: job, instance, …): used to find them and to write.',
    item: labelPair,
  } satisfies ListSettingSpec<readonly [string, string]>,
  remoteWriteHeaders: {
    flag: 'record.remote-write.header',
    help: '"Name: value" header sent with every remote-write request of the record (repeatable).',
    item: headerPair,
  } satisfies ListSettingSpec<readonly [string, string]>,
  queryHeaders: {
    flag: 'record.query.header',
    help: '"Name: value" header sent with every store query of the record (repeatable).',
    item: headerPair,
  } satisfies ListSettingSpec<readonly [string, string]>,
} as const;
