// The readings answer is undocumented and untrusted: these pin what becomes a number, what is left out and why.
import { describe, expect, it } from 'vitest';
import {
  indexLabel,
  type ParsedReadings,
  parseReadings,
  parseUtcDate,
  type StationReading,
} from '../../src/readings/schema.js';
import { recogniseUnit } from '../../src/readings/units.js';
import type { Result } from '../../src/upstream/failure.js';

const ID = 1000;

function answer(rows: unknown[], units: Record<string, unknown> = {}): unknown {
  return { meta: { units }, data: rows };
}

function row(date: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { postId: ID, date, version: 3, ...fields };
}

function reading(result: Result<ParsedReadings>): StationReading {
  if (!result.ok) throw new Error(result.message);
  if (!result.value.reading) throw new Error('expected a reading, got an empty answer');
  return result.value.reading;
}

function skips(result: Result<ParsedReadings>): string[] {
  if (!result.ok) throw new Error(result.message);
  return result.value.skipped.map((s) => `${s.field}:${s.reason}${s.unit ? `:${s.unit}` : ''}`);
}

describe('units', () => {
  // value 2 in the given unit -> expected value in the exporter's unit
  const cases: ReadonlyArray<readonly [string, string, number]> = [
    ['pm10', 'mg/m³', 2000],
    ['pm10', 'mg/m3', 2000],
    ['pm10', 'MG/M3', 2000],
    ['pm10', ' mg / m³ ', 2000],
    ['pm10', 'мг/м³', 2000],
    ['pm10', 'МГ/М³', 2000],
    ['pm10', '\u00b5g/m³', 2],
    ['pm10', '\u03bcg/m³', 2],
    ['pm10', '\u039cG/M³', 2],
    ['pm10', 'ug/m3', 2],
    ['pm10', 'UG/M3', 2],
    ['pm10', 'мкг/м³', 2],
    ['temperature', '°C', 2],
    ['temperature', '°c', 2],
    ['temperature', '℃', 2],
    ['temperature', 'C', 2],
    ['humidity', '%', 0.02],
    ['pressure', 'mm Hg', 266.644],
    ['pressure', 'mmHg', 266.644],
    ['pressure', 'MM HG', 266.644],
    ['pressure', 'мм рт. ст.', 266.644],
    ['pressure', 'мм рт.ст.', 266.644],
    ['pressure', 'hPa', 200],
    ['pressure', 'HPA', 200],
    ['pressure', 'гПа', 200],
    ['pressure', 'mbar', 200],
    ['pressure', 'kPa', 2000],
    ['pressure', 'Pa', 2],
  ];

  it.each(cases)('%s in "%s" is converted', (field, unit, expected) => {
    const r = reading(
      parseReadings(ID, answer([row('2026-11-23T10:20:00Z', { [field]: 2 })], { [field]: unit })),
    );
    const got =
      field === 'temperature'
        ? r.temperatureCelsius
        : field === 'humidity'
          ? r.humidityRatio
          : field === 'pressure'
            ? r.pressurePascals
            : r.concentrations.get(field);
    expect(got).toBeCloseTo(expected, 9);
  });

  it('recognises no spelling beyond the listed ones', () => {
    for (const text of [
      'ppm',
      'ppb',
      'mg/l',
      'g/m³',
      'K',
      '°F',
      'inHg',
      'bar',
      'µg/m3',
      'мг/м3',
      '',
      'mg m³',
    ]) {
      expect(recogniseUnit(text), text).toBeUndefined();
    }
  });
});

describe('the newest row', () => {
  const units = { pm2: 'mg/m³', temperature: '°C' };

  it('is the last row, with pm2 exported as pm2.5 in µg/m³', () => {
    const r = reading(
      parseReadings(
        ID,
        answer(
          [
            row('2026-11-23T10:10:00Z', { pm2: 0.001, temperature: 1 }),
            row('2026-11-23T10:15:00Z', { pm2: 0.002, temperature: 2 }),
            row('2026-11-23T10:20:00Z', { pm2: 0.0032, temperature: -4.2 }),
          ],
          units,
        ),
      ),
    );
    expect(r.atMs).toBe(Date.parse('2026-11-23T10:20:00Z'));
    expect(r.concentrations.get('pm2.5')).toBeCloseTo(3.2, 9);
    expect(r.concentrations.has('pm2')).toBe(false);
    expect(r.temperatureCelsius).toBe(-4.2);
  });

  it('is the one with the greatest date when rows are out of order', () => {
    const r = reading(
      parseReadings(
        ID,
        answer(
          [
            row('2026-11-23T10:20:00Z', { temperature: 20 }),
            row('2026-11-23T10:10:00Z', { temperature: 10 }),
          ],
          units,
        ),
      ),
    );
    expect(r.temperatureCelsius).toBe(20);
  });

  it('skips rows without a UTC date or naming another station, and fails when none is left', () => {
    const result = parseReadings(
      ID,
      answer(
        [
          row('2026-11-23T10:10:00Z', { temperature: 10 }),
          row('2026-11-23T10:30:00+03:00', { temperature: 30 }),
          row('2026-11-23 10:40:00', { temperature: 40 }),
          row('2026-02-30T10:50:00Z', { temperature: 50 }),
          { ...row('2026-11-23T11:00:00Z', { temperature: 60 }), postId: 7 },
          { ...row('2026-11-23T11:05:00Z', { temperature: 65 }), postId: '7' },
          'not a row',
        ],
        units,
      ),
    );
    expect(reading(result).temperatureCelsius).toBe(10);
    expect(result.ok && result.value.rejectedRows).toBe(6);
    const asText = parseReadings(
      ID,
      answer([{ ...row('2026-11-23T10:10:00Z', { temperature: 1 }), postId: '1000' }], units),
    );
    expect(reading(asText).temperatureCelsius).toBe(1);
    const none = parseReadings(ID, answer([row('yesterday'), { date: 5 }], units));
    expect(none.ok).toBe(false);
    expect(!none.ok && none.message).toMatch(/none of the 2 rows/);
  });

  it('reads UTC dates strictly', () => {
    expect(parseUtcDate('2026-11-23T10:20:00Z')).toBe(Date.parse('2026-11-23T10:20:00Z'));
    expect(parseUtcDate('2026-11-23T10:20:00.250Z')).toBe(Date.parse('2026-11-23T10:20:00.250Z'));
    expect(parseUtcDate('2026-11-23T10:20Z')).toBe(Date.parse('2026-11-23T10:20:00Z'));
    expect(parseUtcDate('2026-11-23T10:20:00+00:00')).toBe(Date.parse('2026-11-23T10:20:00Z'));
    for (const bad of [
      '2026-11-23T24:00:00Z',
      '2026-11-23T10:60:00Z',
      '2026-13-01T00:00:00Z',
      '2026-11-23',
    ]) {
      expect(parseUtcDate(bad), bad).toBeUndefined();
    }
  });
});

describe('fields left out', () => {
  it('counts null, missing, non-numbers, absent units, unknown units and mismatched quantities', () => {
    const result = parseReadings(
      ID,
      answer(
        [
          row('2026-11-23T10:20:00Z', {
            pm2: 0.004,
            pm10: null,
            co: '0.41',
            no2: 0.012,
            ch2o: 12,
            temperature: 5,
            humidity: 80,
            noise: 40,
          }),
        ],
        {
          pm2: 'mg/m³',
          pm10: 'mg/m³',
          co: 'mg/m³',
          so2: 'mg/m³',
          ch2o: 'ppb',
          temperature: '%',
          humidity: '%',
          noise: 'mg/m³',
        },
      ),
    );
    const r = reading(result);
    expect([...r.concentrations.keys()].sort()).toEqual(['noise', 'pm2.5']);
    expect(r.temperatureCelsius).toBeUndefined();
    expect(r.humidityRatio).toBeCloseTo(0.8, 9);
    expect(r.pressurePascals).toBeUndefined();
    expect(skips(result).sort()).toEqual(
      [
        'pm10:missing',
        'co:not_a_number',
        'so2:missing',
        'ch2o:unknown_unit:ppb',
        'temperature:unit_mismatch:%',
        'no2:no_unit',
        'o3:missing',
        'h2s:missing',
        'pressure:missing',
      ].sort(),
    );
  });

  it('never turns an upstream name that is not a plain lowercase word into a label', () => {
    const evil = { 'x"} 1\nevil{a="': 0.1, 'PM1.0': 0.1, ['a'.repeat(40)]: 0.1, constructor: 0.1 };
    const units = Object.fromEntries(Object.keys(evil).map((k) => [k, 'mg/m³']));
    const result = parseReadings(ID, answer([row('2026-11-23T10:20:00Z', evil)], units));
    expect(reading(result).concentrations.size).toBe(1);
    expect(reading(result).concentrations.get('constructor')).toBeCloseTo(100, 9);
    expect(skips(result).filter((s) => s.includes('invalid_name'))).toHaveLength(3);
  });

  it('caps the substances one station can add', () => {
    const fields = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`g${i}`, 0.001]));
    const units = Object.fromEntries(Object.keys(fields).map((k) => [k, 'mg/m³']));
    const result = parseReadings(ID, answer([row('2026-11-23T10:20:00Z', fields)], units));
    expect(reading(result).concentrations.size).toBe(32);
    expect(skips(result).filter((s) => s.endsWith('too_many'))).toHaveLength(68);
  });
});

describe('aqi', () => {
  it('exports each index by its name without the Aqi suffix, in snake_case', () => {
    const r = reading(
      parseReadings(
        ID,
        answer([
          row('2026-11-23T10:20:00Z', {
            aqi: {
              cityairAqi: { value: 3 },
              instantAqi: { value: 4.5 },
              usEpaAqi: { value: 51 },
              brokenAqi: { value: 'high' },
              nullAqi: null,
              'bad key': { value: 1 },
            },
          }),
        ]),
      ),
    );
    expect(Object.fromEntries(r.aqi)).toEqual({ cityair: 3, instant: 4.5, us_epa: 51 });
  });

  it('names indices safely', () => {
    expect(indexLabel('cityairAqi')).toBe('cityair');
    expect(indexLabel('AQI')).toBe('aqi');
    expect(indexLabel('Aqi')).toBeUndefined();
    expect(indexLabel('x-y')).toBeUndefined();
  });
});

describe('answers as a whole', () => {
  it('reads an empty data array as a station without a reading', () => {
    const result = parseReadings(ID, { meta: { units: {} }, data: [] });
    expect(result).toEqual({ ok: true, value: { reading: undefined, skipped: [], rejectedRows: 0 } });
    expect(parseReadings(ID, { data: [] }).ok).toBe(true);
  });

  it('fails wrong shapes with a message instead of throwing', () => {
    for (const body of [null, [], 'text', 42, {}, { data: {} }, { data: null }, { meta: 1, data: [] }]) {
      const result = parseReadings(ID, body);
      expect(result.ok, JSON.stringify(body)).toBe(false);
      expect(!result.ok && result.message).toMatch(/^readings answer: /);
    }
  });

  it('reads the answer shown in the spec', () => {
    const r = reading(
      parseReadings(ID, {
        meta: {
          units: {
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
          },
        },
        data: [
          {
            postId: 1000,
            date: '2026-11-23T10:20:00Z',
            version: 3,
            pm2: 0.0032,
            pm10: 0.0051,
            co: 0.41,
            no2: 0.012,
            so2: null,
            o3: null,
            h2s: null,
            temperature: -4.2,
            humidity: 81,
            pressure: 742.5,
            aqi: { cityairAqi: { value: 3 } },
          },
        ],
      }),
    );
    expect(Object.fromEntries([...r.concentrations].map(([k, v]) => [k, Math.round(v * 1e6) / 1e6]))).toEqual(
      {
        'pm2.5': 3.2,
        pm10: 5.1,
        co: 410,
        no2: 12,
      },
    );
    expect(r.humidityRatio).toBeCloseTo(0.81, 9);
    expect(r.pressurePascals).toBeCloseTo(742.5 * 133.322, 6);
    expect(r.aqi.get('cityair')).toBe(3);
  });
});
