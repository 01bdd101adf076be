import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { STATIONS_PATH } from '../../src/config/config.js';
import { type Simulator, type SimulatorOptions, startSimulator } from '../../src/demo/simulator.js';

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function start(options: Partial<SimulatorOptions> = {}): Promise<Simulator> {
  sim = await startSimulator({ posts: [{ id: 7, name: 'a' }], apiKey: 'k', ...options });
  return sim;
}

async function get(path: string, headers: Record<string, string> = { authorization: 'Bearer k' }) {
  if (!sim) throw new Error('no simulator');
  const res = await request(`${sim.baseUrl}${path}`, { headers });
  const body = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: res.headers, body };
}

const json = (body: Buffer): unknown => JSON.parse(body.toString());

describe('startSimulator', () => {
  it('serves the station list on loopback to a client with the key, and 401 to one without', async () => {
    await start();
    expect(sim?.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const ok = await get(STATIONS_PATH);
    expect(ok.status).toBe(200);
    expect(json(ok.body)).toEqual([{ id: 7, name: 'a' }]);
    expect((await get(STATIONS_PATH, {})).status).toBe(401);
    expect((await get(STATIONS_PATH, { authorization: 'Bearer wrong' })).status).toBe(401);
  });

  it('gzips for a client that accepts it, unless told not to', async () => {
    await start();
    const zipped = await get(STATIONS_PATH, { authorization: 'Bearer k', 'accept-encoding': 'gzip' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(json(gunzipSync(zipped.body))).toEqual([{ id: 7, name: 'a' }]);
    await sim?.close();
    await start({ gzip: false });
    const plain = await get(STATIONS_PATH, { authorization: 'Bearer k', 'accept-encoding': 'gzip' });
    expect(plain.headers['content-encoding']).toBeUndefined();
  });

  it('answers the readings of a listed station only, with the query the API reads', async () => {
    const asked: unknown[] = [];
    await start({
      readings: (id, _now, query) => {
        asked.push({ id, ...query });
        return { data: [] };
      },
    });
    const ok = await get(`${STATIONS_PATH}/7/measurements?interval=1h&date__gt=2026-10-01 00:00:00`);
    expect(ok.status).toBe(200);
    expect(asked).toEqual([{ id: 7, interval: '1h', dateGtMs: Date.UTC(2026, 9, 1) }]);
    expect((await get(`${STATIONS_PATH}/8/measurements`)).status).toBe(404);
    const badInterval = await get(`${STATIONS_PATH}/7/measurements?interval=2h`);
    expect(badInterval.status).toBe(400);
    expect(json(badInterval.body)).toEqual({ error: 'unknown interval "2h"' });
    const badDate = await get(`${STATIONS_PATH}/7/measurements?date__gt=yesterday`);
    expect(json(badDate.body)).toEqual({ error: 'date__gt "yesterday" is not a UTC time' });
  });

  it('answers 404 off its paths', async () => {
    await start();
    expect((await get('/harvester/v2/Other')).status).toBe(404);
  });

  it('serves a new list once set, and a list that changes with time', async () => {
    await start();
    expect(json((await get(STATIONS_PATH)).body)).toEqual([{ id: 7, name: 'a' }]);
    sim?.setPosts([{ id: 9 }]);
    expect(json((await get(STATIONS_PATH)).body)).toEqual([{ id: 9 }]);
    expect((await get(`${STATIONS_PATH}/9/measurements`)).status).toBe(200);
    sim?.setPosts((now) => [{ id: 1, now: now > 0 }]);
    expect(json((await get(STATIONS_PATH)).body)).toEqual([{ id: 1, now: true }]);
  });

  it('lets an intercept answer first, or answer instead of CityAir', async () => {
    await start({
      intercept: (_req, res, route, proceed) => {
        if (route.kind === 'posts') proceed([{ id: 42 }]);
        else res.writeHead(503).end('busy');
      },
    });
    expect(json((await get(STATIONS_PATH)).body)).toEqual([{ id: 42 }]);
    expect((await get(`${STATIONS_PATH}/7/measurements`)).status).toBe(503);
  });
});
