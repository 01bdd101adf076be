// The README's tables of units and ranges are what the code does: a row that drifts from it fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { convertWithin, PHYSICAL_RANGES } from '../../src/readings/ranges.js';
import { type Quantity, recogniseUnit } from '../../src/readings/units.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The cells of the README table rows whose first cell is `first`: the first such row, or every one. */
const rows = (first: string): string[][] =>
  readme
    .split('\n')
    .filter((l) => l.startsWith(`| ${first} |`))
    .map((l) => l.split(' | ').map((c) => c.replace(/^\| |\s\|$/g, '')));
function row(first: string): string[] {
  const found = rows(first)[0];
  if (found === undefined) throw new Error(`README has no row "${first}"`);
  return found;
}

const ticks = (text: string): string[] => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);

describe('the README unit table', () => {
  it('lists only mass and volume spellings whose every combination is read as a concentration', () => {
    const [massPart = '', volumePart = ''] = (row('mass concentration')[1] ?? '').split('`/`');
    const masses = ticks(massPart).map((t) => (/[gг]$/.test(t) ? t : `${t}g`));
    const volumes = ticks(volumePart);
    expect(masses.length).toBeGreaterThan(10);
    expect(volumes.length).toBeGreaterThan(3);
    for (const m of masses)
      for (const v of volumes)
        expect(recogniseUnit(`${m}/${v}`)?.quantity, `${m}/${v}`).toBe('concentration');
  });

  it.each([
    ['temperature', 'temperature'],
    ['relative humidity', 'percent'],
    ['pressure', 'pressure'],
  ] as const)('lists only %s spellings that are read as such', (first, quantity: Quantity) => {
    const forms = ticks(row(first)[1] ?? '');
    expect(forms.length).toBeGreaterThan(1);
    for (const form of forms) expect(recogniseUnit(form)?.quantity, form).toBe(quantity);
  });
});

describe('the README range table', () => {
  const number = (text: string): number => Number(text.replace(/,/g, '').replace('−', '-'));
  const rangeOf = (first: string): [number, number] => {
    const ranges = rows(first).map((cells) => /^(−?[\d,.]+) to (−?[\d,.]+)/.exec(cells[1] ?? ''));
    const m = ranges.find((r) => r !== null);
    if (!m) throw new Error(`no range in the row "${first}"`);
    return [number(m[1] as string), number(m[2] as string)];
  };

  it.each([
    ['concentration', PHYSICAL_RANGES.concentration],
    ['temperature', PHYSICAL_RANGES.temperature],
    ['relative humidity', PHYSICAL_RANGES.humidity],
    ['pressure', PHYSICAL_RANGES.pressure],
    ['AQI `cityair`', PHYSICAL_RANGES.cityairAqi],
    ['any other AQI', PHYSICAL_RANGES.aqi],
  ])('gives the range of %s the code applies', (first, range) => {
    expect(rangeOf(first)).toEqual([range.min, range.max]);
  });

  it('keeps both ends and nothing beyond, NaN and infinities included', () => {
    const r = PHYSICAL_RANGES.temperature;
    expect([convertWithin(-100, 1, r), convertWithin(100, 1, r)]).toEqual([-100, 100]);
    for (const v of [-100.0001, 100.0001, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])
      expect(convertWithin(v, 1, r), String(v)).toBeUndefined();
  });
});
