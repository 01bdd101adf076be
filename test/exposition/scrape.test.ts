// A scrape composed in process from fake collectors: the golden exposition of a hostile station list in both
// formats, gzip, cityair_up per scrape, max-age, and that a station list is rendered once for many scrapes.
import { getEventListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createExporterRegistry } from '../../src/exposition/exporter-registry.js';
import { createRequestMetrics } from '../../src/exposition/request-metrics.js';
import { composeScrape, type ScrapeRequest, type ScrapeSource } from '../../src/exposition/scrape.js';
import { type ReadingsCollector, readingsCollectorOf } from '../../src/readings/collector.js';
import { READING_METRICS } from '../../src/readings/metrics.js';
import { runReadingsRound } from '../../src/readings/round.js';
import { parseReadings } from '../../src/readings/schema.js';
import { afterFailure, afterSuccess } from '../../src/refresh/policy.js';
import type { RefreshWait } from '../../src/refresh/refresher.js';
import {
  type StationRefresher,
  type StationState,
  stationsCollectorOf,
} from '../../src/stations/collector.js';
import { STATION_LIST_HEALTH } from '../../src/stations/metrics.js';
import { parseStationList, type StationList } from '../../src/stations/schema.js';
import { expectGolden } from '../support/golden.js';
import { lines, sample } from '../support/http.js';
import { checkMetrics, expectOnlyKnownLint } from '../support/promtool.js';

const NOW = Date.UTC(2026, 10, 23, 10, 20, 0);
const MAX_AGE = 600_000;
const READINGS_MAX_AGE = 30 * 60_000;

function hostileList(): StationList {
  const parsed = parseStationList(
    JSON.parse(readFileSync(new URL('../golden/hostile-posts.json', import.meta.url), 'utf8')),
  );
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

/** A refresher whose state the test sets; a scrape's wait ends as `wait` says. */
function fakeCollector(
  state: StationState,
  wait: RefreshWait = 'settled',
): StationRefresher & { set: (s: StationState) => void } {
  let current = state;
  return {
    state: () => current,
    refreshIfDue: async () => wait,
    inFlight: () => wait === 'still-running',
    start: () => undefined,
    stop: async () => undefined,
    firstData: Promise.resolve(),
    set: (s) => {
      current = s;
    },
  };
}

/** The station list's scrape source around a refresher, as the slice builds it. */
const stationSource = (refresher: StationRefresher, maxAgeMs: number): ScrapeSource =>
  stationsCollectorOf(refresher, maxAgeMs).source;

const succeeded = (list: StationList, atMs = NOW - 5000): StationState =>
  afterSuccess({ data: list, fetchedAtMs: atMs }, 250);

function compose(
  sources: readonly ScrapeSource[],
  request: Partial<ScrapeRequest> = {},
  readingsMetrics?: typeof READING_METRICS,
) {
  // Fixed build facts and no process metrics: the output depends on nothing but the inputs.
  const registry = createExporterRegistry(
    { version: '0.0.0-golden', revision: 'abc1234', nodeVersion: 'v0' },
    { processMetrics: false },
  );
  createRequestMetrics(registry, STATION_LIST_HEALTH);
  if (readingsMetrics) createRequestMetrics(registry, readingsMetrics);
  return composeScrape(
    sources,
    registry,
    { waitMs: 1000, format: 'text', gzip: false, ...request },
    () => NOW,
  );
}

const text = async (parts: Promise<Buffer[]>): Promise<string> => Buffer.concat(await parts).toString('utf8');

describe('the composed exposition', () => {
  const sources = () => [stationSource(fakeCollector(succeeded(hostileList())), MAX_AGE)];

  it('matches the golden text 0.0.4 file byte for byte, and promtool finds nothing', async () => {
    const body = await text(compose(sources()));
    expectGolden(new URL('../golden/hostile-posts.prom', import.meta.url), body);
    const lint = checkMetrics(body);
    if (lint) expect(lint).toEqual({ code: 0, findings: '' });
  });

  it('matches the golden OpenMetrics file byte for byte', async () => {
    const body = await text(compose(sources(), { format: 'openmetrics' }));
    expectGolden(new URL('../golden/hostile-posts.om.txt', import.meta.url), body);
    expect(body.endsWith('# EOF\n')).toBe(true);
  });

  it('gzips to exactly the plain body, in both formats', async () => {
    for (const format of ['text', 'openmetrics'] as const) {
      const plain = Buffer.concat(await compose(sources(), { format }));
      const zipped = Buffer.concat(await compose(sources(), { format, gzip: true }));
      expect(gunzipSync(zipped).equals(plain)).toBe(true);
    }
  });

  it('joins the cached parts of several sources into one gzip stream', async () => {
    const two = [...sources(), stationSource(fakeCollector(succeeded(hostileList())), MAX_AGE)];
    const plain = Buffer.concat(await compose(two));
    expect(gunzipSync(Buffer.concat(await compose(two, { gzip: true }))).equals(plain)).toBe(true);
  });
});

/** The readings of the hostile stations, as a round leaves them: mixed units, unknown ones, bad rows, an old row. */
async function hostileReadings(): Promise<ReadingsCollector> {
  const answers = JSON.parse(
    readFileSync(new URL('../golden/hostile-readings.json', import.meta.url), 'utf8'),
  ) as Record<string, unknown>;
  const round = await runReadingsRound({
    ids: hostileList().stations.map((s) => s.id),
    fetch: async (id) => parseReadings(id, answers[String(id)] ?? { data: [] }),
    concurrency: 1,
    previous: undefined,
    nowMs: NOW,
    maxAgeMs: READINGS_MAX_AGE,
    interval: '5m',
  });
  if (!round.ok) throw new Error(round.message);
  // The round's own duration is the one figure of it that depends on the machine.
  const data = { ...round.value, round: { ...round.value.round, durationMs: 1234 } };
  const state = afterSuccess({ data, fetchedAtMs: NOW }, 1234);
  const stations = stationsCollectorOf(fakeCollector(succeeded(hostileList())), MAX_AGE);
  return readingsCollectorOf(
    {
      state: () => state,
      refreshIfDue: async () => 'settled',
      inFlight: () => false,
      start: () => undefined,
      stop: async () => undefined,
      firstData: Promise.resolve(),
    },
    stations,
    READINGS_MAX_AGE,
  );
}

describe('the composed exposition with readings', () => {
  const sources = async () => {
    const readings = await hostileReadings();
    return [stationSource(fakeCollector(succeeded(hostileList())), MAX_AGE), readings.source];
  };

  it.each([
    ['text', 'scrape-with-readings.prom'],
    ['openmetrics', 'scrape-with-readings.om.txt'],
  ] as const)('matches the golden %s file byte for byte', async (format, file) => {
    const body = await text(compose(await sources(), { format }, READING_METRICS));
    expectGolden(new URL(`../golden/${file}`, import.meta.url), body);
    if (format === 'text') expectOnlyKnownLint(body);
  });
});

describe('per scrape', () => {
  it('stops waiting for a refresh when the server closes, and answers with what there is', async () => {
    let seen: RefreshWait | undefined;
    const stuck: ScrapeSource = {
      beforeScrape: () => new Promise<RefreshWait>(() => undefined),
      collect: (_now, wait) => {
        seen = wait;
        return { cached: undefined, live: 'stuck_up 1\n' };
      },
    };
    const closing = new AbortController();
    const scrape = text(compose([stuck], { stopWaiting: closing.signal }));
    closing.abort();
    expect(await scrape).toContain('stuck_up 1\n');
    expect(seen).toBe('still-running');
  });

  it('does not wait at all once the server has begun to close', async () => {
    const seen: RefreshWait[] = [];
    const stuck: ScrapeSource = {
      beforeScrape: () => new Promise<RefreshWait>(() => undefined),
      collect: (_now, wait) => {
        seen.push(wait);
        return { cached: undefined, live: 'stuck_up 1\n' };
      },
    };
    const closing = new AbortController();
    closing.abort();
    expect(await text(compose([stuck], { stopWaiting: closing.signal }))).toContain('stuck_up 1\n');
    expect(seen).toEqual(['still-running']);
  });

  it('leaves nothing listening on the closing signal once a scrape has answered', async () => {
    const closing = new AbortController();
    const quick: ScrapeSource = {
      beforeScrape: async () => 'settled',
      collect: () => ({ cached: undefined, live: 'quick_up 1\n' }),
    };
    const failing: ScrapeSource = {
      beforeScrape: async () => {
        throw new Error('refresh broke');
      },
      collect: () => ({ cached: undefined, live: '' }),
    };
    for (let i = 0; i < 20; i++) await text(compose([quick], { stopWaiting: closing.signal }));
    await expect(compose([failing], { stopWaiting: closing.signal })).rejects.toThrow('refresh broke');
    expect(getEventListeners(closing.signal, 'abort')).toHaveLength(0);
  });

  it('keeps cityair_up at the latest completed refresh while a scrape stops waiting for the next one', async () => {
    const state = succeeded(hostileList());
    const waiting = await text(compose([stationSource(fakeCollector(state, 'still-running'), MAX_AGE)]));
    expect(sample(waiting, 'cityair_up')).toBe(1);
    expect(sample(waiting, 'cityair_refresh_in_progress')).toBe(1);
    const settled = await text(compose([stationSource(fakeCollector(state), MAX_AGE)]));
    expect(sample(settled, 'cityair_up')).toBe(1);
    expect(sample(settled, 'cityair_refresh_in_progress')).toBe(0);
  });

  it('keeps serving the last good stations after a failure, with cityair_up 0 and the backoff time', async () => {
    const failed = afterFailure(
      succeeded(hostileList()),
      { reason: 'http_5xx', message: 'HTTP 503' },
      { atMs: NOW - 1000, durationMs: 500 },
      1,
      60_000,
    );
    const body = await text(compose([stationSource(fakeCollector(failed), MAX_AGE)]));
    expect(sample(body, 'cityair_up')).toBe(0);
    expect(lines(body, 'cityair_station_online')).toHaveLength(6);
    expect(sample(body, 'cityair_upstream_backoff_until_timestamp_seconds')).toBe(
      (NOW - 1000 + 500 + 1000) / 1000,
    );
    expect(sample(body, 'cityair_last_refresh_success_timestamp_seconds')).toBe((NOW - 5000) / 1000);
  });

  it('serves no station series once the data is older than max-age, and still the exporter series', async () => {
    const old = succeeded(hostileList(), NOW - MAX_AGE - 1);
    const body = await text(compose([stationSource(fakeCollector(old), MAX_AGE)]));
    expect(body).not.toContain('cityair_station_');
    expect(body).not.toContain('cityair_stations{');
    expect(sample(body, 'cityair_last_refresh_success_timestamp_seconds')).toBe((NOW - MAX_AGE - 1) / 1000);
    expect(body).toContain('cityair_upstream_requests_total 0');
  });

  it('renders a station list once, however many scrapes serve it, and again when a new list arrives', async () => {
    const list = hostileList();
    const collector = fakeCollector(succeeded(list));
    const source = stationSource(collector, MAX_AGE);
    const first = source.collect(NOW, 'settled').cached;
    expect(source.collect(NOW, 'settled').cached).toBe(first);
    collector.set(succeeded({ ...list, stations: list.stations.slice(1) }));
    const next = source.collect(NOW, 'settled').cached;
    expect(next).not.toBe(first);
    expect(next?.text.length).toBeLessThan(first?.text.length ?? 0);
  });
});
