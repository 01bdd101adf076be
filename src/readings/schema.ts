// One answer of the readings endpoint (/harvester/v2/Posts/{id}/measurements), which CityAir does not document:
// the only place where its JSON becomes typed data. Nothing is guessed: a value is exported only when its field,
// its unit and its number are all understood, and every field left out is counted with a reason.
import { z } from 'zod';
import type { Result } from '../upstream/failure.js';
import { parseUtcDate } from './dates.js';
import { aqiRange, convertWithin, PHYSICAL_RANGES, type Range } from './ranges.js';
import { type RowCounts, type ValidRow, validRows } from './rows.js';
import { type Quantity, recogniseUnit, type Unit } from './units.js';

export type { ReadingsInterval } from '../config/setting-values.js';
export { parseUtcDate };

/** The averaging intervals the exporter may ask for (--measurements.interval). */

export interface StationReading {
  readonly id: number;
  /** The newest row's date. */
  readonly atMs: number;
  /** Substance label ('pm2.5', 'pm10', 'co', ...) to µg/m³. */
  readonly concentrations: ReadonlyMap<string, number>;
  readonly temperatureCelsius: number | undefined;
  /** 0..1 (upstream % ÷ 100). */
  readonly humidityRatio: number | undefined;
  readonly pressurePascals: number | undefined;
  /** Index label ('cityair') to value. */
  readonly aqi: ReadonlyMap<string, number>;
}

/** Why a field of the newest row was left out: the `reason` label of cityair_measurements_fields_skipped. */
export const SKIP_REASONS = [
  /** Absent from the row, or null: the station lacks that sensor. */
  'missing',
  /** Present but not a finite JSON number (a string, an object...). */
  'not_a_number',
  /** meta.units gives no unit (or not a string) for the field. */
  'no_unit',
  /** The unit text is not one this exporter converts. */
  'unknown_unit',
  /** A known unit of the wrong quantity for the field (temperature in %, humidity in hPa, a gas in °C...). */
  'unit_mismatch',
  /** The name would make an unsafe label value (see LABEL_NAME). */
  'invalid_name',
  /** Over the per-station cap on substances or indices. */
  'too_many',
  /** Outside the physically possible range of its quantity once converted (see ranges.ts), or not finite. */
  'out_of_range',
] as const;

export type SkipReason = (typeof SKIP_REASONS)[number];

export interface SkippedField {
  /** The upstream field (or aqi key), cut to 64 characters, for a log line only. */
  readonly field: string;
  readonly reason: SkipReason;
  /** The unit text as sent (cut to 64 characters), for 'unknown_unit' and 'unit_mismatch'. */
  readonly unit?: string;
}

/**
 * One valid answer: the newest row's reading, or undefined when no row may be served (`data` empty: no row in
 * the window asked for; or every row dated in the future).
 */
export type ParsedReadings =
  | (RowCounts & { readonly reading: StationReading; readonly skipped: readonly SkippedField[] })
  | (RowCounts & { readonly reading: undefined; readonly skipped: readonly [] });

// Upstream names become label values. Only short lowercase ASCII names pass, so a label can never carry markup,
// quotes or a new line, and the caps bound the series one station can add, whatever the answer holds.
const LABEL_NAME = /^[a-z][a-z0-9_]{0,31}$/;
const MAX_SUBSTANCES = 32;
const MAX_AQI_INDICES = 8;
/** Fields looked at per answer (the seen ones first); the rest count as too_many. */
const MAX_FIELDS = 64;

/** Row keys that are not readings. */
const ROW_META = new Set(['postId', 'date', 'version', 'aqi']);
/** Fields seen on every host: looked at even when meta.units leaves them out (then they count as no_unit). */
const SEEN_FIELDS = ['pm2', 'pm10', 'co', 'no2', 'so2', 'o3', 'h2s', 'temperature', 'humidity', 'pressure'];

const cut = (s: string): string => (s.length > 64 ? `${s.slice(0, 61)}...` : s);

/**
 * Validates one answer for station `id`, read at `nowMs` (rows.ts), and reads the newest row not dated in the
 * future (rows come oldest first, so on a tie the later one wins); an empty `data` is a station without a reading.
 */
export function parseReadings(id: number, body: unknown, nowMs: number = Date.now()): Result<ParsedReadings> {
  const valid = validRows(id, body, nowMs);
  if (!valid.ok) return valid;
  const { rows, units, counts } = valid.value;
  let newest: ValidRow | undefined;
  for (const r of rows) if (newest === undefined || r.atMs >= newest.atMs) newest = r;
  if (newest === undefined) return { ok: true, value: { reading: undefined, skipped: [], ...counts } };
  return { ok: true, value: { ...readRow(id, newest.row, newest.atMs, units), ...counts } };
}

/** A valid row of an answer: its reading and the fields left out of it. */
export interface RowReading {
  readonly reading: StationReading;
  readonly skipped: readonly SkippedField[];
}

/** Every valid row of an answer, in the answer's order (the backfill's history), and the rows not read. */
export type ParsedRows = RowCounts & { readonly rows: readonly RowReading[] };

/** Validates one answer for station `id` as parseReadings does, and reads every row that may be served. */
export function parseReadingRows(id: number, body: unknown, nowMs: number = Date.now()): Result<ParsedRows> {
  const valid = validRows(id, body, nowMs);
  if (!valid.ok) return valid;
  const { rows, units, counts } = valid.value;
  return { ok: true, value: { rows: rows.map((r) => readRow(id, r.row, r.atMs, units)), ...counts } };
}

function readRow(
  id: number,
  row: Record<string, unknown>,
  atMs: number,
  units: Record<string, unknown>,
): { reading: StationReading; skipped: SkippedField[] } {
  const skipped: SkippedField[] = [];
  const concentrations = new Map<string, number>();
  const weather: Partial<Record<WeatherKey, number>> = {};
  for (const field of fieldsOf(units, skipped)) {
    const value = Object.hasOwn(row, field) ? row[field] : undefined;
    const unitText = Object.hasOwn(units, field) ? units[field] : undefined;
    if (value === undefined || value === null) skipped.push({ field: cut(field), reason: 'missing' });
    else if (typeof value !== 'number' || !Number.isFinite(value))
      skipped.push({ field: cut(field), reason: 'not_a_number' });
    else if (typeof unitText !== 'string' || unitText.trim() === '')
      skipped.push({ field: cut(field), reason: 'no_unit' });
    else {
      const unit = recogniseUnit(unitText);
      const problem = place(field, value, unit, concentrations, weather);
      if (problem === 'unknown_unit' || problem === 'unit_mismatch')
        skipped.push({ field: cut(field), reason: problem, unit: cut(unitText) });
      else if (problem) skipped.push({ field: cut(field), reason: problem });
    }
  }
  const aqi = readAqi(row.aqi, skipped);
  return {
    reading: {
      id,
      atMs,
      concentrations,
      temperatureCelsius: weather.temperature,
      humidityRatio: weather.humidity,
      pressurePascals: weather.pressure,
      aqi,
    },
    skipped,
  };
}

/** The fields to look at: the seen ones first (so a flood of others cannot crowd them out), then meta.units'. */
function fieldsOf(units: Record<string, unknown>, skipped: SkippedField[]): string[] {
  const fields: string[] = [];
  const names = new Set([...SEEN_FIELDS, ...Object.keys(units)]);
  for (const name of names) {
    if (ROW_META.has(name)) continue;
    if (fields.length >= MAX_FIELDS) skipped.push({ field: cut(name), reason: 'too_many' });
    else fields.push(name);
  }
  return fields;
}

type WeatherKey = 'temperature' | 'humidity' | 'pressure';
const WEATHER: Readonly<Record<string, { quantity: Quantity; key: WeatherKey; range: Range }>> = {
  temperature: { quantity: 'temperature', key: 'temperature', range: PHYSICAL_RANGES.temperature },
  humidity: { quantity: 'percent', key: 'humidity', range: PHYSICAL_RANGES.humidity },
  pressure: { quantity: 'pressure', key: 'pressure', range: PHYSICAL_RANGES.pressure },
};

/** Stores a converted value where it belongs, or says why it cannot. */
function place(
  field: string,
  value: number,
  unit: Unit | undefined,
  concentrations: Map<string, number>,
  weather: Partial<Record<WeatherKey, number>>,
): SkipReason | undefined {
  if (unit === undefined) return 'unknown_unit';
  const target = Object.hasOwn(WEATHER, field) ? WEATHER[field] : undefined;
  if (target) {
    if (unit.quantity !== target.quantity) return 'unit_mismatch';
    const converted = convertWithin(value, unit.factor, target.range);
    if (converted === undefined) return 'out_of_range';
    weather[target.key] = converted;
    return undefined;
  }
  if (unit.quantity !== 'concentration') return 'unit_mismatch';
  const substance = field === 'pm2' ? 'pm2.5' : field;
  if (substance !== 'pm2.5' && !LABEL_NAME.test(substance)) return 'invalid_name';
  const converted = convertWithin(value, unit.factor, PHYSICAL_RANGES.concentration);
  if (converted === undefined) return 'out_of_range';
  if (concentrations.size >= MAX_SUBSTANCES) return 'too_many';
  concentrations.set(substance, converted);
  return undefined;
}

const aqiValue = z.object({ value: z.unknown() });

/** `aqi: {cityairAqi: {value: 3}}` → cityair → 3; an index without a finite value is skipped. */
function readAqi(raw: unknown, skipped: SkippedField[]): Map<string, number> {
  const out = new Map<string, number>();
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return out;
  for (const [key, entry] of Object.entries(raw)) {
    const label = indexLabel(key);
    const field = cut(`aqi.${key}`);
    const parsed = aqiValue.safeParse(entry);
    const value = parsed.success ? parsed.data.value : undefined;
    // Two keys naming one label (cityairAqi and cityair) cannot be told apart: the first one keeps it.
    if (label === undefined || out.has(label)) skipped.push({ field, reason: 'invalid_name' });
    else if (value === undefined || value === null) skipped.push({ field, reason: 'missing' });
    else if (typeof value !== 'number' || !Number.isFinite(value))
      skipped.push({ field, reason: 'not_a_number' });
    else {
      const inRange = convertWithin(value, 1, aqiRange(label));
      if (inRange === undefined) skipped.push({ field, reason: 'out_of_range' });
      else if (out.size >= MAX_AQI_INDICES) skipped.push({ field, reason: 'too_many' });
      else out.set(label, inRange);
    }
  }
  return out;
}

/** cityairAqi → cityair, instantAqi → instant, someOtherIndexAqi → some_other_index; undefined when unsafe. */
export function indexLabel(key: string): string | undefined {
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(key) || key.length > 40) return undefined;
  const base = key.endsWith('Aqi') ? key.slice(0, -3) : key;
  const label = base
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
  return LABEL_NAME.test(label) ? label : undefined;
}
