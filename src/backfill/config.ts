// argv and the environment of `cityair-exporter backfill` into a BackfillConfig, through the backfill's table and
// the exporter's shared settings; every problem is a ConfigError (one line, exit 2), as for the exporter.
import {
  type AnySpec,
  type CommandLine,
  ConfigError,
  type Flags,
  readableFile,
  readFlags,
  readList,
  readSetting,
  readSettings,
  renderHelp,
  settingsNote,
} from '../config/command-line.js';
import {
  demoOf,
  type LogConfig,
  logConfig,
  type ReadingsRequestConfig,
  STATIONS_PATH,
  type UpstreamConfig,
  upstreamConfig,
  upstreamWarnings,
} from '../config/config.js';
import type { ParsedOf, SettingSpec } from '../config/settings.js';
import { readingsRequestConfig } from '../readings/settings.js';
import type { HttpTarget } from './http-target.js';
import { BACKFILL_LISTS, BACKFILL_SETTINGS, readLabels, SHARED_SETTINGS } from './settings.js';
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
  readonly upstream: UpstreamConfig & { readonly stationsUrl: string };
  readonly demo: boolean;
  /** As the live readings ask: the cap on one answer is --measurements.max-body-size for both. */
  readonly readings: ReadingsRequestConfig;
  readonly log: LogConfig;
  /** The arguments as given (after `backfill`), for the command that retries failed stations. */
  readonly argv: readonly string[];
}

export type BackfillAction =
  | { readonly kind: 'help' }
  | { readonly kind: 'run'; readonly config: BackfillConfig; readonly warnings: readonly string[] };

/** The earliest --from: older than any CityAir station, and far inside what an API query can spell. */
export const EARLIEST_FROM = '2000-01-01T00:00:00Z';
const EARLIEST_FROM_MS = Date.parse(EARLIEST_FROM);

/** The backfill's command line: its own settings, its repeatable flags, then the settings shared with the exporter. */
export const BACKFILL_COMMAND_LINE: CommandLine = {
  specs: [
    ...(Object.values(BACKFILL_SETTINGS) as AnySpec[]),
    ...(Object.values(SHARED_SETTINGS) as AnySpec[]),
  ],
  lists: Object.values(BACKFILL_LISTS),
};

export function parseBackfillCli(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  nowMs: number,
): BackfillAction {
  const { flags, lists } = readFlags(argv, BACKFILL_COMMAND_LINE, 'backfill');
  if (flags.help === true) return { kind: 'help' };
  const demo = demoOf(flags, env);
  const one = <T>(spec: SettingSpec<T>): T | undefined => readSetting(spec, flags, env, demo);
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
  const labels = readLabels(BACKFILL_LISTS.labels, lists.label ?? []);
  // Sound as in the exporter: a shared setting with a default is never undefined.
  const shared = readSettings(SHARED_SETTINGS, flags, env, demo) as ParsedOf<typeof SHARED_SETTINGS>;
  const upstream = upstreamConfig(shared);
  return {
    kind: 'run',
    warnings: upstreamWarnings(upstream),
    config: {
      fromMs,
      toMs,
      target: readTarget(flags, env, demo, lists['remote-write.header'] ?? []),
      labels,
      retries: one(b.retries) as number,
      upstream: { ...upstream, stationsUrl: `${shared.url}${STATIONS_PATH}` },
      demo,
      readings: readingsRequestConfig(shared),
      log: logConfig(shared),
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

export function backfillHelp(version: string): string {
  const rows = [
    ...(Object.values(BACKFILL_SETTINGS) as AnySpec[]),
    ...Object.values(BACKFILL_LISTS),
    ...(Object.values(SHARED_SETTINGS) as AnySpec[]),
  ];
  return renderHelp({
    title: `cityair-exporter ${version} backfill: read past readings of every station and write them as timestamped samples`,
    head: [
      'Usage: cityair-exporter backfill --from=30d (--output=FILE|- | --remote-write.url=URL) [flags]',
      '',
      'Exit status: 0 every station was read, 1 some were not (the summary names them and the command to retry),',
      '2 invalid use.',
      '',
      ...settingsNote(rows),
    ],
    rows,
  });
}
