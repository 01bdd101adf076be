// Builds the status page's view from the collectors' state. The station array handed to the page must stay the
// same object while nothing it shows changes, because the page caches its table per array: stations joined with
// readings are kept until a new list or round arrives, or a reading shown passes its max-age.
import type { Config } from '../boundaries/config.js';
import type { StationReading } from '../boundaries/measurements.js';
import type { Station, StationList } from '../boundaries/stations.js';
import type { ReadingsCollector } from '../collectors/readings.js';
import { type ReadingsData, readingExpiresAtMs } from '../collectors/readings-data.js';
import { servable } from '../collectors/refresh-policy.js';
import type { StationCollector, StationState } from '../collectors/stations.js';
import type { StatusStation, StatusView } from './status-view.js';

export interface StatusSources {
  readonly config: Config;
  readonly version: string;
  readonly revision: string;
  readonly stations: Pick<StationCollector, 'state'>;
  /** Present when the readings collector is on. */
  readonly readings?: Pick<ReadingsCollector, 'state'> | undefined;
}

export function statusViewOf(sources: StatusSources): (nowMs: number) => StatusView {
  const { config } = sources;
  const join = readingsJoin(config.measurements.maxAgeMs);
  return (nowMs) => {
    const state = sources.stations.state();
    const list = servable(state, nowMs, config.upstream.maxAgeMs)?.data;
    const readings = sources.readings?.state().current?.data;
    return {
      version: sources.version,
      revision: sources.revision,
      upstream: config.demo ? 'built-in simulator' : config.upstream.baseUrl,
      demo: config.demo,
      mode: config.upstream.refreshIntervalMs > 0 ? 'background' : 'on-demand',
      telemetryPath: config.web.telemetryPath,
      nowMs,
      refresh: refreshView(state),
      stations: list && (readings ? join(list, readings, nowMs) : list.stations),
      readingsEnabled: sources.readings !== undefined,
    };
  };
}

function refreshView(state: StationState): StatusView['refresh'] {
  const last = state.lastAttempt;
  return {
    lastSuccessMs: state.current?.fetchedAtMs,
    lastAttempt:
      last &&
      (last.reason
        ? { atMs: last.atMs, ok: false, reason: last.reason, message: last.message ?? '' }
        : { atMs: last.atMs, ok: true }),
    backoffUntilMs: state.notBeforeMs,
    consecutiveFailures: state.consecutiveFailures,
  };
}

interface Joined {
  readonly list: StationList;
  readonly readings: ReadingsData;
  readonly validUntilMs: number;
  readonly stations: readonly StatusStation[];
}

function readingsJoin(maxAgeMs: number) {
  let memo: Joined | undefined;
  return (list: StationList, readings: ReadingsData, nowMs: number): readonly StatusStation[] => {
    if (memo && memo.list === list && memo.readings === readings && nowMs <= memo.validUntilMs)
      return memo.stations;
    let validUntilMs = Number.POSITIVE_INFINITY;
    const stations = list.stations.map((s): StatusStation => {
      const r = readings.readings.get(s.id);
      if (!r) return s;
      const expiresMs = readingExpiresAtMs(r, maxAgeMs);
      if (nowMs > expiresMs) return s;
      validUntilMs = Math.min(validUntilMs, expiresMs);
      return withReading(s, r);
    });
    memo = { list, readings, validUntilMs, stations };
    return stations;
  };
}

function withReading(s: Station, r: StationReading): StatusStation {
  const pm25 = r.concentrations.get('pm2.5');
  const pm10 = r.concentrations.get('pm10');
  const aqi = r.aqi.get('cityair');
  return {
    ...s,
    reading: {
      atMs: r.atMs,
      ...(pm25 === undefined ? {} : { pm25 }),
      ...(pm10 === undefined ? {} : { pm10 }),
      ...(aqi === undefined ? {} : { aqi }),
    },
  };
}
