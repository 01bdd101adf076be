// The station list's entry: its pool and its metric tables, and the list as the sources after it read it.
import { describe, expect, it } from 'vitest';
import type { BuiltCollectors } from '../../src/collector/entry.js';
import { STATION_METRICS } from '../../src/stations/metrics.js';
import { STATION_SOCKETS, STATIONS_SOURCE, stationsIn } from '../../src/stations/slice.js';

describe('the station list’s entry', () => {
  it('asks for its own pool and documents its metrics', () => {
    expect(STATIONS_SOURCE.sockets(undefined)).toBe(STATION_SOCKETS);
    expect(STATIONS_SOURCE.metrics).toContain(STATION_METRICS);
    expect(STATIONS_SOURCE.sharesPoolOf).toBeUndefined();
  });

  it('is found by the sources after it, and its absence is a mistake of the registry’s order', () => {
    const list = { name: 'station list' };
    expect(stationsIn({ stations: list } as unknown as BuiltCollectors)).toBe(list);
    expect(() => stationsIn({})).toThrow(/listed before/);
  });
});
