// `node dist-bench/bench/status-page.js [--stations=N | --demo] [--readings] [--runs=N] [--screenshot=FILE]`: the status page as an
// operator's browser gets it. Starts the exporter as users do (against the simulator with N synthetic stations,
// or --demo), loads / in Debian's headless Chromium and prints the HTML size, the server's answer time and the
// browser's first paint. With --readings the stations' readings are on, each coloured by its multiple of ПДК м.р.
// With --screenshot it also writes a PNG of the page (the README's picture).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { z } from 'zod';
import { syntheticStations } from '../src/demo/stations.js';
import { CHROMIUM, CHROMIUM_FLAGS } from '../test/support/chromium.js';
import { startSimulator } from '../test/support/simulator.js';
import { median } from './client.js';
import { startExporter } from './proc.js';

const optionsSchema = z.object({
  stations: z.coerce.number<string>().int().min(1).max(1_000_000).default(10_000),
  runs: z.coerce.number<string>().int().min(1).max(100).default(5),
  demo: z.boolean().default(false),
  readings: z.boolean().default(false),
  screenshot: z.string().min(1).optional(),
});

// Runs in the page (as a string: this program is compiled without the DOM's types). Paint entries can land just
// after the load event, so it waits for them with a buffered observer.
const PAINT_TIMINGS = `new Promise((resolve) => {
  const found = {};
  const done = () => {
    const nav = performance.getEntriesByType('navigation')[0];
    resolve({ fp: found['first-paint'], fcp: found['first-contentful-paint'], load: nav ? nav.loadEventEnd : 0 });
  };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) found[e.name] = e.startTime;
    if ('first-paint' in found && 'first-contentful-paint' in found) done();
  }).observe({ type: 'paint', buffered: true });
  setTimeout(done, 10000);
})`;

const timings = z.object({ fp: z.number(), fcp: z.number(), load: z.number() });

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      stations: { type: 'string' },
      runs: { type: 'string' },
      demo: { type: 'boolean' },
      readings: { type: 'boolean' },
      screenshot: { type: 'string' },
    },
    strict: true,
  });
  const options = optionsSchema.parse(values);
  const sim = await startSimulator({ posts: syntheticStations(options.stations) });
  const exporter = await startExporter(
    sim.baseUrl,
    options.demo
      ? ['--demo']
      : [
          '--upstream.min-interval=5m',
          '--upstream.timeout=60s',
          ...(options.readings ? ['--collector.measurements', '--measurements.concurrency=16'] : []),
        ],
  );
  const profile = mkdtempSync(join(tmpdir(), 'cityair-status-bench-'));
  try {
    await waitReady(exporter.url);
    if (options.readings) await waitForReadings(exporter.url);
    const url = `${exporter.url}/`;
    const answers: number[] = [];
    let first = 0;
    let bytes = 0;
    // The first answer builds the station table; the timed ones reuse it, as every request until new data does.
    for (let i = 0; i <= 20; i++) {
      const t0 = performance.now();
      const body = Buffer.from(await (await fetch(url)).arrayBuffer());
      if (i > 0) answers.push(performance.now() - t0);
      else first = performance.now() - t0;
      bytes = body.length;
    }
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [...CHROMIUM_FLAGS],
      viewport: { width: 1100, height: 900 },
    });
    const firstPaint: number[] = [];
    const firstContentfulPaint: number[] = [];
    const loaded: number[] = [];
    for (let i = 0; i < options.runs; i++) {
      const page = await context.newPage();
      await page.goto(url, { waitUntil: 'load' });
      const t = timings.parse(await page.evaluate(PAINT_TIMINGS));
      firstPaint.push(t.fp);
      firstContentfulPaint.push(t.fcp);
      loaded.push(t.load);
      if (i === options.runs - 1 && options.screenshot) await page.screenshot({ path: options.screenshot });
      await page.close();
    }
    await context.close();
    const ms = (xs: number[]): string => `${median(xs).toFixed(0)} ms`;
    console.log(
      [
        `stations: ${options.demo ? '40 (--demo)' : options.stations}`,
        `HTML: ${bytes} bytes (${(bytes / 1024).toFixed(0)} KiB)`,
        `server answer: first ${first.toFixed(1)} ms (builds the table), then ${median(answers).toFixed(1)} ms (median of 20)`,
        `first paint (median of ${options.runs}): ${ms(firstPaint)}`,
        `first contentful paint: ${ms(firstContentfulPaint)}`,
        `load event end: ${ms(loaded)}`,
        ...(options.screenshot ? [`screenshot: ${options.screenshot}`] : []),
      ].join('\n'),
    );
  } finally {
    await exporter.stop();
    await sim.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

async function waitReady(base: string): Promise<void> {
  const end = Date.now() + 60_000;
  while (Date.now() < end) {
    if ((await fetch(`${base}/readyz`)).ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the exporter did not turn ready within 60 s');
}

/** Until a round of readings has completed: the page then shows every station's reading. */
async function waitForReadings(base: string): Promise<void> {
  const end = Date.now() + 300_000;
  while (Date.now() < end) {
    const metrics = await (await fetch(`${base}/metrics`)).text();
    if (/^cityair_measurements_last_round_timestamp_seconds [1-9]/m.test(metrics)) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('no round of readings completed within 5 minutes');
}

await main();
