import { describe, expect, it } from 'vitest';
import { answerFields, cut, type Field, LABEL_NAME } from '../../src/readings/fields.js';
import { PHYSICAL_RANGES } from '../../src/readings/ranges.js';

const fieldNamed = (fields: readonly Field[], name: string): Field => {
  const f = fields.find((x) => x.name === name);
  if (!f) throw new Error(`no field ${name}`);
  return f;
};

describe('answerFields', () => {
  it('looks at the fields every host sends first, then meta.units’ own, never the row’s meta keys', () => {
    const { fields } = answerFields({ nh3: 'mg/m3', aqi: 'x', date: 'x', postId: 'x', pm10: 'µg/m³' });
    expect(fields.map((f) => f.name)).toEqual([
      'pm2',
      'pm10',
      'co',
      'no2',
      'so2',
      'o3',
      'h2s',
      'temperature',
      'humidity',
      'pressure',
      'nh3',
    ]);
  });

  it('reads each field’s unit into a factor, and sends pm2 to the substance pm2.5', () => {
    const { fields } = answerFields({
      pm2: 'mg/m3',
      co: 'µg/m³',
      humidity: '%',
      pressure: 'hPa',
      temperature: '°C',
    });
    expect(fieldNamed(fields, 'pm2')).toMatchObject({
      substance: 'pm2.5',
      factor: 1000,
      unusable: undefined,
    });
    expect(fieldNamed(fields, 'co')).toMatchObject({ substance: 'co', factor: 1, weather: undefined });
    expect(fieldNamed(fields, 'humidity')).toMatchObject({ weather: 'humidity', factor: 0.01 });
    expect(fieldNamed(fields, 'pressure')).toMatchObject({ weather: 'pressure', factor: 100 });
    expect(fieldNamed(fields, 'temperature').range).toBe(PHYSICAL_RANGES.temperature);
    expect(fieldNamed(fields, 'co').range).toBe(PHYSICAL_RANGES.concentration);
  });

  it('has the reason ready for a field that cannot be used, whatever the rows hold', () => {
    const { fields } = answerFields({
      pm10: '',
      co: 'ppm',
      humidity: 'hPa',
      'Bad-Name': 'mg/m3',
      o3: 42,
    });
    expect(fieldNamed(fields, 'pm2').unusable).toEqual({ field: 'pm2', reason: 'no_unit' });
    expect(fieldNamed(fields, 'pm10').unusable).toEqual({ field: 'pm10', reason: 'no_unit' });
    expect(fieldNamed(fields, 'o3').unusable).toEqual({ field: 'o3', reason: 'no_unit' });
    expect(fieldNamed(fields, 'co').unusable).toEqual({ field: 'co', reason: 'unknown_unit', unit: 'ppm' });
    expect(fieldNamed(fields, 'humidity').unusable).toEqual({
      field: 'humidity',
      reason: 'unit_mismatch',
      unit: 'hPa',
    });
    expect(fieldNamed(fields, 'Bad-Name').unusable).toEqual({ field: 'Bad-Name', reason: 'invalid_name' });
  });

  it('gives each field its reasons for a row that lacks it or holds no number', () => {
    const co = fieldNamed(answerFields({ co: 'mg/m3' }).fields, 'co');
    expect([co.missing, co.notANumber, co.outOfRange, co.tooMany]).toEqual([
      { field: 'co', reason: 'missing' },
      { field: 'co', reason: 'not_a_number' },
      { field: 'co', reason: 'out_of_range' },
      { field: 'co', reason: 'too_many' },
    ]);
  });

  it('looks at 64 fields at most, the rest overflow as too_many, the seen ones never crowded out', () => {
    const units = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`x${i}`, 'mg/m3']));
    const { fields, overflow } = answerFields(units);
    expect(fields).toHaveLength(64);
    expect(fields[0]?.name).toBe('pm2');
    expect(overflow).toHaveLength(100 + 10 - 64);
    expect(overflow[0]).toEqual({ field: 'x54', reason: 'too_many' });
  });
});

describe('cut and LABEL_NAME', () => {
  it('cuts a name for a log line to 64 characters', () => {
    expect(cut('a'.repeat(64))).toBe('a'.repeat(64));
    expect(cut('a'.repeat(65))).toBe(`${'a'.repeat(61)}...`);
  });

  it('lets only short lowercase ASCII names be label values', () => {
    expect(['nh3', 'ch2o', 'pm1', 'a_b'].every((n) => LABEL_NAME.test(n))).toBe(true);
    expect(['NH3', '1x', 'a-b', 'a"b', 'x'.repeat(33), 'ä'].some((n) => LABEL_NAME.test(n))).toBe(false);
  });
});
