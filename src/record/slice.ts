// The record's entry in the registry of sources (src/sources.ts): its settings (--record.*), its part of the
// configuration (on only with a remote-write URL, and only beside the readings), its metric table, its status
// section, and its rounds, which ask CityAir through the readings' pool: CityAir sees one client, whose bound on
// requests in flight is --measurements.concurrency, and a pause it asks for holds the readings and the record.
import { sourceEntry } from '../collector/entry.js';
import type { ReadingsConfig } from '../readings/settings.js';
import { readingsIn } from '../readings/slice.js';
import { stationsIn } from '../stations/slice.js';
import { type RecordConfig, recordConfig, recordWarnings } from './config.js';
import { RECORD_METRICS } from './metric-table.js';
import type { RecordRounds } from './record.js';
import { RECORD_LISTS, RECORD_SETTINGS } from './settings.js';
import { recordStatusHtml } from './status.js';

/** The record's part of the configuration: its own, and the readings' it reads as the readings collector does. */
export interface RecordSourceConfig {
  readonly record: RecordConfig;
  readonly readings: ReadingsConfig;
}

export const RECORD_SOURCE = sourceEntry({
  name: 'record',
  settings: RECORD_SETTINGS,
  lists: Object.values(RECORD_LISTS),
  config: (parsed, context): RecordSourceConfig | undefined => {
    // The registry lists the readings before the record: their configuration is already made.
    const readings = context.earlier.readings as ReadingsConfig;
    const record = recordConfig(parsed, context, {
      readingsEnabled: readings.enabled,
      maxAgeMs: readings.maxAgeMs,
    });
    return record && { record, readings };
  },
  warnings: (own) => (own ? recordWarnings(own.record) : []),
  docs: 'docs/record.md',
  metrics: [RECORD_METRICS],
  sockets: () => 0,
  sharesPoolOf: 'readings',
  create: async ({ config, own, upstream, gate, registry, log, userAgent }, built) => {
    const readings = readingsIn(built);
    if (own === undefined || readings === undefined) return undefined;
    const { createRecord } = await import('./record.js');
    return createRecord({
      record: own.record,
      config: { upstream: config.upstream, readings: own.readings },
      upstream,
      gate,
      stations: stationsIn(built),
      readings,
      registry,
      log,
      userAgent,
      apiKey: config.upstream.apiKey,
    });
  },
  statusSection: (rounds: RecordRounds) => (nowMs) => recordStatusHtml(rounds.state(), nowMs),
});
