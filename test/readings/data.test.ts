import { describe, expect, it } from 'vitest';
import { READING_STATES, readingExpiresAtMs } from '../../src/readings/data.js';
import { READING_METRICS } from '../../src/readings/metrics.js';

describe('readingExpiresAtMs', () => {
  it('is the row’s time plus the max-age', () => {
    expect(readingExpiresAtMs({ atMs: 1_000 }, 30 * 60_000)).toBe(1_801_000);
  });
});

describe('READING_STATES', () => {
  it('are the states the stations metric’s help explains, in its order', () => {
    const help = READING_METRICS.stations.help;
    const named = READING_STATES.map((s) => help.indexOf(s));
    expect(named.every((i) => i >= 0)).toBe(true);
    expect(named).toEqual([...named].sort((a, b) => a - b));
  });
});
