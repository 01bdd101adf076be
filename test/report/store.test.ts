// The store reader against a store on loopback: an answer with part of the data is a failure, the credentials
// are sent as the backfill's remote write sends them, and never come back in an error.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type StoreTarget, selectorOf } from '../../src/report/store.js';

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;
const servers: ReturnType<typeof createServer>[] = [];

async function storeAnswering(handler: Handler): Promise<string> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    handler(req, Buffer.concat(chunks).toString(), res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((resolve) => s.close(resolve));
});

const target = (url: string, extra: Partial<StoreTarget> = {}): StoreTarget => ({
  url,
  basicAuth: undefined,
  bearerTokenFile: undefined,
  headers: [],
  caFile: undefined,
  timeoutMs: 5000,
  ...extra,
});

const json = (res: ServerResponse, body: unknown): void => {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
};

describe('the store reader', () => {
  it('drops an answer that never ends at 64 MiB, as one failed query that is not asked again', async () => {
    let closed = false;
    const url = await storeAnswering((req, _body, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(
        '{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"id":"1"},"values":[',
      );
      const chunk = Buffer.from('[1,"1"],'.repeat(8192));
      const pump = (): void => {
        while (!closed && res.write(chunk)) {}
      };
      res.on('drain', pump);
      req.socket.on('close', () => {
        closed = true;
      });
      pump();
    });
    const store = openStore(target(url), 'test');
    await expect(store.range('up', 0, 3_600_000, 60_000)).rejects.toThrow(
      /answered more than 64 MiB to one query/,
    );
    expect(store.queries()).toBe(1);
    await store.close();
    await expect.poll(() => closed).toBe(true);
  });

  it('drops an answer whose announced length passes the cap without reading it', async () => {
    const url = await storeAnswering((_req, _body, res) => {
      const body = JSON.stringify({ status: 'success', data: { resultType: 'matrix', result: [] } });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
      res.end(body);
    });
    const store = openStore(target(url), 'test', { maxBodyBytes: 10 });
    await expect(store.samples('{__name__="m"}', 1_000_000, 60_000)).rejects.toThrow(/answered more than/);
    await store.close();
  });

  it('reads raw samples with a range selector in an instant query, in milliseconds', async () => {
    let asked: URLSearchParams | undefined;
    const url = await storeAnswering((req, body, res) => {
      asked = new URLSearchParams(body);
      expect(req.url).toBe('/api/v1/query');
      json(res, {
        status: 'success',
        data: { resultType: 'matrix', result: [{ metric: { id: '1' }, values: [[1700000000.5, '42']] }] },
      });
    });
    const store = openStore(target(`${url}/api/v1/query`), 'test');
    const answer = await store.samples(selectorOf(['m'], [['job', 'a"b']]), 1_700_000_001_000, 86_400_000);
    await store.close();
    expect(asked?.get('query')).toBe('{__name__=~"m",job="a\\"b"}[86400000ms]');
    expect(asked?.get('time')).toBe('1700000001.000');
    expect(answer).toEqual([{ labels: { id: '1' }, samples: [{ atMs: 1_700_000_000_500, value: 42 }] }]);
    expect(store.queries()).toBe(1);
  });

  it('takes an answer with part of the data (isPartial, warnings) as a failure', async () => {
    for (const extra of [{ isPartial: true }, { warnings: ['store B unreachable'] }]) {
      const url = await storeAnswering((_req, _body, res) =>
        json(res, { status: 'success', data: [], ...extra }),
      );
      const store = openStore(target(url), 'test');
      await expect(store.series('{id="1"}', 0, 1000)).rejects.toThrow(/isPartial|store B unreachable/);
      await store.close();
    }
  });

  it('sends basic auth from the password file and keeps the password out of the error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cityair-store-'));
    writeFileSync(join(dir, 'password'), 's3cret-pass\n');
    let authorization: string | undefined;
    const url = await storeAnswering((req, _body, res) => {
      authorization = req.headers.authorization;
      res.writeHead(401).end(`bad credentials: ${req.headers.authorization} s3cret-pass`);
    });
    const store = openStore(
      target(url, { basicAuth: { username: 'officer', passwordFile: join(dir, 'password') } }),
      'test',
    );
    const failure = await store.series('{id="1"}', 0, 1000).catch((e: Error) => e);
    await store.close();
    expect(authorization).toBe(`Basic ${Buffer.from('officer:s3cret-pass').toString('base64')}`);
    expect(String(failure)).toMatch(/HTTP 401/);
    expect(String(failure)).not.toContain('s3cret-pass');
    expect(String(failure)).not.toContain(Buffer.from('officer:s3cret-pass').toString('base64'));
  });
});
