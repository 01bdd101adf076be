// A station's substance over the period in the figures of Roshydromet's reviews: single values and data capture,
// the mean against ПДК с.с., the largest single value and СИ, П, the counts above 1, 5 and 10 ПДК м.р., the share
// of time in each band, the days above ПДК с.с., and for WHO the days above the 24-hour guideline and the 99th
// percentile of daily means. A station whose rows come hourly or daily has no single values: means only.
import { bandOf, normValue } from '../norms/lookup.js';
import { exceeds, SINGLE_SLOT_MS, UNCONFIRMED } from '../norms/reporting.js';
import { COVERAGE } from '../norms/table.js';
import type { Row } from './rows.js';
import {
  addRow,
  CHART_POINTS,
  cadenceMs,
  closeSeries,
  DAY_MS,
  daysIn,
  hoursIn,
  newSeries,
  type Period,
  type SeriesState,
  slotsIn,
  unitOf,
} from './series.js';

/** What the rows allow: 20-minute single values, or only hourly or daily means. */
/** `unknown`: one row and none around it, so no cadence; its figures are taken as of hourly rows, and it says so. */
export type Resolution = 'single' | 'hourly' | 'daily' | 'unknown' | 'none';

export interface SingleFigures {
  readonly count: number;
  readonly max: number;
  readonly maxAtMs: number;
  /** max / ПДК м.р.; undefined where the substance has none. */
  readonly si: number | undefined;
  /** П, % of single values above ПДК м.р. */
  readonly p: number | undefined;
  /** Single values above 1, 5 and 10 ПДК м.р. */
  readonly above: readonly [number, number, number] | undefined;
  /** Share of single values (%) at most 1, above 1 to 2, above 2 to 5, above 5 ПДК м.р. */
  readonly bands: readonly [number, number, number, number] | undefined;
}

export interface SeriesFigures {
  readonly substance: string;
  readonly resolution: Resolution;
  readonly cadenceMs: number | undefined;
  readonly rows: number;
  /** Rows left out as physically impossible (negative concentrations). */
  readonly impossibleRows: number;
  /** Share (0–1) of the period's slots (single), hours (hourly) or days (daily) that hold data. */
  readonly capture: number;
  /** Mean of the hours' means (daily rows: of the days'), µg/m³. */
  readonly mean: number | undefined;
  readonly meanOfDailyNorm: number | undefined;
  readonly single: SingleFigures | undefined;
  readonly validDays: number;
  readonly days: number;
  readonly daysAboveDailyNorm: number | undefined;
  readonly whoDaysAbove: number | undefined;
  readonly whoP99: number | undefined;
  /** Days holding a reading, for the annual mean's 274. */
  readonly daysWithData: number;
  /** The mean counts as an annual mean (ИЗА): the period is a year and 274 of its days hold readings. */
  readonly annualValid: boolean;
  readonly chart: Chart;
}

export interface Chart {
  /** Start of the first point of `singles`: the clock slot holding --from. */
  readonly startMs: number;
  /** Start of the first day of `daily`: midnight on the report's clock at or before --from. */
  readonly dayStartMs: number;
  /** Width of one point of `singles`, ms. */
  readonly bucketMs: number;
  /** The highest single value in each bucket, null where there is none. */
  readonly singles: readonly (number | null)[];
  /** Each day's mean, null where it is not valid. */
  readonly daily: readonly (number | null)[];
}

export function resolutionOf(cadence: number | undefined, rows: number): Resolution {
  if (rows === 0) return 'none';
  if (cadence === undefined) return 'unknown';
  if (cadence <= SINGLE_SLOT_MS) return 'single';
  return cadence < DAY_MS ? 'hourly' : 'daily';
}

export function seriesFigures(substance: string, state: SeriesState): SeriesFigures {
  const cadence = cadenceMs(state);
  const resolution = resolutionOf(cadence, state.rows);
  const { period } = state;
  const daily = dailyMeans(state, resolution);
  const valid = daily.filter((d): d is number => d !== null);
  const mean = periodMean(state, resolution);
  const pdkDaily = normValue(substance, 'pdk-daily');
  const who = normValue(substance, 'who-24h');
  const single = resolution === 'single' ? singleFigures(substance, state) : undefined;
  const daysWithData = countDays(state, resolution);
  return {
    substance,
    resolution,
    cadenceMs: cadence,
    rows: state.rows,
    impossibleRows: state.impossible,
    capture: captureOf(state, resolution, period, daysWithData),
    mean,
    meanOfDailyNorm: mean !== undefined && pdkDaily !== undefined ? mean / pdkDaily : undefined,
    single,
    validDays: valid.length,
    days: daysIn(period),
    // No valid day is no count, not a count of 0 (a station the store failed has none).
    daysAboveDailyNorm: countAbove(valid, pdkDaily),
    whoDaysAbove: countAbove(valid, who),
    whoP99: who === undefined ? undefined : nearestRank(valid, UNCONFIRMED.percentile),
    daysWithData,
    annualValid: period.toMs - period.fromMs >= 365 * DAY_MS && daysWithData >= COVERAGE['1y'].atLeast,
    chart: chartOf(state, resolution, daily),
  };
}

function singleFigures(substance: string, state: SeriesState): SingleFigures | undefined {
  const { singles, singleSlots } = state;
  if (singles.length === 0) return undefined;
  let maxIndex = 0;
  for (let i = 1; i < singles.length; i++)
    if ((singles[i] as number) > (singles[maxIndex] as number)) maxIndex = i;
  const max = singles[maxIndex] as number;
  const maxAtMs = state.originMs + (singleSlots[maxIndex] as number) * SINGLE_SLOT_MS;
  const pdk = normValue(substance, 'pdk-single');
  if (pdk === undefined)
    return {
      count: singles.length,
      max,
      maxAtMs,
      si: undefined,
      p: undefined,
      above: undefined,
      bands: undefined,
    };
  const above: [number, number, number] = [0, 0, 0];
  const bands: [number, number, number, number] = [0, 0, 0, 0];
  for (const value of singles) {
    const multiple = value / pdk;
    if (exceeds(multiple, 1)) above[0]++;
    if (exceeds(multiple, 5)) above[1]++;
    if (exceeds(multiple, 10)) above[2]++;
    bands[bandOf(multiple)]++;
  }
  const share = (n: number): number => (100 * n) / singles.length;
  return {
    count: singles.length,
    max,
    maxAtMs,
    si: max / pdk,
    p: share(above[0]),
    above,
    bands: [share(bands[0]), share(bands[1]), share(bands[2]), share(bands[3])],
  };
}

/** Each day's mean, or null: the mean of its hours when 18 of 24 hold rows; daily rows are their own mean. */
export function dailyMeans(state: SeriesState, resolution: Resolution): (number | null)[] {
  const out: (number | null)[] = [];
  for (let d = 0; d < state.dayHours.length; d++) {
    if (resolution === 'daily') {
      const rows = state.dayRows[d] as number;
      out.push(rows > 0 ? (state.dayRowSums[d] as number) / rows : null);
      continue;
    }
    const hours = state.dayHours[d] as number;
    out.push(hours >= COVERAGE['24h'].atLeast ? (state.dayHourSums[d] as number) / hours : null);
  }
  return out;
}

function periodMean(state: SeriesState, resolution: Resolution): number | undefined {
  let sum = 0;
  let n = 0;
  for (let d = 0; d < state.dayHours.length; d++) {
    if (resolution === 'daily') {
      const rows = state.dayRows[d] as number;
      if (rows > 0) {
        sum += (state.dayRowSums[d] as number) / rows;
        n++;
      }
    } else {
      sum += state.dayHourSums[d] as number;
      n += state.dayHours[d] as number;
    }
  }
  return n === 0 ? undefined : sum / n;
}

function countDays(state: SeriesState, resolution: Resolution): number {
  const days: ArrayLike<number> = resolution === 'daily' ? state.dayRows : state.dayHours;
  let n = 0;
  for (let d = 0; d < days.length; d++) if ((days[d] as number) > 0) n++;
  return n;
}

function captureOf(state: SeriesState, resolution: Resolution, period: Period, days: number): number {
  if (resolution === 'single') return state.singles.length / slotsIn(period);
  if (resolution === 'hourly' || resolution === 'unknown')
    return state.dayHours.reduce((n, v) => n + v, 0) / hoursIn(period);
  if (resolution === 'daily') return days / daysIn(period);
  return 0;
}

function countAbove(days: readonly number[], norm: number | undefined): number | undefined {
  return norm === undefined || days.length === 0 ? undefined : days.filter((d) => exceeds(d, norm)).length;
}

/** Nearest rank: the ⌈q n⌉-th smallest. */
export function nearestRank(values: readonly number[], q: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil(Number((q * sorted.length).toPrecision(12))));
  return sorted[rank - 1];
}

function chartOf(state: SeriesState, resolution: Resolution, daily: (number | null)[]): Chart {
  const slots = slotsIn(state.period);
  const perBucket = Math.max(1, Math.ceil(slots / CHART_POINTS));
  const bucketMs = perBucket * SINGLE_SLOT_MS;
  const firstSlot = unitOf(state.period, SINGLE_SLOT_MS, state.period.fromMs);
  const frame = {
    startMs: state.originMs + firstSlot * SINGLE_SLOT_MS,
    dayStartMs: state.originMs,
    bucketMs,
  };
  if (resolution !== 'single') return { ...frame, singles: [], daily };
  const singles: (number | null)[] = new Array(Math.ceil(slots / perBucket)).fill(null);
  state.singles.forEach((value, i) => {
    const bucket = Math.floor(((state.singleSlots[i] as number) - firstSlot) / perBucket);
    const was = singles[bucket];
    if (was === null || was === undefined || value > was) singles[bucket] = value;
  });
  return { ...frame, singles, daily };
}

/** The figures of rows already deduplicated and in time order: what the store reader does, for plain data. */
export function figuresOfRows(substance: string, rows: Iterable<Row>, period: Period): SeriesFigures {
  const state = newSeries(period);
  for (const row of rows) addRow(state, row);
  closeSeries(state);
  return seriesFigures(substance, state);
}
