// A chart of one station's substance, drawn as inline SVG: the single values over the period (the highest in each
// step of the chart) with the ПДК м.р. line, and the valid daily means as steps with the ПДК с.с. line.
import { normValue } from '../norms/lookup.js';
import { escapeHtml } from '../status/html.js';
import type { SeriesFigures } from './figures.js';
import { formatDate, formatNumber, type Lang } from './numbers.js';
import { DAY_MS, type Period } from './series.js';

const W = 680;
const H = 190;
const LEFT = 48;
const RIGHT = 8;
const TOP = 10;
const BOTTOM = 24;
const COLOURS = { single: '#4a90c2', daily: '#1b3a57', singleNorm: '#c0392b', dailyNorm: '#e67e22' };

export function seriesChart(
  s: SeriesFigures,
  period: Period,
  lang: Lang,
  offsetMinutes: number,
  title: string,
): string {
  const pdkSingle = normValue(s.substance, 'pdk-single');
  const pdkDaily = normValue(s.substance, 'pdk-daily');
  const values = [...s.chart.singles, ...s.chart.daily, s.single ? pdkSingle : undefined, pdkDaily].filter(
    (v): v is number => typeof v === 'number' && Number.isFinite(v),
  );
  const top = niceCeiling(Math.max(1, ...values) * 1.05);
  const span = period.toMs - period.fromMs;
  const x = (ms: number): number => LEFT + ((ms - period.fromMs) / span) * (W - LEFT - RIGHT);
  const y = (v: number): number => TOP + (1 - v / top) * (H - TOP - BOTTOM);
  const parts: string[] = [];
  for (const tick of [0, top / 2, top])
    parts.push(
      `<line x1="${LEFT}" x2="${W - RIGHT}" y1="${f(y(tick))}" y2="${f(y(tick))}" stroke="#ddd"/>`,
      `<text x="${LEFT - 4}" y="${f(y(tick) + 4)}" text-anchor="end" font-size="10">${escapeHtml(formatNumber(tick, Number.isInteger(tick) ? 0 : 1, lang, true))}</text>`,
    );
  parts.push(
    `<text x="${LEFT}" y="${H - 6}" font-size="10">${formatDate(period.fromMs, offsetMinutes)}</text>`,
    `<text x="${W - RIGHT}" y="${H - 6}" font-size="10" text-anchor="end">${formatDate(period.toMs - 1, offsetMinutes)}</text>`,
  );
  parts.push(
    ...polylines(
      s.chart.singles,
      (i) =>
        x(Math.max(period.fromMs, Math.min(period.toMs, s.chart.startMs + (i + 0.5) * s.chart.bucketMs))),
      y,
      COLOURS.single,
      1,
    ),
  );
  // One path of steps for the daily means: a year is 365 segments, in one element rather than 365.
  const steps: string[] = [];
  s.chart.daily.forEach((v, d) => {
    if (v === null) return;
    const x1 = x(Math.max(period.fromMs, s.chart.dayStartMs + d * DAY_MS));
    const x2 = x(Math.min(period.toMs, s.chart.dayStartMs + (d + 1) * DAY_MS));
    steps.push(`M${f(x1)} ${f(y(v))}H${f(x2)}`);
  });
  if (steps.length > 0)
    parts.push(`<path fill="none" stroke="${COLOURS.daily}" stroke-width="2" d="${steps.join('')}"/>`);
  // The two labels at opposite ends, so that close norms do not write over each other.
  if (s.single && pdkSingle !== undefined)
    parts.push(normLine(pdkSingle, y, COLOURS.singleNorm, 'ПДК м.р.', 'end'));
  if (pdkDaily !== undefined) parts.push(normLine(pdkDaily, y, COLOURS.dailyNorm, 'ПДК с.с.', 'start'));
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-label="${escapeHtml(title)}"><title>${escapeHtml(title)}</title>${parts.join('')}</svg>`;
}

function normLine(
  value: number,
  y: (v: number) => number,
  colour: string,
  label: string,
  anchor: 'start' | 'end',
): string {
  const x = anchor === 'end' ? W - RIGHT - 2 : LEFT + 2;
  return `<line x1="${LEFT}" x2="${W - RIGHT}" y1="${f(y(value))}" y2="${f(y(value))}" stroke="${colour}" stroke-dasharray="5 3"/><text x="${x}" y="${f(y(value) - 3)}" text-anchor="${anchor}" font-size="10" fill="${colour}">${label}</text>`;
}

/** One polyline per run of values without a gap. */
function polylines(
  values: readonly (number | null)[],
  x: (i: number) => number,
  y: (v: number) => number,
  colour: string,
  width: number,
): string[] {
  const out: string[] = [];
  let run: string[] = [];
  const flush = (): void => {
    if (run.length === 1) run.push(run[0] as string);
    if (run.length > 0)
      out.push(
        `<polyline fill="none" stroke="${colour}" stroke-width="${width}" points="${run.join(' ')}"/>`,
      );
    run = [];
  };
  values.forEach((v, i) => {
    if (v === null) flush();
    else run.push(`${f(x(i))},${f(y(v))}`);
  });
  flush();
  return out;
}

const f = (n: number): string => n.toFixed(1);

/** 1, 2 or 5 times a power of ten, at least `value`. */
function niceCeiling(value: number): number {
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}
