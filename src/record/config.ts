// The record's flags and environment into a RecordConfig, or nothing when it is off. The exporter's own parser
// knows no slice, so the entry point hands the `--record.*` arguments here (splitRecordArgs) and the rest to it;
// every problem is a ConfigError (one line, exit 2), as everywhere.
import type { RemoteWriteTarget } from '../backfill/config.js';
import { flagOptionsOf, helpWithDefault, readableFile, readFlags, readList } from '../backfill/config.js';
import type { HttpTarget } from '../backfill/http-target.js';
import { ConfigError, type Flags, readSetting } from '../config/config.js';
import type { SettingSpec } from '../config/settings.js';
import { RECORD_LISTS, RECORD_SETTINGS } from './settings.js';

export interface RecordConfig {
  readonly write: RemoteWriteTarget;
  readonly query: HttpTarget;
  readonly labels: readonly (readonly [string, string])[];
  readonly lookbackMs: number;
  readonly intervalMs: number;
}

/** What the record needs to know of the exporter's own settings to judge a combination. */
export interface RecordContext {
  readonly demo: boolean;
  readonly readingsEnabled: boolean;
  readonly maxAgeMs: number;
}

type AnySpec = SettingSpec<unknown>;
const SPECS = Object.values(RECORD_SETTINGS) as AnySpec[];
const OPTIONS = flagOptionsOf(SPECS, Object.values(RECORD_LISTS));

/** The record's arguments (`--record.x=v` or `--record.x v`) apart from the exporter's; `--` ends both. */
export function splitRecordArgs(argv: readonly string[]): { record: string[]; rest: string[] } {
  const record: string[] = [];
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    if (!arg.startsWith('--record.')) {
      rest.push(arg);
      continue;
    }
    record.push(arg);
    // Every record flag takes a value: without `=`, it is the next argument.
    const next = argv[i + 1];
    if (!arg.includes('=') && next !== undefined && Object.hasOwn(OPTIONS, arg.slice(2))) {
      record.push(next);
      i++;
    }
  }
  return { record, rest };
}

export function parseRecordCli(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  context: RecordContext,
): { readonly config: RecordConfig | undefined; readonly warnings: string[] } {
  const { flags, lists } = readFlags(argv, OPTIONS, 'the record');
  const one = <T>(spec: SettingSpec<T>): T | undefined => readSetting(spec, flags, env, context.demo);
  const r = RECORD_SETTINGS;
  const url = one(r.remoteWriteUrl);
  if (url === undefined) {
    const stray = SPECS.find(
      (s) => s !== r.remoteWriteUrl && s.default === undefined && one(s) !== undefined,
    );
    const list = Object.values(RECORD_LISTS).find((l) => (lists[l.flag] ?? []).length > 0);
    const given = stray?.flag ?? list?.flag ?? flagGiven(flags);
    if (given !== undefined) throw new ConfigError(`--${given} needs --record.remote-write.url`);
    return { config: undefined, warnings: [] };
  }
  if (!context.readingsEnabled)
    throw new ConfigError(
      '--record.remote-write.url needs the readings collector: add --collector.measurements (CITYAIR_MEASUREMENTS=true)',
    );
  const queryUrl = one(r.queryUrl);
  if (queryUrl === undefined)
    throw new ConfigError(
      '--record.remote-write.url needs --record.query.url: the query API of the same store, where the record sees what it holds',
    );
  const lookbackMs = one(r.lookback) as number;
  if (lookbackMs <= context.maxAgeMs)
    throw new ConfigError(
      '--record.lookback must be longer than --measurements.max-age: rows younger than max-age are the live readings’',
    );
  const labels = readList(RECORD_LISTS.labels, lists[RECORD_LISTS.labels.flag] ?? []);
  const names = labels.map(([name]) => name);
  const repeated = names.find((name, i) => names.indexOf(name) !== i);
  if (repeated) throw new ConfigError(`invalid --record.label: ${repeated} is given twice`);
  const write = target(flags, env, context.demo, 'remote-write', url, lists);
  const config: RecordConfig = {
    write: {
      ...write,
      kind: 'remote-write',
      maxSamplesPerSend: one(r.remoteWriteBatch) as number,
    },
    query: target(flags, env, context.demo, 'query', queryUrl, lists),
    labels,
    lookbackMs,
    intervalMs: one(r.interval) as number,
  };
  const warnings = ['job', 'instance']
    .filter((name) => !names.includes(name))
    .map(
      (name) =>
        `--record.label has no ${name}: give the labels the store's copy of this exporter's series carries, or the record will look for and write series no dashboard selects`,
    );
  return { config, warnings };
}

/** A flag given on the command line (one with a default, such as --record.lookback, included). */
const flagGiven = (flags: Flags): string | undefined =>
  Object.keys(flags).find((k) => k !== 'help' && flags[k] !== undefined);

/** The credentials, headers, CA and timeout of the remote write or of the query API, checked together. */
function target(
  flags: Flags,
  env: NodeJS.ProcessEnv,
  demo: boolean,
  kind: 'remote-write' | 'query',
  url: string,
  lists: Record<string, string[] | undefined>,
): HttpTarget {
  const r = RECORD_SETTINGS;
  const one = <T>(spec: SettingSpec<T>): T | undefined => readSetting(spec, flags, env, demo);
  const specs =
    kind === 'remote-write'
      ? {
          username: r.remoteWriteUsername,
          passwordFile: r.remoteWritePasswordFile,
          bearer: r.remoteWriteBearerTokenFile,
          ca: r.remoteWriteCaFile,
          timeout: r.remoteWriteTimeout,
          headers: RECORD_LISTS.remoteWriteHeaders,
        }
      : {
          username: r.queryUsername,
          passwordFile: r.queryPasswordFile,
          bearer: r.queryBearerTokenFile,
          ca: r.queryCaFile,
          timeout: r.queryTimeout,
          headers: RECORD_LISTS.queryHeaders,
        };
  const username = one(specs.username);
  const passwordFile = one(specs.passwordFile);
  const bearerTokenFile = one(specs.bearer);
  if ((username === undefined) !== (passwordFile === undefined))
    throw new ConfigError(`--${specs.username.flag} and --${specs.passwordFile.flag} go together`);
  if (username !== undefined && bearerTokenFile !== undefined)
    throw new ConfigError(`set only one of basic auth and --${specs.bearer.flag}`);
  const caFile = one(specs.ca);
  for (const file of [passwordFile, bearerTokenFile, caFile]) if (file !== undefined) readableFile(file);
  return {
    url,
    basicAuth: username === undefined ? undefined : { username, passwordFile: passwordFile as string },
    bearerTokenFile,
    headers: readList(specs.headers, lists[specs.headers.flag] ?? []),
    caFile,
    timeoutMs: one(specs.timeout) as number,
  };
}

/** The record's rows of the exporter's --help. */
export function recordHelp(): string {
  const rows: [string, string, string][] = SPECS.map((s) => [`--${s.flag}`, s.env, helpWithDefault(s)]);
  for (const list of Object.values(RECORD_LISTS)) rows.push([`--${list.flag}`, '', list.help]);
  const w1 = Math.max(...rows.map((row) => row[0].length));
  const w2 = Math.max(...rows.map((row) => row[1].length));
  return [
    'The record (docs/record.md): finds the rows the store lacks and fills them from CityAir.',
    ...rows.map(([a, e, h]) => `  ${a.padEnd(w1)}  ${e.padEnd(w2)}  ${h}`),
    '',
  ].join('\n');
}
