// The table of norms: one value per substance and norm, in the order the sanitary rules set.
import { describe, expect, it } from 'vitest';
import { isSubstance, normsOf, normValue } from '../../src/norms/lookup.js';
import { BAND_LIMITS, EXTREME_POLLUTION, FAMILIES, NORMS, SUBSTANCE_NAMES } from '../../src/norms/table.js';

describe('the table of norms', () => {
  it('has one value per substance and norm, positive, for known substances', () => {
    const keys = NORMS.map((n) => `${n.substance} ${n.family}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const n of NORMS) {
      expect(n.ugPerM3, `${n.substance} ${n.family}`).toBeGreaterThan(0);
      expect(isSubstance(n.substance)).toBe(true);
    }
  });

  it('gives every substance its maximum single ПДК, the norm the status page colours by', () => {
    expect(normsOf('pdk-single').map((n) => n.substance)).toEqual(Object.keys(SUBSTANCE_NAMES));
  });

  it('holds the 2021 daily ПДК of NO₂ and O₃, not the repealed ones, which equal today’s annual values', () => {
    for (const s of ['no2', 'o3']) {
      expect(normValue(s, 'pdk-daily')).toBeGreaterThan(
        normValue(s, 'pdk-annual') ?? Number.POSITIVE_INFINITY,
      );
    }
  });

  it('orders each substance’s ПДК from the single to the annual value, as the sanitary rules do', () => {
    for (const s of Object.keys(SUBSTANCE_NAMES)) {
      const values = (['pdk-single', 'pdk-daily', 'pdk-annual'] as const)
        .map((f) => normValue(s, f))
        .filter((v) => v !== undefined);
      expect(values, s).toEqual([...values].sort((a, b) => b - a));
    }
  });

  it('averages each family over its own time, the WHO 8-hour guideline being O₃’s alone', () => {
    expect(FAMILIES['pdk-single'].averaging).toBe('20m');
    expect(normsOf('who-8h').map((n) => n.substance)).toEqual(['o3']);
    expect(normsOf('who-24h').map((n) => n.substance)).not.toContain('o3');
  });

  it('knows no value where the norm sets none', () => {
    expect(normValue('h2s', 'pdk-daily')).toBeUndefined();
    expect(normValue('so2', 'pdk-annual')).toBeUndefined();
    expect(normValue('h2s', 'who-24h')).toBeUndefined();
    expect(normValue('ch2o', 'pdk-single')).toBeUndefined();
    expect(isSubstance('ch2o')).toBe(false);
    expect(isSubstance('toString')).toBe(false);
  });

  it('lists the ЭВЗ criteria from the highest multiple down, each lasting longer', () => {
    const multiples = EXTREME_POLLUTION.map((c) => c.atLeast);
    expect(multiples).toEqual([...multiples].sort((a, b) => b - a));
    expect(multiples.every((m) => m > (BAND_LIMITS.at(-1) ?? 0))).toBe(true);
  });
});
