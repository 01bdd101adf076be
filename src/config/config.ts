// Turns argv and the environment into the exporter's Config through the settings table, and writes --help from
// the same table.
import { parseArgs } from 'node:util';
import { Secret } from './secret.js';
import { READINGS_INTERVAL_MS, type ReadingsInterval } from './setting-values.js';
import { type Parsed, SETTINGS, type SettingName, type SettingSpec } from './settings.js';
import { readSmallFile, SmallFileError } from './small-file.js';
import { formatDuration } from './units.js';

export { READINGS_INTERVAL_MS, READINGS_INTERVALS, type ReadingsInterval } from './setting-values.js';
export { POSTS_PATH, SETTINGS } from './settings.js';

export type LogLevel = Parsed['logLevel'];
export type LogFormat = Parsed['logFormat'];

export interface Config {
  readonly upstream: {
    readonly baseUrl: string;
    readonly apiKey: Secret | undefined;
    readonly timeoutMs: number;
    readonly minIntervalMs: number;
    readonly refreshIntervalMs: number;
    readonly maxAgeMs: number;
    /** The backoff after failures never exceeds this; a Retry-After may still ask for longer (up to 1h). */
    readonly maxBackoffMs: number;
    readonly maxBodyBytes: number;
    /** A station list of more elements is refused. */
    readonly maxStations: number;
    /** Extra CA certificates (PEM) to trust for the API. */
    readonly caFile: string | undefined;
    readonly insecureSkipVerify: boolean;
  };
  readonly demo: boolean;
  /** The readings collector (the stations' latest measurements); off unless asked for or in demo mode. */
  readonly readings: {
    readonly enabled: boolean;
    readonly interval: ReadingsInterval;
    readonly refreshIntervalMs: number;
    readonly maxAgeMs: number;
    /** Station ids to read; undefined means every station of the list. */
    readonly stations: readonly number[] | undefined;
    readonly concurrency: number;
    /** Cap on one readings answer's body. */
    readonly maxBodyBytes: number;
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

/** A configuration problem; main turns it into one line on stderr and exit status 2. */
export class ConfigError extends Error {}

export type CliAction =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'run'; config: Config; warnings: string[] };

const where = (s: SettingSpec<unknown>): string => (s.flag ? `--${s.flag} (${s.env})` : s.env);

export type Flags = Readonly<Record<string, string | boolean | undefined>>;

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
export function readSetting<T>(
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
  const booleans = new Set<string>();
  for (const spec of Object.values(SETTINGS) as SettingSpec<unknown>[]) {
    if (!spec.flag) continue;
    // A boolean flag is a string option underneath, so that --demo=false works as CITYAIR_DEMO=false does.
    options[spec.flag] = { type: 'string' };
    if (spec.boolean) booleans.add(spec.flag);
  }
  try {
    return parseArgs({
      args: withBareBooleansTrue(argv, booleans),
      options,
      strict: true,
      allowPositionals: false,
    }).values as Record<string, string | boolean | undefined>;
  } catch (error) {
    throw new ConfigError(`${(error as Error).message.split('\n')[0]} (see --help)`);
  }
}

/** `--demo` alone means `--demo=true`; what follows `--` is left as it is (and refused as a positional). */
function withBareBooleansTrue(argv: readonly string[], booleans: ReadonlySet<string>): string[] {
  const end = argv.indexOf('--');
  return argv.map((arg, i) =>
    (end === -1 || i < end) && arg.startsWith('--') && booleans.has(arg.slice(2)) ? `${arg}=true` : arg,
  );
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
  if (p.readings && p.readingsRefreshInterval >= p.readingsMaxAge) {
    warnings.push(
      `--measurements.refresh-interval (${formatDuration(p.readingsRefreshInterval)}) is not below --measurements.max-age (${formatDuration(p.readingsMaxAge)}): readings will expire between rounds`,
    );
  }
  const intervalMs = READINGS_INTERVAL_MS[p.readingsInterval];
  if (p.readings && p.readingsMaxAge <= intervalMs) {
    // A row averages a whole interval and is dated at its start or end: with max-age at or below the interval,
    // most rows are already too old when they arrive, and stations show no readings at all.
    warnings.push(
      `--measurements.max-age (${formatDuration(p.readingsMaxAge)}) is not above --measurements.interval (${p.readingsInterval}): most readings will be too old to export`,
    );
  }
  return {
    kind: 'run',
    warnings,
    config: {
      upstream: {
        baseUrl: p.url,
        apiKey,
        timeoutMs: p.timeout,
        minIntervalMs: p.minInterval,
        refreshIntervalMs: p.refreshInterval,
        maxAgeMs: p.maxAge,
        maxBackoffMs: p.maxBackoff,
        maxBodyBytes: p.maxBodySize,
        maxStations: p.maxStations,
        caFile: p.caFile,
        insecureSkipVerify: p.insecureSkipVerify,
      },
      demo: p.demo,
      readings: {
        enabled: p.readings,
        interval: p.readingsInterval,
        refreshIntervalMs: p.readingsRefreshInterval,
        maxAgeMs: p.readingsMaxAge,
        stations: p.readingsStations,
        concurrency: p.readingsConcurrency,
        maxBodyBytes: p.readingsMaxBodySize,
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

/** A key is a few dozen characters; a file much larger than one is the wrong file. */
const MAX_KEY_FILE_BYTES = 4096;
/**
 * Issued tokens carry 128 bits or more (32 hex or 22 base64 characters); 16 printable characters is already below
 * that, so a shorter key is a paste cut short or a placeholder. It also keeps redaction meaningful: a key that
 * short would match ordinary words in the logs.
 */
const MIN_KEY_CHARS = 16;

export function readApiKey(file: string | undefined, inline: string | undefined): Secret {
  if (file !== undefined && inline !== undefined && inline !== '') {
    throw new ConfigError(
      'set only one of --upstream.api-key-file (CITYAIR_API_KEY_FILE) and CITYAIR_API_KEY',
    );
  }
  let key = inline?.trim();
  if (file !== undefined) {
    try {
      key = readSmallFile(file, MAX_KEY_FILE_BYTES).toString('utf8').trim();
    } catch (error) {
      if (!(error instanceof SmallFileError)) throw error;
      throw new ConfigError(
        `invalid --upstream.api-key-file (CITYAIR_API_KEY_FILE): cannot read ${file} (${error.message})`,
      );
    }
  }
  if (!key) throw new ConfigError(KEY_HELP);
  // The key goes into a header: anything outside visible ASCII would corrupt or split it.
  if (!/^[\x21-\x7e]+$/.test(key)) {
    throw new ConfigError('the API key contains spaces or characters that cannot go into an HTTP header');
  }
  if (key.length < MIN_KEY_CHARS) {
    throw new ConfigError(
      `the API key is too short to be real (${key.length} of at least ${MIN_KEY_CHARS} characters): was all of it copied?`,
    );
  }
  return new Secret(key);
}

/** How --help shows a duration's range: empty for other settings. */
function rangeText(s: SettingSpec<unknown>): string {
  if (s.range === undefined) return '';
  const [min, max] = s.range;
  return min === 0
    ? ` At most ${formatDuration(max)}.`
    : ` From ${formatDuration(min)} to ${formatDuration(max)}.`;
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
    '       cityair-exporter backfill --from=30d (--output=FILE | --remote-write.url=URL) [flags]: past readings',
    '       (cityair-exporter backfill --help lists its flags)',
    '',
    'Every setting is a flag or an environment variable; the flag wins. Durations use Prometheus notation. A boolean',
    'flag alone means true; --flag=false (or 0, no, off) turns it off, as in its variable.',
    '',
    ...specs.map((s) => row(name(s), s.env, `${s.help}${rangeText(s)}${defaultText(s)}`)),
    row('--help', '', 'Show this help and exit.'),
    row('--version', '', 'Show the version and exit.'),
    '',
  ].join('\n');
}
