// Answers built to freeze the exporter or exhaust its memory, within the default caps: the exporter refuses them
// with a reason that names the cap, and its probes keep answering meanwhile. The bound is generous (1 s) because
// the machine is shared; the figures are in docs/benchmarks.md ("Hostile answers", `npm run bench -- --phases=hostile`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStations } from '../src/demo/stations.js';
import { type ExporterProcess, startExporterProcess } from './support/exporter-process.js';
import { type Simulator, startSimulator } from './support/simulator.js';

const KEY = 'hostile-e2e-key-3a9c71d2';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ posts: demoStations(), apiKey: KEY });
});
afterAll(async () => sim?.close());

/** Asks for /healthz one request at a time until stopped; the longest wait for an answer. */
function pollHealth(base: string): { stop: () => Promise<number> } {
  let stopped = false;
  let longest = 0;
  const loop = (async () => {
    while (!stopped) {
      const t0 = performance.now();
      await fetch(`${base}/healthz`).then(
        (r) => r.text(),
        () => undefined,
      );
      longest = Math.max(longest, performance.now() - t0);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      return longest;
    },
  };
}

async function withExporter(args: string[], run: (p: ExporterProcess) => Promise<void>): Promise<void> {
  const p = await startExporterProcess({
    args: [`--upstream.url=${sim.baseUrl}`, ...args],
    env: { CITYAIR_API_KEY: KEY },
  });
  try {
    await run(p);
  } finally {
    await p.stop();
  }
}

describe('answers built to freeze the exporter', () => {
  it('refuses a list of a million empty objects by its count, and /healthz keeps answering', async () => {
    sim.setFault({ kind: 'body', body: Buffer.from(`[${'{},'.repeat(999_999)}{}]`) });
    try {
      await withExporter([], async (p) => {
        const health = pollHealth(p.url);
        const failed = await p.waitForLog(
          (l) => l.msg.startsWith('refresh of the station list failed'),
          60_000,
        );
        expect(await health.stop()).toBeLessThan(1000);
        expect(failed.reason).toBe('invalid_payload');
        expect(failed.msg).toContain('more than 20000 elements (--upstream.max-stations)');
      });
    } finally {
      sim.setFault({ kind: 'none' });
    }
  }, 90_000);

  it('refuses readings answers of 60 MB by the readings cap, and /healthz keeps answering', async () => {
    const huge = Buffer.from(`{"data":[${'{"postId":1},'.repeat(5_000_000)}{}]}`);
    const ids = demoStations().map((p) => p.id);
    for (const id of ids) sim.setReadingsFault(id, { kind: 'body', body: huge });
    try {
      await withExporter(['--collector.measurements', '--measurements.concurrency=8'], async (p) => {
        const health = pollHealth(p.url);
        const failed = await p.waitForLog(
          (l) => l.msg.startsWith('every readings request of the round failed'),
          60_000,
        );
        expect(await health.stop()).toBeLessThan(1000);
        expect(failed.msg).toContain('body larger than --measurements.max-body-size (2097152 bytes)');
      });
    } finally {
      for (const id of ids) sim.setReadingsFault(id, undefined);
    }
  }, 90_000);
});
