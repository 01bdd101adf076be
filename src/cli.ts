// The exporter's command line over the registry of sources: the settings table is the engine's upstream settings,
// then every source's, then the web and log settings (the order of --help); the configuration is the engine's
// part and each source's part under its name. Reading flags and variables is the shared command line's job.
import {
  type AnyListSpec,
  type AnySpec,
  type CommandLine,
  readFlags,
  readSettings,
  renderHelp,
  settingsNote,
} from './config/command-line.js';
import { demoOf, type EngineConfig, engineConfig, engineWarnings } from './config/config.js';
import { LOG_SETTINGS, type Parsed, UPSTREAM_SETTINGS, WEB_SETTINGS } from './config/settings.js';
import { SOURCE_LIST, SOURCES, type SourceSettings, type SourcesConfig } from './sources.js';

export { ConfigError } from './config/command-line.js';

/** Every setting of the exporter: the only place the table is put together. */
export const SETTINGS = {
  ...UPSTREAM_SETTINGS,
  ...(Object.assign({}, ...SOURCES.map((s) => s.settings)) as SourceSettings),
  ...WEB_SETTINGS,
  ...LOG_SETTINGS,
} as const;

export type Config = EngineConfig & SourcesConfig;

export type CliAction =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'run'; config: Config; warnings: string[] };

/** The exporter's command line: every setting of the table, the sources' repeatable flags, --help and --version. */
export const EXPORTER_COMMAND_LINE: CommandLine = {
  specs: Object.values(SETTINGS) as AnySpec[],
  lists: SOURCE_LIST.flatMap((s) => s.lists ?? []),
  version: true,
};

/** --help's rows: the table's order, each source's repeatable flags after its settings. */
const HELP_ROWS: readonly (AnySpec | AnyListSpec)[] = [
  ...(Object.values(UPSTREAM_SETTINGS) as AnySpec[]),
  ...SOURCE_LIST.flatMap((s) => [...(Object.values(s.settings) as AnySpec[]), ...(s.lists ?? [])]),
  ...(Object.values(WEB_SETTINGS) as AnySpec[]),
  ...(Object.values(LOG_SETTINGS) as AnySpec[]),
];

export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv): CliAction {
  const { flags, lists } = readFlags(argv, EXPORTER_COMMAND_LINE);
  if (flags.help === true) return { kind: 'help' };
  if (flags.version === true) return { kind: 'version' };
  // Every setting is read, in the table's order, before any is assembled: the first invalid one is the error.
  const parsed = readSettings(SETTINGS, flags, env, demoOf(flags, env));
  // Sound because readSetting never returns undefined for a setting with a default (what Parsed assumes).
  const engine = engineConfig(parsed as unknown as Parsed);
  const warnings = engineWarnings(engine);
  const own: Record<string, unknown> = {};
  for (const source of SOURCE_LIST) {
    const part = source.config(parsed, { flags, lists, earlier: own });
    if (part === undefined) continue;
    own[source.name] = part;
    warnings.push(...(source.warnings?.(part) ?? []));
  }
  return { kind: 'run', config: { ...engine, ...(own as SourcesConfig) }, warnings };
}

export function helpText(version: string): string {
  return renderHelp({
    title: `cityair-exporter ${version}: Prometheus exporter for the CityAir station list and (opt-in) the stations' readings`,
    head: [
      'Usage: cityair-exporter [flags]',
      '       cityair-exporter backfill --from=30d (--output=FILE | --remote-write.url=URL) [flags]: past readings',
      '       (cityair-exporter backfill --help lists its flags)',
      '',
      'The record (--record.*, docs/record.md) finds the rows the store lacks and fills them from CityAir.',
      '',
      ...settingsNote(HELP_ROWS),
    ],
    rows: HELP_ROWS,
    version: true,
  });
}
