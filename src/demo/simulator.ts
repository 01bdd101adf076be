// A real HTTP server that plays CityAir's /harvester/v2/Posts: the demo's upstream, the tests' fake upstream and
// the benchmark's load. It can be told to answer with any failure the exporter must survive.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Server, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { POSTS_PATH } from '../boundaries/config.js';

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
}

export interface Simulator {
  readonly baseUrl: string;
  readonly setPosts: (posts: readonly unknown[] | ((nowMs: number) => readonly unknown[])) => void;
  readonly setFault: (fault: Fault) => void;
  /** Requests received on the Posts path since start (or since resetCount). */
  readonly requestCount: () => number;
  readonly resetCount: () => void;
  /** Headers of the last request on the Posts path. */
  readonly lastHeaders: () => IncomingMessage['headers'] | undefined;
  readonly close: () => Promise<void>;
}

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

  const bodyFor = (): Body => {
    if (typeof posts === 'function') return { plain: Buffer.from(JSON.stringify(posts(Date.now()))) };
    cached ??= { plain: Buffer.from(JSON.stringify(posts)) };
    return cached;
  };

  const answer = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://sim');
    if (req.method !== 'GET' || url.pathname !== POSTS_PATH) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      return;
    }
    count++;
    headers = req.headers;
    if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"Unauthorized"}');
      return;
    }
    serveWithFault(req, res);
  };

  const serveWithFault = (req: IncomingMessage, res: ServerResponse): void => {
    const f = fault;
    switch (f.kind) {
      case 'none':
        sendPosts(req, res);
        return;
      case 'status': {
        const h: Record<string, string> = { 'content-type': 'application/json' };
        if (f.retryAfter !== undefined) h['retry-after'] = f.retryAfter;
        res.writeHead(f.status, h).end(f.body ?? `{"error":"simulated ${f.status}"}`);
        return;
      }
      case 'slow': {
        const t = setTimeout(() => sendPosts(req, res), f.delayMs);
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

  const sendPosts = (req: IncomingMessage, res: ServerResponse): void => {
    const body = bodyFor();
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
    },
    setFault: (f) => {
      fault = f;
    },
    requestCount: () => count,
    resetCount: () => {
      count = 0;
    },
    lastHeaders: () => headers,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
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
