// The record's part of the configuration, from its settings as the exporter's one command line read them (its
// flags are in the exporter's table through the registry), or nothing when it is off. Every problem is a
// ConfigError (one line, exit 2), as everywhere.
import type { RemoteWriteTarget } from '../backfill/config.js';
import type { HttpTarget } from '../backfill/http-target.js';
import { readLabels } from '../backfill/settings.js';
import type { ConfigContext } from '../collector/entry.js';
import { type AnySpec, ConfigError, readableFile, readList } from '../config/command-line.js';
import type { ParsedOf } from '../config/settings.js';
import { RECORD_LISTS, RECORD_SETTINGS } from './settings.js';

export interface RecordConfig {
  readonly write: RemoteWriteTarget;
  readonly query: HttpTarget;
  readonly labels: readonly (readonly [string, string])[];
  readonly lookbackMs: number;
  readonly intervalMs: number;
}

/** What the record needs to know of the readings' settings to judge a combination. */
export interface RecordContext {
  readonly readingsEnabled: boolean;
  readonly maxAgeMs: number;
}

type Parsed = ParsedOf<typeof RECORD_SETTINGS>;
type Given = Pick<ConfigContext, 'flags' | 'lists'>;

const SPECS = Object.values(RECORD_SETTINGS) as AnySpec[];

/** The record's configuration, or undefined when no remote-write URL turns it on. */
export function recordConfig(parsed: Parsed, given: Given, context: RecordContext): RecordConfig | undefined {
  const r = parsed;
  const url = r.remoteWriteUrl;
  const list = (spec: { readonly flag: string }): string[] => given.lists[spec.flag] ?? [];
  if (url === undefined) {
    const keys = Object.keys(RECORD_SETTINGS) as (keyof Parsed)[];
    const stray = keys.find((k) => RECORD_SETTINGS[k].default === undefined && r[k] !== undefined);
    const repeated = Object.values(RECORD_LISTS).find((l) => list(l).length > 0);
    // A setting with a default (such as --record.lookback) given on the command line is refused too.
    const flag = SPECS.find((s) => s.flag !== undefined && given.flags[s.flag] !== undefined);
    const named = stray === undefined ? undefined : RECORD_SETTINGS[stray].flag;
    const first = named ?? repeated?.flag ?? flag?.flag;
    if (first !== undefined) throw new ConfigError(`--${first} needs --record.remote-write.url`);
    return undefined;
  }
  if (!context.readingsEnabled)
    throw new ConfigError(
      '--record.remote-write.url needs the readings collector: add --collector.measurements (CITYAIR_MEASUREMENTS=true)',
    );
  if (r.queryUrl === undefined)
    throw new ConfigError(
      '--record.remote-write.url needs --record.query.url: the query API of the same store, where the record sees what it holds',
    );
  if (r.lookback <= context.maxAgeMs)
    throw new ConfigError(
      '--record.lookback must be longer than --measurements.max-age: rows younger than max-age are the live readings’',
    );
  const labels = readLabels(RECORD_LISTS.labels, list(RECORD_LISTS.labels));
  return {
    write: {
      ...target(r, 'remote-write', url, list(RECORD_LISTS.remoteWriteHeaders)),
      kind: 'remote-write',
      maxSamplesPerSend: r.remoteWriteBatch,
    },
    query: target(r, 'query', r.queryUrl, list(RECORD_LISTS.queryHeaders)),
    labels,
    lookbackMs: r.lookback,
    intervalMs: r.interval,
  };
}

/** Valid but most likely not meant: without job and instance, the record's series are not the dashboards'. */
export function recordWarnings(config: RecordConfig): string[] {
  const names = config.labels.map(([name]) => name);
  return ['job', 'instance']
    .filter((name) => !names.includes(name))
    .map(
      (name) =>
        `--record.label has no ${name}: give the labels the store's copy of this exporter's series carries, or the record will look for and write series no dashboard selects`,
    );
}

/** The credentials, headers, CA and timeout of the remote write or of the query API, checked together. */
function target(
  r: Parsed,
  kind: 'remote-write' | 'query',
  url: string,
  headerTexts: readonly string[],
): HttpTarget {
  const s = RECORD_SETTINGS;
  const parts =
    kind === 'remote-write'
      ? {
          username: [r.remoteWriteUsername, s.remoteWriteUsername.flag],
          passwordFile: [r.remoteWritePasswordFile, s.remoteWritePasswordFile.flag],
          bearer: [r.remoteWriteBearerTokenFile, s.remoteWriteBearerTokenFile.flag],
          caFile: r.remoteWriteCaFile,
          timeoutMs: r.remoteWriteTimeout,
          headers: RECORD_LISTS.remoteWriteHeaders,
        }
      : {
          username: [r.queryUsername, s.queryUsername.flag],
          passwordFile: [r.queryPasswordFile, s.queryPasswordFile.flag],
          bearer: [r.queryBearerTokenFile, s.queryBearerTokenFile.flag],
          caFile: r.queryCaFile,
          timeoutMs: r.queryTimeout,
          headers: RECORD_LISTS.queryHeaders,
        };
  const [username, usernameFlag] = parts.username;
  const [passwordFile, passwordFlag] = parts.passwordFile;
  const [bearerTokenFile, bearerFlag] = parts.bearer;
  if ((username === undefined) !== (passwordFile === undefined))
    throw new ConfigError(`--${usernameFlag} and --${passwordFlag} go together`);
  if (username !== undefined && bearerTokenFile !== undefined)
    throw new ConfigError(`set only one of basic auth and --${bearerFlag}`);
  for (const file of [passwordFile, bearerTokenFile, parts.caFile])
    if (file !== undefined) readableFile(file);
  return {
    url,
    basicAuth: username === undefined ? undefined : { username, passwordFile: passwordFile as string },
    bearerTokenFile,
    headers: readList(parts.headers, headerTexts),
    caFile: parts.caFile,
    timeoutMs: parts.timeoutMs,
  };
}
