// The scraping side: one keep-alive connection, one scrape at a time, as Prometheus scrapes, timed from the
// request's first byte to the response's last. A bare HTTP/1.1 reader over a socket rather than undici: at
// 45 MB per answer undici's stream machinery cost the client more than the exporter's cached answer itself.
import { connect, type Socket } from 'node:net';

export interface ScrapeResult {
  readonly ms: number;
  readonly status: number;
  /** Bytes of the body on the wire (compressed when the exporter compressed). */
  readonly bytes: number;
  readonly encoding: string;
  /** The body, when asked for with keep. */
  readonly body?: Buffer;
}

export interface ScrapeOptions {
  readonly gzip?: boolean;
  readonly keep?: boolean;
}

export type Scraper = (url: string, options?: ScrapeOptions) => Promise<ScrapeResult>;

interface Pending {
  readonly t0: number;
  readonly keep: boolean;
  readonly resolve: (r: ScrapeResult) => void;
  readonly reject: (e: Error) => void;
}

export function createScraper(): { scrape: Scraper; close: () => Promise<void> } {
  let socket: Socket | undefined;
  let origin = '';
  let reader: ResponseReader | undefined;

  const open = (url: URL): Promise<Socket> =>
    new Promise((resolve, reject) => {
      const s = connect({ host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port) }, () =>
        resolve(s),
      );
      s.setNoDelay(true);
      s.on('data', (chunk: Buffer) => reader?.feed(chunk));
      s.on('error', (e) => {
        reader?.fail(e);
        reject(e);
      });
      s.on('close', () => {
        reader?.fail(new Error('connection closed before the answer ended'));
        socket = undefined;
      });
    });

  const scrape: Scraper = async (target, options = {}) => {
    const url = new URL(target);
    if (!socket || origin !== url.host) {
      socket?.destroy();
      origin = url.host;
      socket = await open(url);
    }
    const head =
      `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: text/plain;version=0.0.4\r\n` +
      `${options.gzip ? 'Accept-Encoding: gzip\r\n' : ''}\r\n`;
    const s = socket;
    return new Promise<ScrapeResult>((resolve, reject) => {
      reader = new ResponseReader({ t0: performance.now(), keep: options.keep ?? false, resolve, reject });
      s.write(head);
    });
  };

  return {
    scrape,
    close: async () => {
      socket?.destroy();
      socket = undefined;
    },
  };
}

const CRLFCRLF = Buffer.from('\r\n\r\n');

/** Reads one response: headers, then a Content-Length or chunked body. */
class ResponseReader {
  private head: Buffer = Buffer.alloc(0);
  private status = 0;
  private encoding = 'identity';
  private remaining = -1;
  private chunked = false;
  private chunkState: 'size' | 'data' | 'crlf' | 'trailer' = 'size';
  private sizeLine = '';
  private bytes = 0;
  private readonly kept: Buffer[] = [];
  private done = false;

  constructor(private readonly pending: Pending) {}

  feed(chunk: Buffer): void {
    if (this.done) return;
    let data = chunk;
    if (this.status === 0) {
      this.head = this.head.length === 0 ? chunk : Buffer.concat([this.head, chunk]);
      const end = this.head.indexOf(CRLFCRLF);
      if (end < 0) return;
      this.readHeaders(this.head.toString('latin1', 0, end));
      data = this.head.subarray(end + 4);
    }
    if (this.chunked) this.feedChunked(data);
    else this.body(data);
  }

  fail(error: Error): void {
    if (this.done) return;
    this.done = true;
    this.pending.reject(error);
  }

  private readHeaders(text: string): void {
    const lines = text.split('\r\n');
    this.status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1] ?? NaN);
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (name === 'content-length') this.remaining = Number(value);
      if (name === 'transfer-encoding') this.chunked = /chunked/i.test(value);
      if (name === 'content-encoding') this.encoding = value.toLowerCase();
    }
    if (!this.chunked && this.remaining < 0)
      this.fail(new Error('answer without Content-Length or chunked body'));
  }

  private body(data: Buffer): void {
    if (data.length > 0) {
      this.bytes += data.length;
      if (this.pending.keep) this.kept.push(data);
    }
    if (!this.chunked) {
      this.remaining -= data.length;
      if (this.remaining <= 0) this.finish();
    }
  }

  private feedChunked(data: Buffer): void {
    let i = 0;
    while (i < data.length && !this.done) {
      if (this.chunkState === 'data') {
        const n = Math.min(this.remaining, data.length - i);
        this.body(data.subarray(i, i + n));
        this.remaining -= n;
        i += n;
        if (this.remaining === 0) this.chunkState = 'crlf';
        continue;
      }
      const nl = data.indexOf(0x0a, i);
      if (nl < 0) {
        this.sizeLine += data.toString('latin1', i);
        return;
      }
      const line = (this.sizeLine + data.toString('latin1', i, nl)).trim();
      this.sizeLine = '';
      i = nl + 1;
      if (this.chunkState === 'crlf') this.chunkState = 'size';
      else if (this.chunkState === 'trailer') {
        if (line === '') this.finish();
      } else {
        this.remaining = Number.parseInt(line, 16);
        this.chunkState = this.remaining === 0 ? 'trailer' : 'data';
      }
    }
  }

  private finish(): void {
    this.done = true;
    this.pending.resolve({
      ms: performance.now() - this.pending.t0,
      status: this.status,
      bytes: this.bytes,
      encoding: this.encoding,
      ...(this.pending.keep ? { body: Buffer.concat(this.kept) } : {}),
    });
  }
}

export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/** Nearest-rank quantile: p99 of fewer than 100 samples is the largest. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}
