import { describe, expect, it } from 'vitest';
import { figuresOfRows } from '../../src/report/figures.js';
import { reportNotes } from '../../src/report/notes.js';
import type { Report } from '../../src/report/read.js';
import { REPORT_PERIOD, reportOf } from '../support/report-of.js';

const HOUR = 3_600_000;
const withPeriod = (report: Report, fromMs: number, toMs: number, offsetMinutes = 0): Report => ({
  ...report,
  request: { ...report.request, period: { fromMs, toMs, offsetMinutes } },
});

describe('reportNotes', () => {
  it('says nothing of a period on whole days with nothing left out', () => {
    expect(reportNotes(reportOf('A'), 'en')).toEqual([]);
  });

  it('explains edge slots and edge days of a period cut across them, on the report’s clock', () => {
    const { fromMs, toMs } = REPORT_PERIOD;
    const notes = reportNotes(withPeriod(reportOf('A'), fromMs + 10 * 60_000, toMs), 'en');
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatch(/^The period starts or ends off a 20-minute slot boundary/);
    expect(notes[1]).toMatch(/off midnight \(UTC\)/);
    const hours = reportNotes(withPeriod(reportOf('A'), fromMs + HOUR, toMs, 180), 'ru');
    expect(hours).toEqual([expect.stringContaining('не в полночь (UTC+03:00)')]);
  });

  it('counts negative concentrations left out per station and substance, with the Russian plural', () => {
    const { fromMs } = REPORT_PERIOD;
    const series = [
      figuresOfRows(
        'no2',
        [
          { atMs: fromMs, value: -1 },
          { atMs: fromMs + HOUR, value: -2 },
          { atMs: fromMs + 2 * HOUR, value: 40 },
        ],
        REPORT_PERIOD,
      ),
    ];
    const report = { ...reportOf('A'), stations: [{ id: '7', name: 'Центр', series }] };
    expect(reportNotes(report, 'ru')).toEqual([
      'Станция Центр (7), no2: не учтено 2 отрицательных значения концентрации (концентрация не может быть отрицательной).',
    ]);
    const unnamed = { ...report, stations: [{ id: '7', name: '', series }] };
    expect(reportNotes(unnamed, 'en')).toEqual([
      'Station 7, no2: 2 negative concentrations left out (a concentration cannot be negative).',
    ]);
  });

  it('counts late samples', () => {
    expect(reportNotes({ ...reportOf('A'), lateSamples: 5 }, 'ru')).toEqual([
      expect.stringMatching(/^Не учтено: 5 отсчётов строк/),
    ]);
  });
});
