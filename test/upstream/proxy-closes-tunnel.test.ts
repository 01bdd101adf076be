// Through a CONNECT proxy that cannot reach the API, each request still ends within its deadline, is counted as a
// failure, and does not make undici connect again in a loop: the real exchange, dispatcher and pools against a
// loopback proxy (issue 26).
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { STATION_SOCKETS } from '../../src/stations/slice.js';
import { createDispatcher } from '../../src/upstream/dispatcher.js';
import type { Result } from '../../src/upstream/failure.js';
import { openPools, type UpstreamPools } from '../../src/upstream/pools.js';

/** The exporter's two pools: the station list's and the readings'. */
type Pools = UpstreamPools<'stations' | 'readings'>;

type ProxyMode = 'close' | 'silent' | '502';

interface Proxy {
  readonly url: string;
  readonly connects: () => number;
  readonly close: () => Promise<void>;
}

/** A CONNECT proxy that, when the target refuses, closes the client's socket unanswered, answers 502, or says nothing. */
async function startProxy(mode: ProxyMode): Promise<Proxy> {
  let connects = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((_req, res) => res.writeHead(502).end());
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('connect', (req, client: Socket) => {
    connects++;
    client.on('error', () => undefined);
    if (mode === 'silent') return;
    const [host, port] = (req.url ?? '').split(':');
    const target = connect(Number(port), host ?? '127.0.0.1');
    target.on('error', () => {
      if (mode === '502') client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      else client.destroy();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connects: () => connects,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** A port nothing listens on. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

let proxy: Proxy | undefined;
let pools: Pools | undefined;

afterEach(async () => {
  await proxy?.close();
  await pools?.close();
  proxy = undefined;
  pools = undefined;
});

async function throughProxy(mode: ProxyMode, timeoutMs: number): Promise<Pools> {
  proxy = await startProxy(mode);
  const env = { HTTPS_PROXY: proxy.url };
  pools = openPools(
    {
      baseUrl: `https://127.0.0.1:${await deadPort()}`,
      apiKey: undefined,
      timeoutMs,
      maxBodyBytes: 1024 * 1024,
      userAgent: 'cityair-exporter/test',
    },
    { stations: STATION_SOCKETS, readings: 4 },
    (connections: number) =>
      createDispatcher({ caFile: undefined, insecureSkipVerify: false }, env, { connections }).dispatcher,
  );
  return pools;
}

const anything = (json: unknown): Result<unknown> => ({ ok: true, value: json });
const settle = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Both pools' requests, each with the time it took. */
async function askBoth(p: Pools): Promise<{ result: Result<unknown>; ms: number }[]> {
  const timed = async (ask: () => Promise<Result<unknown>>) => {
    const start = performance.now();
    const result = await ask();
    return { result, ms: performance.now() - start };
  };
  return Promise.all([
    timed(() => p.stations.getJson('/harvester/v2/Posts', anything)),
    timed(() => p.readings.getJson('/harvester/v2/Posts/1/measurements', anything)),
  ]);
}

describe('a proxy that cannot reach the API', () => {
  it('closing the tunnel unanswered: each request fails as network at once, with one CONNECT, not a loop', async () => {
    const p = await throughProxy('close', 5_000);
    const answers = await askBoth(p);
    for (const { result, ms } of answers) {
      expect(result).toMatchObject({ ok: false, reason: 'network', message: /proxy closed the connection/ });
      expect(ms).toBeLessThan(5_000);
    }
    await settle(300);
    // One CONNECT per request; a reconnect loop made thousands a second.
    expect(proxy?.connects()).toBe(2);
    const again = await askBoth(p);
    expect(again.map((a) => a.result.ok)).toEqual([false, false]);
    await settle(300);
    expect(proxy?.connects()).toBe(4);
  });

  it('never answering CONNECT: each request ends at its deadline as timeout', async () => {
    const p = await throughProxy('silent', 500);
    const answers = await askBoth(p);
    for (const { result } of answers) {
      expect(result).toMatchObject({ ok: false, reason: 'timeout' });
    }
  });

  it('answering 502: each request fails as network', async () => {
    const p = await throughProxy('502', 5_000);
    const answers = await askBoth(p);
    for (const { result } of answers) expect(result).toMatchObject({ ok: false, reason: 'network' });
    expect(proxy?.connects()).toBe(2);
  });
});
