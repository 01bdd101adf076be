// The settings of `cityair-exporter report`, in one table written like the backfill's: the period as the backfill
// reads it, the store and its credentials as the backfill's remote write takes them, the selection and the output.
import { z } from 'zod';
import { headerPair, labelPair, serviceUrl } from '../backfill/settings.js';
import { timeSpec } from '../backfill/time-spec.js';
import type { ListSettingSpec } from '../config/command-line.js';
import { oneOf, stationIds } from '../config/setting-values.js';
import { durationSetting, HOUR, SECOND, setting } from '../config/settings.js';

const path = z.string().min(1, 'must not be empty');

export const REPORT_FORMATS = ['html', 'csv', 'json'] as const;
export const REPORT_LANGUAGES = ['ru', 'en'] as const;

/** The report's own settings: order is the order of `report --help`. */
export const REPORT_SETTINGS = {
  from: setting({
    flag: 'from',
    env: 'CITYAIR_REPORT_FROM',
    default: undefined,
    help: 'Start of the period (required): an RFC 3339 time (2026-10-01T00:00:00+03:00; its offset sets the report’s days and clock) or a duration before now (30d).',
    schema: timeSpec,
  }),
  to: setting({
    flag: 'to',
    env: 'CITYAIR_REPORT_TO',
    default: undefined,
    help: 'End of the period, excluded; same forms as --from. Unset: now.',
    schema: timeSpec,
  }),
  storeUrl: setting({
    flag: 'store.url',
    env: 'CITYAIR_REPORT_STORE_URL',
    default: undefined,
    help: 'The Prometheus-compatible query API holding the readings (required): Prometheus, VictoriaMetrics, Thanos Query, Mimir, e.g. http://prometheus:9090.',
    schema: serviceUrl('http://prometheus:9090', '--store.username and --store.password-file'),
  }),
  storeUsername: setting({
    flag: 'store.username',
    env: 'CITYAIR_REPORT_STORE_USERNAME',
    default: undefined,
    help: 'Basic auth user name for the store (with --store.password-file).',
    schema: z.string().min(1, 'must not be empty'),
  }),
  storePasswordFile: setting({
    flag: 'store.password-file',
    env: 'CITYAIR_REPORT_STORE_PASSWORD_FILE',
    default: undefined,
    help: 'File holding the basic auth password for the store.',
    schema: path,
  }),
  storeBearerTokenFile: setting({
    flag: 'store.bearer-token-file',
    env: 'CITYAIR_REPORT_STORE_BEARER_TOKEN_FILE',
    default: undefined,
    help: 'File holding a bearer token for the store.',
    schema: path,
  }),
  storeCaFile: setting({
    flag: 'store.ca-file',
    env: 'CITYAIR_REPORT_STORE_CA_FILE',
    default: undefined,
    help: 'PEM file of extra CA certificates to trust for the store URL.',
    schema: path,
  }),
  storeTimeout: durationSetting({
    flag: 'store.timeout',
    env: 'CITYAIR_REPORT_STORE_TIMEOUT',
    default: '2m',
    help: 'Deadline of one store query.',
    range: [SECOND, HOUR],
  }),
  stations: setting({
    flag: 'stations',
    env: 'CITYAIR_REPORT_STATIONS',
    default: undefined,
    help: 'Comma-separated station ids to report on. Unset: every station with readings in the store.',
    schema: stationIds,
  }),
  output: setting({
    flag: 'output',
    env: 'CITYAIR_REPORT_OUTPUT',
    default: '-',
    help: 'File to write the report to, or - for standard output.',
    schema: path,
  }),
  format: setting({
    flag: 'format',
    env: 'CITYAIR_REPORT_FORMAT',
    default: 'html',
    help: 'html (one self-contained page), csv (one row per station and substance) or json.',
    schema: oneOf(REPORT_FORMATS, 'a report format'),
  }),
  lang: setting({
    flag: 'lang',
    env: 'CITYAIR_REPORT_LANG',
    default: 'ru',
    help: 'ru (the terms of Roshydromet’s reviews, decimal comma) or en.',
    schema: oneOf(REPORT_LANGUAGES, 'a language'),
  }),
} as const;

/** Flags that may repeat. */
export const REPORT_LISTS = {
  labels: {
    flag: 'label',
    help: 'name=value the exporter’s series carry in the store (repeatable), e.g. --label job=cityair --label instance=exporter:9610.',
    item: labelPair,
  } satisfies ListSettingSpec<readonly [string, string]>,
  headers: {
    flag: 'store.header',
    help: '"Name: value" header sent with every store query (repeatable), e.g. X-Scope-OrgID: air.',
    item: headerPair,
  } satisfies ListSettingSpec<readonly [string, string]>,
} as const;
