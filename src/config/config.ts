// Turns argv and the environment into the exporter's Config through the settings table, and writes --help from
// the same table; the command line itself (flags, environment, errors) is command-line.ts, shared by every command.
import {
  BOOLEAN_NOTE,
  type CommandLine,
  ConfigError,
  readFlags,
  readSetting,
  readSettings,
  renderHelp,
} from './command-line.js';
import { Secret } from './secret.js';
import { READINGS_INTERVAL_MS, type ReadingsInterval } from './setting-values.js';
import { type Parsed, SETTINGS, type SettingSpec } from './settings.js';
import { readSmallFile, SmallFileError } from './small-file.js';
import { formatDuration } from './units.js';

export { ConfigError, type Flags, readSetting } from './command-line.js';
export { READINGS_INTERVAL_MS, READINGS_INTERVALS, type ReadingsInterval } from './setting-values.js';
export { POSTS_PATH, SETTINGS } from './settings.js';

export type LogLevel = Parsed['logLevel'];
export type LogFormat = Parsed['logFormat'];

/** How every command reaches the API: the settings the exporter, the backfill (and later commands) share. */
export interface UpstreamConfig {
  readonly baseUrl: string;
  readonly apiKey: Secret | undefined;
  readonly timeoutMs: number;
  /** The backoff after failures never exceeds this; a Retry-After may still ask for longer (up to 1h). */
  readonly maxBackoffMs: number;
  readonly maxBodyBytes: number;
  /** A station list of more elements is refused. */
  readonly maxStations: number;
  /** Extra CA certificates (PEM) to trust for the API. */
  readonly caFile: string | undefined;
  readonly insecureSkipVerify: boolean;
}

/** How every command asks for readings. */
export interface ReadingsRequestConfig {
  readonly interval: ReadingsInterval;
  /** Station ids to read; undefined means every station of the list. */
  readonly stations: readonly number[] | undefined;
  readonly concurrency: number;
  /** Cap on one readings answer's body. */
  readonly maxBodyBytes: number;
}

export interface LogConfig {
  readonly level: LogLevel;
  readonly format: LogFormat;
}

export interface Config {
  readonly upstream: UpstreamConfig & {
    readonly minIntervalMs: number;
    readonly refreshIntervalMs: number;
    readonly maxAgeMs: number;
  };
  readonly demo: boolean;
  /** The readings collector (the stations' latest readings); off unless asked for or in demo mode. */
  readonly readings: ReadingsRequestConfig & {
    readonly enabled: boolean;
    readonly refreshIntervalMs: number;
    readonly maxAgeMs: number;
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
  readonly log: LogConfig;
}

export type CliAction =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'run'; config: Config; warnings: string[] };

/** The exporter's command line: every setting of the table, --help and --version. */
export const EXPORTER_COMMAND_LINE: CommandLine = {
  specs: Object.values(SETTINGS) as SettingSpec<unknown>[],
  version: true,
};

export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv): CliAction {
  const { flags } = readFlags(argv, EXPORTER_COMMAND_LINE);
  if (flags.help === true) return { kind: 'help' };
  if (flags.version === true) return { kind: 'version' };
  // Sound because readSetting never returns undefined for a setting with a default (what Parsed assumes).
  return assemble(readSettings(SETTINGS, flags, env, demoOf(flags, env)) as Parsed);
}

/** Read first, by every command: the default of some settings depends on it. */
export const demoOf = (
  flags: Readonly<Record<string, string | boolean | undefined>>,
  env: NodeJS.ProcessEnv,
) => readSetting(SETTINGS.demo, flags, env, false) === true;

/** The shared upstream settings, read the same way by every command (the key is not read with --demo). */
export function upstreamConfig(
  p: Pick<
    Parsed,
    | 'url'
    | 'apiKeyFile'
    | 'apiKey'
    | 'demo'
    | 'timeout'
    | 'maxBackoff'
    | 'maxBodySize'
    | 'maxStations'
    | 'caFile'
    | 'insecureSkipVerify'
  >,
): UpstreamConfig {
  return {
    baseUrl: p.url,
    apiKey: p.demo ? undefined : readApiKey(p.apiKeyFile, p.apiKey),
    timeoutMs: p.timeout,
    maxBackoffMs: p.maxBackoff,
    maxBodyBytes: p.maxBodySize,
    maxStations: p.maxStations,
    caFile: p.caFile,
    insecureSkipVerify: p.insecureSkipVerify,
  };
}

/** The shared readings request settings. */
export function readingsRequestConfig(
  p: Pick<Parsed, 'readingsInterval' | 'readingsStations' | 'readingsConcurrency' | 'readingsMaxBodySize'>,
): ReadingsRequestConfig {
  return {
    interval: p.readingsInterval,
    stations: p.readingsStations,
    concurrency: p.readingsConcurrency,
    maxBodyBytes: p.readingsMaxBodySize,
  };
}

export const logConfig = (p: Pick<Parsed, 'logLevel' | 'logFormat'>): LogConfig => ({
  level: p.logLevel,
  format: p.logFormat,
});

/** The one warning every command gives for an unverified API. */
export const INSECURE_WARNING =
  '--upstream.insecure-skip-verify is on: the TLS certificate of the API is not checked, so anyone in the path can read the API key';

function assemble(p: Parsed): CliAction {
  const warnings: string[] = [];
  if (p.insecureSkipVerify) warnings.push(INSECURE_WARNING);
  const upstream = upstreamConfig(p);
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
        ...upstream,
        minIntervalMs: p.minInterval,
        refreshIntervalMs: p.refreshInterval,
        maxAgeMs: p.maxAge,
      },
      demo: p.demo,
      readings: {
        ...readingsRequestConfig(p),
        enabled: p.readings,
        refreshIntervalMs: p.readingsRefreshInterval,
        maxAgeMs: p.readingsMaxAge,
      },
      web: {
        host: p.listenAddress.host,
        port: p.listenAddress.port,
        telemetryPath: p.telemetryPath,
        configFile: p.webConfigFile,
        timeoutOffsetMs: p.timeoutOffset,
      },
      log: logConfig(p),
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

export function helpText(version: string): string {
  return renderHelp({
    title: `cityair-exporter ${version}: Prometheus exporter for the CityAir station list and (opt-in) the stations' readings`,
    head: [
      'Usage: cityair-exporter [flags]',
      '       cityair-exporter backfill --from=30d (--output=FILE | --remote-write.url=URL) [flags]: past readings',
      '       (cityair-exporter backfill --help lists its flags)',
      '',
      ...BOOLEAN_NOTE,
    ],
    rows: EXPORTER_COMMAND_LINE.specs,
    version: true,
  });
}
