// The one command line of every command (the exporter, `backfill`, `report`): how flags are read (a boolean flag
// alone means true, --flag=false turns it off as its variable does), where a setting's value comes from (flag,
// else environment, else default), how --help shows a setting (its range, its default, its default with --demo),
// and how a problem ends the command (one line, exit status 2). A command brings only its settings tables.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { z } from 'zod';
import { knownKeys } from './known-key.js';
import { scrub } from './secret.js';
import type { SettingSpec } from './settings.js';
import { formatDuration } from './units.js';

/** A configuration problem; the command turns it into one line on stderr and exit status 2. */
export class ConfigError extends Error {}

/** The exit statuses every command shares; a command may add its own above these. */
export const EXIT = {
  ok: 0,
  /** The command ran but did not do all it was asked (a station not read, a report incomplete, no listen). */
  incomplete: 1,
  /** Invalid use: a setting, a missing flag, an unreadable file named by a setting. */
  usage: 2,
} as const;

/** A flag that may be given several times; each value is checked on its own. */
export interface ListSettingSpec<T> {
  readonly flag: string;
  readonly help: string;
  readonly item: z.ZodType<T, string>;
}

export type AnySpec = SettingSpec<unknown>;
export type AnyListSpec = ListSettingSpec<unknown>;

const isList = (s: AnySpec | AnyListSpec): s is AnyListSpec => 'item' in s;

/** What a command reads: its settings, in the order of its --help, and its repeatable flags. */
export interface CommandLine {
  readonly specs: readonly AnySpec[];
  readonly lists?: readonly AnyListSpec[];
  /** `--version` as well as `--help`. */
  readonly version?: boolean;
}

export type Flags = Readonly<Record<string, string | boolean | undefined>>;
export type Lists = Readonly<Record<string, string[] | undefined>>;

export type FlagOptions = Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;

/** node:util parseArgs options for a command line: every setting a string, so `--demo=false` parses. */
export function flagOptions(line: CommandLine): FlagOptions {
  const options: FlagOptions = { help: { type: 'boolean' } };
  if (line.version) options.version = { type: 'boolean' };
  for (const spec of line.specs) if (spec.flag) options[spec.flag] = { type: 'string' };
  for (const list of line.lists ?? []) options[list.flag] = { type: 'string', multiple: true };
  return options;
}

/** `--demo` alone means `--demo=true`; what follows `--` is left as it is (and refused as a positional). */
export function withBareBooleansTrue(argv: readonly string[], line: CommandLine): string[] {
  const booleans = new Set(line.specs.flatMap((s) => (s.boolean && s.flag ? [s.flag] : [])));
  const end = argv.indexOf('--');
  return argv.map((arg, i) =>
    (end === -1 || i < end) && arg.startsWith('--') && booleans.has(arg.slice(2)) ? `${arg}=true` : arg,
  );
}

/** argv into single flags and repeated ones; `command` names the help to see in the one-line error. */
export function readFlags(
  argv: readonly string[],
  line: CommandLine,
  command?: string,
): { flags: Flags; lists: Lists } {
  let values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  try {
    values = parseArgs({
      args: withBareBooleansTrue(argv, line),
      options: flagOptions(line),
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    const help = command === undefined ? '--help' : `${command} --help`;
    throw new ConfigError(`${(error as Error).message.split('\n')[0]} (see ${help})`);
  }
  const flags: Record<string, string | boolean | undefined> = {};
  const lists: Record<string, string[] | undefined> = {};
  for (const [name, value] of Object.entries(values)) {
    if (Array.isArray(value)) lists[name] = value.map(String);
    else flags[name] = value;
  }
  return { flags, lists };
}

/** How a setting is named in an error: its flag and its variable, or the variable alone. */
export const settingName = (s: AnySpec): string => (s.flag ? `--${s.flag} (${s.env})` : s.env);

/** The text a setting was given as (flag, else environment, else its default), before it is parsed. */
export function rawSetting(
  spec: AnySpec,
  flags: Flags,
  env: NodeJS.ProcessEnv,
  demo: boolean,
): string | undefined {
  const flagValue = spec.flag ? flags[spec.flag] : undefined;
  if (flagValue !== undefined) return String(flagValue);
  const fallback = demo && spec.demoDefault !== undefined ? spec.demoDefault : spec.default;
  return env[spec.env] ?? fallback;
}

/** The flag, else the environment, else the table's default; parsed, or a ConfigError naming the setting. */
export function readSetting<T>(
  spec: SettingSpec<T>,
  flags: Flags,
  env: NodeJS.ProcessEnv,
  demo: boolean,
): T | undefined {
  const raw = rawSetting(spec as AnySpec, flags, env, demo);
  if (raw === undefined) return undefined;
  const result = spec.schema.safeParse(raw);
  if (!result.success) {
    throw new ConfigError(
      `invalid ${settingName(spec as AnySpec)}: ${result.error.issues[0]?.message ?? 'invalid value'}`,
    );
  }
  return result.data;
}

/** Every setting of a table read at once; `demo` picks the demo defaults. */
export function readSettings<S extends Readonly<Record<string, AnySpec>>>(
  table: S,
  flags: Flags,
  env: NodeJS.ProcessEnv,
  demo: boolean,
): Record<keyof S, unknown> {
  const out = {} as Record<keyof S, unknown>;
  for (const name of Object.keys(table) as (keyof S)[]) {
    out[name] = readSetting(table[name] as AnySpec, flags, env, demo);
  }
  return out;
}

export function readList<T>(spec: ListSettingSpec<T>, texts: readonly string[]): T[] {
  return texts.map((text) => {
    const result = spec.item.safeParse(text);
    if (!result.success)
      throw new ConfigError(`invalid --${spec.flag}: ${result.error.issues[0]?.message ?? 'invalid value'}`);
    return result.data;
  });
}

/** A file a setting names, checked at start so a wrong path stops the command before hours of work. */
export function readableFile(file: string): void {
  try {
    if (readFileSync(file, 'utf8').trim() === '') throw new ConfigError(`${file} is empty`);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
}

/** How --help shows a duration's range: empty for other settings. */
function rangeText(s: AnySpec): string {
  if (s.range === undefined) return '';
  const [min, max] = s.range;
  return min === 0
    ? ` At most ${formatDuration(max)}.`
    : ` From ${formatDuration(min)} to ${formatDuration(max)}.`;
}

/** How --help shows a default: empty when there is none. */
function defaultText(s: AnySpec): string {
  if (s.default === undefined) return '';
  const demo = s.demoDefault === undefined ? '' : `; ${s.demoDefault} with --demo`;
  return ` (default: ${s.default}${demo})`;
}

/** A setting's help as --help shows it: its text, its range, its default. */
export const describeSetting = (s: AnySpec): string => `${s.help}${rangeText(s)}${defaultText(s)}`;

/** Words into lines of at most `width` characters, for the paragraphs of --help. */
function wrap(text: string, width = 115): string[] {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines.length - 1;
    if (last >= 0 && (lines[last] as string).length + 1 + word.length <= width) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines;
}

/**
 * The paragraph before a command's table, saying only what is true of its rows: which flags have no variable
 * (the repeatable ones), whether durations are read, and how a boolean flag is given, when the command has one.
 */
export function settingsNote(rows: readonly (AnySpec | AnyListSpec)[]): string[] {
  const lists = rows.filter(isList).map((s) => `--${s.flag}`);
  const specs = rows.filter((s): s is AnySpec => !isList(s));
  const flagsOnly =
    lists.length === 0
      ? ''
      : ` (${lists.join(' and ')}, which may repeat, ${lists.length === 1 ? 'is a flag' : 'are flags'} only)`;
  const sentences = [`Every setting is a flag or an environment variable${flagsOnly}; the flag wins.`];
  if (specs.some((s) => s.range !== undefined)) sentences.push('Durations use Prometheus notation.');
  if (specs.some((s) => s.boolean))
    sentences.push(
      'A boolean flag alone means true; --flag=false (or 0, no, off) turns it off, as in its variable.',
    );
  return wrap(sentences.join(' '));
}

export interface HelpPage {
  readonly title: string;
  /** The usage lines and any paragraphs before the table, each line as it is printed. */
  readonly head: readonly string[];
  /** The table's sections in order: settings and repeatable flags. */
  readonly rows: readonly (AnySpec | AnyListSpec)[];
  readonly version?: boolean;
}

/** A command's --help: a title, its head, then one aligned row per setting (flag, variable, help). */
export function renderHelp(page: HelpPage): string {
  const rows: [string, string, string][] = page.rows.map((s) =>
    isList(s)
      ? [`--${s.flag}`, '', `${s.help}`]
      : [s.flag ? `--${s.flag}` : '(env only)', s.env, describeSetting(s)],
  );
  rows.push(['--help', '', 'Show this help and exit.']);
  if (page.version) rows.push(['--version', '', 'Show the version and exit.']);
  const w1 = Math.max(...rows.map((r) => r[0].length));
  const w2 = Math.max(...rows.map((r) => r[1].length));
  return [
    page.title,
    '',
    ...page.head,
    '',
    ...rows.map(([a, e, h]) => `  ${a.padEnd(w1)}  ${e.padEnd(w2)}  ${h}`),
    '',
  ].join('\n');
}

/** Where a command was started from: its arguments (after the command's name) and its environment. */
export interface Invocation {
  readonly argv: readonly string[];
  readonly env: NodeJS.ProcessEnv;
}

/** The one line a configuration problem ends a command with, the API key (from wherever it came) taken out. */
export function usageLine(command: string | undefined, error: ConfigError, from: Invocation): string {
  const message = knownKeys(from.argv, from.env).reduce((text, key) => scrub(text, key), error.message);
  return `cityair-exporter${command === undefined ? '' : ` ${command}`}: ${message}\n`;
}

/**
 * The end of a command by a configuration problem: one line on stderr, named by the command, and exit status 2.
 * Anything else is no configuration problem and is thrown on.
 */
export function usageFailure(command: string | undefined, error: unknown, from: Invocation): number {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(usageLine(command, error, from));
  return EXIT.usage;
}
