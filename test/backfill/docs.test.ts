// The backfill's documentation must keep up with its flags: every flag of its table is in --help and in
// docs/backfill.md, and the README and the runbook point at it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { backfillHelp } from '../../src/backfill/config.js';
import { BACKFILL_LISTS, BACKFILL_SETTINGS, SHARED_SETTINGS } from '../../src/backfill/settings.js';
import { helpText } from '../../src/cli.js';

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const own = [...Object.values(BACKFILL_SETTINGS), ...Object.values(BACKFILL_LISTS)].map((s) => `--${s.flag}`);

describe('backfill documentation', () => {
  it('lists every flag, its own and the shared ones, in --help', () => {
    const help = backfillHelp('0.0.0');
    for (const flag of [
      ...own,
      ...Object.values(SHARED_SETTINGS).flatMap((s) => (s.flag ? [`--${s.flag}`] : [])),
    ])
      expect(help, flag).toContain(flag);
  });

  it("describes a shared setting exactly as the exporter's --help does: range, default, demo default", () => {
    const rowOf = (help: string, env: string): string => {
      const line = help.split('\n').find((l) => l.includes(` ${env} `)) ?? '';
      return line.slice(line.indexOf(` ${env} `) + env.length + 2).trimStart();
    };
    const exporter = helpText('0.0.0');
    const backfill = backfillHelp('0.0.0');
    for (const s of Object.values(SHARED_SETTINGS))
      expect(rowOf(backfill, s.env), s.env).toBe(rowOf(exporter, s.env));
    expect(rowOf(backfill, 'CITYAIR_TIMEOUT')).toContain('From 1ms to 5m. (default: 8s)');
    expect(rowOf(backfill, 'CITYAIR_REMOTE_WRITE_TIMEOUT')).toContain('From 1s to 1h. (default: 30s)');
    expect(backfill.replace(/\s+/g, ' ')).toContain('A boolean flag alone means true; --flag=false');
  });

  it('explains every flag of its own in docs/backfill.md', () => {
    const doc = read('docs/backfill.md');
    for (const flag of own) expect(doc, flag).toContain(flag);
  });

  it('is reached from the README and the runbook', () => {
    expect(read('README.md')).toContain('(docs/backfill.md)');
    expect(read('README.md')).toContain('docs/runbook.md#readings-missing-after-an-outage');
    expect(read('docs/runbook.md')).toContain('\n## Readings missing after an outage\n');
  });
});
