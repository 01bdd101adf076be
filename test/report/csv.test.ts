// The report's spreadsheet: a station name is text, never a formula, and numbers are written bare.
import { describe, expect, it } from 'vitest';
import { reportCsv } from '../../src/report/csv.js';
import { reportOf } from '../support/report-of.js';

describe('reportCsv', () => {
  it('keeps a station name that looks like a formula from running in a spreadsheet', () => {
    const csv = reportCsv(reportOf('=HYPERLINK("http://evil")'), 'en', 0);
    const line = csv.split('\r\n')[1] ?? '';
    expect(line.startsWith('7,"\'=HYPERLINK(""http://evil"")",no2,')).toBe(true);
    expect(line).toContain(',no,');
  });

  it('guards a text cell starting with a minus and a digit, and writes numbers bare', () => {
    for (const name of ["-2+3+cmd|' /C calc'!A0", '+1', '@SUM(1)', '\t=1', '-']) {
      const cells = (reportCsv(reportOf(name), 'en', 0).split('\r\n')[1] ?? '').split(',');
      expect(cells[1]?.replace(/^"/, '')).toBe(`'${name}`);
    }
    const cells = (reportCsv(reportOf('Центр'), 'en', 0).split('\r\n')[1] ?? '').split(',');
    expect(cells.slice(0, 3)).toEqual(['7', 'Центр', 'no2']);
    // rows, single values (one row is hourly: none), capture, mean, mean in ПДК с.с., max: numbers as written.
    expect(cells.slice(5, 11)).toEqual(['1', '', '4.2', '460.0', '4.6', '']);
  });
});
