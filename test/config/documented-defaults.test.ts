// Wherever README.md or docs/ quote a setting's default next to its flag ("`--upstream.timeout` (8 s by
// default)", "`--upstream.max-backoff`, 1 minute by default"), the quote is the settings table's default.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BACKFILL_SETTINGS } from '../../src/backfill/settings.js';
import { SETTINGS } from '../../src/cli.js';
import { parseByteSize, parseDurationMs } from '../../src/config/units.js';
import { RECORD_SETTINGS } from '../../src/record/settings.js';
import { REPORT_SETTINGS } from '../../src/report/settings.js';

const ROOT = new URL('../../', import.meta.url);
const FILES = [
  'README.md',
  ...readdirSync(new URL('docs/', ROOT))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

const UNITS: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1000,
  second: 1000,
  seconds: 1000,
  m: 60_000,
  min: 60_000,
  minute: 60_000,
  minutes: 60_000,
  h: 3_600_000,
  hour: 3_600_000,
  hours: 3_600_000,
  KiB: 1024,
  MiB: 1024 ** 2,
};

interface Quote {
  readonly file: string;
  readonly flag: string;
  readonly text: string;
  readonly value: number;
}

function quotes(file: string): Quote[] {
  const text = readFileSync(new URL(file, ROOT), 'utf8').replace(/\s+/g, ' ');
  const found = text.matchAll(
    /`--([a-z.-]+)`(?: \(|, )(\d+(?:\.\d+)?) ?(ms|s|seconds?|min|minutes?|m|h|hours?|KiB|MiB)\b/g,
  );
  return [...found].map((m) => ({
    file,
    flag: m[1] ?? '',
    text: m[0],
    value: Number(m[2]) * (UNITS[m[3] ?? ''] ?? Number.NaN),
  }));
}

const defaultOf = (flag: string): number | undefined => {
  // The backfill's, the report's and the record's own tables count as much as the exporter's.
  const spec = [
    ...Object.values(SETTINGS),
    ...Object.values(BACKFILL_SETTINGS),
    ...Object.values(REPORT_SETTINGS),
    ...Object.values(RECORD_SETTINGS),
  ].find((s) => s.flag === flag);
  if (spec?.default === undefined) return undefined;
  return parseDurationMs(spec.default) ?? parseByteSize(spec.default);
};

describe('defaults quoted in the documentation', () => {
  const all = FILES.flatMap(quotes);

  it('finds the quotes', () => {
    expect(all.length).toBeGreaterThanOrEqual(6);
    expect(all.map((q) => q.flag)).toContain('upstream.max-backoff');
  });

  it.each(all.map((q) => [q.file, q.text, q]))('%s: %s is the default', (_file, _text, q) => {
    expect(defaultOf(q.flag), q.flag).toBe(q.value);
  });
});
