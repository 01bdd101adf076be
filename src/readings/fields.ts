// The fields an answer's rows are read for, worked out once per answer from its meta.units: which fields, in
// which order, each one's unit and where its value goes, and the reason ready for each way it can be left out.
// A row then costs only the checks of its own values (schema.ts): a history of thousands of rows shares one
// meta.units, and so one of these.
import { PHYSICAL_RANGES, type Range } from './ranges.js';
import { type Quantity, recogniseUnit } from './units.js';

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

// Upstream names become label values. Only short lowercase ASCII names pass, so a label can never carry markup,
// quotes or a new line, and the caps bound the series one station can add, whatever the answer holds.
export const LABEL_NAME = /^[a-z][a-z0-9_]{0,31}$/;
/** Fields looked at per answer (the seen ones first); the rest count as too_many. */
const MAX_FIELDS = 64;

/** Row keys that are not readings. */
const ROW_META = new Set(['postId', 'date', 'version', 'aqi']);
/** Fields seen on every host: looked at even when meta.units leaves them out (then they count as no_unit). */
const SEEN_FIELDS = ['pm2', 'pm10', 'co', 'no2', 'so2', 'o3', 'h2s', 'temperature', 'humidity', 'pressure'];

export const cut = (s: string): string => (s.length > 64 ? `${s.slice(0, 61)}...` : s);

export type WeatherKey = 'temperature' | 'humidity' | 'pressure';
const WEATHER: Readonly<Record<string, { quantity: Quantity; key: WeatherKey; range: Range }>> = {
  temperature: { quantity: 'temperature', key: 'temperature', range: PHYSICAL_RANGES.temperature },
  humidity: { quantity: 'percent', key: 'humidity', range: PHYSICAL_RANGES.humidity },
  pressure: { quantity: 'pressure', key: 'pressure', range: PHYSICAL_RANGES.pressure },
};

/** One field of the answer, as every row of it is read. */
export interface Field {
  /** The row's key. */
  readonly name: string;
  readonly missing: SkippedField;
  readonly notANumber: SkippedField;
  /** Whatever the row holds, a number in this field is left out for this reason (its unit, or its name). */
  readonly unusable: SkippedField | undefined;
  readonly factor: number;
  readonly range: Range;
  /** Where a value goes: a weather key, or a concentration of this substance label. */
  readonly weather: WeatherKey | undefined;
  readonly substance: string;
  readonly outOfRange: SkippedField;
  readonly tooMany: SkippedField;
}

export interface AnswerFields {
  /** Fields beyond MAX_FIELDS: left out of every row, first. */
  readonly overflow: readonly SkippedField[];
  readonly fields: readonly Field[];
}

/** The fields to look at: the seen ones first (so a flood of others cannot crowd them out), then meta.units'. */
export function answerFields(units: Record<string, unknown>): AnswerFields {
  const overflow: SkippedField[] = [];
  const fields: Field[] = [];
  for (const name of new Set([...SEEN_FIELDS, ...Object.keys(units)])) {
    if (ROW_META.has(name)) continue;
    if (fields.length >= MAX_FIELDS) overflow.push({ field: cut(name), reason: 'too_many' });
    else fields.push(fieldOf(name, Object.hasOwn(units, name) ? units[name] : undefined));
  }
  return { overflow, fields };
}

function fieldOf(name: string, unitText: unknown): Field {
  const field = cut(name);
  const skip = (reason: SkipReason): SkippedField => ({ field, reason });
  const target = Object.hasOwn(WEATHER, name) ? WEATHER[name] : undefined;
  const substance = name === 'pm2' ? 'pm2.5' : name;
  let unusable: SkippedField | undefined;
  let factor = 1;
  if (typeof unitText !== 'string' || unitText.trim() === '') unusable = skip('no_unit');
  else {
    const unit = recogniseUnit(unitText);
    const quantity = target?.quantity ?? 'concentration';
    if (unit === undefined) unusable = { field, reason: 'unknown_unit', unit: cut(unitText) };
    else if (unit.quantity !== quantity) unusable = { field, reason: 'unit_mismatch', unit: cut(unitText) };
    else if (!target && substance !== 'pm2.5' && !LABEL_NAME.test(substance)) unusable = skip('invalid_name');
    else factor = unit.factor;
  }
  return {
    name,
    missing: skip('missing'),
    notANumber: skip('not_a_number'),
    unusable,
    factor,
    range: target?.range ?? PHYSICAL_RANGES.concentration,
    weather: target?.key,
    substance,
    outOfRange: skip('out_of_range'),
    tooMany: skip('too_many'),
  };
}
