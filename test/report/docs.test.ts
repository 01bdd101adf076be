// The report's documentation keeps up with its flags and its CSV: every flag in --help, docs/report.md and the
// README's table (with its variable and default), every CSV column explained.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { reportHelp } from '../../src/report/config.js';
import { CSV_COLUMNS } from '../../src/report/csv.js';
import { REPORT_LISTS, REPORT_SETTINGS } from '../../src/report/settings.js';

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const flags = [...Object.values(REPORT_SETTINGS), ...Object.values(REPORT_LISTS)].map((s) => `--${s.flag}`);

describe('report documentation', () => {
  it('lists every flag in --help, docs/report.md and the README', () => {
    const help = reportHelp('0.0.0');
    const doc = read('docs/report.md');
    const readme = read('README.md');
    for (const flag of flags) {
      expect(help, flag).toContain(flag);
      expect(doc, flag).toContain(`\`${flag}\``);
      expect(readme, flag).toContain(`\`${flag}\``);
    }
  });

  it('gives each setting its variable and default in a row of the README and of docs/report.md', () => {
    for (const file of ['README.md', 'docs/report.md']) {
      const rows = read(file)
        .split('\n')
        .filter((l) => l.startsWith('|'));
      for (const s of Object.values(REPORT_SETTINGS)) {
        const row = rows.find((l) => l.includes(`\`--${s.flag}\``) && l.includes(`\`${s.env}\``));
        expect(row, `${file}: ${s.flag}`).toBeDefined();
        if (s.default) expect(row, `${file}: ${s.flag}`).toContain(`\`${s.default}\``);
      }
    }
  });

  it('explains every CSV column with its header in both languages in docs/report.md, and the README points there', () => {
    const doc = read('docs/report.md');
    for (const column of CSV_COLUMNS) {
      const row = doc.split('\n').find((l) => l.startsWith(`| \`${column.key}\` |`));
      expect(row, column.key).toContain(`| \`${column.ru}\` | \`${column.en}\` |`);
    }
    expect(read('README.md')).toContain('(docs/report.md)');
  });
});
