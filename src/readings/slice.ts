// The readings' entry in the registry of sources (src/sources.ts): its settings (--collector.measurements and
// --measurements.*), its part of the configuration, its metric table, a pool as wide as its concurrency, and its
// collector, which reads the station list built before it.
import { type BuiltCollectors, sourceEntry } from '../collector/entry.js';
import { stationsIn } from '../stations/slice.js';
import type { ReadingsCollector } from './collector.js';
import { READING_METRICS } from './metrics.js';
import { READINGS_SETTINGS, readingsConfig, readingsWarnings } from './settings.js';

export const READINGS_SOURCE = sourceEntry({
  name: 'readings',
  settings: READINGS_SETTINGS,
  config: readingsConfig,
  warnings: readingsWarnings,
  metrics: [READING_METRICS],
  sockets: (own) => own.concurrency,
  create: async ({ config, own, upstream, registry, log }, built) => {
    if (!own.enabled) return undefined;
    const { createReadingsCollector } = await import('./collector.js');
    return createReadingsCollector({
      config: { upstream: config.upstream, readings: own },
      upstream,
      registry,
      log,
      stations: stationsIn(built),
    });
  },
});

/** The readings as built by the registry (undefined when the collector is off), for the slices that show them. */
export const readingsIn = (built: BuiltCollectors): ReadingsCollector | undefined =>
  built[READINGS_SOURCE.name] as ReadingsCollector | undefined;
