// The end of a run, for the person who started it: what was read, what was left out and why, which stations
// failed with the range each is missing, and the one command that retries exactly those.

import type { Secret } from '../config/secret.js';
import type { Failure } from '../upstream/failure.js';
import { clock } from './progress.js';
import { BACKFILL_LISTS } from './settings.js';
import type { BackfillStats } from './stats.js';
import { formatTime } from './time-spec.js';

export interface FailedStation {
  readonly id: number;
  /** Why the station's range is missing: a failed read, or `not_written` when the sink refused its samples. */
  readonly failure: Pick<Failure, 'message'> & {
    readonly reason: Failure['reason'] | 'not_written' | 'not_served';
  };
  readonly missingFromMs: number;
  /** The end of the range missing (exclusive); --to when unset. */
  readonly missingToMs?: number;
}

export interface SummaryInput {
  readonly stats: BackfillStats;
  readonly failed: readonly FailedStation[];
  readonly fromMs: number;
  readonly toMs: number;
  readonly nowMs: number;
  /** The retry command, when some stations failed. */
  readonly retry: string | undefined;
  /** Why the run stopped before the end, when the destination refused part way. */
  readonly stopped?: string | undefined;
}

const count = (n: number): string => n.toLocaleString('en-US');

export function summaryText(input: SummaryInput): string {
  const { stats, failed } = input;
  const failedIds = new Set(failed.map((f) => f.id)).size;
  const read = stats.stationsTotal - failedIds;
  const lines = [
    `backfill ${failed.length === 0 ? 'complete' : 'incomplete'} in ${clock((input.nowMs - stats.startedAtMs) / 1000)}: ` +
      `${count(stats.stationsTotal)} stations (${count(read)} read, ${count(failedIds)} failed), ` +
      `${count(stats.rows)} rows, ${count(stats.samples)} samples, ` +
      `${count(stats.requests)} requests (${count(stats.failedRequests)} failed)`,
    `range asked: ${formatTime(input.fromMs)} to ${formatTime(input.toMs)}; rows found from ` +
      (stats.firstRowMs === undefined
        ? 'none'
        : `${formatTime(stats.firstRowMs)} to ${formatTime(stats.lastRowMs ?? stats.firstRowMs)}`),
  ];
  if (input.stopped) lines.push(input.stopped);
  const skipped = Object.entries(stats.skipped).filter(([, n]) => n > 0);
  lines.push(
    `fields left out: ${skipped.length === 0 ? 'none' : skipped.map(([r, n]) => `${r} ${count(n)}`).join(', ')}; ` +
      `rows rejected: ${count(stats.rejectedRows)}`,
  );
  if (stats.unknownUnits.size > 0) {
    const units = [...stats.unknownUnits.values()].map((u) => `${u.field} in ${JSON.stringify(u.unit)}`);
    lines.push(`units not converted (fields left out): ${units.join(', ')}`);
  }
  if (failed.length > 0) {
    lines.push('failed stations:');
    const order = (a: FailedStation, b: FailedStation): number =>
      a.id - b.id || a.missingFromMs - b.missingFromMs;
    for (const f of [...failed].sort(order)) {
      lines.push(
        `  ${f.id}: ${f.failure.reason}: ${f.failure.message}; missing ${formatTime(f.missingFromMs)} to ${formatTime(f.missingToMs ?? input.toMs)}`,
      );
    }
    if (input.retry) {
      const hidden = input.retry.includes(REDACTED) ? ` (put back what shows as ${REDACTED})` : '';
      lines.push(`retry exactly these stations with${hidden}:`, `  ${input.retry}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** A token of the command line as node:util parseArgs reports it. */
export type ArgToken =
  | {
      readonly kind: 'option';
      readonly name: string;
      readonly rawName: string;
      readonly value?: string | undefined;
    }
  | { readonly kind: 'positional' | 'option-terminator' };

const REPLACED = new Set(['from', 'to', 'measurements.stations', 'output']);

const REDACTED = '[REDACTED]';

/**
 * A flag's value as the retry command prints it: a summary is pasted into tickets and chats, so a header's value
 * (a tenant's token, an Authorization) and a URL's password are not shown; their names are, to be filled in again.
 */
function shownValue(name: string, value: string): string {
  if (name === BACKFILL_LISTS.headers.flag) {
    const colon = value.indexOf(':');
    return colon === -1 ? REDACTED : `${value.slice(0, colon)}: ${REDACTED}`;
  }
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/?#@:]*):[^/?#@]*@/i, `$1:${REDACTED}@`);
}

/**
 * The same command for the failed stations only: their earliest missing time to the end of their latest missing
 * range (as absolute times: "now" will have moved), the output renamed so the first file is not replaced. Header
 * values, a URL's password and the API key (wherever it was typed) show as [REDACTED].
 */
export function retryCommand(
  program: readonly string[],
  tokens: readonly ArgToken[],
  failed: readonly FailedStation[],
  toMs: number,
  output: string | undefined,
  apiKey?: Secret,
): string {
  const from = Math.min(...failed.map((f) => f.missingFromMs));
  const to = Math.max(...failed.map((f) => f.missingToMs ?? toMs));
  const ids = [...new Set(failed.map((f) => f.id))].sort((a, b) => a - b).join(',');
  const kept: string[] = [];
  for (const t of tokens) {
    if (t.kind !== 'option' || REPLACED.has(t.name)) continue;
    kept.push(t.value === undefined ? t.rawName : `${t.rawName}=${shownValue(t.name, t.value)}`);
  }
  const args = [
    ...program,
    'backfill',
    `--from=${formatTime(from)}`,
    `--to=${formatTime(to)}`,
    `--measurements.stations=${ids}`,
    ...(output === undefined ? [] : [`--output=${retryOutput(output)}`]),
    ...kept,
  ];
  // The key whole, not its fragments as a log line is scrubbed: typed on the command line it is whole, and a flag's
  // name that shares six letters with the key must stay readable for the command to be run again.
  const key = apiKey?.reveal();
  return args.map((arg) => shellQuote(key ? arg.split(key).join(REDACTED) : arg)).join(' ');
}

/**
 * The program as this run was started, for a command that works where this one did: the package's bin by its
 * name (on PATH when installed), otherwise `node` and the script's path (relative when under the working
 * directory), as after `npm ci && npm run build`.
 */
export function invokedAs(script: string | undefined, cwd: string = process.cwd()): string[] {
  if (script === undefined) return ['cityair-exporter'];
  const name = script.slice(script.lastIndexOf('/') + 1);
  if (name === 'cityair-exporter') return ['cityair-exporter'];
  const inside = script.startsWith(`${cwd}/`) ? script.slice(cwd.length + 1) : script;
  return ['node', inside];
}

/** last-month.om → last-month.retry.om; `-` stays standard output. */
export function retryOutput(path: string): string {
  if (path === '-') return path;
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  return dot > slash + 1 ? `${path.slice(0, dot)}.retry${path.slice(dot)}` : `${path}.retry`;
}

export function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_./:=,@%+-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
