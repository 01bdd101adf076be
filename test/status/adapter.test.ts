import { describe, expect, it } from 'vitest';
import type { Collector, CollectorHealth } from '../../src/collector/contract.js';
import type { BuiltCollectors } from '../../src/collector/entry.js';
import { normValue } from '../../src/norms/lookup.js';
import type { ReadingsData } from '../../src/readings/data.js';
import type { StationReading } from '../../src/readings/schema.js';
import { type ServedReadings, servedReadings } from '../../src/readings/served.js';
import type { StationList } from '../../src/stations/schema.js';
import { type StatusSources, statusViewOf } from '../../src/status/adapter.js';
import { configFrom } from '../support/in-process.js';
import { stationListOf } from '../support/station-list.js';

const NOW = Date.UTC(2026, 10, 23, 12);

const health = (name: string): CollectorHealth => ({
  name,
  lastSuccessMs: NOW,
  lastAttempt: undefined,
  consecutiveFailures: 0,
  backoffUntilMs: 0,
  serving: true,
  inFlight: false,
});
const collector = (name: string): Collector => ({
  name,
  source: { collect: () => ({ cached: undefined, live: '' }) },
  gatesReadiness: false,
  health: () => health(name),
  start: () => undefined,
  stop: async () => undefined,
});

const reading = (id: number, concentrations: [string, number][], aqi?: number): StationReading => ({
  id,
  atMs: NOW - 60_000,
  concentrations: new Map(concentrations),
  temperatureCelsius: undefined,
  humidityRatio: undefined,
  pressurePascals: undefined,
  aqi: new Map(aqi === undefined ? [] : [['cityair', aqi]]),
});

function sources(
  argv: string[],
  list: () => StationList | undefined,
  served?: () => ServedReadings | undefined,
): StatusSources {
  return {
    config: configFrom(argv),
    version: '9.9.9',
    revision: 'deadbee',
    collectors: [collector('station list'), collector('readings')],
    // The registry's collectors, as far as the page reads them.
    built: {
      stations: { serving: list },
      readings: served && { serving: served },
    } as unknown as BuiltCollectors,
  };
}

describe('statusViewOf', () => {
  it('describes the exporter from its config and build, every collector’s health in order', () => {
    const view = statusViewOf(sources(['--web.telemetry-path=/m'], () => undefined))(NOW);
    expect(view).toMatchObject({
      version: '9.9.9',
      revision: 'deadbee',
      upstream: 'https://mycityair.ru',
      demo: false,
      mode: 'on-demand',
      telemetryPath: '/m',
      nowMs: NOW,
      stations: undefined,
      readingsLegend: undefined,
    });
    expect(view.collectors.map((c) => c.name)).toEqual(['station list', 'readings']);
  });

  it('names the simulator in demo mode, and the background mode with a refresh interval', () => {
    const view = statusViewOf(sources(['--demo', '--upstream.refresh-interval=5m'], () => undefined))(NOW);
    expect(view).toMatchObject({ upstream: 'built-in simulator', demo: true, mode: 'background' });
  });

  it('joins each station with its served reading and the substance standing highest against its ПДК м.р.', () => {
    const list = stationListOf([1, 2]);
    const so2 = (normValue('so2', 'pdk-single') ?? 0) * 2;
    const data: ReadingsData = {
      readings: new Map([
        [
          1,
          reading(
            1,
            [
              ['pm2.5', 12],
              ['so2', so2],
            ],
            4,
          ),
        ],
      ]),
      round: {} as ReadingsData['round'],
    };
    const served = servedReadings(30 * 60_000)(NOW, data, list);
    const view = statusViewOf(
      sources(
        [],
        () => list,
        () => served,
      ),
    )(NOW);
    expect(view.readingsLegend).toContain('ПДК');
    expect(view.stations?.[0]?.reading).toEqual({
      atMs: NOW - 60_000,
      pm25: 12,
      aqi: 4,
      highest: { substance: 'so2', multiple: 2 },
    });
    expect(view.stations?.[1]).toBe(list.stations[1]);
  });

  it('hands the page the same station array while nothing it shows changes', () => {
    let list = stationListOf([1]);
    const data: ReadingsData = { readings: new Map(), round: {} as ReadingsData['round'] };
    let served = servedReadings(30 * 60_000)(NOW, data, list);
    const view = statusViewOf(
      sources(
        [],
        () => list,
        () => served,
      ),
    );
    const first = view(NOW).stations;
    expect(view(NOW + 1000).stations).toBe(first);
    served = servedReadings(30 * 60_000)(NOW, data, list);
    const second = view(NOW + 2000).stations;
    expect(second).not.toBe(first);
    list = stationListOf([1]);
    expect(view(NOW + 3000).stations).not.toBe(second);
  });
});
