// The timed part of a scrape row, shared by the station table and the readings phase: warm-up, one scrape at a
// time with RSS read between scrapes, CPU over the batch, then a few gzip scrapes.
import { median, quantile, type Scraper } from './client.js';
import { cpuMs, memory } from './proc.js';

export interface Batch {
  readonly samples: number;
  readonly medianMs: number;
  readonly p99Ms: number;
  readonly cpuMsPerScrape: number;
  /** Median VmRSS over the last quarter of the timed scrapes. */
  readonly steadyRssBytes: number;
  /** VmHWM after the batch, gzip scrapes included. */
  readonly peakRssBytes: number;
  readonly plainBytes: number;
  readonly gzipBytes: number | undefined;
  readonly gzipMedianMs: number | undefined;
}

export async function timeScrapes(
  pid: number,
  url: string,
  scrape: Scraper,
  counts: { readonly warmup: number; readonly n: number; readonly before?: () => Promise<void> },
): Promise<Batch> {
  const { warmup, n, before } = counts;
  for (let i = 0; i < warmup; i++) {
    await before?.();
    await scrape(url);
  }
  const times: number[] = [];
  const rss: number[] = [];
  let plainBytes = 0;
  const cpu0 = cpuMs(pid);
  for (let i = 0; i < n; i++) {
    // Outside the timed span, and the exporter is idle meanwhile: its CPU over the batch is its scrapes'.
    await before?.();
    const r = await scrape(url);
    times.push(r.ms);
    plainBytes = r.bytes;
    // Read between scrapes, outside the timed span; one reading lands anywhere on V8's garbage sawtooth.
    if (i >= n - Math.max(1, Math.floor(n / 4))) rss.push(memory(pid).rss);
  }
  const cpu = (cpuMs(pid) - cpu0) / n;
  // Fewer where each scrape takes seconds: these only show what compression adds.
  const gz = await gzipScrapes(url, Math.min(10, Math.ceil(n / 3)), scrape);
  return {
    samples: n,
    medianMs: median(times),
    p99Ms: quantile(times, 0.99),
    cpuMsPerScrape: cpu,
    steadyRssBytes: median(rss),
    peakRssBytes: memory(pid).peak,
    plainBytes,
    ...gz,
  };
}

async function gzipScrapes(
  url: string,
  n: number,
  scrape: Scraper,
): Promise<{ gzipBytes: number | undefined; gzipMedianMs: number | undefined }> {
  const times: number[] = [];
  let bytes: number | undefined;
  for (let i = 0; i < n; i++) {
    const r = await scrape(url, { gzip: true });
    // An exporter that does not compress gets "—", not its plain size under another name.
    if (r.encoding !== 'gzip') return { gzipBytes: undefined, gzipMedianMs: undefined };
    times.push(r.ms);
    bytes = r.bytes;
  }
  return { gzipBytes: bytes, gzipMedianMs: median(times) };
}
