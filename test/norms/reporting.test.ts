import { describe, expect, it } from 'vitest';
import {
  exceeds,
  HAZARD_CLASS,
  izaExponent,
  levelBy,
  levelEdges,
  UNCONFIRMED,
  UNCONFIRMED_RULES,
  withoutNoise,
} from '../../src/norms/reporting.js';
import { SUBSTANCE_NAMES } from '../../src/norms/table.js';

describe('levelBy', () => {
  it.each([
    [0.5, 1],
    [1, 1],
    [1.01, 2],
    [4.99, 2],
    [5, 3],
    [10, 3],
    [10.001, 4],
  ])('reads СИ %s as level %s', (si, level) => {
    expect(levelBy('si', si)).toBe(level);
  });

  it.each([
    [0, 1],
    [0.1, 2],
    [19.9, 2],
    [20, 3],
    [50, 4],
  ])('reads НП %s %% as level %s', (np, level) => {
    expect(levelBy('np', np)).toBe(level);
  });

  it.each([
    [4.99, 1],
    [5, 2],
    [7, 3],
    [13.99, 3],
    [14, 4],
  ])('reads ИЗА %s as level %s', (iza, level) => {
    expect(levelBy('iza', iza)).toBe(level);
  });

  it('compares a value without its binary noise, so a СИ of 0.1 × 3 / 0.3 is on the edge 1', () => {
    const si = (0.1 * 3) / 0.3;
    expect(si).toBeGreaterThan(1);
    expect(levelBy('si', si)).toBe(1);
    expect(withoutNoise(si)).toBe(1);
  });

  it('has the edges the stated rule names, a value on an edge in the level the rule puts it', () => {
    const bands = UNCONFIRMED_RULES.find((r) => r.key === 'bands')?.en ?? '';
    for (const [indicator, name] of [
      ['si', 'СИ'],
      ['np', 'НП'],
      ['iza', 'ИЗА'],
    ] as const) {
      const stated = new RegExp(`${name} ([^;]+)`).exec(bands)?.[1] ?? '';
      // "≤ 1 low, < 5 elevated, ≤ 10 high, > 10 very high": the first three name the upper edges.
      const edges = [...stated.matchAll(/(≤|<|≥|>)? ?(\d+) /g)].slice(0, 3);
      expect(
        edges.map((m) => Number(m[2])),
        indicator,
      ).toEqual([...levelEdges(indicator)]);
      edges.forEach((m, i) => {
        const onEdgeStaysBelow = m[1] === undefined || m[1] === '≤';
        expect(levelBy(indicator, Number(m[2])), `${indicator} ${m[0]}`).toBe(
          onEdgeStaysBelow ? i + 1 : i + 2,
        );
      });
    }
  });
});

describe('izaExponent', () => {
  it('takes C from the hazard class, and the stated value for a substance without one', () => {
    expect(izaExponent('o3')).toBe(1.7);
    expect(izaExponent('h2s')).toBe(1.3);
    expect(izaExponent('no2')).toBe(1.0);
    expect(izaExponent('co')).toBe(0.9);
    expect(izaExponent('pm2.5')).toBe(UNCONFIRMED.classlessExponent);
  });

  it('gives a class to every gas, and none to particulate matter', () => {
    const classless = Object.keys(SUBSTANCE_NAMES).filter((s) => !(s in HAZARD_CLASS));
    expect(classless).toEqual(['pm2.5', 'pm10']);
  });
});

describe('exceeds', () => {
  it('counts a value strictly above the norm, as the stated rule says', () => {
    expect(UNCONFIRMED.strictlyAbove).toBe(true);
    expect(exceeds(1.0001, 1)).toBe(true);
    expect(exceeds(1, 1)).toBe(false);
  });
});

describe('UNCONFIRMED_RULES', () => {
  it('states every rule once, in English and Russian', () => {
    const keys = UNCONFIRMED_RULES.map((r) => r.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(UNCONFIRMED_RULES.filter((r) => !r.en.endsWith('.') || !r.ru.endsWith('.'))).toEqual([]);
  });
});
