import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStations } from '../src/demo/stations.js';
import { startExporterProcess } from './support/exporter-process.js';
import { get, lines } from './support/http.js';
import { type Simulator, startSimulator } from './support/simulator.js';

const KEY = 'server-e2e-key-0a9b8c7d';
let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator({ posts: demoStations(), apiKey: KEY });
});
afterAll(async () => sim.close());

const start = (...args: string[]) =>
  startExporterProcess({ args: [`--upstream.url=${sim.baseUrl}`, ...args], env: { CITYAIR_API_KEY: KEY } });

describe('HTTP endpoints', () => {
  it('serves the status page, health and readiness, and 404 elsewhere', async () => {
    sim.setFault({ kind: 'slow', delayMs: 400 });
    const p = await start('--log.level=debug');
    try {
      expect((await get(`${p.url}/readyz`)).status).toBe(503);
      await p.waitForLog((l) => l.msg === 'first refresh succeeded');
      sim.setFault({ kind: 'none' });
      const ready = await get(`${p.url}/readyz`);
      expect(ready.status).toBe(200);
      const health = await get(`${p.url}/healthz`);
      expect(health.status).toBe(200);
      const landing = await get(`${p.url}/`);
      expect(landing.headers.get('content-type')).toMatch(/^text\/html/);
      expect(landing.text).toContain('<a href="/metrics">');
      expect(landing.text).toContain('40 stations: 35 online, 5 offline');
      // Station names are upstream data: escaped, never markup.
      expect(landing.text).toContain('мкр. &quot;Солнечный&quot;');
      const missing = await get(`${p.url}/nope`);
      expect(missing.status).toBe(404);
      expect(missing.text).toBe('not found\n');
      await p.waitForLog((l) => l.msg === 'request' && l.url === '/nope' && l.status === 404);
    } finally {
      await p.stop();
      sim.setFault({ kind: 'none' });
    }
  });

  it('logs no per-request lines at info', async () => {
    const p = await start();
    try {
      await get(`${p.url}/metrics`);
      await get(`${p.url}/healthz`);
      expect(p.logs().filter((l) => l.msg === 'request')).toHaveLength(0);
    } finally {
      await p.stop();
    }
  });
});

describe('shutdown', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`lets an in-flight scrape finish and exits 0 on ${signal}`, async () => {
      const p = await start('--upstream.min-interval=0s');
      await p.waitForLog((l) => l.msg === 'first refresh succeeded');
      sim.setFault({ kind: 'slow', delayMs: 700 });
      const inflight = get(`${p.url}/metrics`);
      await new Promise((r) => setTimeout(r, 200));
      const t0 = Date.now();
      const exited = new Promise<number | null>((resolve) => p.child.on('exit', (code) => resolve(code)));
      p.child.kill(signal);
      const res = await inflight;
      expect(res.status).toBe(200);
      expect(lines(res.text, 'cityair_station_online')).toHaveLength(40);
      expect(await exited).toBe(0);
      expect(Date.now() - t0).toBeLessThan(2500);
      expect(p.logs().some((l) => l.msg === 'shutting down' && l.signal === signal)).toBe(true);
      expect(p.output()).not.toContain('did not finish in time');
      sim.setFault({ kind: 'none' });
    });
  }
});

describe('shutdown while the API is slower than the grace period', () => {
  it('answers the scrape waiting for a refresh at once with the last good data, and exits 0 without waiting for the API', async () => {
    const p = await start('--upstream.min-interval=0s', '--upstream.timeout=30s');
    try {
      await p.waitForLog((l) => l.msg === 'first refresh succeeded');
      sim.setFault({ kind: 'slow', delayMs: 10_000 });
      const before = sim.requestCount();
      const inflight = get(`${p.url}/metrics`);
      while (sim.requestCount() === before) await new Promise((r) => setTimeout(r, 20));
      const t0 = Date.now();
      const exited = new Promise<number | null>((resolve) => p.child.on('exit', (code) => resolve(code)));
      p.child.kill('SIGTERM');
      const res = await inflight;
      expect(Date.now() - t0).toBeLessThan(1000);
      expect(res.status).toBe(200);
      expect(lines(res.text, 'cityair_station_online')).toHaveLength(40);
      expect(await exited).toBe(0);
      expect(Date.now() - t0).toBeLessThan(2500);
      expect(p.output()).not.toContain('did not finish in time');
    } finally {
      sim.setFault({ kind: 'none' });
      await p.stop();
    }
  });
});

describe('demo mode', () => {
  it('runs without a key against the built-in simulator and says the data is simulated', async () => {
    const p = await startExporterProcess({ args: ['--demo'] });
    try {
      const warn = await p.waitForLog((l) => /SIMULATED/.test(l.msg));
      expect(warn.level).toBe('warn');
      await p.waitForLog((l) => l.msg === 'first refresh succeeded');
      const text = (await get(`${p.url}/metrics`)).text;
      expect(lines(text, 'cityair_station_online')).toHaveLength(40);
      expect(text).toContain('tz="America/St_Johns"');
      expect(text).toContain('cityair_up 1');
    } finally {
      await p.stop();
    }
  });
});
