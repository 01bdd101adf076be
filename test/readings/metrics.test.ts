import { describe, expect, it } from 'vitest';
import { READING_STATES } from '../../src/readings/data.js';
import { FUTURE_TOLERANCE_MS } from '../../src/readings/dates.js';
import { READING_METRICS } from '../../src/readings/metrics.js';
import { SKIP_REASONS } from '../../src/readings/schema.js';

const specs = Object.values(READING_METRICS);

describe('READING_METRICS', () => {
  it('names each family once, under cityair_, counters ending in _total', () => {
    const names = specs.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.filter((n) => !/^cityair_[a-z0-9_]+$/.test(n))).toEqual([]);
    expect(specs.filter((s) => (s.type === 'counter') !== s.name.endsWith('_total'))).toEqual([]);
  });

  it('gives every family a help text of one sentence or more', () => {
    expect(specs.filter((s) => !/^[A-Z].*\.$/.test(s.help) || s.help.includes('\n'))).toEqual([]);
  });

  it('explains every station state and skip reason in the help of their families', () => {
    expect(READING_STATES.filter((s) => !READING_METRICS.stations.help.includes(s))).toEqual([]);
    expect(SKIP_REASONS.filter((r) => !READING_METRICS.fieldsSkipped.help.includes(r))).toEqual([]);
  });

  it('states the tolerance for future-dated rows as it is', () => {
    expect(READING_METRICS.rowsFutureDated.help).toContain(`${FUTURE_TOLERANCE_MS / 60_000} minutes ahead`);
  });
});
