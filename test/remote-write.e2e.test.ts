// The backfill sent with remote write 1.0 into a real Prometheus (receiver on, out-of-order window) and a real
// VictoriaMetrics: both then answer, at past instants, the values the simulator sent, with the --label labels. A
// Prometheus without the window refuses part way: the run stops there and says exactly what it holds.
// Basic auth and a bearer token are checked against a receiver that refuses requests without them.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uncompress } from 'snappyjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeWriteRequest } from '../src/backfill/remote-write-proto.js';
import { BACKFILL_FAMILIES } from '../src/backfill/samples.js';
import { demoReadings } from '../src/demo/history.js';
import { type Simulator, startSimulator } from '../src/demo/simulator.js';
import { demoStations } from '../src/demo/stations.js';
import { convertWithin } from '../src/readings/ranges.js';
import { runBackfill } from './support/backfill.js';
import { binaryPath, type Daemon, freePort, makeTempDir, startDaemon, waitFor } from './support/daemon.js';
import { prometheusPath, startPrometheus } from './support/prometheus.js';

const KEY = 'remote-write-e2e-key';
const STEP = 300_000;
const DAY = 86_400_000;
const NOW = Date.now();
const FROM = Math.floor((NOW - 2 * DAY) / STEP) * STEP;
const TO = Math.floor((NOW - DAY / 2) / STEP) * STEP;
const STATIONS = '1000,1102,1170';
const iso = (ms: number): string => new Date(ms).toISOString();

const args = (sim: Simulator, url: string): string[] => [
  `--upstream.url=${sim.baseUrl}`,
  `--from=${iso(FROM)}`,
  `--to=${iso(TO)}`,
  `--measurements.stations=${STATIONS}`,
  `--remote-write.url=${url}`,
  '--remote-write.max-samples-per-send=2000',
  '--label=job=cityair',
  '--label=instance=backfill:9610',
];

/** pm2.5 of a station at t as the simulator sends it, converted as the exporter converts it. */
function expectedPm25(id: number, t: number): number {
  const answer = demoReadings(id, NOW, { interval: '5m', dateGtMs: t - 1000 });
  const factor = answer.meta.units.pm2 === 'mg/m³' ? 1000 : 1;
  return convertWithin(answer.data[0]?.pm2 as number, factor, { min: -Infinity, max: Infinity }) as number;
}

type Query = (expr: string, t: number) => Promise<{ metric: Record<string, string>; value: number }[]>;

/** `exact`: Prometheus keeps a float64 as sent; VictoriaMetrics keeps about 12 significant digits. */
async function expectBackfilled(query: Query, exact: boolean): Promise<void> {
  for (const id of [1000, 1102]) {
    for (const t of [FROM + STEP, FROM + 200 * STEP, TO - STEP]) {
      const [s] = await query(
        `cityair_concentration_micrograms_per_cubic_meter{id="${id}",substance="pm2.5"}`,
        t,
      );
      expect(s?.metric).toMatchObject({ job: 'cityair', instance: 'backfill:9610' });
      const want = expectedPm25(id, t);
      expect(exact ? s?.value : Number(s?.value.toPrecision(12))).toBe(
        exact ? want : Number(want.toPrecision(12)),
      );
    }
  }
  const span = `${(TO - FROM) / 1000}s`;
  const [n] = await query(
    `count_over_time(cityair_measurement_timestamp_seconds{id="1000"}[${span}])`,
    TO - 1,
  );
  expect(n?.value).toBe((TO - FROM) / STEP);
}

describe('remote write', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ posts: demoStations(), apiKey: KEY });
  });
  afterAll(async () => {
    await sim?.close();
  });

  it.skipIf(!prometheusPath())(
    'into Prometheus with its receiver and an out-of-order window',
    async () => {
      const prom = await startPrometheus({
        scrapeConfigs: [],
        extraArgs: ['--web.enable-remote-write-receiver'],
        extraConfig: { storage: { tsdb: { out_of_order_time_window: '30d' } } },
      });
      try {
        const run = await runBackfill(args(sim, `${prom.url}/api/v1/write`), { CITYAIR_API_KEY: KEY });
        expect(run.code, run.stderr).toBe(0);
        await expectBackfilled(async (expr, t) => prom.query(expr, t / 1000), true);
      } finally {
        await prom.stop();
      }
    },
    60_000,
  );

  it.skipIf(!prometheusPath())(
    'into Prometheus without an out-of-order window: stops at its refusal, says what it holds, and how to retry',
    async () => {
      const prom = await startPrometheus({
        scrapeConfigs: [],
        extraArgs: ['--web.enable-remote-write-receiver'],
      });
      try {
        const run = await runBackfill(args(sim, `${prom.url}/api/v1/write`), { CITYAIR_API_KEY: KEY });
        expect(run.code, run.stderr).toBe(1);
        // The first request sets the head's time; older samples after it are out of its bounds.
        expect(run.stderr).toContain(`HTTP 400 from ${new URL(prom.url).host}: out of bounds`);
        const accepted = Number(
          /([\d,]+) samples were accepted before that/.exec(run.stderr)?.[1]?.replace(/,/g, ''),
        );
        expect(accepted).toBeGreaterThan(0);
        let held = 0;
        for (const { name } of BACKFILL_FAMILIES) {
          const span = `${Math.ceil((NOW - FROM) / 1000) + 60}s`;
          const [n] = await prom.query(`sum(count_over_time(${name}{job="cityair"}[${span}]))`);
          held += n?.value ?? 0;
        }
        expect(held).toBe(accepted);
        expect(run.stderr).toMatch(
          /retry exactly these stations with:\n +node \S+ backfill .*--measurements\.stations=\d/,
        );
        expect(run.stderr).not.toContain(KEY);
      } finally {
        await prom.stop();
      }
    },
    60_000,
  );

  it.skipIf(!binaryPath('victoria-metrics', 'victoria-metrics'))(
    'into VictoriaMetrics',
    async () => {
      const dir = await makeTempDir('cityair-vm-');
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const vm: Daemon = startDaemon(
        binaryPath('victoria-metrics', 'victoria-metrics') as string,
        [`-httpListenAddr=127.0.0.1:${port}`, `-storageDataPath=${join(dir, 'data')}`, '-loggerLevel=ERROR'],
        dir,
      );
      try {
        await waitFor(
          'VictoriaMetrics ready',
          async () => ((await fetch(`${url}/health`)).ok ? true : undefined),
          15_000,
          vm,
        );
        const run = await runBackfill(args(sim, `${url}/api/v1/write`), { CITYAIR_API_KEY: KEY });
        expect(run.code, run.stderr).toBe(0);
        // VictoriaMetrics makes new samples searchable within a second or two.
        await fetch(`${url}/internal/force_flush`);
        const query: Query = async (expr, t) => {
          const params = new URLSearchParams({ query: expr, time: String(t / 1000), nocache: '1' });
          const body = (await (await fetch(`${url}/api/v1/query?${params}`)).json()) as {
            data: { result: { metric: Record<string, string>; value: [number, string] }[] };
          };
          return body.data.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
        };
        await waitFor(
          'samples searchable',
          async () => ((await query('cityair_aqi', TO - STEP)).length >= 3 ? true : undefined),
          15_000,
        );
        await expectBackfilled(query, false);
      } finally {
        await vm.stop();
      }
    },
    60_000,
  );

  it("sends basic auth, a bearer token and extra headers; a refusal stops the run with the receiver's words", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cityair-rw-'));
    writeFileSync(join(dir, 'password'), 'pa55\n');
    writeFileSync(join(dir, 'token'), 'tok-123\n');
    const seen: { auth: string | undefined; org: string | undefined; series: number }[] = [];
    let refuse = false;
    const server: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const decoded = decodeWriteRequest(Buffer.concat(chunks), (b) => uncompress(b)) as {
          timeseries?: unknown[];
        };
        seen.push({
          auth: req.headers.authorization,
          org: req.headers['x-scope-orgid'] as string | undefined,
          series: decoded.timeseries?.length ?? 0,
        });
        if (refuse) res.writeHead(400).end('out of bounds');
        else res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const receiver = `http://127.0.0.1:${port}/api/v1/write`;
    try {
      const basic = await runBackfill(
        [
          ...args(sim, receiver),
          '--remote-write.username=air',
          `--remote-write.password-file=${join(dir, 'password')}`,
          '--remote-write.header=X-Scope-OrgID: city',
        ],
        { CITYAIR_API_KEY: KEY },
      );
      expect(basic.code, basic.stderr).toBe(0);
      expect(seen[0]).toMatchObject({
        auth: `Basic ${Buffer.from('air:pa55').toString('base64')}`,
        org: 'city',
      });
      expect(seen.every((s) => s.series > 0)).toBe(true);
      seen.length = 0;
      refuse = true;
      const bearer = await runBackfill(
        [...args(sim, receiver), `--remote-write.bearer-token-file=${join(dir, 'token')}`],
        { CITYAIR_API_KEY: KEY },
      );
      expect(seen[0]?.auth).toBe('Bearer tok-123');
      expect(bearer.code).toBe(1);
      expect(bearer.stderr).toContain(`HTTP 400 from 127.0.0.1:${port}: out of bounds`);
      expect(bearer.stderr + basic.stderr).not.toContain(KEY);
    } finally {
      server.close();
    }
  }, 60_000);

  it.each([100, 10_000])(
    'never sends more samples in a request than --remote-write.max-samples-per-send=%i, and sends them all',
    async (cap) => {
      const sizes: number[] = [];
      const server: Server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const decoded = decodeWriteRequest(Buffer.concat(chunks), (b) => uncompress(b)) as {
            timeseries?: { samples?: unknown[] }[];
          };
          sizes.push((decoded.timeseries ?? []).reduce((n, s) => n + (s.samples?.length ?? 0), 0));
          res.writeHead(204).end();
        });
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const port = (server.address() as { port: number }).port;
      try {
        const run = await runBackfill(
          [
            ...args(sim, `http://127.0.0.1:${port}/api/v1/write`).filter((a) => !a.includes('max-samples')),
            `--remote-write.max-samples-per-send=${cap}`,
          ],
          { CITYAIR_API_KEY: KEY },
        );
        expect(run.code, run.stderr).toBe(0);
        const total = Number(/([\d,]+) samples/.exec(run.stderr)?.[1]?.replace(/,/g, ''));
        expect(sizes.reduce((a, b) => a + b, 0)).toBe(total);
        expect(Math.max(...sizes)).toBeLessThanOrEqual(cap);
        // Full requests: only the last one of the run may be short.
        expect(sizes.slice(0, -1).every((n) => n === cap)).toBe(true);
      } finally {
        server.close();
      }
    },
    60_000,
  );
});
