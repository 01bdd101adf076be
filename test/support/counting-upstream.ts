// A loopback upstream that counts the readings requests open at once as the server sees them: from a request's
// arrival until its response is finished or the client closes or resets its connection. Each request gets the
// fault its turn picks, so a test can ask whether the exporter's bound holds through timeouts, trickles, resets
// and 429s. The station list (any other path) is answered at once and not counted.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Fault =
  | 'ok'
  | 'hang'
  | 'hang_body'
  | 'trickle'
  | 'reset'
  | 'reset_body'
  | 'rate_limited'
  | 'unavailable'
  | 'slow_error'
  | 'big_error'
  | 'gzip_trickle';

export interface CountingUpstream {
  readonly baseUrl: string;
  /** The most readings requests that were open at the same time. */
  readonly maxOpen: () => number;
  readonly requests: () => number;
  readonly close: () => Promise<void>;
}

const READINGS = /\/measurements(\?|$)/;

/** A list of `count` plain stations, ids 1 to count, as the API sends it. */
export const stationListBody = (count: number): Buffer =>
  Buffer.from(
    JSON.stringify(
      Array.from({ length: count }, (_, i) => ({ id: i + 1, name: `s${i + 1}`, isOnline: true })),
    ),
  );

/** Every kind of fault in turn, `ok` between them; 429 and 503 only every `calmEvery`-th turn (they stop a round). */
export const cycleFaults =
  (calmEvery: number) =>
  (n: number): Fault => {
    const unruly: Fault[] = [
      'hang',
      'hang_body',
      'trickle',
      'reset',
      'reset_body',
      'slow_error',
      'big_error',
      'gzip_trickle',
    ];
    if (n % calmEvery === calmEvery - 1) return n % 2 === 0 ? 'rate_limited' : 'unavailable';
    return n % 2 === 0 ? 'ok' : (unruly[(n >> 1) % unruly.length] as Fault);
  };

export async function startCountingUpstream(
  faultFor: (n: number, url: string) => Fault,
  stationList: Buffer,
): Promise<CountingUpstream> {
  let open = 0;
  let maxOpen = 0;
  let requests = 0;
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void): void => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };
  const trickle = (res: ServerResponse, body: Buffer, stepMs: number, bytes: number): void => {
    let at = 0;
    const next = (): void => {
      if (res.destroyed) return;
      if (at >= body.length) {
        res.end();
        return;
      }
      res.write(body.subarray(at, at + bytes));
      at += bytes;
      later(stepMs, next);
    };
    next();
  };
  const answer = (req: IncomingMessage, res: ServerResponse, fault: Fault): void => {
    const body = Buffer.from('[]');
    switch (fault) {
      case 'ok':
        later(5, () => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
        return;
      case 'hang':
        return;
      case 'hang_body':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('[');
        return;
      case 'trickle':
        res.writeHead(200, { 'content-type': 'application/json' });
        trickle(res, Buffer.from(`[${' '.repeat(40)}]`), 10, 2);
        return;
      case 'reset':
        req.socket.destroy();
        return;
      case 'reset_body':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('[  ');
        later(20, () => req.socket.destroy());
        return;
      case 'rate_limited':
        res.writeHead(429, { 'retry-after': '0' }).end('slow down');
        return;
      case 'unavailable':
        res.writeHead(503, { 'retry-after': '0' });
        trickle(res, Buffer.from('busy '.repeat(20)), 10, 10);
        return;
      case 'slow_error':
        res.writeHead(500);
        trickle(res, Buffer.from('error '.repeat(20)), 10, 10);
        return;
      case 'big_error':
        res.writeHead(500);
        trickle(res, Buffer.alloc(256 * 1024, 0x61), 5, 32 * 1024);
        return;
      case 'gzip_trickle':
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        trickle(res, Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]), 30, 1);
        return;
    }
  };
  const server = createServer((req, res) => {
    const url = req.url ?? '';
    if (!READINGS.test(url)) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(stationList);
      return;
    }
    const n = requests++;
    const fault = faultFor(n, url);
    open++;
    maxOpen = Math.max(maxOpen, open);
    let closed = false;
    const done = (): void => {
      if (closed) return;
      closed = true;
      open--;
    };
    res.on('finish', done);
    res.on('close', done);
    ending.set(req.socket, done);
    req.resume();
    answer(req, res, fault);
  });
  // The first news that the client closed or reset the connection ends its request: Node says 'close' only once
  // its own side is shut too, a few turns of its loop later, while a request on another socket may be read.
  const ending = new WeakMap<Socket, () => void>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    const gone = (): void => ending.get(s)?.();
    s.on('end', gone);
    s.on('error', gone);
    s.on('close', () => {
      gone();
      sockets.delete(s);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    maxOpen: () => maxOpen,
    requests: () => requests,
    close: async () => {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
