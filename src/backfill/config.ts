// argv and the environment of `cityair-exporter backfill` into a BackfillConfig, through the backfill's table and
// the exporter's shared settings; every problem is a ConfigError (one line, exit 2), as for the exporter.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { z } from 'zod';
import {
  ConfigError,
  type Flags,
  type LogFormat,
  type LogLevel,
  POSTS_PATH,
  type ReadingsInterval,
  readApiKey,
  readSetting,
} from '../config/config.js';
import type { Secret } from '../config/secret.js';
import type { SettingSpec } from '../config/settings.js';
import type { HttpTarget } from './http-target.js';
import { BACKFILL_LISTS, BACKFILL_SETTINGS, SHARED_SETTINGS } from './settings.js';
import { resolveTime } from './time-spec.js';

export interface RemoteWriteTarget extends HttpTarget {
  readonly kind: 'remote-write';
  readonly maxSamplesPerSend: number;
}

export type BackfillTarget = { readonly kind: 'file'; readonly path: string } | RemoteWriteTarget;

export interface BackfillConfig {
  readonly fromMs: number;
  readonly toMs: number;
  readonly target: BackfillTarget;
  readonly labels: readonly (readonly [string, string])[];
  readonly retries: number;
  readonly upstream: {
    readonly baseUrl: string;
    readonly postsUrl: string;
    readonly apiKey: Secret | undefined;
    readonly timeoutMs: number;
    readonly maxBackoffMs: number;
    readonly maxBodyBytes: number;
    readonly maxStations: number;
    readonly caFile: string | undefined;
    readonly insecureSkipVerify: boolean;
  };
  readonly demo: boolean;
  readonly measurements: {
    readonly interval: ReadingsInterval;
    readonly stations: readonly number[] | undefined;
    readonly concurrency: number;
    /** Cap on one readings answer (--measurements.max-body-size), as for the live readings. */
    readonly maxBodyBytes: number;
  };
  readonly log: { readonly level: LogLevel; readonly format: LogFormat };
  /** The arguments as given (after `backfill`), for the command that retries failed stations. */
  readonly argv: readonly string[];
}

export type BackfillAction =
  | { readonly kind: 'help' }
  | { readonly kind: 'run'; readonly config: BackfillConfig };

/** The earliest --from: older than any CityAir station, and far inside what an API query can spell. */
export const EARLIEST_FROM = '2000-01-01T00:00:00Z';
const EARLIEST_FROM_MS = Date.parse(EARLIEST_FROM);

export type AnySpec = SettingSpec<unknown>;
const allSpecs = (): AnySpec[] => [
  ...(Object.values(BACKFILL_SETTINGS) as AnySpec[]),
  ...(Object.values(SHARED_SETTINGS) as AnySpec[]),
];

export function parseBackfillCli(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  nowMs: number,
): BackfillAction {
  const { flags, lists } = readFlags(argv);
  if (flags.help === true) return { kind: 'help' };
  const demo = readSetting(SHARED_SETTINGS.demo, flags, env, false) === true;
  const one = <T>(spec: SettingSpec<T>): T | undefined => readSetting(spec, flags, env, demo);
  const s = SHARED_SETTINGS;
  const b = BACKFILL_SETTINGS;
  const from = one(b.from);
  if (from === undefined)
    throw new ConfigError('--from is required: an RFC 3339 time or a duration such as 30d');
  const to = one(b.to);
  const fromMs = resolveTime(from, nowMs);
  if (!(fromMs >= EARLIEST_FROM_MS))
    throw new ConfigError(
      `invalid --from: it must not be before ${EARLIEST_FROM} (CityAir has no older readings)`,
    );
  // No reading lies ahead of now: walking the future would only ask for empty windows.
  const toMs = to === undefined ? nowMs : Math.min(resolveTime(to, nowMs), nowMs);
  if (!(fromMs < toMs)) throw new ConfigError('--from must be before --to and before now');
  const labels = readList(BACKFILL_LISTS.labels, lists.label ?? []);
  const names = labels.map(([name]) => name);
  const repeated = names.find((name, i) => names.indexOf(name) !== i);
  if (repeated) throw new ConfigError(`invalid --label: ${repeated} is given twice`);
  const url = one(s.url) as string;
  return {
    kind: 'run',
    config: {
      fromMs,
      toMs,
      target: readTarget(flags, env, demo, lists['remote-write.header'] ?? []),
      labels,
      retries: one(b.retries) as number,
      upstream: {
        baseUrl: url,
        postsUrl: `${url}${POSTS_PATH}`,
        apiKey: demo ? undefined : readApiKey(one(s.apiKeyFile), one(s.apiKey)),
        timeoutMs: one(s.timeout) as number,
        maxBackoffMs: one(s.maxBackoff) as number,
        maxBodyBytes: one(s.maxBodySize) as number,
        maxStations: one(s.maxStations) as number,
        caFile: one(s.caFile),
        insecureSkipVerify: one(s.insecureSkipVerify) as boolean,
      },
      demo,
      measurements: {
        interval: one(s.measurementsInterval) as ReadingsInterval,
        stations: one(s.measurementsStations),
        concurrency: one(s.measurementsConcurrency) as number,
        maxBodyBytes: one(s.measurementsMaxBodySize) as number,
      },
      log: { level: one(s.logLevel) as LogLevel, format: one(s.logFormat) as LogFormat },
      argv: [...argv],
    },
  };
}

function readTarget(
  flags: Flags,
  env: NodeJS.ProcessEnv,
  demo: boolean,
  headerTexts: readonly string[],
): BackfillTarget {
  const b = BACKFILL_SETTINGS;
  const one = <T>(spec: SettingSpec<T>): T | undefined => readSetting(spec, flags, env, demo);
  const output = one(b.output);
  const url = one(b.remoteWriteUrl);
  if ((output === undefined) === (url === undefined)) {
    throw new ConfigError(
      'give exactly one of --output (a file, or - for standard output) and --remote-write.url',
    );
  }
  const remoteOnly = [
    b.remoteWriteUsername,
    b.remoteWritePasswordFile,
    b.remoteWriteBearerTokenFile,
    b.remoteWriteCaFile,
  ] as AnySpec[];
  if (output !== undefined) {
    const stray = remoteOnly.find((spec) => one(spec) !== undefined);
    if (stray || headerTexts.length > 0)
      throw new ConfigError(`--${stray?.flag ?? 'remote-write.header'} needs --remote-write.url`);
    return { kind: 'file', path: output };
  }
  const username = one(b.remoteWriteUsername);
  const passwordFile = one(b.remoteWritePasswordFile);
  const bearerTokenFile = one(b.remoteWriteBearerTokenFile);
  if ((username === undefined) !== (passwordFile === undefined))
    throw new ConfigError('--remote-write.username and --remote-write.password-file go together');
  if (username !== undefined && bearerTokenFile !== undefined)
    throw new ConfigError('set only one of basic auth and --remote-write.bearer-token-file');
  const caFile = one(b.remoteWriteCaFile);
  for (const file of [passwordFile, bearerTokenFile, caFile]) if (file !== undefined) readableFile(file);
  return {
    kind: 'remote-write',
    url: url as string,
    basicAuth: username === undefined ? undefined : { username, passwordFile: passwordFile as string },
    bearerTokenFile,
    headers: readList(BACKFILL_LISTS.headers, headerTexts),
    caFile,
    timeoutMs: one(b.remoteWriteTimeout) as number,
    maxSamplesPerSend: one(b.remoteWriteBatch) as number,
  };
}

/** Checked at start, so a wrong path stops the run before hours of reading; read again at each use. */
export function readableFile(file: string): void {
  try {
    if (readFileSync(file, 'utf8').trim() === '') throw new ConfigError(`${file} is empty`);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
}

export function readList<T>(
  spec: { readonly flag: string; readonly item: z.ZodType<T, string> },
  texts: readonly string[],
): T[] {
  return texts.map((text) => {
    const result = spec.item.safeParse(text);
    if (!result.success)
      throw new ConfigError(`invalid --${spec.flag}: ${result.error.issues[0]?.message ?? 'invalid value'}`);
    return result.data;
  });
}

export type FlagOptions = Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;

/** node:util parseArgs options for a command's settings and repeatable flags, plus --help. */
export function flagOptionsOf(
  specs: readonly AnySpec[],
  lists: readonly { readonly flag: string }[],
): FlagOptions {
  const options: FlagOptions = { help: { type: 'boolean' } };
  for (const spec of specs) if (spec.flag) options[spec.flag] = { type: spec.boolean ? 'boolean' : 'string' };
  for (const list of lists) options[list.flag] = { type: 'string', multiple: true };
  return options;
}

/** The flags of `backfill` for node:util parseArgs: also what the retry command is rebuilt from. */
export function backfillFlagOptions(): FlagOptions {
  return flagOptionsOf(allSpecs(), Object.values(BACKFILL_LISTS));
}

/** argv into single flags and repeated ones; `command` names the help to see in the one-line error. */
export function readFlags(
  argv: readonly string[],
  options: FlagOptions = backfillFlagOptions(),
  command = 'backfill',
): { flags: Flags; lists: Record<string, string[] | undefined> } {
  let values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  try {
    values = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new ConfigError(`${(error as Error).message.split('\n')[0]} (see ${command} --help)`);
  }
  const flags: Record<string, string | boolean | undefined> = {};
  const lists: Record<string, string[] | undefined> = {};
  for (const [name, value] of Object.entries(values)) {
    if (Array.isArray(value)) lists[name] = value.map(String);
    else flags[name] = value;
  }
  return { flags, lists };
}

export function backfillHelp(version: string): string {
  const rows: [string, string, string][] = [];
  for (const spec of Object.values(BACKFILL_SETTINGS) as AnySpec[])
    rows.push([`--${spec.flag}`, spec.env, helpWithDefault(spec)]);
  for (const list of Object.values(BACKFILL_LISTS)) rows.push([`--${list.flag}`, '', list.help]);
  for (const spec of Object.values(SHARED_SETTINGS) as AnySpec[])
    rows.push([spec.flag ? `--${spec.flag}` : '(env only)', spec.env, helpWithDefault(spec)]);
  rows.push(['--help', '', 'Show this help and exit.']);
  const w1 = Math.max(...rows.map((r) => r[0].length));
  const w2 = Math.max(...rows.map((r) => r[1].length));
  return [
    `cityair-exporter ${version} backfill: read past readings of every station and write them as timestamped samples`,
    '',
    'Usage: cityair-exporter backfill --from=30d (--output=FILE|- | --remote-write.url=URL) [flags]',
    '',
    'Exit status: 0 every station was read, 1 some were not (the summary names them and the command to retry),',
    '2 invalid use.',
    '',
    ...rows.map(([a, e, h]) => `  ${a.padEnd(w1)}  ${e.padEnd(w2)}  ${h}`),
    '',
  ].join('\n');
}

export function helpWithDefault(spec: AnySpec): string {
  return spec.default === undefined ? spec.help : `${spec.help} (default: ${spec.default})`;
}
