import { describe, expect, it } from 'vitest';
import { STATION_LIST_HEALTH, STATION_METRICS } from '../../src/stations/metrics.js';
import type { StationList } from '../../src/stations/schema.js';

const specs = [...Object.values(STATION_METRICS), ...Object.values(STATION_LIST_HEALTH)];

describe('the station metric tables', () => {
  it('name each family once, under cityair_, counters ending in _total', () => {
    const names = specs.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.filter((n) => !/^cityair_[a-z0-9_]+$/.test(n))).toEqual([]);
    expect(specs.filter((s) => (s.type === 'counter') !== s.name.endsWith('_total'))).toEqual([]);
  });

  it('give every family a help text of one sentence or more, on one line', () => {
    expect(specs.filter((s) => !/^[A-Z].*\.$/.test(s.help) || s.help.includes('\n'))).toEqual([]);
  });

  it('use label names Prometheus accepts, never a reserved one', () => {
    const labels = specs.flatMap((s) => s.labels);
    expect(labels.filter((l) => !/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(l) || l.startsWith('__'))).toEqual([]);
  });

  it('name in the help of the rejected family each reason an element is dropped for', () => {
    const reasons: (keyof StationList['rejected'])[] = ['invalid', 'duplicate'];
    expect(reasons.filter((r) => !STATION_METRICS.rejected.help.includes(r))).toEqual([]);
  });
});
