import { describe, expect, it } from 'vitest';
import type { ReadingsData, RoundStats } from '../../src/readings/data.js';
import type { StationReading } from '../../src/readings/schema.js';
import { servedReadings } from '../../src/readings/served.js';
import { stationListOf } from '../support/station-list.js';

const MIN = 60_000;
const NOW = Date.UTC(2026, 10, 23, 12);
const MAX_AGE = 30 * MIN;

const reading = (id: number, atMs: number): StationReading => ({
  id,
  atMs,
  concentrations: new Map([['pm2.5', 10]]),
  temperatureCelsius: undefined,
  humidityRatio: undefined,
  pressurePascals: undefined,
  aqi: new Map(),
});

const round = { startedAtMs: NOW } as RoundStats;
const dataOf = (...readings: StationReading[]): ReadingsData => ({
  readings: new Map(readings.map((r) => [r.id, r])),
  round,
});

describe('servedReadings', () => {
  it('shows the readings of listed stations, sorted by id, while they are no older than max-age', () => {
    const data = dataOf(reading(3, NOW - 10 * MIN), reading(1, NOW - 29 * MIN), reading(2, NOW - 31 * MIN));
    const served = servedReadings(MAX_AGE)(NOW, data, stationListOf([1, 2, 3]));
    expect(served.shown.map((r) => r.id)).toEqual([1, 3]);
    expect([...served.byId.keys()]).toEqual([1, 3]);
    expect(served.round).toBe(round);
  });

  it('shows a reading up to the very moment it expires, and not after', () => {
    const data = dataOf(reading(1, NOW - MAX_AGE));
    const serve = servedReadings(MAX_AGE);
    const list = stationListOf([1]);
    expect(serve(NOW, data, list).shown).toHaveLength(1);
    expect(serve(NOW + 1, data, list).shown).toHaveLength(0);
  });

  it('shows no reading of a station the list does not serve, nor any without a list', () => {
    const data = dataOf(reading(1, NOW), reading(2, NOW));
    const serve = servedReadings(MAX_AGE);
    expect(serve(NOW, data, stationListOf([2])).shown.map((r) => r.id)).toEqual([2]);
    expect(serve(NOW, data, undefined).shown).toEqual([]);
  });

  it('hands back the same object until the data, the list or the first expiry changes it', () => {
    const data = dataOf(reading(1, NOW - 20 * MIN), reading(2, NOW - 5 * MIN));
    const list = stationListOf([1, 2]);
    const serve = servedReadings(MAX_AGE);
    const first = serve(NOW, data, list);
    expect(serve(NOW + 10 * MIN, data, list)).toBe(first);
    const after = serve(NOW + 10 * MIN + 1, data, list);
    expect(after).not.toBe(first);
    expect(after.shown.map((r) => r.id)).toEqual([2]);
    expect(serve(NOW + 10 * MIN + 1, data, stationListOf([1, 2]))).not.toBe(after);
  });
});
