import { describe, expect, it } from 'vitest';
import { recogniseUnit } from '../../src/readings/units.js';

describe('recogniseUnit', () => {
  it.each([
    ['µg/m³', 1],
    ['μg/m3', 1],
    ['ug/m^3', 1],
    ['mcg/m3', 1],
    ['мкг/м³', 1],
    ['MG / M3', 1000],
    ['мг/м3', 1000],
    ['g/m3', 1e6],
    ['ng/m3', 1e-3],
  ])('reads the concentration %s as %f µg/m³', (text, factor) => {
    expect(recogniseUnit(text)).toEqual({ quantity: 'concentration', factor });
  });

  it.each([
    ['°C', 'temperature', 1],
    ['℃', 'temperature', 1],
    ['degC', 'temperature', 1],
    ['С', 'temperature', 1],
    ['%', 'percent', 0.01],
    ['%RH', 'percent', 0.01],
    ['Pa', 'pressure', 1],
    ['hPa', 'pressure', 100],
    ['гПа', 'pressure', 100],
    ['kPa', 'pressure', 1000],
    ['mbar', 'pressure', 100],
    ['mm Hg', 'pressure', 133.322],
    ['мм рт. ст.', 'pressure', 133.322],
  ])('reads %s as %s × %f', (text, quantity, factor) => {
    expect(recogniseUnit(text)).toEqual({ quantity, factor });
  });

  it('guesses nothing beyond the forms it knows', () => {
    for (const text of ['ppm', 'ppb', 'K', '°F', 'mg', 'µg/m²', 'kg/m3', '', 'g/m3/s']) {
      expect(recogniseUnit(text), text).toBeUndefined();
    }
  });

  it('refuses a text longer than any unit without parsing it', () => {
    expect(recogniseUnit(`µg/m³${' '.repeat(30)}`)).toBeUndefined();
  });

  it('answers the same for a text seen many times, and after hundreds of new texts', () => {
    for (let i = 0; i < 400; i++) recogniseUnit(`unit-${i}`);
    expect(recogniseUnit('mg/m3')).toEqual({ quantity: 'concentration', factor: 1000 });
    expect(recogniseUnit('mg/m3')).toEqual({ quantity: 'concentration', factor: 1000 });
  });
});
