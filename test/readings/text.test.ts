// The readings families are rendered by hand: this holds them to prom-client's output for the same series, to
// promtool's linter, and to what an operator sees over time (readings expire, stations leave the list).
import { Gauge, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { demoReadingsAnswer } from '../../src/demo/readings.js';
import { demoStations } from '../../src/demo/stations.js';
import { createRequestMetrics } from '../../src/exposition/request-metrics.js';
import { READING_STATES, type ReadingsData, type RoundStats } from '../../src/readings/data.js';
import { READING_METRICS } from '../../src/readings/metrics.js';
import type { FetchReadings } from '../../src/readings/read.js';
import { runReadingsRound } from '../../src/readings/round.js';
import { parseReadings, SKIP_REASONS, type StationReading } from '../../src/readings/schema.js';
import { servedReadings } from '../../src/readings/served.js';
import { renderReadingsText, renderRoundHealth } from '../../src/readings/text.js';
import { FAILURE_REASONS, failure } from '../../src/upstream/failure.js';
import { checkMetrics, expectOnlyKnownLint } from '../support/promtool.js';
import { stationListOf } from '../support/station-list.js';

const MIN = 60_000;
const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);

/** What a scrape at nowMs shows, as the slice computes it: the served readings, rendered. */
function render(
  data: ReadingsData,
  nowMs = NOW,
  listed: readonly number[] = [...data.readings.keys()],
): Buffer {
  return renderReadingsText(servedReadings(30 * MIN)(nowMs, data, stationListOf(listed)));
}

function stats(over: Partial<RoundStats> = {}): RoundStats {
  const zero = <K extends string>(keys: readonly K[]) =>
    Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
  return {
    startedAtMs: NOW - MIN,
    durationMs: 1234.5,
    stations: { ...zero(READING_STATES), fresh: 3, failed: 1 },
    skippedFields: { ...zero(SKIP_REASONS), missing: 7, unknown_unit: 2 },
    rejectedRows: 0,
    futureRows: 0,
    futureDated: [],
    requests: 4,
    failures: { ...zero(FAILURE_REASONS), timeout: 1 },
    unknownUnits: [],
    retryAfterMs: undefined,
    ...over,
  };
}

function reading(id: number, atMs: number, over: Partial<StationReading> = {}): StationReading {
  return {
    id,
    atMs,
    concentrations: new Map([
      ['pm2.5', 3.2],
      ['pm10', 5.1],
    ]),
    temperatureCelsius: -4.2,
    humidityRatio: 0.81,
    pressurePascals: 98_991.585,
    aqi: new Map([['cityair', 3]]),
    ...over,
  };
}

const dataOf = (readings: StationReading[], round = stats()): ReadingsData => ({
  readings: new Map(readings.map((r) => [r.id, r])),
  round,
});

/** The same series through prom-client's Gauge objects and its own escaping. */
async function withPromClient(shown: readonly StationReading[], round: RoundStats): Promise<string> {
  const registry = new Registry();
  const M = READING_METRICS;
  const gauge = (spec: (typeof M)[keyof typeof M]) =>
    new Gauge({ name: spec.name, help: spec.help, labelNames: [...spec.labels], registers: [registry] });
  const [conc, temp, hum, press, aqi, ts] = [
    M.concentration,
    M.temperature,
    M.humidity,
    M.pressure,
    M.aqi,
    M.timestamp,
  ].map(gauge) as Gauge[];
  const sorted = [...shown].sort((a, b) => a.id - b.id);
  for (const r of sorted) {
    const id = String(r.id);
    for (const k of [...r.concentrations.keys()].sort())
      conc?.set({ id, substance: k }, r.concentrations.get(k) as number);
    if (r.temperatureCelsius !== undefined) temp?.set({ id }, r.temperatureCelsius);
    if (r.humidityRatio !== undefined) hum?.set({ id }, r.humidityRatio);
    if (r.pressurePascals !== undefined) press?.set({ id }, r.pressurePascals);
    for (const k of [...r.aqi.keys()].sort()) aqi?.set({ id, index: k }, r.aqi.get(k) as number);
    ts?.set({ id }, r.atMs / 1000);
  }
  const stations = gauge(M.stations);
  for (const s of READING_STATES) stations.set({ state: s }, round.stations[s]);
  const skipped = gauge(M.fieldsSkipped);
  for (const r of SKIP_REASONS) skipped.set({ reason: r }, round.skippedFields[r]);
  gauge(M.rowsRejected).set(round.rejectedRows);
  gauge(M.rowsFutureDated).set(round.futureRows);
  gauge(M.lastRound).set(round.startedAtMs / 1000);
  gauge(M.lastRoundDuration).set(round.durationMs / 1000);
  // prom-client separates families with an empty line; the hand renderer does not, and neither needs one.
  return (await registry.metrics()).replace(/\n\n/g, '\n');
}

describe('readings text', () => {
  it('matches prom-client for the same series, label escaping included', async () => {
    const odd = reading(7, NOW - 2 * MIN, {
      concentrations: new Map([['a"b\\c\nd', 1e-7]]),
      aqi: new Map(),
      temperatureCelsius: undefined,
    });
    const readings = [reading(1_000_000, NOW - MIN), odd, reading(9_007_199_254_740_991, NOW)];
    const text = render(dataOf(readings));
    expect(text.toString('utf8')).toBe(await withPromClient(readings, stats()));
    expect(text.toString('utf8')).toContain('substance="a\\"b\\\\c\\nd"} 1e-7\n');
    expect(text.toString('utf8')).toContain('cityair_measurement_timestamp_seconds{id="9007199254740991"} ');
  });

  it('leaves out readings older than max-age, computing again only when the next one expires', () => {
    const readings = [reading(1, NOW - 10 * MIN), reading(2, NOW - 20 * MIN), reading(3, NOW - 40 * MIN)];
    const data = dataOf(readings);
    const list = stationListOf([1, 2, 3]);
    const served = servedReadings(30 * MIN);
    const at = (nowMs: number) => served(nowMs, data, list);
    const ids = (nowMs: number) => at(nowMs).shown.map((r) => r.id);
    const first = at(NOW);
    expect(ids(NOW)).toEqual([1, 2]);
    expect(at(NOW + 10 * MIN)).toBe(first);
    expect(ids(NOW + 10 * MIN + 1)).toEqual([1]);
    expect(ids(NOW + 21 * MIN)).toEqual([]);
    const none = renderReadingsText(at(NOW + 21 * MIN)).toString();
    expect(none).not.toMatch(/^cityair_(temperature|concentration|aqi|measurement_timestamp)/m);
    // The health gauges stay whatever the age of the readings.
    expect(none).toContain(renderRoundHealth(data.round));
  });

  it('never prints a value that is not a finite number, whatever reaches it', () => {
    const broken = reading(1, NOW, {
      concentrations: new Map([
        ['pm2.5', Number.POSITIVE_INFINITY],
        ['pm10', 5.1],
      ]),
      temperatureCelsius: Number.NaN,
      humidityRatio: Number.NEGATIVE_INFINITY,
      aqi: new Map([['cityair', Number.NaN]]),
    });
    const text = render(dataOf([broken])).toString();
    expect(text).not.toMatch(/ (NaN|-?Infinity|[+-]Inf)$/m);
    expect(text).toContain('cityair_concentration_micrograms_per_cubic_meter{id="1",substance="pm10"} 5.1\n');
    expect(text).toContain('cityair_pressure_pascals{id="1"} 98991.585\n');
    expect(text).not.toContain('cityair_temperature_celsius{');
  });

  it('shows only stations still in the station list', () => {
    const data = dataOf([reading(1, NOW), reading(2, NOW), reading(3, NOW)]);
    const text = render(data, NOW, [1, 3]);
    expect(text.toString()).toMatch(/id="1"/);
    expect(text.toString()).not.toMatch(/id="2"/);
  });

  it('has every station state and skip reason from the start, with no timestamps on samples', () => {
    const text = render(dataOf([]));
    const lines = text
      .toString()
      .split('\n')
      .filter((l) => l && !l.startsWith('#'));
    for (const s of READING_STATES)
      expect(lines).toContain(`cityair_measurements_stations{state="${s}"} ${stats().stations[s]}`);
    for (const r of SKIP_REASONS)
      expect(lines.some((l) => l.startsWith(`cityair_measurements_fields_skipped{reason="${r}"} `))).toBe(
        true,
      );
    expect(lines).toContain('cityair_measurements_last_round_duration_seconds 1.2345');
    for (const l of lines) expect(l.split(' ')).toHaveLength(2);
    expect(text.toString()).not.toContain('# EOF');
  });

  it('passes promtool check metrics for a whole demo round', async () => {
    const fetch: FetchReadings = async (id, query) => {
      return parseReadings(id, JSON.parse(JSON.stringify(demoReadingsAnswer(id, NOW, query))));
    };
    const ids = demoStations().map((p) => p.id);
    const result = await runReadingsRound({
      ids,
      fetch,
      concurrency: 4,
      previous: undefined,
      nowMs: NOW,
      maxAgeMs: 30 * MIN,
      interval: '5m',
    });
    if (!result.ok) throw new Error(result.message);
    const text = render(result.value, NOW, ids);
    const body = text.toString('utf8');
    expect(body).toMatch(/cityair_concentration_micrograms_per_cubic_meter\{id="\d+",substance="pm2\.5"\} /);
    expect(body).toMatch(/cityair_pressure_pascals\{id="\d+"\} 9\d{4}/);
    expect(body).not.toContain('ch2o');
    expectOnlyKnownLint(body);
  });
});

describe('readings counters', () => {
  it('count requests and failures, with every reason at 0 from the start', async () => {
    const registry = new Registry();
    const record = createRequestMetrics(registry, READING_METRICS);
    const before = await registry.metrics();
    for (const reason of FAILURE_REASONS) {
      expect(before).toContain(`cityair_measurements_request_failures_total{reason="${reason}"} 0`);
    }
    expect(before).toContain('cityair_measurements_requests_total 0');
    record({ ok: true }, 0.2);
    record(failure('rate_limited', 'HTTP 429', 1000), 3);
    const after = await registry.metrics();
    expect(after).toContain('cityair_measurements_requests_total 2');
    expect(after).toContain('cityair_measurements_request_failures_total{reason="rate_limited"} 1');
    expect(after).toContain('cityair_measurements_request_duration_seconds_count 2');
    expect(after).toContain('cityair_measurements_request_duration_seconds_bucket{le="0.25"} 1');
    const check = checkMetrics(after);
    if (check) expect(check).toEqual({ code: 0, findings: '' });
  });
});
