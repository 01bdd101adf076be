import { describe, expect, it } from 'vitest';
import { createExporterRegistry } from '../../src/exposition/exporter-registry.js';

const BUILD = { version: '1.2.3', revision: 'abc123', nodeVersion: 'v22.12.0' };

describe('createExporterRegistry', () => {
  it('holds the build info, always 1', async () => {
    const text = await createExporterRegistry(BUILD, { processMetrics: false }).metrics();
    expect(text).toContain(
      'cityair_exporter_build_info{version="1.2.3",revision="abc123",nodejs_version="v22.12.0"} 1',
    );
    expect(text).not.toContain('process_cpu');
  });

  it('adds Node’s process metrics, without the _total gauges promtool refuses or the one-turn lag', async () => {
    const text = await createExporterRegistry(BUILD).metrics();
    expect(text).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(text).toContain('# TYPE nodejs_heap_size_total_bytes gauge');
    for (const name of [
      'nodejs_active_handles_total',
      'nodejs_active_requests_total',
      'nodejs_active_resources_total',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(text).not.toMatch(new RegExp(`^${name}[ {]`, 'm'));
    }
  });

  it('shows the event-loop delay in prom-client’s names, measured since the previous scrape', async () => {
    const registry = createExporterRegistry(BUILD);
    await registry.metrics();
    const end = performance.now() + 60;
    while (performance.now() < end) {
      // the event loop held for 60 ms
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    const text = await registry.metrics();
    const value = (stat: string): number =>
      Number(new RegExp(`^nodejs_eventloop_lag_${stat}_seconds ([0-9.e+-]+)$`, 'm').exec(text)?.[1]);
    for (const stat of ['min', 'max', 'mean', 'stddev', 'p50', 'p90', 'p99'])
      expect(value(stat), stat).toBeGreaterThanOrEqual(0);
    expect(value('max')).toBeGreaterThan(0.04);
  });
});
