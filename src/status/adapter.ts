// Builds the status page's view from the collectors. The station array handed to the page must stay the same
// object while nothing it shows changes, because the page caches its table per array: stations joined with
// readings are kept until the served list or the served readings change.
import type { Collector } from '../collector/contract.js';
import type { BuiltCollectors } from '../collector/entry.js';
import { forever, memoUntil } from '../collector/memo.js';
import type { EngineConfig } from '../config/config.js';
import type { ReadingsCollector } from '../readings/collector.js';
import type { StationReading } from '../readings/schema.js';
import type { ServedReadings } from '../readings/served.js';
import type { ReadingsConfig } from '../readings/settings.js';
import { readingsIn } from '../readings/slice.js';
import { readingsLegend, statusReading } from '../readings/status-html.js';
import type { StationsCollector } from '../stations/collector.js';
import type { Station, StationList } from '../stations/schema.js';
import { stationsIn } from '../stations/slice.js';
import type { StatusStation, StatusView } from './view.js';

export interface StatusSources {
  readonly config: Pick<EngineConfig, 'demo' | 'upstream' | 'web'> & {
    readonly readings: Pick<ReadingsConfig, 'interval'>;
  };
  readonly version: string;
  readonly revision: string;
  /** Every collector, in the order the page lists their health. */
  readonly collectors: readonly Collector[];
  /** The collectors by source, as the registry built them: the page reads the station list and the readings. */
  readonly built: BuiltCollectors;
  /** The sources' fragments after the collectors' health (the record's), as HTML, each escaped by its slice. */
  readonly sections?: readonly ((nowMs: number) => string)[];
}

interface Readers {
  readonly stations: Pick<StationsCollector, 'serving'>;
  /** Present when the readings collector is on. */
  readonly readings: Pick<ReadingsCollector, 'serving'> | undefined;
}

export function statusViewOf(sources: StatusSources): (nowMs: number) => StatusView {
  const { config } = sources;
  const read: Readers = { stations: stationsIn(sources.built), readings: readingsIn(sources.built) };
  // The readings' fragment: its legend, once; the page shows the readings' columns with it.
  const legend = read.readings ? readingsLegend(config.readings.interval) : undefined;
  const join = memoUntil((_nowMs, list: StationList, served: ServedReadings | undefined) =>
    forever(served ? list.stations.map((s) => withReading(s, served.byId.get(s.id))) : list.stations),
  );
  return (nowMs) => {
    const list = read.stations.serving(nowMs);
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
      stations: list && join(nowMs, list, read.readings?.serving(nowMs)),
      readingsLegend: legend,
    };
  };
}

function withReading(s: Station, r: StationReading | undefined): StatusStation {
  return r ? { ...s, reading: statusReading(r) } : s;
}
