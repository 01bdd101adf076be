// argv and the environment of `cityair-exporter report` into a ReportConfig, through the backfill's flag reading
// and the report's table; every problem is a ConfigError (one line, exit 2).
import { readLabels } from '../backfill/settings.js';
import { resolveTime } from '../backfill/time-spec.js';
import {
  type AnySpec,
  type CommandLine,
  ConfigError,
  rawSetting,
  readableFile,
  readFlags,
  readList,
  readSetting,
  renderHelp,
  settingsNote,
} from '../config/command-line.js';
import type { SettingSpec } from '../config/settings.js';
import { REPORT_LISTS, REPORT_SETTINGS } from './settings.js';
import type { StoreTarget } from './store.js';

export type ReportFormat = 'html' | 'csv' | 'json';
export type ReportLang = 'ru' | 'en';

export interface ReportConfig {
  readonly fromMs: number;
  readonly toMs: number;
  /** The UTC offset --from was written with, minutes: the report's clock. 0 for a duration or Z. */
  readonly offsetMinutes: number;
  readonly store: StoreTarget;
  readonly labels: readonly (readonly [string, string])[];
  readonly stations: readonly number[] | undefined;
  readonly output: string;
  readonly format: ReportFormat;
  readonly lang: ReportLang;
}

export type ReportAction =
  | { readonly kind: 'help' }
  | { readonly kind: 'run'; readonly config: ReportConfig };

/** The report's command line: its settings and its repeatable flags. */
export const REPORT_COMMAND_LINE: CommandLine = {
  specs: Object.values(REPORT_SETTINGS) as AnySpec[],
  lists: Object.values(REPORT_LISTS),
};

export function parseReportCli(argv: readonly string[], env: NodeJS.ProcessEnv, nowMs: number): ReportAction {
  const { flags, lists } = readFlags(argv, REPORT_COMMAND_LINE, 'report');
  if (flags.help === true) return { kind: 'help' };
  const one = <T>(spec: SettingSpec<T>): T | undefined => readSetting(spec, flags, env, false);
  const r = REPORT_SETTINGS;
  const from = one(r.from);
  if (from === undefined)
    throw new ConfigError('--from is required: an RFC 3339 time or a duration such as 30d');
  const url = one(r.storeUrl);
  if (url === undefined)
    throw new ConfigError('--store.url is required: the query API of the store, e.g. http://prometheus:9090');
  const to = one(r.to);
  const fromMs = resolveTime(from, nowMs);
  const toMs = to === undefined ? nowMs : Math.min(resolveTime(to, nowMs), nowMs);
  if (!(fromMs < toMs)) throw new ConfigError('--from must be before --to and before now');
  const labels = readLabels(REPORT_LISTS.labels, lists.label ?? []);
  return {
    kind: 'run',
    config: {
      fromMs,
      toMs,
      offsetMinutes: offsetOf(rawSetting(r.from as AnySpec, flags, env, false) ?? ''),
      store: readStore(one, url, lists['store.header'] ?? []),
      labels,
      stations: one(r.stations),
      output: one(r.output) as string,
      format: one(r.format) as ReportFormat,
      lang: one(r.lang) as ReportLang,
    },
  };
}

function readStore(
  one: <T>(spec: SettingSpec<T>) => T | undefined,
  url: string,
  headerTexts: readonly string[],
): StoreTarget {
  const r = REPORT_SETTINGS;
  const username = one(r.storeUsername);
  const passwordFile = one(r.storePasswordFile);
  const bearerTokenFile = one(r.storeBearerTokenFile);
  if ((username === undefined) !== (passwordFile === undefined))
    throw new ConfigError('--store.username and --store.password-file go together');
  if (username !== undefined && bearerTokenFile !== undefined)
    throw new ConfigError('set only one of basic auth and --store.bearer-token-file');
  const caFile = one(r.storeCaFile);
  for (const file of [passwordFile, bearerTokenFile, caFile]) if (file !== undefined) readableFile(file);
  return {
    url,
    basicAuth: username === undefined ? undefined : { username, passwordFile: passwordFile as string },
    bearerTokenFile,
    headers: readList(REPORT_LISTS.headers, headerTexts),
    caFile,
    timeoutMs: one(r.storeTimeout) as number,
  };
}

/** The offset of an RFC 3339 time as written ("+03:00" → 180); Z, a duration or nothing → 0. */
export function offsetOf(text: string): number {
  const m = /([+-])(\d{2}):(\d{2})$/.exec(text.trim());
  if (!m || !/\d[Tt ]\d/.test(text)) return 0;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

export function reportHelp(version: string): string {
  return renderHelp({
    title: `cityair-exporter ${version} report: a period's air quality in the figures of Roshydromet's reviews (СИ, НП, ИЗА, level)`,
    head: [
      'Usage: cityair-exporter report --from=2026-10-01T00:00:00+03:00 --to=2026-11-01T00:00:00+03:00 --store.url=URL [flags]',
      '',
      'Exit status: 0 a complete report, 1 the store failed part of it (the report is written, marked incomplete),',
      '2 invalid use.',
      '',
      ...settingsNote([...REPORT_COMMAND_LINE.specs, ...Object.values(REPORT_LISTS)]),
    ],
    rows: [...REPORT_COMMAND_LINE.specs, ...Object.values(REPORT_LISTS)],
  });
}
