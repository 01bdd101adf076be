// Builds the status page's view from the collectors. The station array handed to the page must stay the same
// object while nothing it shows changes, because the page caches its table per array: stations joined with
// readings are kept until the served list or the served readings change.
import type { Collector } from '../collector/contract.js';
import { forever, memoUntil } from '../collector/memo.js';
import type { Config } from '../config/config.js';
import { highestMultiple } from '../norms/lookup.js';
import type { ReadingsCollector } from '../readings/collector.js';
import type { StationReading } from '../readings/schema.js';
import type { ServedReadings } from '../readings/served.js';
import type { StationsCollector } from '../stations/collector.js';
import type { Station, StationList } from '../stations/schema.js';
import type { StatusStation, StatusView } from './view.js';

export interface StatusSources {
  readonly config: Pick<Config, 'demo' | 'upstream' | 'web' | 'readings'>;
  readonly version: string;
  readonly revision: string;
  /** Every collector, in the order the page lists their health. */
  readonly collectors: readonly Collector[];
  readonly stations: Pick<StationsCollector, 'serving'>;
  /** Present when the readings collector is on. */
  readonly readings?: Pick<ReadingsCollector, 'serving'> | undefined;
  /** Sections of other slices after the collectors' health (the record's), as HTML, each escaped by its slice. */
  readonly sections?: readonly ((nowMs: number) => string)[];
}

export function statusViewOf(sources: StatusSources): (nowMs: number) => StatusView {
  const { config } = sources;
  const join = memoUntil((_nowMs, list: StationList, served: ServedReadings | undefined) =>
    forever(served ? list.stations.map((s) => withReading(s, served.byId.get(s.id))) : list.stations),
  );
  return (nowMs) => {
    const list = sources.stations.serving(nowMs);
    return {
      version: sources.version,
      revision: sources.revision,
      upstream: config.demo ? 'built-in simulator' : config.upstream.baseUrl,
      demo: config.demo,
      mode: config.upstream.refreshIntervalMs > 0 ? 'background' : 'on-demand',
      telemetryPath: config.web.telemetryPath,
      nowMs,
      collectors: sources.collectors.map((c) => c.health(nowMs)),
      sections: (sources.sections ?? []).map((section) => section(nowMs)),
      stations: list && join(nowMs, list, sources.readings?.serving(nowMs)),
      readingsEnabled: sources.readings !== undefined,
      readingsInterval: config.readings.interval,
    };
  };
}

function withReading(s: Station, r: StationReading | undefined): StatusStation {
  if (!r) return s;
  const pm25 = r.concentrations.get('pm2.5');
  const pm10 = r.concentrations.get('pm10');
  const aqi = r.aqi.get('cityair');
  const highest = highestMultiple(r.concentrations, 'pdk-single');
  return {
    ...s,
    reading: {
      atMs: r.atMs,
      ...(pm25 === undefined ? {} : { pm25 }),
      ...(pm10 === undefined ? {} : { pm10 }),
      ...(aqi === undefined ? {} : { aqi }),
      ...(highest === undefined ? {} : { highest }),
    },
  };
}
