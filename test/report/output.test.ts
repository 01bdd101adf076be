// What the report's outputs do with text from upstream and with numbers: a station name is text in the CSV and the
// page, never a formula or markup, and numbers are written as a person writes them.
import { describe, expect, it } from 'vitest';
import { reportCsv } from '../../src/report/csv.js';
import { figuresOfRows } from '../../src/report/figures.js';
import { REPORT_CSP, reportHtml } from '../../src/report/html.js';
import { networkFigures } from '../../src/report/network.js';
import { formatNumber, formatTime } from '../../src/report/numbers.js';
import type { Report } from '../../src/report/read.js';

const period = { fromMs: Date.parse('2026-10-01T00:00:00Z'), toMs: Date.parse('2026-10-02T00:00:00Z') };

function reportOf(name: string): Report {
  const series = [figuresOfRows('no2', [{ atMs: period.fromMs, value: 460 }], period)];
  const stations = [{ id: '7', name, series }];
  return {
    request: { period, matchers: [['job', 'x</code><script>']], stations: undefined },
    stations,
    network: networkFigures(stations, period),
    gaps: [
      { stationId: '7', fromMs: period.fromMs, toMs: period.toMs, message: '<img src=x onerror=alert(1)>' },
    ],
    lateSamples: 0,
    queries: 3,
  };
}

describe('report outputs', () => {
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

  it('escapes every text from outside in the page and forbids every request in its policy', () => {
    const html = reportHtml(reportOf('<script>alert(1)</script>'), {
      lang: 'en',
      offsetMinutes: 0,
      generatedAtMs: 0,
    });
    expect(html).not.toMatch(/<script|<img/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('INCOMPLETE REPORT');
    expect(REPORT_CSP).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; img-src 'none'/);
    expect(html).not.toMatch(/(?:src|href)=["']?https?:/);
  });

  it('writes numbers with a decimal comma in Russian, rounded half away from zero, grouped when asked', () => {
    expect(formatNumber(2.35, 1, 'ru')).toBe('2,4');
    expect(formatNumber(2.35, 1, 'en')).toBe('2.4');
    expect(formatNumber(12_345.67, 1, 'ru', true)).toBe('12\u00a0345,7');
    expect(formatNumber(12_345.67, 0, 'en', true)).toBe('12,346');
    expect(formatNumber(undefined, 1, 'ru')).toBe('');
    expect(formatTime(Date.parse('2026-10-02T09:00:00Z'), 180)).toBe('2026-10-02 12:00 UTC+03:00');
  });

  it('captions the chart of a station without single values with daily means only', () => {
    // One row: an hourly station, no single values, no ПДК м.р. line.
    const html = reportHtml(reportOf('Часовая'), {
      lang: 'en',
      offsetMinutes: 0,
      generatedAtMs: period.fromMs,
    });
    expect(html).toContain('daily means and ПДК с.с. (no single values: rows hourly or daily)');
    expect(html).not.toContain('single values (highest in each chart step)');
  });

  it('states the report’s own reason for a missing part in the page’s language, with the Russian plural', () => {
    const reason = {
      kind: 'unpaired',
      substance: 'no2',
      count: 288,
      rowTime: 'cityair_measurement_timestamp_seconds',
    } as const;
    const gap = { stationId: '7', fromMs: period.fromMs, toMs: period.toMs, message: 'in English', reason };
    const html = reportHtml(
      { ...reportOf('A'), gaps: [gap] },
      { lang: 'ru', offsetMinutes: 0, generatedAtMs: 0 },
    );
    expect(html).toContain('не учтено 288 отсчётов no2 без cityair_measurement_timestamp_seconds');
    expect(html).not.toContain('in English');
  });

  it('prints the terms of an ИЗА shown with more places near an edge with as many places, so they add up', () => {
    const report = reportOf('A');
    const term = (substance: string, value: number) => ({
      substance,
      mean: 40,
      norm: 40,
      exponent: 1,
      term: value,
      stations: 1,
    });
    const iza = { value: 4.99996, terms: [term('no2', 2.99997), term('so2', 1.99999)] };
    const html = reportHtml(
      { ...report, network: { ...report.network, iza } },
      { lang: 'ru', offsetMinutes: 0, generatedAtMs: 0 },
    );
    expect(html).toContain('>4,99996<');
    expect(html).toContain('= 2,99997;');
    expect(html).toContain('= 1,99999<');
  });
});
