// The readings phase: one round of per-station readings requests against the simulator (wall time, the
// exporter's CPU and RSS over it), then cached scrapes of the stations with their readings, timed as the
// station table's cached rows are.
import { demoReadingsAnswer } from '../src/demo/readings.js';
import { syntheticStations } from '../src/demo/stations.js';
import { startSimulator } from '../test/support/simulator.js';
import { type Batch, timeScrapes } from './batch.js';
import { createScraper } from './client.js';
import { cpuMs, memory, startExporter } from './proc.js';

export const READINGS_CONCURRENCY = 16;

// The list is read once (min-interval far above the phase's length) and no second round starts within it (the
// refresh interval stays below max-age, 30m by default, so the exporter has nothing to warn about).
const READINGS_ARGS: readonly string[] = [
  '--upstream.min-interval=5m',
  '--collector.measurements',
  `--measurements.concurrency=${READINGS_CONCURRENCY}`,
  '--measurements.refresh-interval=20m',
];

export interface ReadingsResult {
  readonly stations: number;
  readonly concurrency: number;
  /** cityair_measurements_last_round_duration_seconds, the exporter's own clock. */
  readonly roundSeconds: number;
  /** From the first readings request the simulator received to the last. */
  readonly simulatorSpanSeconds: number;
  readonly requests: number;
  /** User + system time of the exporter from the round's first request until it was seen done. */
  readonly roundCpuMs: number;
  /** VmRSS when the first readings request arrived (list read, no reading yet). */
  readonly beforeRssBytes: number;
  /** Largest VmRSS read every 50 ms during the round. */
  readonly duringMaxRssBytes: number;
  /** VmHWM when the round was seen done (before any scrape rendered the readings). */
  readonly roundPeakRssBytes: number;
  /** VmRSS a second after the first scrape with readings, before the warm-up. */
  readonly idleRssBytes: number;
  /** The scrape that first sees the round: it renders the readings text. */
  readonly firstScrapeMs: number;
  readonly readingSeries: number;
  readonly scrapes: Batch;
}

const READING_FAMILIES = [
  'cityair_concentration_micrograms_per_cubic_meter{',
  'cityair_temperature_celsius{',
  'cityair_relative_humidity_ratio{',
  'cityair_pressure_pascals{',
  'cityair_aqi{',
  'cityair_measurement_timestamp_seconds{',
];

/** The value of the first sample of a family (with the given labels, or none), NaN when absent. */
function sampleValue(text: string, series: string): number {
  const at = text.indexOf(`\n${series} `);
  if (at < 0) return Number.NaN;
  const end = text.indexOf('\n', at + 1);
  return Number(text.slice(at + series.length + 2, end < 0 ? undefined : end));
}

function countReadingSeries(text: string): number {
  let n = 0;
  for (const line of text.split('\n')) if (READING_FAMILIES.some((f) => line.startsWith(f))) n++;
  return n;
}

interface FirstRequest {
  readonly atMs: number;
  readonly cpuMs: number;
  readonly rssBytes: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function measureReadings(
  stations: number,
  scrapes: number | undefined,
  notes: string[],
): Promise<ReadingsResult> {
  let pid = -1;
  let served = 0;
  let first: FirstRequest | undefined;
  let lastAtMs = 0;
  // Served as the demo serves them; the first request the exporter's pid is known for marks the round's start.
  const sim = await startSimulator({
    posts: syntheticStations(stations),
    readings: (id, nowMs, query) => {
      served++;
      lastAtMs = performance.now();
      if (first === undefined && pid > 0)
        first = { atMs: lastAtMs, cpuMs: cpuMs(pid), rssBytes: memory(pid).rss };
      return demoReadingsAnswer(id, nowMs, query);
    },
  });
  const exporter = await startExporter(sim.baseUrl, READINGS_ARGS);
  pid = exporter.pid;
  const { scrape, close } = createScraper();
  const url = `${exporter.url}/metrics`;
  const label = `readings ${stations}`;
  try {
    // Only the bench process is asked while the round runs: scraping the exporter would add to its CPU.
    let duringMax = 0;
    const deadline = Date.now() + 600_000;
    while (served < stations && Date.now() < deadline) {
      duringMax = Math.max(duringMax, memory(pid).rss);
      await sleep(50);
    }
    // The last answers are still being read when the simulator has sent them; the exporter says when it is done.
    let text = '';
    let cpuEnd = 0;
    let roundPeak = 0;
    let firstScrapeMs = Number.NaN;
    for (let i = 0; i < 300; i++) {
      await sleep(200);
      cpuEnd = cpuMs(pid);
      roundPeak = memory(pid).peak;
      const r = await scrape(url, { keep: true });
      text = r.body?.toString('utf8') ?? '';
      firstScrapeMs = r.ms;
      const requests = sampleValue(text, 'cityair_measurements_requests_total');
      const duration = sampleValue(text, 'cityair_measurements_last_round_duration_seconds');
      if (requests >= stations && duration > 0) break;
    }
    const requests = sampleValue(text, 'cityair_measurements_requests_total');
    const failed = sampleValue(text, 'cityair_measurements_stations{state="failed"}');
    if (!(requests >= stations) || failed !== 0 || first === undefined) {
      notes.push(
        `${label}: round not seen done or failing (${requests} requests, ${failed} stations failed, ${served} served)`,
      );
    }
    const readingSeries = countReadingSeries(text);
    if (readingSeries === 0) notes.push(`${label}: no reading series after the round`);
    await sleep(1000);
    const idleRssBytes = memory(pid).rss;
    const n = scrapes ?? (stations <= 1000 ? 1000 : stations <= 10_000 ? 300 : 40);
    const batch = await timeScrapes(pid, url, scrape, { warmup: stations >= 100_000 ? 2 : 20, n });
    return {
      stations,
      concurrency: READINGS_CONCURRENCY,
      roundSeconds: sampleValue(text, 'cityair_measurements_last_round_duration_seconds'),
      simulatorSpanSeconds: first ? (lastAtMs - first.atMs) / 1000 : Number.NaN,
      requests,
      roundCpuMs: first ? cpuEnd - first.cpuMs : Number.NaN,
      beforeRssBytes: first?.rssBytes ?? Number.NaN,
      duringMaxRssBytes: duringMax,
      roundPeakRssBytes: roundPeak,
      idleRssBytes,
      firstScrapeMs,
      readingSeries,
      scrapes: batch,
    };
  } finally {
    await close();
    await exporter.stop();
    await sim.close();
  }
}
