// The engine's part of every command's configuration: how to reach the API, how to serve, how to log, each
// assembled once from its settings and read the same way by the exporter, the backfill and later commands. The
// exporter's whole configuration adds each source's part to this (src/cli.ts, over the registry in sources.ts).
import { ConfigError, readSetting } from './command-line.js';
import { MAX_KEY_FILE_BYTES } from './known-key.js';
import { Secret } from './secret.js';
import type { ReadingsInterval } from './setting-values.js';
import { type Parsed, UPSTREAM_SETTINGS } from './settings.js';
import { readSmallFile, SmallFileError } from './small-file.js';
import { formatDuration } from './units.js';

export { ConfigError, type Flags, readSetting } from './command-line.js';
export { READINGS_INTERVAL_MS, READINGS_INTERVALS, type ReadingsInterval } from './setting-values.js';
export { STATIONS_PATH } from './settings.js';

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

/** How every command asks for readings (the readings slice's settings.ts reads it). */
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

/** The exporter's configuration without the sources' parts. */
export interface EngineConfig {
  readonly upstream: UpstreamConfig & {
    readonly minIntervalMs: number;
    readonly refreshIntervalMs: number;
    readonly maxAgeMs: number;
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
  readonly log: LogConfig;
}

/** Read first, by every command: the default of some settings depends on it. */
export const demoOf = (
  flags: Readonly<Record<string, string | boolean | undefined>>,
  env: NodeJS.ProcessEnv,
) => readSetting(UPSTREAM_SETTINGS.demo, flags, env, false) === true;

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

export const logConfig = (p: Pick<Parsed, 'logLevel' | 'logFormat'>): LogConfig => ({
  level: p.logLevel,
  format: p.logFormat,
});

/** The one warning every command gives for an unverified API. */
export const INSECURE_WARNING =
  '--upstream.insecure-skip-verify is on: the TLS certificate of the API is not checked, so anyone in the path can read the API key';

/** The engine's part of the exporter's configuration. */
export function engineConfig(p: Parsed): EngineConfig {
  return {
    upstream: {
      ...upstreamConfig(p),
      minIntervalMs: p.minInterval,
      refreshIntervalMs: p.refreshInterval,
      maxAgeMs: p.maxAge,
    },
    demo: p.demo,
    web: {
      host: p.listenAddress.host,
      port: p.listenAddress.port,
      telemetryPath: p.telemetryPath,
      configFile: p.webConfigFile,
      timeoutOffsetMs: p.timeoutOffset,
    },
    log: logConfig(p),
  };
}

/** The warnings of the upstream settings, the same in every command that reads the API. */
export const upstreamWarnings = (u: Pick<UpstreamConfig, 'insecureSkipVerify'>): string[] =>
  u.insecureSkipVerify ? [INSECURE_WARNING] : [];

/** Settings the exporter runs with but that an operator most likely did not mean. */
export function engineWarnings(c: EngineConfig): string[] {
  const warnings = upstreamWarnings(c.upstream);
  const { refreshIntervalMs: every, maxAgeMs } = c.upstream;
  if (every > 0 && every >= maxAgeMs) {
    warnings.push(
      `--upstream.refresh-interval (${formatDuration(every)}) is not below --upstream.max-age (${formatDuration(maxAgeMs)}): data will expire between refreshes`,
    );
  }
  return warnings;
}

const KEY_HELP =
  'an API key is required: create one in your CityAir personal account (Settings → API access keys), then put it in a file named by --upstream.api-key-file (CITYAIR_API_KEY_FILE) or in CITYAIR_API_KEY; or try --demo';

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
      // The path is not echoed: the key itself given in its place would be printed.
      throw new ConfigError(
        `invalid --upstream.api-key-file (CITYAIR_API_KEY_FILE): cannot read the file it names (${error.message})`,
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
