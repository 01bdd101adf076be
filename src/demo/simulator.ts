// A real HTTP server that plays CityAir's /harvester/v2/Posts and each station's /measurements: the demo's
// upstream. Tests and the benchmark wrap it (test/support/simulator.ts) through `intercept` to answer with any
// failure the exporter must survive; the demo itself never does.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Server, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { STATIONS_PATH } from '../config/config.js';
import { READINGS_INTERVAL_MS, type ReadingsInterval } from '../config/setting-values.js';
import { demoReadingsAnswer, type ReadingsQuery } from './readings.js';

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
  /** The readings answer of a listed station (anything JSON); defaults to demoReadingsAnswer. */
  readonly readings?: ReadingsSource;
  /**
   * Sees every request to a known path first, and decides how it is answered: `proceed()` answers as CityAir would
   * (authorisation included), `proceed(json)` answers 200 with that JSON instead.
   */
  readonly intercept?: Intercept;
}

export type ReadingsSource = (id: number, nowMs: number, query: ReadingsQuery) => unknown;

export type SimRoute =
  | { readonly kind: 'posts' }
  | { readonly kind: 'readings'; readonly id: number; readonly url: URL };

export type Intercept = (
  req: IncomingMessage,
  res: ServerResponse,
  route: SimRoute,
  proceed: (json?: unknown) => void,
) => void;

export interface Simulator {
  readonly baseUrl: string;
  readonly setPosts: (posts: readonly unknown[] | ((nowMs: number) => readonly unknown[])) => void;
  readonly close: () => Promise<void>;
}

const READINGS_PATH = new RegExp(`^${STATIONS_PATH}/(-?\\d{1,16})/measurements$`);

interface Body {
  readonly plain: Buffer;
  gzipped?: Buffer;
}

export async function startSimulator(options: SimulatorOptions): Promise<Simulator> {
  let posts = options.posts;
  // Fixed lists are serialised once: the benchmark must measure the exporter, not the simulator.
  let cached: Body | undefined;
  let knownIds: ReadonlySet<number> | undefined;
  const sockets = new Set<Socket>();
  const readingsSource = options.readings ?? demoReadingsAnswer;
  const intercept: Intercept = options.intercept ?? ((_req, _res, _route, proceed) => proceed());

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

  const answerReadings = (
    req: IncomingMessage,
    res: ServerResponse,
    id: number,
    url: URL,
    json?: unknown,
  ): void => {
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
    const answer = json === undefined ? readingsSource(id, Date.now(), query) : json;
    sendJson(req, res, { plain: Buffer.from(JSON.stringify(answer)) });
  };

  const answerPosts = (req: IncomingMessage, res: ServerResponse, json?: unknown): void => {
    if (!authorised(req, res)) return;
    sendJson(req, res, json === undefined ? bodyFor() : { plain: Buffer.from(JSON.stringify(json)) });
  };

  const answer = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://sim');
    const readings = req.method === 'GET' ? READINGS_PATH.exec(url.pathname) : null;
    if (readings) {
      const id = Number(readings[1]);
      intercept(req, res, { kind: 'readings', id, url }, (json) => answerReadings(req, res, id, url, json));
      return;
    }
    if (req.method !== 'GET' || url.pathname !== STATIONS_PATH) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      return;
    }
    intercept(req, res, { kind: 'posts' }, (json) => answerPosts(req, res, json));
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
  if (!isInterval(interval)) return `unknown interval "${interval.slice(0, 20)}"`;
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

const isInterval = (text: string): text is ReadingsInterval => Object.hasOwn(READINGS_INTERVAL_MS, text);
