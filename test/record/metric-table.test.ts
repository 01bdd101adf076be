// The record's metric table is what its metrics are: each family of the table is registered by
// createRecordMetrics with the table's type and help, and none besides.
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RECORD_METRICS } from '../../src/record/metric-table.js';
import { createRecordMetrics } from '../../src/record/metrics.js';

describe('the record’s metric table', () => {
  it('names every family the record registers, with its type and help', async () => {
    const registry = new Registry();
    createRecordMetrics(registry);
    const registered = (await registry.getMetricsAsJSON()).map((m) => ({
      name: m.name,
      type: String(m.type),
      help: m.help,
    }));
    const table = Object.values(RECORD_METRICS).map((m) => ({
      name: m.name.replace(/_total$/, ''),
      type: m.type,
      help: m.help,
    }));
    expect(registered.map((m) => ({ ...m, name: m.name.replace(/_total$/, '') }))).toEqual(
      expect.arrayContaining(table),
    );
    expect(registered).toHaveLength(table.length);
  });
});
