// The readings answer is undocumented and untrusted: these pin what becomes a number, what is left out and why.
import { describe, expect, it } from 'vitest';
import { FUTURE_TOLERANCE_MS } from '../../src/readings/dates.js';
import {
  indexLabel,
  type ParsedReadings,
  parseReadings,
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

/** The value a reading holds for an answer's field: weather fields have their own places, gases a map. */
function fieldOf(r: StationReading, field: string): number | undefined {
  if (field === 'temperature') return r.temperatureCelsius;
  if (field === 'humidity') return r.humidityRatio;
  if (field === 'pressure') return r.pressurePascals;
  return r.concentrations.get(field);
}

describe('units', () => {
  // [field, unit text, value sent, value exported]
  const cases: ReadonlyArray<readonly [string, string, number, number]> = [
    ['pm10', 'mg/m³', 2, 2000],
    ['pm10', 'mg/m3', 2, 2000],
    ['pm10', 'MG/M3', 2, 2000],
    ['pm10', ' mg / m³ ', 2, 2000],
    ['pm10', 'mg/m^3', 2, 2000],
    ['pm10', 'мг/м³', 2, 2000],
    ['pm10', 'мг/м3', 2, 2000],
    ['pm10', 'МГ/М³', 2, 2000],
    ['pm10', '\u00b5g/m³', 2, 2],
    ['pm10', '\u00b5g/m3', 2, 2],
    ['pm10', '\u03bcg/m³', 2, 2],
    ['pm10', '\u03bcg/m3', 2, 2],
    ['pm10', '\u039cG/M³', 2, 2],
    ['pm10', '\u00b5G/M3', 2, 2],
    ['pm10', 'ug/m3', 2, 2],
    ['pm10', 'ug/m³', 2, 2],
    ['pm10', 'UG/M3', 2, 2],
    ['pm10', 'mcg/m3', 2, 2],
    ['pm10', 'мкг/м³', 2, 2],
    ['pm10', 'мкг/м3', 2, 2],
    ['pm10', 'МКГ/М3', 2, 2],
    ['pm10', 'ng/m³', 2, 0.002],
    ['pm10', 'нг/м3', 2, 0.002],
    ['pm10', 'g/m³', 2, 2_000_000],
    ['pm10', 'г/м3', 2, 2_000_000],
    ['temperature', '°C', 2, 2],
    ['temperature', '°c', 2, 2],
    ['temperature', '℃', 2, 2],
    ['temperature', 'C', 2, 2],
    ['temperature', 'degC', 2, 2],
    ['temperature', '°С', 2, 2],
    ['humidity', '%', 2, 0.02],
    ['humidity', '% RH', 2, 0.02],
    ['pressure', 'mm Hg', 750, 99_991.5],
    ['pressure', 'mmHg', 750, 99_991.5],
    ['pressure', 'MM HG', 750, 99_991.5],
    ['pressure', 'mm.Hg', 750, 99_991.5],
    ['pressure', 'мм рт. ст.', 750, 99_991.5],
    ['pressure', 'мм рт.ст.', 750, 99_991.5],
    ['pressure', 'ММ РТ СТ', 750, 99_991.5],
    ['pressure', 'hPa', 1000, 100_000],
    ['pressure', 'HPA', 1000, 100_000],
    ['pressure', 'гПа', 1000, 100_000],
    ['pressure', 'mbar', 1000, 100_000],
    ['pressure', 'мбар', 1000, 100_000],
    ['pressure', 'kPa', 100, 100_000],
    ['pressure', 'кПа', 100, 100_000],
    ['pressure', 'Pa', 100_000, 100_000],
    ['pressure', 'Па', 100_000, 100_000],
  ];

  it.each(cases)('%s in "%s" is converted', (field, unit, value, expected) => {
    const r = reading(
      parseReadings(ID, answer([row('2026-11-23T10:20:00Z', { [field]: value })], { [field]: unit })),
    );
    const got = fieldOf(r, field);
    expect(got).toBe(expected);
  });

  it('recognises no unit beyond those parts', () => {
    for (const text of [
      'ppm',
      'ppb',
      'mg/l',
      'kg/m³',
      'mg/m2',
      'mg/m',
      'mg/cm³',
      'K',
      '°F',
      'F',
      'inHg',
      'bar',
      'torr',
      'Mpa',
      '',
      'mg m³',
      'mg/m³/h',
      'µ g/m³x',
      '%%',
      `mg/m³${' '.repeat(40)}`,
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

  it('skips rows without an ISO date and offset or naming another station, and fails when none is left', () => {
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
    expect(result.ok && result.value.rejectedRows).toBe(5);
    const asText = parseReadings(
      ID,
      answer([{ ...row('2026-11-23T10:10:00Z', { temperature: 1 }), postId: '1000' }], units),
    );
    expect(reading(asText).temperatureCelsius).toBe(1);
    const none = parseReadings(ID, answer([row('yesterday'), { date: 5 }], units));
    expect(none.ok).toBe(false);
    expect(!none.ok && none.message).toMatch(/none of the 2 rows/);
  });

  it('reads a date with an offset as the UTC instant it names', () => {
    const moscow = parseReadings(
      ID,
      answer(
        [
          row('2026-11-23T10:20:00Z', { temperature: 20 }),
          row('2026-11-23T13:30:00+03:00', { temperature: 30 }),
          row('2026-11-23T05:25:00-05:00', { temperature: 25 }),
        ],
        units,
      ),
    );
    expect(reading(moscow).temperatureCelsius).toBe(30);
    expect(reading(moscow).atMs).toBe(Date.parse('2026-11-23T10:30:00Z'));
    expect(moscow.ok && moscow.value.rejectedRows).toBe(0);
    const only = parseReadings(ID, answer([row('2026-11-23T16:20:00+06:00', { temperature: 6 })], units));
    expect(reading(only).atMs).toBe(Date.parse('2026-11-23T10:20:00Z'));
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

  it('keeps the first of two keys that name the same index, and counts the other', () => {
    const result = parseReadings(
      ID,
      answer([row('2026-11-23T10:20:00Z', { aqi: { cityairAqi: { value: 3 }, cityair: { value: 9 } } })]),
    );
    expect(Object.fromEntries(reading(result).aqi)).toEqual({ cityair: 3 });
    expect(skips(result)).toContain('aqi.cityair:invalid_name');
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

describe('rows dated in the future', () => {
  const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);
  const units = { pm2: 'mg/m³' };
  const at = (ms: number) => new Date(ms).toISOString();

  it('are never the newest row: a genuinely recent row wins, and they are counted', () => {
    const result = parseReadings(
      ID,
      answer([row(at(NOW - 5 * 60_000), { pm2: 0.01 }), row('2099-01-01T00:00:00Z', { pm2: 0.999 })], units),
      NOW,
    );
    expect(reading(result).concentrations.get('pm2.5')).toBe(10);
    expect(reading(result).atMs).toBe(NOW - 5 * 60_000);
    expect(result.ok && [result.value.futureRows, result.value.newestFutureMs]).toEqual([
      1,
      Date.parse('2099-01-01T00:00:00Z'),
    ]);
    expect(result.ok && result.value.rejectedRows).toBe(0);
  });

  it('are served up to five minutes ahead, as a clock drifting', () => {
    const served = (aheadMs: number) =>
      parseReadings(ID, answer([row(at(NOW + aheadMs), { pm2: 0.02 })], units), NOW);
    expect(reading(served(FUTURE_TOLERANCE_MS)).atMs).toBe(NOW + FUTURE_TOLERANCE_MS);
    const ahead = served(FUTURE_TOLERANCE_MS + 1000);
    expect(ahead.ok && ahead.value.reading).toBeUndefined();
    expect(ahead.ok && ahead.value.futureRows).toBe(1);
  });

  it('leave a station with no reading, without failing its answer, when no other row is valid', () => {
    const result = parseReadings(
      ID,
      answer([row('2099-01-01T00:00:00Z', { pm2: 0.999 }), row('yesterday')], units),
      NOW,
    );
    expect(result).toEqual({
      ok: true,
      value: {
        reading: undefined,
        skipped: [],
        rejectedRows: 1,
        futureRows: 1,
        newestFutureMs: Date.parse('2099-01-01T00:00:00Z'),
      },
    });
  });
});

describe('numbers', () => {
  const units = {
    pm2: 'mg/m³',
    pm10: 'µg/m³',
    co: 'mg/m³',
    no2: 'mg/m³',
    temperature: '°C',
    humidity: '%',
    pressure: 'Pa',
  };

  it('are checked after conversion: a finite value sent can overflow once converted', () => {
    const result = parseReadings(ID, answer([row('2026-11-23T10:20:00Z', { co: 1e306, no2: 0.01 })], units));
    expect(reading(result).concentrations.has('co')).toBe(false);
    expect(reading(result).concentrations.get('no2')).toBe(10);
    expect(skips(result)).toContain('co:out_of_range');
  });

  it('outside the physically possible range of their quantity are left out and counted', () => {
    const withUnits = parseReadings(
      ID,
      answer(
        [
          row('2026-11-23T10:20:00Z', {
            pm2: -0.001,
            pm10: 1e308,
            temperature: -273.5,
            humidity: 150,
            pressure: -100,
            aqi: { cityairAqi: { value: -3 }, usEpaAqi: { value: 1e308 } },
          }),
        ],
        units,
      ),
    );
    const r = reading(withUnits);
    expect([
      r.concentrations.size,
      r.temperatureCelsius,
      r.humidityRatio,
      r.pressurePascals,
      r.aqi.size,
    ]).toEqual([0, undefined, undefined, undefined, 0]);
    expect(
      skips(withUnits)
        .filter((s) => s.endsWith(':out_of_range'))
        .sort(),
    ).toEqual(
      [
        'pm2:out_of_range',
        'pm10:out_of_range',
        'temperature:out_of_range',
        'humidity:out_of_range',
        'pressure:out_of_range',
        'aqi.cityairAqi:out_of_range',
        'aqi.usEpaAqi:out_of_range',
      ].sort(),
    );
  });

  it('at the ends of each range are exported', () => {
    for (const [field, value, unit, exported] of [
      ['pm10', 0, 'µg/m³', 0],
      ['pm10', 1e7, 'µg/m³', 1e7],
      ['temperature', -100, '°C', -100],
      ['temperature', 100, '°C', 100],
      ['humidity', 0, '%', 0],
      ['humidity', 100, '%', 1],
      ['pressure', 300, 'hPa', 30_000],
      ['pressure', 1100, 'hPa', 110_000],
    ] as const) {
      const r = reading(
        parseReadings(ID, answer([row('2026-11-23T10:20:00Z', { [field]: value })], { [field]: unit })),
      );
      const got = fieldOf(r, field);
      expect(got, `${field} ${value} ${unit}`).toBe(exported);
    }
    const aqi = reading(
      parseReadings(
        ID,
        answer([row('2026-11-23T10:20:00Z', { aqi: { cityairAqi: { value: 10 }, usEpaAqi: { value: 0 } } })]),
      ),
    ).aqi;
    expect(Object.fromEntries(aqi)).toEqual({ cityair: 10, us_epa: 0 });
  });

  it('converted are the numbers a person would write, without float noise', () => {
    const r = reading(
      parseReadings(
        ID,
        answer(
          [
            row('2026-11-23T10:20:00Z', {
              pm2: 0.01633,
              co: 0.41,
              no2: 0.0007,
              humidity: 57,
              pressure: 98_991,
            }),
          ],
          units,
        ),
      ),
    );
    // 0.01633 × 1000 is 16.330000000000002 in floating point, 57 × 0.01 is 0.5700000000000001.
    expect(r.concentrations.get('pm2.5')).toBe(16.33);
    expect(r.concentrations.get('co')).toBe(410);
    expect(r.concentrations.get('no2')).toBe(0.7);
    expect(r.humidityRatio).toBe(0.57);
    const pressure = reading(
      parseReadings(ID, answer([row('2026-11-23T10:20:00Z', { pressure: 742.5 })], { pressure: 'mm Hg' })),
    ).pressurePascals;
    expect(String(pressure)).toBe('98991.585');
  });
});
