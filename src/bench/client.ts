// The scraping side: one HTTP client, as Prometheus is one, timing each scrape from request to last byte.
import { Agent, request } from 'undici';

export interface ScrapeResult {
  readonly ms: number;
  readonly status: number;
  /** Bytes on the wire (compressed when the exporter compressed). */
  readonly bytes: number;
  readonly encoding: string;
}

export function createScraper(connections = 1): { scrape: Scraper; close: () => Promise<void> } {
  const dispatcher = new Agent({ connections, keepAliveTimeout: 60_000, pipelining: 1 });
  const scrape: Scraper = async (url, options = {}) => {
    const headers: Record<string, string> = { accept: 'text/plain;version=0.0.4' };
    if (options.gzip) headers['accept-encoding'] = 'gzip';
    const t0 = performance.now();
    const res = await request(url, { method: 'GET', headers, dispatcher });
    let bytes = 0;
    const chunks: Buffer[] = [];
    for await (const chunk of res.body) {
      bytes += (chunk as Buffer).length;
      if (options.keep) chunks.push(chunk as Buffer);
    }
    const ms = performance.now() - t0;
    const encoding = String(res.headers['content-encoding'] ?? 'identity');
    return {
      ms,
      status: res.statusCode,
      bytes,
      encoding,
      ...(options.keep ? { body: Buffer.concat(chunks) } : {}),
    };
  };
  return { scrape, close: () => dispatcher.close() };
}

export type Scraper = (
  url: string,
  options?: { readonly gzip?: boolean; readonly keep?: boolean },
) => Promise<ScrapeResult & { readonly body?: Buffer }>;

export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/** Nearest-rank quantile: p99 of fewer than 100 samples is the largest. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}
