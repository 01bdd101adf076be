// The rows of an answer the walk has not read: after the cursor, before --to, by time, one per time.
import { describe, expect, it } from 'vitest';
import { firstHeld, newestReadBy, newRows, release } from '../../src/backfill/new-rows.js';
import type { RowReading } from '../../src/readings/schema.js';

const I = 300_000;
const T0 = Date.UTC(2026, 9, 1);

/** A row at `atMs`; its temperature tells rows of the same time apart. */
const row = (atMs: number, tag = 0): RowReading => ({
  reading: {
    id: 1,
    atMs,
    concentrations: new Map(),
    temperatureCelsius: tag,
    humidityRatio: undefined,
    pressurePascals: undefined,
    aqi: new Map(),
  },
  skipped: [],
});
const times = (rows: readonly RowReading[]): number[] => rows.map((r) => r.reading.atMs);

describe('newRows', () => {
  it('keeps the rows after the cursor and before --to of an answer listed oldest first', () => {
    const answer = [0, 1, 2, 3, 4, 5].map((k) => row(T0 + k * I));
    expect(times(newRows(answer, T0 + I, T0 + 5 * I))).toEqual([T0 + 2 * I, T0 + 3 * I, T0 + 4 * I]);
  });

  it('puts an answer listed newest first, or mixed, in increasing time', () => {
    const newestFirst = [5, 4, 3, 2, 1, 0].map((k) => row(T0 + k * I));
    expect(times(newRows(newestFirst, T0, Number.POSITIVE_INFINITY))).toEqual(
      [1, 2, 3, 4, 5].map((k) => T0 + k * I),
    );
    const mixed = [3, 0, 5, 1].map((k) => row(T0 + k * I));
    expect(times(newRows(mixed, T0, T0 + 5 * I))).toEqual([T0 + I, T0 + 3 * I]);
  });

  it('keeps one row per time: the later one in the answer', () => {
    const answer = [row(T0 + 2 * I, 1), row(T0 + I), row(T0 + 2 * I, 2)];
    const kept = newRows(answer, T0, Number.POSITIVE_INFINITY);
    expect(times(kept)).toEqual([T0 + I, T0 + 2 * I]);
    expect(kept[1]?.reading.temperatureCelsius).toBe(2);
  });

  it('gives nothing when every row is at or before the cursor, or at or after --to', () => {
    const answer = [0, 1, 2].map((k) => row(T0 + k * I));
    expect(newRows(answer, T0 + 2 * I, Number.POSITIVE_INFINITY)).toEqual([]);
    expect(newRows(answer, T0 - 1, T0)).toEqual([]);
  });
});

describe('the rows held ahead of the cursor', () => {
  const held = () => new Map([5, 2, 8].map((k) => [T0 + k * I, row(T0 + k * I)]));

  it('finds the newest row read at or before a time, the rows written counted through the newest of them', () => {
    expect(newestReadBy(held(), T0, T0 + 6 * I)).toBe(T0 + 5 * I);
    expect(newestReadBy(held(), T0, T0 + I)).toBe(T0);
    expect(newestReadBy(new Map(), undefined, T0)).toBeUndefined();
  });

  it('finds the first row held at or after a time', () => {
    expect(firstHeld(held(), T0 + 3 * I)).toBe(T0 + 5 * I);
    expect(firstHeld(held(), T0 + 5 * I)).toBe(T0 + 5 * I);
    expect(firstHeld(held(), T0 + 9 * I)).toBeUndefined();
  });

  it('takes out the rows the cursor has passed, in increasing time, and keeps the rest', () => {
    const ahead = held();
    expect(times(release(ahead, T0 + 5 * I))).toEqual([T0 + 2 * I, T0 + 5 * I]);
    expect([...ahead.keys()]).toEqual([T0 + 8 * I]);
  });
});
