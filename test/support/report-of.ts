// A one-station report built in process, for the tests of the report's outputs: NO₂ at 460 µg/m³ on one row,
// and upstream text that must come out as text (a station name, a label value, a gap's message).
import { figuresOfRows } from '../../src/report/figures.js';
import { networkFigures } from '../../src/report/network.js';
import type { Report } from '../../src/report/read.js';

export const REPORT_PERIOD = {
  fromMs: Date.parse('2026-10-01T00:00:00Z'),
  toMs: Date.parse('2026-10-02T00:00:00Z'),
};

export function reportOf(name: string): Report {
  const period = REPORT_PERIOD;
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
