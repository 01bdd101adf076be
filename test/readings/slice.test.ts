// The readings' entry: a pool as wide as their concurrency, no collector when off, and the collector as the
// sources after it read it.
import { describe, expect, it } from 'vitest';
import type { BuiltCollectors } from '../../src/collector/entry.js';
import { READINGS_SOURCE, readingsIn } from '../../src/readings/slice.js';
import { configFrom } from '../support/in-process.js';

describe('the readings’ entry', () => {
  it('asks for as many sockets as --measurements.concurrency', () => {
    expect(READINGS_SOURCE.sockets(configFrom(['--measurements.concurrency=5']).readings)).toBe(5);
  });

  it('builds nothing when the collector is off', async () => {
    const config = configFrom([]);
    const deps = { config, own: config.readings } as unknown as Parameters<typeof READINGS_SOURCE.create>[0];
    expect(await READINGS_SOURCE.create(deps, {})).toBeUndefined();
  });

  it('is found by the sources after it, or is undefined when off', () => {
    const readings = { name: 'readings' };
    expect(readingsIn({ readings } as unknown as BuiltCollectors)).toBe(readings);
    expect(readingsIn({})).toBeUndefined();
  });
});
