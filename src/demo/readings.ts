// Simulated answers of /harvester/v2/Posts/{id}/measurements in the shape the public clients show: units as the
// c_mmhg_mg scheme sends them, rows oldest first. Built to exercise the exporter: a daily PM2.5 curve, stations
// without gas sensors (null or absent fields), one field in a unit the exporter must not convert, stations
// without any row in the window, and one station whose air exceeds the sanitary norms.
import { READINGS_INTERVAL_MS, type ReadingsInterval } from '../config/setting-values.js';

export interface ReadingsQuery {
  /** One of the API's averaging intervals (the simulator refuses others). */
  readonly interval: ReadingsInterval;
  /** Rows strictly after this time; undefined asks for the last hour. */
  readonly dateGtMs: number | undefined;
}

export interface DemoRow {
  postId: number;
  date: string;
  version: number;
  [field: string]: unknown;
}

export interface DemoAnswer {
  meta: { units: Record<string, string> };
  data: DemoRow[];
}

const UNITS = {
  pm2: 'mg/m³',
  pm10: 'mg/m³',
  co: 'mg/m³',
  no2: 'mg/m³',
  so2: 'mg/m³',
  o3: 'mg/m³',
  h2s: 'mg/m³',
  temperature: '°C',
  humidity: '%',
  pressure: 'mm Hg',
};

/** A field in a unit the exporter does not know (parts per billion need a molar mass to become µg/m³). */
export const DEMO_UNKNOWN_UNIT = { field: 'ch2o', unit: 'ppb' } as const;

const MAX_ROWS = 500;

/** Stations with no row at all (as if the sensor were switched off). */
export const demoHasNoReadings = (id: number): boolean => id % 20 === 17;
/** Stations that measure particulates and weather only. */
export const demoHasNoGases = (id: number): boolean => id % 3 === 1;
/**
 * A Norilsk station downwind of a smelter: sulphur dioxide at 0.55–0.95 mg/m³ all day, above the Russian maximum
 * single norm, so that a new user sees an exceedance on the dashboards and the status page.
 */
export const DEMO_SMELTER_ID = 1068;

export function demoReadingsAnswer(id: number, nowMs: number, query: ReadingsQuery): DemoAnswer {
  const stepMs = READINGS_INTERVAL_MS[query.interval];
  const units: Record<string, string> = { ...UNITS };
  if (id % 4 === 0) units[DEMO_UNKNOWN_UNIT.field] = DEMO_UNKNOWN_UNIT.unit;
  if (demoHasNoReadings(id)) return { meta: { units }, data: [] };
  const after = query.dateGtMs ?? nowMs - 3_600_000;
  const rows: DemoRow[] = [];
  // Rows strictly after date__gt, oldest first, up to the last complete interval; a long range is cut after
  // MAX_ROWS rows, as CityAir's older API did, so a client must page forward from the newest row it got.
  const newest = Math.floor(nowMs / stepMs) * stepMs - stepMs;
  for (
    let t = (Math.floor(after / stepMs) + 1) * stepMs;
    t <= newest && rows.length < MAX_ROWS;
    t += stepMs
  ) {
    rows.push(demoRow(id, t));
  }
  return { meta: { units }, data: rows };
}

/** One row at time t: smooth daily curves per station, with a little deterministic noise. */
export function demoRow(id: number, t: number): DemoRow {
  const hour = (t / 3_600_000 + (id % 12)) % 24;
  const noise = 1 + 0.08 * (hash(id, t) - 0.5);
  // Traffic and heating: a morning and a larger evening peak over a base level that differs by station.
  const peaks = 1 + 0.6 * bump(hour, 8, 2) + 0.9 * bump(hour, 20, 2.5) - 0.25 * bump(hour, 4, 3);
  const pm25 = (5 + (id % 23)) * peaks * noise;
  const row: DemoRow = {
    postId: id,
    date: isoSeconds(t),
    version: 3,
    pm2: round(pm25 / 1000, 5),
    pm10: round((pm25 * 1.7) / 1000, 5),
    temperature: round(-3 + (id % 7) + 5 * Math.sin(((hour - 9) / 24) * 2 * Math.PI), 1),
    humidity: round(70 - 15 * Math.sin(((hour - 9) / 24) * 2 * Math.PI) * noise, 0),
    pressure: round(745 + 4 * Math.sin(t / 86_400_000 + id), 1),
    aqi: { cityairAqi: { value: Math.max(1, Math.min(10, Math.ceil(pm25 / 6))) } },
  };
  if (demoHasNoGases(id)) {
    // Some hosts send the gases as null, others leave them out.
    if (id % 2 === 0) Object.assign(row, { co: null, no2: null, so2: null, o3: null, h2s: null });
  } else {
    Object.assign(row, {
      co: round(0.3 + 0.3 * peaks * noise, 3),
      no2: round(0.012 * peaks * noise, 4),
      so2: round(0.004 * noise, 4),
      o3: round(0.03 + 0.04 * bump(hour, 15, 3), 4),
      h2s: null,
    });
  }
  if (id === DEMO_SMELTER_ID) row.so2 = round((0.75 + 0.15 * Math.sin((hour / 24) * 2 * Math.PI)) * noise, 4);
  if (id % 4 === 0) row[DEMO_UNKNOWN_UNIT.field] = round(12 * noise, 1);
  return row;
}

const DAY_MS = 86_400_000;
const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
// The day a history is being generated for, and its date text: a backfill asks for millions of rows, a day's
// worth at a time, and the simulator's share of the two cores goes to formatting them.
let day = Number.NaN;
let dayText = '';

/** `2026-10-01T12:05:00Z`, as `toISOString()` without its milliseconds (which are dropped, not rounded). */
export function isoSeconds(t: number): string {
  const d = Math.floor(t / DAY_MS);
  const second = Math.floor((t - d * DAY_MS) / 1000);
  if (d !== day) {
    const text = new Date(d * DAY_MS).toISOString();
    // Years outside 0000–9999 are written with a sign and six digits: left to toISOString whole.
    if (text.length !== 24) return new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
    day = d;
    dayText = text.slice(0, 11);
  }
  const [h, m, sec] = [Math.floor(second / 3600), Math.floor(second / 60) % 60, second % 60];
  return `${dayText}${TWO_DIGITS[h]}:${TWO_DIGITS[m]}:${TWO_DIGITS[sec]}Z`;
}

const bump = (hour: number, centre: number, width: number): number =>
  Math.exp(-((hour - centre) ** 2) / width ** 2);
const round = (v: number, digits: number): number => Math.round(v * 10 ** digits) / 10 ** digits;

/** 0..1 from the station and the time, the same every call. */
function hash(id: number, t: number): number {
  let h = (id * 2_654_435_761) ^ Math.floor(t / 60_000);
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  return ((h ^ (h >>> 16)) >>> 0) / 0x1_0000_0000;
}
