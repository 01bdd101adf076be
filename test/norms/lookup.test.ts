// The questions asked of the norms table: which band a multiple falls in, which substance stands highest.
import { describe, expect, it } from 'vitest';
import {
  bandLabels,
  bandOf,
  highestMultiple,
  isSubstance,
  normsOf,
  normValue,
} from '../../src/norms/lookup.js';

describe('a norm and a substance', () => {
  it('lists a family’s norms in the table’s order of substances', () => {
    expect(normsOf('who-8h').map((n) => n.substance)).toEqual(['o3']);
    const daily = normsOf('pdk-daily').map((n) => n.substance);
    expect(daily.indexOf('pm2.5')).toBeLessThan(daily.indexOf('co'));
  });

  it('answers no value for a substance the table does not hold', () => {
    expect(normValue('ch2o', 'pdk-single')).toBeUndefined();
    expect(normValue('toString', 'pdk-single')).toBeUndefined();
  });

  it('knows the exporter’s substance labels, and nothing from an object’s prototype', () => {
    expect(isSubstance('pm2.5')).toBe(true);
    expect(isSubstance('pm2')).toBe(false);
    expect(isSubstance('constructor')).toBe(false);
  });
});

describe('bands of multiples', () => {
  it.each([
    [0, 0],
    [0.99, 0],
    [1, 0],
    [1.01, 1],
    [2, 1],
    [2.2, 2],
    [5, 2],
    [5.01, 3],
    [60, 3],
  ])('%s × the norm is band %s', (multiple, band) => {
    expect(bandOf(multiple)).toBe(band);
  });

  it('labels the bands for a legend', () => {
    expect(bandLabels()).toEqual(['≤ 1', '1–2', '2–5', '> 5']);
  });
});

describe('the substance standing highest against its norm', () => {
  const single = (s: string) => normValue(s, 'pdk-single') ?? Number.NaN;

  it('compares multiples, not concentrations, and skips substances without a value', () => {
    const readings = new Map([
      ['pm10', single('pm10') * 0.9],
      ['so2', single('so2') * 1.6],
      ['h2s', single('h2s') * 1.2],
      ['ch2o', 1e9],
    ]);
    expect(highestMultiple(readings, 'pdk-single')).toEqual({ substance: 'so2', multiple: 1.6 });
    expect(highestMultiple(readings, 'pdk-daily')).toEqual({
      substance: 'so2',
      multiple: (single('so2') * 1.6) / (normValue('so2', 'pdk-daily') ?? Number.NaN),
    });
  });

  it('has nothing to say about readings without a judged substance', () => {
    expect(highestMultiple(new Map([['ch2o', 5]]), 'pdk-single')).toBeUndefined();
    expect(highestMultiple(new Map([['pm10', Number.NaN]]), 'pdk-single')).toBeUndefined();
    expect(highestMultiple([], 'pdk-single')).toBeUndefined();
  });
});
