// The engine's settings tables and the shape of every setting: where it comes from (flag, environment, default),
// how its value is checked, and how --help shows it. The tables (these, each source's, each command's) are the
// public contract of the configuration, and the only place a default is written.
import { z } from 'zod';
import {
  baseUrl,
  boolText,
  byteSize,
  type DurationRange,
  duration,
  integerBetween,
  listenAddress,
  oneOf,
  telemetryPath,
} from './setting-values.js';

export const STATIONS_PATH = '/harvester/v2/Posts';

export interface SettingSpec<T, D extends string | undefined = string | undefined> {
  readonly flag: string | undefined;
  readonly env: string;
  /**
   * Parsed by `schema` like a given value. A string here makes the parsed value a non-optional T (see Parsed), so
   * the table is the only place a default is written.
   */
  readonly default: D;
  /** Replaces `default` when --demo is on, so the demo shows what an opt-in collector does. */
  readonly demoDefault?: string;
  readonly help: string;
  readonly schema: z.ZodType<T, string>;
  readonly boolean?: true;
  /** A duration's least and greatest value: checked by `schema`, shown by --help. */
  readonly range?: DurationRange;
}

// `const D` keeps the literal default in the type, which is what tells Parsed whether a value is always present.
export const setting = <T, const D extends string | undefined>(spec: SettingSpec<T, D>): SettingSpec<T, D> =>
  spec;

/** A duration: every one has a ceiling, well below the 24.8 days past which Node fires a timer at once. */
export const durationSetting = <const D extends string>(
  spec: Omit<SettingSpec<number, D>, 'schema'> & { readonly range: DurationRange },
): SettingSpec<number, D> => ({ ...spec, schema: duration(spec.range) });

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/**
 * The engine's settings, in three groups: how to reach the API (shared by every command), how to serve, how to
 * log. Each source adds its own between the first and the second (src/sources.ts); order is the order of --help.
 */
export const UPSTREAM_SETTINGS = {
  url: setting({
    flag: 'upstream.url',
    env: 'CITYAIR_BASE_URL',
    default: 'https://mycityair.ru',
    help: `Base URL of the CityAir API; ${STATIONS_PATH} is appended.`,
    schema: baseUrl,
  }),
  apiKeyFile: setting({
    flag: 'upstream.api-key-file',
    env: 'CITYAIR_API_KEY_FILE',
    default: undefined,
    help: 'File holding the API key (surrounding whitespace is trimmed).',
    schema: z.string().min(1, 'must not be empty'),
  }),
  apiKey: setting({
    flag: undefined,
    env: 'CITYAIR_API_KEY',
    default: undefined,
    help: 'The API key itself (environment only, so it never shows in a process list).',
    schema: z.string(),
  }),
  timeout: durationSetting({
    flag: 'upstream.timeout',
    env: 'CITYAIR_TIMEOUT',
    default: '8s',
    help: 'Deadline of one upstream request: connect, headers and body.',
    range: [1, 5 * MINUTE],
  }),
  minInterval: durationSetting({
    flag: 'upstream.min-interval',
    env: 'CITYAIR_MIN_INTERVAL',
    default: '30s',
    help: 'Scrapes within this age of the last refresh reuse it instead of calling the API.',
    range: [0, DAY],
  }),
  refreshInterval: durationSetting({
    flag: 'upstream.refresh-interval',
    env: 'CITYAIR_REFRESH_INTERVAL',
    default: '0s',
    help: 'Above 0: refresh in the background at this interval and answer scrapes from memory.',
    range: [0, DAY],
  }),
  maxAge: durationSetting({
    flag: 'upstream.max-age',
    env: 'CITYAIR_MAX_AGE',
    default: '10m',
    help: 'Data older than this is not served: station series vanish and /readyz fails.',
    range: [SECOND, 7 * DAY],
  }),
  maxBackoff: durationSetting({
    flag: 'upstream.max-backoff',
    env: 'CITYAIR_MAX_BACKOFF',
    default: '1m',
    help: 'The wait after failures doubles up to this (a Retry-After is still honoured up to 1h).',
    range: [SECOND, HOUR],
  }),
  maxBodySize: setting({
    flag: 'upstream.max-body-size',
    env: 'CITYAIR_MAX_BODY_SIZE',
    default: '64MiB',
    help: 'Cap on the decompressed body of the station list (512KiB, 64MiB, or bytes).',
    schema: byteSize,
  }),
  maxStations: setting({
    flag: 'upstream.max-stations',
    env: 'CITYAIR_MAX_STATIONS',
    default: '20000',
    help: 'A station list of more elements is refused (up to 1000000); the memory the exporter needs grows with it.',
    schema: integerBetween(1, 1_000_000),
  }),
  caFile: setting({
    flag: 'upstream.ca-file',
    env: 'CITYAIR_CA_FILE',
    default: undefined,
    help: 'PEM file of extra CA certificates to trust for the API (a private CA or TLS-inspecting proxy).',
    schema: z.string().min(1, 'must not be empty'),
  }),
  insecureSkipVerify: setting({
    flag: 'upstream.insecure-skip-verify',
    env: 'CITYAIR_INSECURE_SKIP_VERIFY',
    default: 'false',
    help: "Do not verify the API's TLS certificate. Unsafe: the API key can be stolen. Logs a warning.",
    schema: boolText,
    boolean: true,
  }),
  demo: setting({
    flag: 'demo',
    env: 'CITYAIR_DEMO',
    default: 'false',
    help: 'Serve the built-in simulated CityAir API instead of the real one; no key needed.',
    schema: boolText,
    boolean: true,
  }),
} as const;

export const WEB_SETTINGS = {
  listenAddress: setting({
    flag: 'web.listen-address',
    env: 'CITYAIR_LISTEN_ADDRESS',
    default: ':9610',
    help: 'Address to listen on: host:port, :port (all interfaces) or [ipv6]:port.',
    schema: listenAddress,
  }),
  telemetryPath: setting({
    flag: 'web.telemetry-path',
    env: 'CITYAIR_TELEMETRY_PATH',
    default: '/metrics',
    help: 'Path under which metrics are served.',
    schema: telemetryPath,
  }),
  webConfigFile: setting({
    flag: 'web.config.file',
    env: 'CITYAIR_WEB_CONFIG_FILE',
    default: undefined,
    help: 'Web configuration file (TLS, basic auth, headers) in the Prometheus exporter-toolkit format.',
    schema: z.string().min(1, 'must not be empty'),
  }),
  timeoutOffset: durationSetting({
    flag: 'web.timeout-offset',
    env: 'CITYAIR_TIMEOUT_OFFSET',
    default: '500ms',
    help: "Subtracted from Prometheus' X-Prometheus-Scrape-Timeout-Seconds to get a scrape's deadline.",
    range: [0, MINUTE],
  }),
} as const;

export const LOG_SETTINGS = {
  logLevel: setting({
    flag: 'log.level',
    env: 'CITYAIR_LOG_LEVEL',
    default: 'info',
    help: 'Log level: debug, info, warn or error.',
    schema: oneOf(['debug', 'info', 'warn', 'error'], 'a log level'),
  }),
  logFormat: setting({
    flag: 'log.format',
    env: 'CITYAIR_LOG_FORMAT',
    default: 'json',
    help: 'Log format: json, or logfmt for people reading a terminal.',
    schema: oneOf(['json', 'logfmt'], 'a log format'),
  }),
} as const;

/** What a table of settings reads as: T where the table has a default, T | undefined where it has none. */
export type ParsedOf<S> = {
  readonly [K in keyof S]: S[K] extends SettingSpec<infer T, infer D>
    ? D extends string
      ? T
      : T | undefined
    : never;
};

/** The engine's settings, read. */
export type Parsed = ParsedOf<typeof UPSTREAM_SETTINGS & typeof WEB_SETTINGS & typeof LOG_SETTINGS>;
