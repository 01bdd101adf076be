// A Prometheus rules file as plain data, written out as YAML a person can read: comments above groups and rules,
// multi-line expressions as literal blocks, long annotations folded. The text is parsed back and compared with the
// data, so a value YAML would read differently (a number, a quote) can never slip through.
import { isDeepStrictEqual } from 'node:util';
import { parse } from 'yaml';

export interface RecordingRule {
  readonly comment?: string;
  readonly record: string;
  readonly expr: string;
  readonly labels?: Readonly<Record<string, string>>;
}

export interface AlertingRule {
  readonly comment?: string;
  readonly alert: string;
  readonly expr: string;
  readonly for: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
}

export interface RuleGroup {
  readonly comment: string;
  readonly name: string;
  readonly interval?: string;
  readonly rules: readonly (RecordingRule | AlertingRule)[];
}

const WIDTH = 116;

export function rulesYaml(header: string, groups: readonly RuleGroup[]): string {
  const text = `${comment(header, '')}groups:\n${groups.map(group).join('\n')}`;
  const expected = { groups: groups.map(withoutComments) };
  if (!isDeepStrictEqual(parse(text), expected))
    throw new Error('the rules YAML does not read back as written');
  return text;
}

function group(g: RuleGroup): string {
  const interval = g.interval ? `    interval: ${g.interval}\n` : '';
  return `${comment(g.comment, '  ')}  - name: ${g.name}\n${interval}    rules:\n${g.rules.map(rule).join('')}`;
}

function rule(r: RecordingRule | AlertingRule): string {
  const pad = '      ';
  const head = r.comment ? comment(r.comment, pad) : '';
  if ('record' in r) {
    return `${head}${pad}- record: ${r.record}\n${field('expr', r.expr, 8)}${map('labels', r.labels, 8)}`;
  }
  return (
    `${head}${pad}- alert: ${r.alert}\n${field('expr', r.expr, 8)}${field('for', r.for, 8)}` +
    `${map('labels', r.labels, 8)}${map('annotations', r.annotations, 8)}`
  );
}

function map(key: string, values: Readonly<Record<string, string>> | undefined, indent: number): string {
  if (!values || Object.keys(values).length === 0) return '';
  const lines = Object.entries(values).map(([k, v]) => field(k, v, indent + 2));
  return `${' '.repeat(indent)}${key}:\n${lines.join('')}`;
}

function field(key: string, value: string, indent: number): string {
  const pad = ' '.repeat(indent);
  if (value.includes('\n')) {
    const body = value
      .split('\n')
      .map((l) => (l === '' ? '' : `${pad}  ${l}`))
      .join('\n');
    // An indented first line needs the indentation stated, or YAML would take it for the block's own.
    const indicator = value.startsWith(' ') ? '|2-' : '|-';
    return `${pad}${key}: ${indicator}\n${body}\n`;
  }
  if (pad.length + key.length + 2 + value.length <= WIDTH || !value.includes(' '))
    return `${pad}${key}: ${scalar(value)}\n`;
  return `${pad}${key}: >-\n${fold(value, `${pad}  `)}`;
}

/** Plain when YAML reads it back as the same string, double-quoted otherwise. */
function scalar(value: string): string {
  return parse(`k: ${value}`)?.k === value ? value : JSON.stringify(value);
}

function fold(text: string, pad: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of unbreakable(text.split(' '))) {
    if (line !== '' && pad.length + line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines.map((l) => `${pad}${l}\n`).join('');
}

/** Each line of the text becomes a comment, wrapped at the width. */
function comment(text: string, pad: string): string {
  return text
    .split('\n')
    .map((l) => (l === '' ? `${pad}#\n` : fold(l, `${pad}# `)))
    .join('');
}

function withoutComments(g: RuleGroup): unknown {
  const rules = g.rules.map(({ comment: _, ...r }) => r);
  return g.interval ? { name: g.name, interval: g.interval, rules } : { name: g.name, rules };
}

/** "ПДК м.р." and its kind stay on one line: a reader looks for them whole. */
function unbreakable(words: readonly string[]): string[] {
  const out: string[] = [];
  for (const word of words) {
    const last = out.at(-1);
    if (last !== undefined && /ПДК"?$/.test(last)) out[out.length - 1] = `${last} ${word}`;
    else out.push(word);
  }
  return out;
}
