// The record's documentation keeps up with its flags: every flag is in the exporter's --help and in
// docs/record.md, every metric of its table is in the doc, and the README points at it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { helpText } from '../../src/cli.js';
import { RECORD_METRICS } from '../../src/record/metrics.js';
import { RECORD_LISTS, RECORD_SETTINGS } from '../../src/record/settings.js';

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const flags = [...Object.values(RECORD_SETTINGS), ...Object.values(RECORD_LISTS)].map((s) => `--${s.flag}`);

describe('record documentation', () => {
  it('lists every flag in --help and in docs/record.md', () => {
    const help = helpText('0.0.0');
    const doc = read('docs/record.md');
    for (const flag of flags) {
      expect(help, flag).toContain(flag);
      expect(doc, flag).toContain(flag);
    }
  });

  it('describes every metric in docs/record.md', () => {
    const doc = read('docs/record.md');
    for (const m of Object.values(RECORD_METRICS)) expect(doc, m.name).toContain(`\`${m.name}`);
  });

  it('is reached from the README and the runbook', () => {
    expect(read('README.md')).toContain('(docs/record.md)');
    expect(read('docs/runbook.md')).toContain('\n## CityAirDataCaptureLow\n');
  });
});
