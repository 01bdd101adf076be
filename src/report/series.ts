// One station's one substance over the period, taken a row at a time in time order and kept as running sums, so
// a year costs a few arrays of days and chart buckets, not its rows. Rows go into 20-minute slots (a slot's mean
// is a single value), clock hours (an hour's mean is the mean of its rows) and days (a day's mean is the mean of
// its hours); all three are on the report's clock (the offset --from was written with): slots start at :00, :20
// and :40, days at its midnight, whatever --from is. A slot, hour or day only partly inside the period holds only
// the rows inside it: a day cut by the period's edge is valid only when 18 of its hours are inside and hold rows.
import { SINGLE_SLOT_MS, UNCONFIRMED } from '../norms/reporting.js';
import type { Row } from './rows.js';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
/** At most this many chart points per substance: a year of single values is 26,280. */
export const CHART_POINTS = 720;

export interface Period {
  readonly fromMs: number;
  readonly toMs: number;
  /** The report's clock as a UTC offset, minutes (the offset --from was written with); 0 when absent. */
  readonly offsetMinutes?: number;
}

export interface SeriesState {
  readonly period: Period;
  /** Midnight on the report's clock at or before --from: slots, hours and days are counted from it. */
  readonly originMs: number;
  rows: number;
  /** Rows left out as physically impossible (a negative concentration). */
  impossible: number;
  lastRowMs: number | undefined;
  /** How often each gap between rows occurs: the station's cadence is the median gap. */
  readonly gaps: Map<number, number>;
  slot: number;
  slotSum: number;
  slotRows: number;
  hour: number;
  hourSum: number;
  hourRows: number;
  /** The single values, in slot order (one per slot that holds rows); a year is 26,280 at most. */
  readonly singles: number[];
  readonly singleSlots: number[];
  readonly dayHourSums: Float64Array;
  readonly dayHours: Uint8Array;
  readonly dayRowSums: Float64Array;
  readonly dayRows: Uint32Array;
}

/** Midnight on the report's clock at or before the period's start. */
export function originOf(p: Period): number {
  const offsetMs = (p.offsetMinutes ?? 0) * 60_000;
  return Math.floor((p.fromMs + offsetMs) / DAY_MS) * DAY_MS - offsetMs;
}

/** The index, from the origin, of the clock unit (slot, hour, day) holding `ms`. */
export const unitOf = (p: Period, unitMs: number, ms: number): number =>
  Math.floor((ms - originOf(p)) / unitMs);

/** Clock units the period touches, the partial ones at its edges included. */
const unitsIn = (p: Period, unitMs: number): number =>
  unitOf(p, unitMs, p.toMs - 1) - unitOf(p, unitMs, p.fromMs) + 1;

export const daysIn = (p: Period): number => unitsIn(p, DAY_MS);
export const hoursIn = (p: Period): number => unitsIn(p, HOUR_MS);
export const slotsIn = (p: Period): number => unitsIn(p, SINGLE_SLOT_MS);

/** Whether --from and --to fall on the clock's unit boundaries (slots, days): the notes say when not. */
export const onBoundaries = (p: Period, unitMs: number): boolean =>
  (p.fromMs - originOf(p)) % unitMs === 0 && (p.toMs - originOf(p)) % unitMs === 0;

export function newSeries(period: Period): SeriesState {
  const days = daysIn(period);
  return {
    period,
    originMs: originOf(period),
    rows: 0,
    impossible: 0,
    lastRowMs: undefined,
    gaps: new Map(),
    slot: -1,
    slotSum: 0,
    slotRows: 0,
    hour: -1,
    hourSum: 0,
    hourRows: 0,
    singles: [],
    singleSlots: [],
    dayHourSums: new Float64Array(days),
    dayHours: new Uint8Array(days),
    dayRowSums: new Float64Array(days),
    dayRows: new Uint32Array(days),
  };
}

/**
 * Takes the next row; rows must come in increasing time, each once, inside the period. A negative concentration
 * is no measurement of the air: it is counted apart and left out of every figure but the station's cadence.
 */
export function addRow(state: SeriesState, row: Row): void {
  noteCadence(state, row.atMs);
  if (row.value < 0) {
    state.impossible++;
    return;
  }
  const offset = row.atMs - state.originMs;
  const slot = Math.floor(offset / SINGLE_SLOT_MS);
  const hour = Math.floor(offset / HOUR_MS);
  if (slot !== state.slot) closeSlot(state, slot);
  if (hour !== state.hour) closeHour(state, hour);
  state.slotSum += row.value;
  state.slotRows++;
  state.hourSum += row.value;
  state.hourRows++;
  const day = Math.floor(offset / DAY_MS);
  state.dayRowSums[day] = (state.dayRowSums[day] ?? 0) + row.value;
  state.dayRows[day] = (state.dayRows[day] ?? 0) + 1;
  state.rows++;
}

/** A row read around the period (before --from or after --to): it tells the station's cadence, nothing else. */
export function noteCadence(state: SeriesState, atMs: number): void {
  if (state.lastRowMs !== undefined) {
    const gap = atMs - state.lastRowMs;
    state.gaps.set(gap, (state.gaps.get(gap) ?? 0) + 1);
  }
  state.lastRowMs = atMs;
}

function closeSlot(state: SeriesState, next: number): void {
  if (state.slotRows >= UNCONFIRMED.slotMinRows && state.slotRows > 0) {
    state.singles.push(state.slotSum / state.slotRows);
    state.singleSlots.push(state.slot);
  }
  state.slot = next;
  state.slotSum = 0;
  state.slotRows = 0;
}

function closeHour(state: SeriesState, next: number): void {
  if (state.hourRows > 0) {
    const day = Math.floor((state.hour * HOUR_MS) / DAY_MS);
    state.dayHourSums[day] = (state.dayHourSums[day] ?? 0) + state.hourSum / state.hourRows;
    state.dayHours[day] = (state.dayHours[day] ?? 0) + 1;
  }
  state.hour = next;
  state.hourSum = 0;
  state.hourRows = 0;
}

/** Closes the last slot and hour: call once, after the last row. */
export function closeSeries(state: SeriesState): void {
  closeSlot(state, -1);
  closeHour(state, -1);
}

/** The most frequent gap's neighbourhood: the median of the gaps between rows, or undefined below two rows. */
export function cadenceMs(state: SeriesState): number | undefined {
  const total = [...state.gaps.values()].reduce((a, b) => a + b, 0);
  if (total === 0) return undefined;
  let seen = 0;
  for (const gap of [...state.gaps.keys()].sort((a, b) => a - b)) {
    seen += state.gaps.get(gap) ?? 0;
    if (seen * 2 >= total) return gap;
  }
  return undefined;
}
