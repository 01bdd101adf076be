// A real HTTP server that plays CityAir's /harvester/v2/Posts and each station's /measurements: the demo's
// upstream, the tests' fake upstream and the benchmark's load. It can be told to answer with any failure the
// exporter must survive, for the whole list or for one station's readings.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Server, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { POSTS_PATH } from '../config/config.js';
import { DEMO_INTERVALS_MS, demoMeasurements, type ReadingsQuery } from './readings.js';

export type Fault =
  | { readonly kind: 'none' }
  | { readonly kind: 'status'; readonly status: number; readonly retryAfter?: string; readonly body?: string }
  /** Headers after delayMs, then the normal answer. */
  | { readonly kind: 'slow'; readonly delayMs: number }
  /** Headers at once, then the body stalls forever. */
  | { readonly kind: 'stall-body' }
  /** Accepts the request and never answers. */
  | { readonly kind: 'hang' }
  /** Closes the connection without an answer. */
  | { readonly kind: 'reset' }
  /** A 200 with this exact body (invalid JSON, an HTML page, a wrong shape...). */
  | {
      readonly kind: 'body';
      readonly body: string | Buffer;
      readonly contentType?: string;
      readonly contentEncoding?: string;
    }
  /** A 200 JSON array of `bytes` bytes, optionally without Content-Length (chunked). */
  | { readonly kind: 'huge'; readonly bytes: number; readonly chunked?: boolean };

export interface SimulatorOptions {
  readonly host?: string;
  readonly port?: number;
  /** When set, requests must carry `Authorization: Bearer <apiKey>`. */
  readonly apiKey?: string;
  /** Stations as raw API elements (anything JSON, so tests can send invalid ones), or a function of time. */
  readonly posts: readonly unknown[] | ((nowMs: number) => readonly unknown[]);
  /** Answer gzip when the client accepts it (default true). */
  readonly gzip?: boolean;
  /** Serve HTTPS with this key and certificate (tests of private CAs and proxies). */
  readonly tls?: { readonly key: string | Buffer; readonly cert: string | Buffer };
  /** The readings answer of a listed station (anything JSON); defaults to demoMeasurements. */
  readonly readings?: ReadingsSource;
}

export type ReadingsSource = (id: number, nowMs: number, query: ReadingsQuery) => unknown;

export interface Simulator {
  readonly baseUrl: string;
  readonly setPosts: (posts: readonly unknown[] | ((nowMs: number) => readonly unknown[])) => void;
  readonly setFault: (fault: Fault) => void;
  /** Requests received on the Posts path since start (or since resetCount). */
  readonly requestCount: () => number;
  readonly resetCount: () => void;
  /** Headers of the last request on the Posts path. */
  readonly lastHeaders: () => IncomingMessage['headers'] | undefined;
  /** Fixes one station's readings answer (any JSON); undefined goes back to the source. */
  readonly setReadings: (id: number, answer: unknown) => void;
  /** A fault for one station's readings only; undefined clears it. */
  readonly setReadingsFault: (id: number, fault: Fault | undefined) => void;
  /** Station ids of the readings requests received, in order (unknown ids too), since start or reset. */
  readonly readingsLog: () => readonly number[];
  /** The query of the last readings request, as sent. */
  readonly lastReadingsQuery: () => URLSearchParams | undefined;
  /** The most readings requests seen in flight at once, since start or reset. */
  readonly maxConcurrentReadings: () => number;
  readonly resetReadingsLog: () => void;
  readonly close: () => Promise<void>;
}

const MAX_LOG = 200_000;
const MEASUREMENTS_PATH = new RegExp(`^${POSTS_PATH}/(-?\\d{1,16})/measurements$`);

interface Body {
  readonly plain: Buffer;
  gzipped?: Buffer;
}

export async function startSimulator(options: SimulatorOptions): Promise<Simulator> {
  let posts = options.posts;
  let fault: Fault = { kind: 'none' };
  let count = 0;
  let headers: IncomingMessage['headers'] | undefined;
  // Fixed lists are serialised once: the benchmark must measure the exporter, not the simulator.
  let cached: Body | undefined;
  const sockets = new Set<Socket>();
  const readingsSource = options.readings ?? demoMeasurements;
  const fixedReadings = new Map<number, unknown>();
  const readingsFaults = new Map<number, Fault>();
  let readingsLog: number[] = [];
  let lastReadingsQuery: URLSearchParams | undefined;
  let readingsInFlight = 0;
  let maxReadingsInFlight = 0;
  let knownIds: ReadonlySet<number> | undefined;

  const bodyFor = (): Body => {
    if (typeof posts === 'function') return { plain: Buffer.from(JSON.stringify(posts(Date.now()))) };
    cached ??= { plain: Buffer.from(JSON.stringify(posts)) };
    return cached;
  };

  const listedIds = (): ReadonlySet<number> => {
    if (typeof posts === 'function') return idsOf(posts(Date.now()));
    knownIds ??= idsOf(posts);
    return knownIds;
  };

  const authorised = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (options.apiKey === undefined || req.headers.authorization === `Bearer ${options.apiKey}`) return true;
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"Unauthorized"}');
    return false;
  };

  const answerReadings = (req: IncomingMessage, res: ServerResponse, id: number, url: URL): void => {
    // A demo runs for days: the log keeps the latest entries only (a round of the benchmark fits many times).
    if (readingsLog.length >= MAX_LOG) readingsLog = readingsLog.slice(MAX_LOG / 2);
    readingsLog.push(id);
    lastReadingsQuery = url.searchParams;
    readingsInFlight++;
    maxReadingsInFlight = Math.max(maxReadingsInFlight, readingsInFlight);
    res.on('close', () => {
      readingsInFlight--;
    });
    if (!authorised(req, res)) return;
    const query = readingsQuery(url.searchParams);
    if (typeof query === 'string') {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: query }));
      return;
    }
    if (!listedIds().has(id)) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Post not found"}');
      return;
    }
    const body = (): Body => {
      const fixed = fixedReadings.has(id) ? fixedReadings.get(id) : readingsSource(id, Date.now(), query);
      return { plain: Buffer.from(JSON.stringify(fixed)) };
    };
    serveWithFault(req, res, readingsFaults.get(id) ?? { kind: 'none' }, () => sendJson(req, res, body()));
  };

  const answer = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://sim');
    const readings = req.method === 'GET' ? MEASUREMENTS_PATH.exec(url.pathname) : null;
    if (readings) {
      answerReadings(req, res, Number(readings[1]), url);
      return;
    }
    if (req.method !== 'GET' || url.pathname !== POSTS_PATH) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      return;
    }
    count++;
    headers = req.headers;
    if (!authorised(req, res)) return;
    serveWithFault(req, res, fault, () => sendJson(req, res, bodyFor()));
  };

  const serveWithFault = (req: IncomingMessage, res: ServerResponse, f: Fault, send: () => void): void => {
    switch (f.kind) {
      case 'none':
        send();
        return;
      case 'status': {
        const h: Record<string, string> = { 'content-type': 'application/json' };
        if (f.retryAfter !== undefined) h['retry-after'] = f.retryAfter;
        res.writeHead(f.status, h).end(f.body ?? `{"error":"simulated ${f.status}"}`);
        return;
      }
      case 'slow': {
        const t = setTimeout(send, f.delayMs);
        res.on('close', () => clearTimeout(t));
        return;
      }
      case 'stall-body':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('[');
        return;
      case 'hang':
        return;
      case 'reset':
        req.socket.destroy();
        return;
      case 'body': {
        const h: Record<string, string> = { 'content-type': f.contentType ?? 'application/json' };
        if (f.contentEncoding) h['content-encoding'] = f.contentEncoding;
        res.writeHead(200, h).end(f.body);
        return;
      }
      case 'huge':
        sendHuge(res, f.bytes, f.chunked ?? false);
        return;
    }
  };

  const sendJson = (req: IncomingMessage, res: ServerResponse, body: Body): void => {
    const wantsGzip = (options.gzip ?? true) && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    if (wantsGzip) {
      body.gzipped ??= gzipSync(body.plain, { level: 6 });
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-encoding': 'gzip' });
      res.end(body.gzipped);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(body.plain);
  };

  const server: Server = options.tls ? createHttpsServer(options.tls, answer) : createServer(answer);
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;

  return {
    baseUrl: `${options.tls ? 'https' : 'http'}://${host}:${port}`,
    setPosts: (p) => {
      posts = p;
      cached = undefined;
      knownIds = undefined;
    },
    setFault: (f) => {
      fault = f;
    },
    requestCount: () => count,
    resetCount: () => {
      count = 0;
    },
    lastHeaders: () => headers,
    setReadings: (id, answer) => {
      if (answer === undefined) fixedReadings.delete(id);
      else fixedReadings.set(id, answer);
    },
    setReadingsFault: (id, f) => {
      if (f === undefined) readingsFaults.delete(id);
      else readingsFaults.set(id, f);
    },
    readingsLog: () => [...readingsLog],
    lastReadingsQuery: () => lastReadingsQuery,
    maxConcurrentReadings: () => maxReadingsInFlight,
    resetReadingsLog: () => {
      readingsLog = [];
      maxReadingsInFlight = readingsInFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function idsOf(elements: readonly unknown[]): ReadonlySet<number> {
  const ids = new Set<number>();
  for (const e of elements) {
    const id = (e as { id?: unknown } | null)?.id;
    if (typeof id === 'number') ids.add(id);
  }
  return ids;
}

/** The query as the API reads it (seen forms of date__gt: ISO with Z, or "YYYY-MM-DD HH:MM:SS" in UTC). */
function readingsQuery(params: URLSearchParams): ReadingsQuery | string {
  const interval = params.get('interval') ?? '5m';
  if (!Object.hasOwn(DEMO_INTERVALS_MS, interval)) return `unknown interval "${interval.slice(0, 20)}"`;
  const text = params.get('date__gt');
  if (text === null) return { interval, dateGtMs: undefined };
  const iso = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}Z?$/.test(text)
    ? `${text.replace(' ', 'T').replace(/Z?$/, 'Z')}`
    : '';
  const dateGtMs = Date.parse(iso);
  return Number.isNaN(dateGtMs)
    ? `date__gt "${text.slice(0, 40)}" is not a UTC time`
    : { interval, dateGtMs };
}

function sendHuge(res: ServerResponse, bytes: number, chunked: boolean): void {
  const element = Buffer.from('{"id":1,"name":"x","isOnline":true},'.repeat(2048));
  const h: Record<string, string | number> = { 'content-type': 'application/json' };
  if (!chunked) h['content-length'] = bytes;
  res.writeHead(200, h);
  let sent = 0;
  const pump = (): void => {
    while (sent < bytes) {
      const n = Math.min(element.length, bytes - sent);
      sent += n;
      if (!res.write(element.subarray(0, n))) {
        res.once('drain', pump);
        return;
      }
    }
    res.end();
  };
  res.on('error', () => undefined);
  pump();
}
