// Every setting of the exporter: where it comes from (flag, env, default), how it is validated, how --help shows
// it. The table below is the public contract of the configuration.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { Secret } from './secret.js';
import { formatDuration, parseByteSize, parseDurationMs } from './units.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFormat = 'json' | 'logfmt';

export interface Config {
  readonly upstream: {
    readonly baseUrl: string;
    readonly postsUrl: string;
    readonly apiKey: Secret | undefined;
    readonly timeoutMs: number;
    readonly minIntervalMs: number;
    readonly refreshIntervalMs: number;
    readonly maxAgeMs: number;
    readonly maxBodyBytes: number;
    /** Extra CA certificates (PEM) to trust for the API. */
    readonly caFile: string | undefined;
    readonly insecureSkipVerify: boolean;
  };
  readonly demo: boolean;
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

const duration = (min: number) =>
  z.string().transform((text, ctx) => {
    const ms = parseDurationMs(text.trim());
    if (ms === undefined) {
      ctx.addIssue({ code: 'custom', message: `"${text}" is not a duration such as 500ms, 30s, 5m or 1h` });
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
      message: `"${text}" is not a size of at least 1KiB such as 512KiB or 64MiB`,
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
      message: `"${text}" is not an absolute URL such as https://mycityair.ru`,
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
    ctx.addIssue({ code: 'custom', message: `"${text}" is not host:port, :port or [ipv6]:port` });
    return z.NEVER;
  }
  const host = match[1] ?? match[2];
  return { host: host === '' ? undefined : host, port };
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

export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv): CliAction {
  const flags = readFlags(argv);
  if (flags.help === true) return { kind: 'help' };
  if (flags.version === true) return { kind: 'version' };
  const parsed = {} as Record<SettingName, unknown>;
  for (const name of Object.keys(SETTINGS) as SettingName[]) {
    const spec: SettingSpec<unknown> = SETTINGS[name];
    const flagValue = spec.flag ? flags[spec.flag] : undefined;
    const raw = flagValue === undefined ? (env[spec.env] ?? spec.default) : String(flagValue);
    if (raw === undefined) continue;
    const result = spec.schema.safeParse(raw);
    if (!result.success) {
      throw new ConfigError(`invalid ${where(spec)}: ${result.error.issues[0]?.message ?? 'invalid value'}`);
    }
    parsed[name] = result.data;
  }
  return assemble(parsed as Parsed);
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
        maxBodyBytes: p.maxBodySize,
        caFile: p.caFile,
        insecureSkipVerify: p.insecureSkipVerify,
      },
      demo: p.demo,
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

export function helpText(version: string): string {
  const rows = (Object.values(SETTINGS) as SettingSpec<unknown>[]).map((s) => {
    const name = s.flag ? `--${s.flag}` : '(env only)';
    const dflt = s.default === undefined ? '' : ` (default: ${s.default})`;
    return `  ${name.padEnd(32)} ${s.env.padEnd(29)} ${s.help}${dflt}`;
  });
  return [
    `cityair-exporter ${version}: Prometheus exporter for the CityAir station list`,
    '',
    'Usage: cityair-exporter [flags]',
    '',
    'Every setting is a flag or an environment variable; the flag wins. Durations use Prometheus notation.',
    '',
    ...rows,
    `  ${'--help'.padEnd(32)} ${''.padEnd(29)} Show this help and exit.`,
    `  ${'--version'.padEnd(32)} ${''.padEnd(29)} Show the version and exit.`,
    '',
  ].join('\n');
}
