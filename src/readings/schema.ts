// One answer of the readings endpoint (/harvester/v2/Posts/{id}/measurements), which CityAir does not document:
// the only place where its JSON becomes typed data. Nothing is guessed: a value is exported only when its field,
// its unit and its number are all understood, and every field left out is counted with a reason.
import { z } from 'zod';
import type { Result } from '../upstream/failure.js';
import { parseUtcDate } from './dates.js';
import { type AnswerFields, answerFields, cut, LABEL_NAME, type SkippedField } from './fields.js';
import { aqiRange, convertWithin } from './ranges.js';
import { type RowCounts, type ValidRow, validRows } from './rows.js';

export type { ReadingsInterval } from '../config/setting-values.js';
export { SKIP_REASONS, type SkippedField, type SkipReason } from './fields.js';
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

/**
 * One valid answer: the newest row's reading, or undefined when no row may be served (`data` empty: no row in
 * the window asked for; or every row dated in the future).
 */
export type ParsedReadings =
  | (RowCounts & { readonly reading: StationReading; readonly skipped: readonly SkippedField[] })
  | (RowCounts & { readonly reading: undefined; readonly skipped: readonly [] });

const MAX_SUBSTANCES = 32;
const MAX_AQI_INDICES = 8;

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
  return { ok: true, value: { ...readRow(id, newest.row, newest.atMs, answerFields(units)), ...counts } };
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
  const fields = answerFields(units);
  return { ok: true, value: { rows: rows.map((r) => readRow(id, r.row, r.atMs, fields)), ...counts } };
}

function readRow(
  id: number,
  row: Record<string, unknown>,
  atMs: number,
  answer: AnswerFields,
): { reading: StationReading; skipped: SkippedField[] } {
  const skipped: SkippedField[] = answer.overflow.length > 0 ? [...answer.overflow] : [];
  const concentrations = new Map<string, number>();
  let temperature: number | undefined;
  let humidity: number | undefined;
  let pressure: number | undefined;
  for (const field of answer.fields) {
    const value = Object.hasOwn(row, field.name) ? row[field.name] : undefined;
    if (value === undefined || value === null) skipped.push(field.missing);
    else if (typeof value !== 'number' || !Number.isFinite(value)) skipped.push(field.notANumber);
    else if (field.unusable) skipped.push(field.unusable);
    else {
      const converted = convertWithin(value, field.factor, field.range);
      if (converted === undefined) skipped.push(field.outOfRange);
      else if (field.weather === 'temperature') temperature = converted;
      else if (field.weather === 'humidity') humidity = converted;
      else if (field.weather === 'pressure') pressure = converted;
      else if (concentrations.size >= MAX_SUBSTANCES) skipped.push(field.tooMany);
      else concentrations.set(field.substance, converted);
    }
  }
  const aqi = readAqi(row.aqi, skipped);
  return {
    reading: {
      id,
      atMs,
      concentrations,
      temperatureCelsius: temperature,
      humidityRatio: humidity,
      pressurePascals: pressure,
      aqi,
    },
    skipped,
  };
}

const aqiValue = z.object({ value: z.unknown() });

/** `aqi: {cityairAqi: {value: 3}}` → cityair → 3; an index without a finite value is skipped. */
function readAqi(raw: unknown, skipped: SkippedField[]): Map<string, number> {
  const out = new Map<string, number>();
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return out;
  const entries = raw as Record<string, unknown>;
  for (const key of Object.keys(entries)) {
    const label = knownIndexLabel(key);
    const parsed = aqiValue.safeParse(entries[key]);
    const value = parsed.success ? parsed.data.value : undefined;
    // Two keys naming one label (cityairAqi and cityair) cannot be told apart: the first one keeps it.
    if (label === undefined || out.has(label)) skipIndex(skipped, key, 'invalid_name');
    else if (value === undefined || value === null) skipIndex(skipped, key, 'missing');
    else if (typeof value !== 'number' || !Number.isFinite(value)) skipIndex(skipped, key, 'not_a_number');
    else {
      const inRange = convertWithin(value, 1, aqiRange(label));
      if (inRange === undefined) skipIndex(skipped, key, 'out_of_range');
      else if (out.size >= MAX_AQI_INDICES) skipIndex(skipped, key, 'too_many');
      else out.set(label, inRange);
    }
  }
  return out;
}

function skipIndex(skipped: SkippedField[], key: string, reason: SkippedField['reason']): void {
  skipped.push({ field: cut(`aqi.${key}`), reason });
}

// Every row of a host names the same few indices: each key is worked out once. The bound keeps a host that sends
// new keys all the time from growing it.
const indexLabels = new Map<string, string | undefined>();
const MAX_INDEX_LABELS = 256;

function knownIndexLabel(key: string): string | undefined {
  if (indexLabels.has(key)) return indexLabels.get(key);
  const label = indexLabel(key);
  if (indexLabels.size < MAX_INDEX_LABELS && key.length <= 40) indexLabels.set(key, label);
  return label;
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
