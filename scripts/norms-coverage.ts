// The data capture a mean needs, in PromQL and in words, for the rules file and the dashboard's annual panel alike:
// the mean is present only where enough slices of its window (hours, or days for the year) hold a reading.
import { COVERAGE, type Coverage, DATA_CAPTURE, type FamilyInfo } from '../src/norms/table.js';

/** The labels that make one series of means: a station's substance as one exporter exposes it. */
const SERIES = 'job, instance, id, substance';

function coverageOf(averaging: FamilyInfo['averaging']): Coverage | undefined {
  return averaging === '20m' ? undefined : COVERAGE[averaging];
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const DURATION_MS: Readonly<Record<string, number>> = {
  '1h': HOUR_MS,
  '8h': 8 * HOUR_MS,
  '24h': DAY_MS,
  '1d': DAY_MS,
  '1y': 365 * DAY_MS,
};

/** A millisecond less than a duration, in PromQL's compound form: `1d` gives `23h59m59s999ms`. */
function justUnder(d: string): string {
  const ms = (DURATION_MS[d] ?? Number.NaN) - 1;
  const parts: [number, string][] = [
    [Math.floor(ms / DAY_MS), 'd'],
    [Math.floor(ms / HOUR_MS) % 24, 'h'],
    [Math.floor(ms / 60_000) % 60, 'm'],
    [Math.floor(ms / 1000) % 60, 's'],
    [ms % 1000, 'ms'],
  ];
  return parts.map(([n, unit]) => (n > 0 ? `${n}${unit}` : '')).join('');
}

/**
 * The window as slices (hours, or days for the year): the whole clock hours (UTC days) the window ends with, each
 * the mean of the readings it holds, by a subquery stepped by the slice. Each step reads one slice, so the window
 * is read once. The ranges are a millisecond short of a slice and of the window: Prometheus 2 closes a range at
 * both ends, so a row on the hour (hourly and daily rows are) would count in two slices, and a window ending on
 * the hour would hold one slice too many.
 */
function slices(averaging: FamilyInfo['averaging'], selector: string): string | undefined {
  const c = coverageOf(averaging);
  if (!c) return undefined;
  return `avg_over_time(${selector}[${justUnder(c.slice)}])[${justUnder(averaging)}:${c.slice}]`;
}

/** The condition that enough slices of the window hold readings. */
export function coverageCondition(averaging: FamilyInfo['averaging'], selector: string): string | undefined {
  const window = slices(averaging, selector);
  const c = coverageOf(averaging);
  return window && c ? `count_over_time(${window}) >= ${c.atLeast}` : undefined;
}

/** `expr` kept only for the series whose window, read by `selector`, holds enough readings. */
export function covered(expr: string, averaging: FamilyInfo['averaging'], selector: string): string {
  const condition = coverageCondition(averaging, selector);
  return condition ? `${expr}\nand on (${SERIES})\n${condition}` : expr;
}

/**
 * The mean over the window. Where the window is sliced, it is the mean of its slices' means, so each hour (day)
 * weighs the same whatever the number of readings in it: an hour of 30-second scrapes after hourly backfilled
 * rows counts as one hour, not as 120 rows.
 */
export function slicedMean(averaging: FamilyInfo['averaging'], selector: string): string {
  const window = slices(averaging, selector);
  return window ? `avg_over_time(${window})` : `avg_over_time(${selector}[${averaging}])`;
}

/** The mean over the window, present only where enough of the window holds readings. */
export function meanExpr(averaging: FamilyInfo['averaging'], selector: string): string {
  return covered(slicedMean(averaging, selector), averaging, selector);
}

/** "75 %", as the docs and comments write the data capture. */
export const DATA_CAPTURE_TEXT = `${Math.round(DATA_CAPTURE * 100)} %`;

/** "18 of the 24 hours", "274 of the 365 days". */
export function coverageText(averaging: keyof typeof COVERAGE): string {
  const c = COVERAGE[averaging];
  return `${c.atLeast} of the ${c.slices} ${c.slice === '1h' ? 'hours' : 'days'}`;
}
