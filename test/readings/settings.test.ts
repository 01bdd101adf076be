// The readings' settings into their part of the configuration, and the combinations that would leave them
// nothing to show.
import { describe, expect, it } from 'vitest';
import { readingsConfig, readingsRequestConfig, readingsWarnings } from '../../src/readings/settings.js';
import { configFrom } from '../support/in-process.js';

describe('the readings’ settings', () => {
  it('are read the same way by the exporter and the backfill', () => {
    const parsed = {
      readings: true,
      readingsInterval: '20m',
      readingsRefreshInterval: 60_000,
      readingsMaxAge: 3_600_000,
      readingsStations: [7],
      readingsConcurrency: 3,
      readingsMaxBodySize: 1024,
    } as Parameters<typeof readingsConfig>[0];
    const request = readingsRequestConfig(parsed);
    expect(request).toEqual({ interval: '20m', stations: [7], concurrency: 3, maxBodyBytes: 1024 });
    expect(readingsConfig(parsed)).toEqual({
      ...request,
      enabled: true,
      refreshIntervalMs: 60_000,
      maxAgeMs: 3_600_000,
    });
  });

  it('warn of a max-age readings cannot meet, only when the collector is on', () => {
    const short = ['--measurements.max-age=5m', '--measurements.refresh-interval=5m'];
    expect(readingsWarnings(configFrom(short).readings)).toEqual([]);
    const on = readingsWarnings(configFrom(['--collector.measurements', ...short]).readings);
    expect(on.join('\n')).toMatch(/expire between rounds/);
    expect(on.join('\n')).toMatch(/too old to export/);
  });
});
