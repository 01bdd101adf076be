import { describe, expect, it } from 'vitest';
import { UNCONFIRMED_RULES } from '../../src/norms/reporting.js';
import { reportJson } from '../../src/report/json.js';
import { reportOf } from '../support/report-of.js';

describe('reportJson', () => {
  it('gives the period, labels and missing parts with RFC 3339 times, one document ending in a new line', () => {
    const text = reportJson(reportOf('<b>A</b>'), 'en');
    expect(text.endsWith('}\n')).toBe(true);
    const json = JSON.parse(text);
    expect(json.period).toEqual({ from: '2026-10-01T00:00:00.000Z', to: '2026-10-02T00:00:00.000Z' });
    expect(json.labels).toEqual({ job: 'x</code><script>' });
    expect(json.complete).toBe(false);
    expect(json.missing).toEqual([
      {
        stationId: '7',
        from: '2026-10-01T00:00:00.000Z',
        to: '2026-10-02T00:00:00.000Z',
        message: '<img src=x onerror=alert(1)>',
      },
    ]);
    expect(json.storeQueries).toBe(3);
  });

  it('keeps names as they are and figures unrounded, with each substance’s daily means', () => {
    const json = JSON.parse(reportJson(reportOf('<b>A</b>'), 'en'));
    const [station] = json.stations;
    expect(station).toMatchObject({ id: '7', name: '<b>A</b>' });
    expect(station.substances[0]).toMatchObject({ substance: 'no2' });
    expect(station.substances[0].chart).toBeUndefined();
    expect(Array.isArray(station.substances[0].dailyMeans)).toBe(true);
  });

  it('states the rules the figures rest on, in the report’s language', () => {
    const ru = JSON.parse(reportJson(reportOf('A'), 'ru'));
    expect(ru.rules).toEqual(UNCONFIRMED_RULES.map((r) => ({ key: r.key, text: r.ru })));
    const complete = { ...reportOf('A'), gaps: [] };
    expect(JSON.parse(reportJson(complete, 'en')).complete).toBe(true);
  });
});
