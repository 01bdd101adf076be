import { describe, expect, it } from 'vitest';
import { figuresOfRows } from '../../src/report/figures.js';
import type { Row } from '../../src/report/rows.js';
import { seriesChart } from '../../src/report/svg.js';

const FROM = Date.parse('2026-10-01T00:00:00Z');
const MIN = 60_000;
const DAY = 86_400_000;
const period = { fromMs: FROM, toMs: FROM + 3 * DAY };

const every5min = (n: number, value: (i: number) => number): Row[] =>
  Array.from({ length: n }, (_, i) => ({ atMs: FROM + i * 5 * MIN, value: value(i) }));

describe('seriesChart', () => {
  it('draws single values with the ПДК м.р. line and daily means with the ПДК с.с. line', () => {
    const figures = figuresOfRows(
      'no2',
      every5min(3 * 288, (i) => 50 + (i % 10)),
      period,
    );
    const svg = seriesChart(figures, period, 'en', 0, 'NO₂ at <Центр>');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).toContain('<title>NO₂ at &lt;Центр&gt;</title>');
    expect(svg).toContain('aria-label="NO₂ at &lt;Центр&gt;"');
    expect(svg).toContain('<polyline');
    expect(svg).toMatch(
      /<path fill="none" stroke="#1b3a57" stroke-width="2" d="(M[\d.]+ [\d.]+H[\d.]+){3}"\/>/,
    );
    expect(svg).toContain('>ПДК м.р.</text>');
    expect(svg).toContain('>ПДК с.с.</text>');
    expect(svg).toContain('>2026-10-01</text>');
    expect(svg).toContain('>2026-10-03</text>');
  });

  it('draws no ПДК м.р. line for a station without single values', () => {
    const hourly = Array.from({ length: 72 }, (_, i) => ({ atMs: FROM + i * 3_600_000, value: 40 }));
    const svg = seriesChart(figuresOfRows('no2', hourly, period), period, 'ru', 180, 'NO₂');
    expect(svg).not.toContain('ПДК м.р.');
    expect(svg).toContain('ПДК с.с.');
  });

  it('breaks the line where readings stop, rather than drawing across the gap', () => {
    const rows = [
      ...every5min(288, () => 30),
      ...every5min(288, () => 30).map((r) => ({ ...r, atMs: r.atMs + 2 * DAY })),
    ];
    const svg = seriesChart(figuresOfRows('no2', rows, period), period, 'en', 0, 'NO₂');
    expect(svg.match(/<polyline/g)).toHaveLength(2);
  });

  it('scales the axis to a round number above the highest value, written in the report’s language', () => {
    const svg = seriesChart(
      figuresOfRows(
        'co',
        every5min(288, () => 12_345),
        period,
      ),
      period,
      'ru',
      0,
      'CO',
    );
    expect(svg).toContain('>20\u00a0000</text>');
    expect(svg).toContain('>10\u00a0000</text>');
  });
});
