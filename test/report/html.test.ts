// The report's page: text from upstream stays text under a policy that forbids every request, and the page
// says in its own language what is missing and how its figures add up.
import { describe, expect, it } from 'vitest';
import { REPORT_CSP, reportHtml } from '../../src/report/html.js';
import { REPORT_PERIOD, reportOf } from '../support/report-of.js';

describe('reportHtml', () => {
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

  it('captions the chart of a station without single values with daily means only', () => {
    // One row: an hourly station, no single values, no ПДК м.р. line.
    const html = reportHtml(reportOf('Часовая'), {
      lang: 'en',
      offsetMinutes: 0,
      generatedAtMs: REPORT_PERIOD.fromMs,
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
    const gap = {
      stationId: '7',
      fromMs: REPORT_PERIOD.fromMs,
      toMs: REPORT_PERIOD.toMs,
      message: 'in English',
      reason,
    };
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
