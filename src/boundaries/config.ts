// Every setting of the exporter: where it comes from (flag, env, default), how it is validated, how --help shows
// it. The table below is the public contract of the configuration.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { Secret } from './secret.js';
import { formatDuration, parseByteSize, parseDurationMs } from './units.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFormat = 'json' | 'logfmt';

/** The averaging intervals the readings endpoint offers. */
export const MEASUREMENT_INTERVALS = ['5m', '20m', '1h', '1d'] as const;
export type MeasurementInterval = (typeof MEASUREMENT_INTERVALS)[number];

export interface Config {
  readonly upstream: {
    readonly baseUrl: string;
    readonly postsUrl: string;
    readonly apiKey: Secret | undefined;
    readonly timeoutMs: number;
    readonly minIntervalMs: number;
    readonly refreshIntervalMs: number;
    readonly maxAgeMs: number;
    /** The backoff after failures never exceeds this; a Retry-After may still ask for longer (up to 1h). */
    readonly maxBackoffMs: number;
    readonly maxBodyBytes: number;
    /** Extra CA certificates (PEM) to trust for the API. */
    readonly caFile: string | undefined;
    readonly insecureSkipVerify: boolean;
  };
  readonly demo: boolean;
  /** The readings collector (the stations' latest measurements); off unless asked for or in demo mode. */
  readonly measurements: {
    readonly enabled: boolean;
    readonly interval: MeasurementInterval;
    readonly refreshIntervalMs: number;
    readonly maxAgeMs: number;
    /** Station ids to read; undefined means every station of the list. */
    readonly stations: readonly number[] | undefined;
    readonly concurrency: number;
  };
  readonly web: {
    readonly host: string | undefined;
    readonly port: number;
    readonly telemetryPath: string;
    /** exporter-toolkit web configuration (TLS, basic auth, headers). */
    readonly configFile: string | undefined;
    /** Subtracted from Prometheus' scrape timeout to leave time for the answer. */
    readonly timeoutOffsetMs: number;
  };
  readonly log: { readonly level: LogLevel; readonly format: LogFormat };
}

export const POSTS_PATH = '/harvester/v2/Posts';

// JSON quoting keeps an error one line even when the value holds a newline.
const quote = (text: string): string => JSON.stringify(text);

const duration = (min: number) =>
  z.string().transform((text, ctx) => {
    const ms = parseDurationMs(text.trim());
    if (ms === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `${quote(text)} is not a duration such as 500ms, 30s, 5m or 1h`,
      });
      return z.NEVER;
    }
    if (ms < min) {
      ctx.addIssue({ code: 'custom', message: `must be at least ${formatDuration(min)}` });
      return z.NEVER;
    }
    return ms;
  });

const byteSize = z.string().transform((text, ctx) => {
  const bytes = parseByteSize(text);
  if (bytes === undefined || bytes < 1024) {
    ctx.addIssue({
      code: 'custom',
      message: `${quote(text)} is not a size of at least 1KiB such as 512KiB or 64MiB`,
    });
    return z.NEVER;
  }
  return bytes;
});

const boolText = z
  .string()
  .transform((t) => t.trim().toLowerCase())
  .pipe(z.enum(['1', 'true', 'yes', 'on', '0', 'false', 'no', 'off', '']))
  .transform((t) => ['1', 'true', 'yes', 'on'].includes(t));

const baseUrl = z.string().transform((text, ctx) => {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    ctx.addIssue({
      code: 'custom',
      message: `${quote(text)} is not an absolute URL such as https://mycityair.ru`,
    });
    return z.NEVER;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    ctx.addIssue({ code: 'custom', message: 'must use http or https' });
    return z.NEVER;
  }
  if (url.username || url.password || url.search || url.hash) {
    ctx.addIssue({ code: 'custom', message: 'must not carry credentials, a query or a fragment' });
    return z.NEVER;
  }
  // Operators often paste the API path itself; accept it and keep only the base.
  const path = url.pathname.replace(/\/+$/, '').replace(/\/harvester\/v2(\/posts)?$/i, '');
  return `${url.origin}${path}`;
});

const listenAddress = z.string().transform((text, ctx) => {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(text.trim());
  const port = Number(match?.[3]);
  if (!match || port > 65535) {
    ctx.addIssue({ code: 'custom', message: `${quote(text)} is not host:port, :port or [ipv6]:port` });
    return z.NEVER;
  }
  const host = match[1] ?? match[2];
  return { host: host === '' ? undefined : host, port };
});

const measurementInterval = z.string().transform((text, ctx) => {
  const interval = MEASUREMENT_INTERVALS.find((i) => i === text.trim());
  if (interval === undefined) {
    ctx.addIssue({
      code: 'custom',
      message: `${quote(text)} is not an averaging interval of the API: ${MEASUREMENT_INTERVALS.join(', ')}`,
    });
    return z.NEVER;
  }
  return interval;
});

const integerBetween = (min: number, max: number) =>
  z.string().transform((text, ctx) => {
    const n = /^\d+$/.test(text.trim()) ? Number(text) : Number.NaN;
    if (!(n >= min && n <= max)) {
      ctx.addIssue({ code: 'custom', message: `${quote(text)} is not a whole number from ${min} to ${max}` });
      return z.NEVER;
    }
    return n;
  });

// Ids are later put into request paths, so only plain digits get through; duplicates would mean duplicate requests.
const stationIds = z.string().transform((text, ctx) => {
  const items = text.split(',').map((item) => item.trim());
  if (items.every((item) => item === '')) {
    ctx.addIssue({ code: 'custom', message: 'must list at least one station id, such as 101,102' });
    return z.NEVER;
  }
  const ids: number[] = [];
  for (const item of items) {
    const id = /^\d+$/.test(item) ? Number(item) : Number.NaN;
    if (!Number.isSafeInteger(id) || id < 1) {
      ctx.addIssue({
        code: 'custom',
        message: `${quote(item)} is not a station id (a positive whole number)`,
      });
      return z.NEVER;
    }
    ids.push(id);
  }
  return [...new Set(ids)];
});

const telemetryPath = z
  .string()
  .regex(/^\/[A-Za-z0-9._~\-/]*$/, 'must be a path starting with / (letters, digits, ._~-/)')
  .refine((p) => !['/', '/healthz', '/readyz'].includes(p), 'must not be /, /healthz or /readyz');

interface SettingSpec<T, D extends string | undefined = string | undefined> {
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
}

// `const D` keeps the literal default in the type, which is what tells Parsed whether a value is always present.
const setting = <T, const D extends string | undefined>(spec: SettingSpec<T, D>): SettingSpec<T, D> => spec;

/** The settings table: order is the order of --help. */
export const SETTINGS = {
  url: setting({
    flag: 'upstream.url',
    env: 'CITYAIR_BASE_URL',
    default: 'https://mycityair.ru',
    help: `Base URL of the CityAir API; ${POSTS_PATH} is appended.`,
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
  timeout: setting({
    flag: 'upstream.timeout',
    env: 'CITYAIR_TIMEOUT',
    default: '8s',
    help: 'Deadline of one upstream request: connect, headers and body.',
    schema: duration(1),
  }),
  minInterval: setting({
    flag: 'upstream.min-interval',
    env: 'CITYAIR_MIN_INTERVAL',
    default: '30s',
    help: 'Scrapes within this age of the last refresh reuse it instead of calling the API.',
    schema: duration(0),
  }),
  refreshInterval: setting({
    flag: 'upstream.refresh-interval',
    env: 'CITYAIR_REFRESH_INTERVAL',
    default: '0s',
    help: 'Above 0: refresh in the background at this interval and answer scrapes from memory.',
    schema: duration(0),
  }),
  maxAge: setting({
    flag: 'upstream.max-age',
    env: 'CITYAIR_MAX_AGE',
    default: '10m',
    help: 'Data older than this is not served: station series vanish and /readyz fails.',
    schema: duration(1000),
  }),
  maxBackoff: setting({
    flag: 'upstream.max-backoff',
    env: 'CITYAIR_MAX_BACKOFF',
    default: '1m',
    help: 'The wait after failures doubles up to this (a Retry-After is still honoured up to 1h).',
    schema: duration(1000),
  }),
  maxBodySize: setting({
    flag: 'upstream.max-body-size',
    env: 'CITYAIR_MAX_BODY_SIZE',
    default: '64MiB',
    help: 'Cap on the decompressed upstream body (512KiB, 64MiB, or bytes).',
    schema: byteSize,
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
  measurements: setting({
    flag: 'collector.measurements',
    env: 'CITYAIR_MEASUREMENTS',
    default: 'false',
    demoDefault: 'true',
    help: "Read the stations' latest readings (concentrations, AQI, weather) from an undocumented endpoint.",
    schema: boolText,
    boolean: true,
  }),
  measurementsInterval: setting({
    flag: 'measurements.interval',
    env: 'CITYAIR_MEASUREMENTS_INTERVAL',
    default: '5m',
    help: `Averaging interval asked of the API: ${MEASUREMENT_INTERVALS.join(', ')}.`,
    schema: measurementInterval,
  }),
  measurementsRefreshInterval: setting({
    flag: 'measurements.refresh-interval',
    env: 'CITYAIR_MEASUREMENTS_REFRESH_INTERVAL',
    default: '5m',
    help: 'How often a round of readings requests runs (at least 1m).',
    schema: duration(60_000),
  }),
  measurementsMaxAge: setting({
    flag: 'measurements.max-age',
    env: 'CITYAIR_MEASUREMENTS_MAX_AGE',
    default: '30m',
    help: 'A station whose newest row is older than this has no reading series.',
    schema: duration(1000),
  }),
  measurementsStations: setting({
    flag: 'measurements.stations',
    env: 'CITYAIR_MEASUREMENTS_STATIONS',
    default: undefined,
    help: 'Comma-separated station ids to read; others are not requested. Unset: every station of the list.',
    schema: stationIds,
  }),
  measurementsConcurrency: setting({
    flag: 'measurements.concurrency',
    env: 'CITYAIR_MEASUREMENTS_CONCURRENCY',
    default: '2',
    help: 'Readings requests in flight at most (1 to 16).',
    schema: integerBetween(1, 16),
  }),
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
  timeoutOffset: setting({
    flag: 'web.timeout-offset',
    env: 'CITYAIR_TIMEOUT_OFFSET',
    default: '500ms',
    help: "Subtracted from Prometheus' X-Prometheus-Scrape-Timeout-Seconds to get a scrape's deadline.",
    schema: duration(0),
  }),
  logLevel: setting({
    flag: 'log.level',
    env: 'CITYAIR_LOG_LEVEL',
    default: 'info',
    help: 'Log level: debug, info, warn or error.',
    schema: z.enum(['debug', 'info', 'warn', 'error']),
  }),
  logFormat: setting({
    flag: 'log.format',
    env: 'CITYAIR_LOG_FORMAT',
    default: 'json',
    help: 'Log format: json, or logfmt for people reading a terminal.',
    schema: z.enum(['json', 'logfmt']),
  }),
} as const;

type Settings = typeof SETTINGS;
type SettingName = keyof Settings;
/** What parseCli hands to assemble: T where the table has a default, T | undefined where it has none. */
type Parsed = {
  readonly [K in SettingName]: Settings[K] extends SettingSpec<infer T, infer D>
    ? D extends string
      ? T
      : T | undefined
    : never;
};

/** A configuration problem; main turns it into one line on stderr and exit status 2. */
export class ConfigError extends Error {}

export type CliAction =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'run'; config: Config; warnings: string[] };

const where = (s: SettingSpec<unknown>): string => (s.flag ? `--${s.flag} (${s.env})` : s.env);

type Flags = Readonly<Record<string, string | boolean | undefined>>;

export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv): CliAction {
  const flags = readFlags(argv);
  if (flags.help === true) return { kind: 'help' };
  if (flags.version === true) return { kind: 'version' };
  // Read first: the default of some settings depends on it.
  const demo = readSetting(SETTINGS.demo, flags, env, false) === true;
  const parsed: Partial<Record<SettingName, unknown>> = {};
  for (const name of Object.keys(SETTINGS) as SettingName[]) {
    parsed[name] = readSetting<unknown>(SETTINGS[name], flags, env, demo);
  }
  // Sound because readSetting never returns undefined for a setting with a default (what Parsed assumes).
  return assemble(parsed as Parsed);
}

/** The flag, else the environment, else the table's default; parsed, or a ConfigError naming the setting. */
function readSetting<T>(
  spec: SettingSpec<T>,
  flags: Flags,
  env: NodeJS.ProcessEnv,
  demo: boolean,
): T | undefined {
  const flagValue = spec.flag ? flags[spec.flag] : undefined;
  const fallback = demo && spec.demoDefault !== undefined ? spec.demoDefault : spec.default;
  const raw = flagValue === undefined ? (env[spec.env] ?? fallback) : String(flagValue);
  if (raw === undefined) return undefined;
  const result = spec.schema.safeParse(raw);
  if (!result.success) {
    throw new ConfigError(`invalid ${where(spec)}: ${result.error.issues[0]?.message ?? 'invalid value'}`);
  }
  return result.data;
}

function readFlags(argv: readonly string[]): Record<string, string | boolean | undefined> {
  const options: Record<string, { type: 'string' | 'boolean' }> = {
    help: { type: 'boolean' },
    version: { type: 'boolean' },
  };
  for (const spec of Object.values(SETTINGS) as SettingSpec<unknown>[]) {
    if (spec.flag) options[spec.flag] = { type: spec.boolean ? 'boolean' : 'string' };
  }
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }).values as Record<
      string,
      string | boolean | undefined
    >;
  } catch (error) {
    throw new ConfigError(`${(error as Error).message.split('\n')[0]} (see --help)`);
  }
}

function assemble(p: Parsed): CliAction {
  const warnings: string[] = [];
  if (p.insecureSkipVerify) {
    warnings.push(
      '--upstream.insecure-skip-verify is on: the TLS certificate of the API is not checked, so anyone in the path can read the API key',
    );
  }
  const apiKey = p.demo ? undefined : readApiKey(p.apiKeyFile, p.apiKey);
  if (p.refreshInterval > 0 && p.refreshInterval >= p.maxAge) {
    warnings.push(
      `--upstream.refresh-interval (${formatDuration(p.refreshInterval)}) is not below --upstream.max-age (${formatDuration(p.maxAge)}): data will expire between refreshes`,
    );
  }
  if (p.measurements && p.measurementsRefreshInterval >= p.measurementsMaxAge) {
    warnings.push(
      `--measurements.refresh-interval (${formatDuration(p.measurementsRefreshInterval)}) is not below --measurements.max-age (${formatDuration(p.measurementsMaxAge)}): readings will expire between rounds`,
    );
  }
  return {
    kind: 'run',
    warnings,
    config: {
      upstream: {
        baseUrl: p.url,
        postsUrl: `${p.url}${POSTS_PATH}`,
        apiKey,
        timeoutMs: p.timeout,
        minIntervalMs: p.minInterval,
        refreshIntervalMs: p.refreshInterval,
        maxAgeMs: p.maxAge,
        maxBackoffMs: p.maxBackoff,
        maxBodyBytes: p.maxBodySize,
        caFile: p.caFile,
        insecureSkipVerify: p.insecureSkipVerify,
      },
      demo: p.demo,
      measurements: {
        enabled: p.measurements,
        interval: p.measurementsInterval,
        refreshIntervalMs: p.measurementsRefreshInterval,
        maxAgeMs: p.measurementsMaxAge,
        stations: p.measurementsStations,
        concurrency: p.measurementsConcurrency,
      },
      web: {
        host: p.listenAddress.host,
        port: p.listenAddress.port,
        telemetryPath: p.telemetryPath,
        configFile: p.webConfigFile,
        timeoutOffsetMs: p.timeoutOffset,
      },
      log: { level: p.logLevel, format: p.logFormat },
    },
  };
}

const KEY_HELP =
  'an API key is required: create one in your CityAir personal account (Settings → API access keys), then put it in a file named by --upstream.api-key-file (CITYAIR_API_KEY_FILE) or in CITYAIR_API_KEY; or try --demo';

function readApiKey(file: string | undefined, inline: string | undefined): Secret {
  if (file !== undefined && inline !== undefined && inline !== '') {
    throw new ConfigError(
      'set only one of --upstream.api-key-file (CITYAIR_API_KEY_FILE) and CITYAIR_API_KEY',
    );
  }
  let key = inline?.trim();
  if (file !== undefined) {
    try {
      key = readFileSync(file, 'utf8').trim();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
      throw new ConfigError(
        `invalid --upstream.api-key-file (CITYAIR_API_KEY_FILE): cannot read ${file} (${code})`,
      );
    }
  }
  if (!key) throw new ConfigError(KEY_HELP);
  // The key goes into a header: anything outside visible ASCII would corrupt or split it.
  if (!/^[\x21-\x7e]+$/.test(key)) {
    throw new ConfigError('the API key contains spaces or characters that cannot go into an HTTP header');
  }
  return new Secret(key);
}

/** How --help shows a default: empty when there is none. */
function defaultText(s: SettingSpec<unknown>): string {
  if (s.default === undefined) return '';
  const demo = s.demoDefault === undefined ? '' : `; ${s.demoDefault} with --demo`;
  return ` (default: ${s.default}${demo})`;
}

export function helpText(version: string): string {
  const specs = Object.values(SETTINGS) as SettingSpec<unknown>[];
  const name = (s: SettingSpec<unknown>): string => (s.flag ? `--${s.flag}` : '(env only)');
  const nameWidth = Math.max(...specs.map((s) => name(s).length), '--version'.length);
  const envWidth = Math.max(...specs.map((s) => s.env.length));
  const row = (left: string, env: string, help: string): string =>
    `  ${left.padEnd(nameWidth)}  ${env.padEnd(envWidth)}  ${help}`;
  return [
    `cityair-exporter ${version}: Prometheus exporter for the CityAir station list and (opt-in) the stations' readings`,
    '',
    'Usage: cityair-exporter [flags]',
    '',
    'Every setting is a flag or an environment variable; the flag wins. Durations use Prometheus notation.',
    '',
    ...specs.map((s) => row(name(s), s.env, `${s.help}${defaultText(s)}`)),
    row('--help', '', 'Show this help and exit.'),
    row('--version', '', 'Show the version and exit.'),
    '',
  ].join('\n');
}
