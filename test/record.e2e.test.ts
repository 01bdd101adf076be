// The record against a real Prometheus (remote-write receiver, out-of-order window) and a real VictoriaMetrics, on
// loopback. The store is first given what scrapes would have left: station A's rows with an outage of two hours,
// station B's rows up to the moment it lost its connection (its later rows reach the simulator only when it is
// back: rows that arrive late), nothing of station C, which has no rows at all. Then the exporter with the record
// on: after its rounds every row the simulator holds in the window is in the store exactly once, with its value; a
// round with no gaps sends CityAir nothing; a second exporter started later writes nothing. Another exporter
// meets a failing query API and then a refusing receiver: both counted, and retried on the next rounds.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeWriteRequest, wireLabels } from '../src/backfill/remote-write-proto.js';
import { demoRow } from '../src/demo/readings.js';
import { demoStations } from '../src/demo/stations.js';
import { binaryPath, type Daemon, startVictoriaMetrics, waitFor } from './support/daemon.js';
import { type ExporterProcess, startExporterProcess } from './support/exporter-process.js';
import { prometheusPath, startPrometheus } from './support/prometheus.js';
import { type Simulator, startSimulator } from './support/simulator.js';

const KEY = 'record-e2e-key-0123456789';
const STEP = 300_000;
const HOUR = 3_600_000;
const LOOKBACK_MS = 3 * HOUR;
const MAX_AGE_MS = 15 * 60_000;
const [A, B, C, D] = [1000, 1034, 1017, 1102];
const LABELS = [['instance', 'exporter:9610'] as const, ['job', 'cityair'] as const];
const TS = 'cityair_measurement_timestamp_seconds';

const START = Date.now();
/** The demo's newest row at the start: the last complete 5-minute interval. */
const NEWEST = Math.floor(START / STEP) * STEP - STEP;
const rowsIn = (from: number, to: number): number[] => {
  const out: number[] = [];
  for (let t = Math.ceil(from / STEP) * STEP; t < to; t += STEP) out.push(t);
  return out;
};
const OUTAGE = { fromMs: NEWEST - 2 * HOUR, toMs: NEWEST - HOUR };
const LOST_AT = NEWEST - 100 * 60_000;

/** Samples as scrapes leave them: each row's date as the value, scraped a minute apart while it was the newest. */
async function pushScrapes(writeUrl: string, id: number, rows: readonly number[]): Promise<void> {
  const samples = rows.flatMap((t) =>
    [60_000, 120_000, 180_000, 240_000].map((d) => ({ value: t / 1000, timestamp: t + d })),
  );
  const labels = wireLabels(TS, [['id', String(id)], ...LABELS]);
  const res = await fetch(writeUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-protobuf', 'content-encoding': 'snappy' },
    body: encodeWriteRequest([{ labels, samples }]),
  });
  if (!res.ok) throw new Error(`push: HTTP ${res.status} ${await res.text()}`);
}

/** Waits until the store answers every row pushed (VictoriaMetrics makes new samples searchable a moment later). */
async function pushed(queryUrl: string, id: number, rows: readonly number[]): Promise<void> {
  const selector = `${TS}{id="${id}",job="cityair"}`;
  await waitFor(
    `station ${id}'s scrapes in the store`,
    async () => {
      const values = new Set((await raw(queryUrl, selector)).map((s) => s.value * 1000));
      return rows.every((t) => values.has(t)) ? true : undefined;
    },
    30_000,
  );
}

interface Raw {
  readonly atMs: number;
  readonly value: number;
}

/** The raw samples of one series over the last 5 hours, as the store's query API gives them. */
async function raw(queryUrl: string, selector: string): Promise<Raw[]> {
  const res = await fetch(`${queryUrl}/api/v1/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ query: `${selector}[5h]`, time: String(Date.now() / 1000) }),
  });
  const body = (await res.json()) as {
    data: { result: { values: [number, string][] }[] };
  };
  return (body.data.result[0]?.values ?? []).map(([t, v]) => ({
    atMs: Math.round(t * 1000),
    value: Number(v),
  }));
}

async function metrics(exporter: ExporterProcess): Promise<Map<string, number>> {
  const text = await (await fetch(`${exporter.url}/metrics`)).text();
  const out = new Map<string, number>();
  for (const line of text.split('\n'))
    if (line.startsWith('cityair_record_')) {
      const at = line.lastIndexOf(' ');
      out.set(line.slice(0, at), Number(line.slice(at + 1)));
    }
  return out;
}

const rounds = async (e: ExporterProcess): Promise<number> => {
  const m = await metrics(e);
  return ['complete', 'partial', 'failed'].reduce(
    (sum, o) => sum + (m.get(`cityair_record_rounds_total{outcome="${o}"}`) ?? 0),
    0,
  );
};
const waitForRounds = (e: ExporterProcess, n: number): Promise<number> =>
  waitFor(`${n} record rounds`, async () => ((await rounds(e)) >= n ? n : undefined), 150_000);

/** A store between the exporter and the real one: refuses the first write, fails the first round's queries. */
async function flakyProxy(target: string): Promise<{ url: string; server: Server }> {
  let writes = 0;
  let queries = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const isWrite = (req.url ?? '').startsWith('/api/v1/write');
      if (isWrite && writes++ === 0) {
        res.writeHead(400).end('out of bounds');
        return;
      }
      // The store's client tries a query three times: the whole first round fails.
      if (!isWrite && queries++ < 3) {
        res.writeHead(503).end('store unavailable');
        return;
      }
      fetch(`${target}${req.url}`, {
        method: req.method ?? 'GET',
        headers: { 'content-type': String(req.headers['content-type'] ?? ''), ...encoding(req.headers) },
        body: Buffer.concat(chunks),
      }).then(
        async (r) => res.writeHead(r.status).end(Buffer.from(await r.arrayBuffer())),
        () => res.writeHead(502).end(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const encoding = (h: NodeJS.Dict<string | string[]>): Record<string, string> =>
  h['content-encoding'] ? { 'content-encoding': String(h['content-encoding']) } : {};

const recordArgs = (sim: Simulator, writeUrl: string, queryUrl: string, stations: string): string[] => [
  `--upstream.url=${sim.baseUrl}`,
  '--collector.measurements',
  '--measurements.interval=5m',
  `--measurements.max-age=${MAX_AGE_MS / 60_000}m`,
  '--measurements.refresh-interval=1m',
  `--measurements.stations=${stations}`,
  `--record.remote-write.url=${writeUrl}`,
  `--record.query.url=${queryUrl}`,
  '--record.label=job=cityair',
  '--record.label',
  'instance=exporter:9610',
  '--record.lookback=3h',
  '--record.interval=1m',
];

interface StoreUnderTest {
  readonly name: string;
  readonly available: () => boolean;
  readonly start: () => Promise<{ writeUrl: string; queryUrl: string; stop: () => Promise<void> }>;
  /** Prometheus keeps a float64 as sent; VictoriaMetrics about 12 significant digits. */
  readonly exact: boolean;
}

const STORES: readonly StoreUnderTest[] = [
  {
    name: 'Prometheus',
    available: () => prometheusPath() !== undefined,
    exact: true,
    start: async () => {
      const p = await startPrometheus({
        scrapeConfigs: [],
        extraArgs: ['--web.enable-remote-write-receiver'],
        extraConfig: { storage: { tsdb: { out_of_order_time_window: '1d' } } },
      });
      return { writeUrl: `${p.url}/api/v1/write`, queryUrl: p.url, stop: p.stop };
    },
  },
  {
    name: 'VictoriaMetrics',
    available: () => binaryPath('victoria-metrics', 'victoria-metrics') !== undefined,
    exact: false,
    start: async () => {
      const binary = binaryPath('victoria-metrics', 'victoria-metrics') as string;
      const vm: { url: string; daemon: Daemon } = await startVictoriaMetrics(
        binary,
        '1y',
        'cityair-record-vm-',
      );
      return { writeUrl: `${vm.url}/api/v1/write`, queryUrl: vm.url, stop: vm.daemon.stop };
    },
  },
];

describe.concurrent.each(STORES)('the record with $name', (store) => {
  let sim: Simulator;
  let stopStore: (() => Promise<void>) | undefined;
  let urls: { writeUrl: string; queryUrl: string };
  const exporters: ExporterProcess[] = [];
  let proxy: Server | undefined;

  beforeAll(async () => {
    if (!store.available()) return;
    sim = await startSimulator({ posts: demoStations(), apiKey: KEY });
    const started = await store.start();
    stopStore = started.stop;
    urls = started;
    const from = START - LOOKBACK_MS - 2 * STEP;
    const scrapedA = rowsIn(from, NEWEST + 1).filter((t) => t <= OUTAGE.fromMs || t >= OUTAGE.toMs);
    await pushScrapes(urls.writeUrl, A, scrapedA);
    await pushScrapes(urls.writeUrl, B, rowsIn(from, LOST_AT));
    await pushed(urls.queryUrl, A, scrapedA);
    await pushed(urls.queryUrl, B, rowsIn(from, LOST_AT));
    sim.holdBack(B, LOST_AT);
  }, 60_000);

  afterAll(async () => {
    for (const e of exporters) await e.stop();
    proxy?.close();
    await sim?.close();
    await stopStore?.();
  });

  it('fills an outage and late rows exactly once, then asks CityAir nothing; a second exporter writes nothing; failures are counted and retried', async (ctx) => {
    if (!store.available()) return ctx.skip();
    const env = { CITYAIR_API_KEY: KEY };
    const flaky = await flakyProxy(urls.queryUrl);
    proxy = flaky.server;
    const main = await startExporterProcess({
      args: recordArgs(sim, urls.writeUrl, urls.queryUrl, `${A},${B},${C}`),
      env,
    });
    exporters.push(main);
    const failing = await startExporterProcess({
      args: recordArgs(sim, `${flaky.url}/api/v1/write`, flaky.url, String(D)),
      env,
    });
    exporters.push(failing);

    // Round 1: the outage of A is filled; B's rows after it lost its connection are not in CityAir yet.
    await waitForRounds(main, 1);
    const first = await metrics(main);
    expect(first.get('cityair_record_rounds_total{outcome="complete"}')).toBe(1);
    const outageRows = rowsIn(OUTAGE.fromMs + 1, OUTAGE.toMs);
    expect(first.get('cityair_record_written_rows_total')).toBe(outageRows.length);

    // B is back: CityAir has its buffered rows, and the live rows (younger than max-age) reach the store as
    // scrapes; the older ones, that arrived late, are the record's to find.
    sim.release(B);
    const newest = Math.floor(Date.now() / STEP) * STEP - STEP;
    const live = rowsIn(Date.now() - MAX_AGE_MS, newest + 1);
    await pushScrapes(urls.writeUrl, B, live);
    await pushed(urls.queryUrl, B, live);
    await waitForRounds(main, 2);

    const roundAt = Date.now();
    for (const id of [A, B]) {
      const selector = `${TS}{id="${id}",job="cityair",instance="exporter:9610"}`;
      // Every row of the window, as the last round saw it, is held (VictoriaMetrics shows new samples a moment
      // after it took them).
      const windowRows = rowsIn(roundAt - 60_000 - LOOKBACK_MS + STEP, roundAt - 60_000 - MAX_AGE_MS - STEP);
      const held = async (): Promise<Raw[] | undefined> => {
        const all = await raw(urls.queryUrl, selector);
        const values = new Set(all.map((s) => s.value * 1000));
        return windowRows.every((t) => values.has(t)) ? all : undefined;
      };
      const samples = await waitFor(`every row of station ${id} in the store`, held, 20_000);
      // Written by the record (at the row's own time), each once, and never a row the scrapes held.
      const written = samples.filter((s) => s.atMs === s.value * 1000).map((s) => s.atMs);
      expect(new Set(written).size, `station ${id}`).toBe(written.length);
      const scraped = new Set(samples.filter((s) => s.atMs !== s.value * 1000).map((s) => s.value * 1000));
      expect(written.filter((t) => scraped.has(t) && t < newest)).toEqual([]);
    }
    // With their values: pm2.5 of the rows written, as the exporter converts the simulator's mg/m³.
    const pm = await waitFor(
      'pm2.5 of the rows written',
      async () => {
        const all = await raw(
          urls.queryUrl,
          `cityair_concentration_micrograms_per_cubic_meter{id="${B}",substance="pm2.5",job="cityair"}`,
        );
        return all.length > 10 ? all : undefined;
      },
      20_000,
    );
    for (const s of pm) {
      const want = (demoRow(B, s.atMs).pm2 as number) * 1000;
      expect(store.exact ? s.value : Number(s.value.toPrecision(12))).toBeCloseTo(want, 6);
    }
    const second = await metrics(main);
    const bRows = rowsIn(LOST_AT, Date.now() - 60_000 - MAX_AGE_MS).length;
    expect(second.get('cityair_record_written_rows_total')).toBeGreaterThanOrEqual(
      outageRows.length + bRows - 1,
    );

    // Round 3: no gaps, no CityAir request (C, silent, is remembered).
    const asked = sim.walkRequests([A, B, C]);
    await waitForRounds(main, 3);
    const third = await metrics(main);
    expect(third.get('cityair_record_upstream_requests_total')).toBe(
      second.get('cityair_record_upstream_requests_total'),
    );
    expect(third.get('cityair_record_written_rows_total')).toBe(
      second.get('cityair_record_written_rows_total'),
    );
    expect(sim.walkRequests([A, B, C]) - asked).toBe(0);

    // A second exporter, started later, finds nothing missing.
    const later = await startExporterProcess({
      args: recordArgs(sim, urls.writeUrl, urls.queryUrl, `${A},${B},${C}`),
      env,
    });
    exporters.push(later);
    await waitForRounds(later, 1);
    const theirs = await metrics(later);
    expect(theirs.get('cityair_record_written_rows_total')).toBe(0);
    expect(theirs.get('cityair_record_missing_rows_total')).toBe(0);

    // The other exporter: the query failed (round 1), the write was refused (round 2), then it wrote (round 3).
    await waitForRounds(failing, 3);
    const f = await metrics(failing);
    expect(f.get('cityair_record_failures_total{reason="query"}')).toBe(1);
    expect(f.get('cityair_record_failures_total{reason="write"}')).toBe(1);
    expect(f.get('cityair_record_rounds_total{outcome="failed"}')).toBe(2);
    expect(f.get('cityair_record_written_rows_total')).toBeGreaterThan(0);
    const said = failing.logs().map((l) => l.msg);
    expect(said.filter((m) => m.includes('cannot query the store'))).toHaveLength(1);
    expect(said.some((m) => m.includes('out_of_order_time_window'))).toBe(true);
    expect(failing.output()).not.toContain(KEY);
    // /metrics and the station list never waited for the store.
    expect((await fetch(`${failing.url}/metrics`)).status).toBe(200);
  }, 300_000);
});
