// undici's parts loaded from their own files: the same classes as the package's, a request that reaches the
// server with its path and query, and no module of the running exporter that loads the whole package.
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as undici from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, Client, EnvHttpProxyAgent, Pool, request } from '../../src/upstream/undici-parts.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

async function echoServer(): Promise<string> {
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ method: req.method, url: req.url, key: req.headers['x-key'] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("undici's parts", () => {
  it("are undici's own classes, the ones its index exports", () => {
    expect(Agent).toBe(undici.Agent);
    expect(Client).toBe(undici.Client);
    expect(Pool).toBe(undici.Pool);
    expect(EnvHttpProxyAgent).toBe(undici.EnvHttpProxyAgent);
  });

  it('send a request with its path, query and headers through the dispatcher given', async () => {
    const base = await echoServer();
    const dispatcher = new Agent({ connections: 1 });
    closers.push(() => dispatcher.close());
    const res = await request(`${base}/harvester/v2/Posts?from=1&to=2`, {
      method: 'GET',
      headers: { 'x-key': 'k' },
      dispatcher,
    });
    expect(res.statusCode).toBe(200);
    expect(await res.body.json()).toEqual({
      method: 'GET',
      url: '/harvester/v2/Posts?from=1&to=2',
      key: 'k',
    });
  });

  it('stop a request when its signal aborts', async () => {
    const base = await echoServer();
    const dispatcher = new Agent({ connections: 1 });
    closers.push(() => dispatcher.close());
    const signal = AbortSignal.abort(new Error('deadline'));
    await expect(request(`${base}/`, { method: 'GET', dispatcher, signal })).rejects.toThrow('deadline');
  });
});

describe('the running exporter', () => {
  // The index loads fetch, WebSocket, the caches and the mocks too: about 3 MiB of heap kept alive for nothing.
  // The record runs the backfill's remote write and the report's store client inside the exporter, so no file
  // is let off.
  it("loads undici only through its parts, never through the package's index", () => {
    const src = fileURLToPath(new URL('../../src/', import.meta.url));
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
      );
    const offenders = files(src).filter((f) =>
      /^import (?!type )[^;]*from 'undici';/m.test(readFileSync(f, 'utf8')),
    );
    expect(offenders.map((f) => relative(src, f))).toEqual([]);
  });
});
