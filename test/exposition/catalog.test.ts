import { describe, expect, it } from 'vitest';
import { EXPORTER_METRICS, REQUEST_DURATION_BUCKETS } from '../../src/exposition/catalog.js';

describe('the exporter’s own families', () => {
  it('name the build info with the labels it is set with', () => {
    expect(EXPORTER_METRICS.buildInfo).toMatchObject({
      name: 'cityair_exporter_build_info',
      type: 'gauge',
      labels: ['version', 'revision', 'nodejs_version'],
    });
  });

  it('bucket request durations in increasing order, each bound once and above 0', () => {
    expect(REQUEST_DURATION_BUCKETS).toEqual([...REQUEST_DURATION_BUCKETS].sort((a, b) => a - b));
    expect(new Set(REQUEST_DURATION_BUCKETS).size).toBe(REQUEST_DURATION_BUCKETS.length);
    expect(REQUEST_DURATION_BUCKETS[0]).toBeGreaterThan(0);
  });
});
