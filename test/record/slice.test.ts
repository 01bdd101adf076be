// The record's entry: no pool of its own (it asks CityAir through the readings', within their bound), nothing
// built without its configuration or without the readings, and its status section from its rounds' state.
import { describe, expect, it } from 'vitest';
import type { BuiltCollectors } from '../../src/collector/entry.js';
import type { RecordRounds } from '../../src/record/record.js';
import { RECORD_SOURCE } from '../../src/record/slice.js';
import { socketsOf } from '../../src/sources.js';
import { configFrom } from '../support/in-process.js';

const ON = [
  '--collector.measurements',
  '--record.remote-write.url=http://vm:8428/api/v1/write',
  '--record.query.url=http://vm:8428',
];

describe('the record’s entry', () => {
  it('shares the readings’ pool, adding no socket to the budget', () => {
    expect(RECORD_SOURCE.sharesPoolOf).toBe('readings');
    expect(socketsOf(configFrom([...ON, '--measurements.concurrency=3']))).toEqual({
      stations: 2,
      readings: 3,
    });
  });

  it('builds nothing when it is off, or when the readings are not built', async () => {
    const off = configFrom(['--collector.measurements']);
    const deps = { config: off, own: off.record } as unknown as Parameters<typeof RECORD_SOURCE.create>[0];
    expect(await RECORD_SOURCE.create(deps, {})).toBeUndefined();
    const on = configFrom(ON);
    const none = { config: on, own: on.record } as unknown as Parameters<typeof RECORD_SOURCE.create>[0];
    expect(await RECORD_SOURCE.create(none, { stations: {} } as unknown as BuiltCollectors)).toBeUndefined();
  });

  it('warns of labels only when it is on', () => {
    expect(RECORD_SOURCE.warnings?.(undefined)).toEqual([]);
    expect(RECORD_SOURCE.warnings?.(configFrom(ON).record)).toHaveLength(2);
  });

  it('shows its rounds’ state on the status page', () => {
    const rounds: RecordRounds = {
      state: () => ({
        lastRound: undefined,
        lastSuccessMs: undefined,
        rowsWrittenSinceStart: 42,
        rounds: 0,
        nextRoundAtMs: undefined,
      }),
      start: () => {},
      stop: async () => {},
    };
    const section = RECORD_SOURCE.statusSection?.(rounds);
    expect(section?.(Date.UTC(2026, 10, 27))).toContain('<dt>Rows written since start</dt><dd>42</dd>');
  });
});
