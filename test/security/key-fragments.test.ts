// The API key never leaves the process in part either: an upstream that echoes it (in an error body, a unit, a
// postId, a header) at any offset leaves no piece of 6 characters or more in a log line, /metrics, the status page
// or a failure message. A message cut before the key was taken out would keep the key's head.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret } from '../../src/config/secret.js';
import { demoStations } from '../../src/demo/stations.js';
import { createLogger } from '../../src/log/logger.js';
import { createReadingsCollector } from '../../src/readings/collector.js';
import { createStationsCollector } from '../../src/stations/collector.js';
import { createUpstream, type Upstream } from '../../src/upstream/exchange.js';
import { inProcessServer } from '../support/in-process.js';
import { type Fault, type Simulator, startSimulator } from '../support/simulator.js';

const KEY = 'sk-live-Q7w2e9R4t6Y1u8I3o5P0';
const FRAGMENT = 6;

/** Every piece of the key of FRAGMENT characters found in the text. */
function keyPieces(text: string): string[] {
  const found: string[] = [];
  for (let i = 0; i + FRAGMENT <= KEY.length; i++) {
    const piece = KEY.slice(i, i + FRAGMENT);
    if (text.includes(piece)) found.push(piece);
  }
  return found;
}

let sim: Simulator;
let upstream: Upstream;

beforeAll(async () => {
  sim = await startSimulator({ posts: demoStations(), apiKey: KEY });
  upstream = createUpstream({
    baseUrl: sim.baseUrl,
    apiKey: new Secret(KEY),
    timeoutMs: 5000,
    maxBodyBytes: 1024 * 1024,
    userAgent: 'key-fragments-test',
  });
});
afterAll(async () => {
  await upstream.close();
  await sim.close();
});

/** One exporter in process, as app.ts builds it, with every log line kept; what it shows after `run`. */
async function everythingShown(argv: readonly string[], run: 'stations' | 'readings'): Promise<string> {
  const lines: string[] = [];
  const log = createLogger(
    { level: 'debug', format: 'json', secret: new Secret(KEY) },
    { write: (line) => lines.push(line) },
  );
  const { app, stations, readings } = inProcessServer({
    argv,
    collectors: (config, registry) => {
      const stations = createStationsCollector({ config, upstream, registry, log });
      const readings = config.readings.enabled
        ? createReadingsCollector({ config, upstream, registry, log, stations })
        : undefined;
      return { stations, readings };
    },
  });
  try {
    stations.start();
    await stations.source.beforeScrape?.(5000);
    if (run === 'readings') {
      readings?.start();
      for (let i = 0; i < 200 && readings?.state().lastAttempt === undefined; i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(readings?.state().lastAttempt, 'the readings round ended').toBeDefined();
    }
    const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    const page = (await app.inject({ method: 'GET', url: '/' })).body;
    const messages = [stations.state().lastAttempt?.message, readings?.state().lastAttempt?.message];
    return [...lines, metrics, page, ...messages].join('\n');
  } finally {
    await app.close();
    await readings?.stop();
    await stations.stop();
  }
}

const OFFSETS = [...Array.from({ length: 241 }, (_, i) => i), 1000, 65_000];

describe('the API key echoed by the upstream', () => {
  it('leaves no piece of it in an error of the station list, whatever its offset in the body', async () => {
    for (const offset of OFFSETS) {
      const body = `${'e'.repeat(offset)}${KEY} is not a valid key`;
      sim.setFault({ kind: 'status', status: offset % 2 ? 401 : 500, body });
      const shown = await everythingShown([], 'stations');
      // The excerpt keeps 200 characters: where the key starts early enough, its replacement shows.
      if (offset < 180) expect(shown, `offset ${offset}`).toContain('[REDACTED]');
      expect(keyPieces(shown), `offset ${offset}`).toEqual([]);
    }
    sim.setFault({ kind: 'none' });
  }, 120_000);

  it('leaves no piece of it from a 200 answer: in a header, in a station name, anywhere in the text', async () => {
    for (const offset of [0, 1, 30, 55, 59, 60, 61, 62, 100, 199, 200]) {
      const pad = 'c'.repeat(offset);
      sim.setFault({ kind: 'body', body: '<html>down</html>', contentType: `text/html; ${pad}${KEY}` });
      expect(keyPieces(await everythingShown([], 'stations')), `content-type at ${offset}`).toEqual([]);
      const posts = [{ id: 1, name: `${pad}${KEY}`, description: `${KEY}${pad}`, isOnline: true }];
      sim.setFault({ kind: 'body', body: JSON.stringify(posts) });
      expect(keyPieces(await everythingShown([], 'stations')), `name at ${offset}`).toEqual([]);
    }
    sim.setFault({ kind: 'none' });
  }, 60_000);

  it('leaves no piece of it from readings answers: error bodies, units, postIds, at any offset', async () => {
    const ids = demoStations().map((p) => p.id);
    const date = new Date().toISOString();
    const answer = (i: number, offset: number): Fault => {
      const pad = 'r'.repeat(offset);
      switch (i % 3) {
        case 0:
          return { kind: 'status', status: 500, body: `${pad}${KEY}` };
        case 1: {
          const units = { pm2: `${pad.slice(0, 70)}${KEY}` };
          return { kind: 'body', body: JSON.stringify({ meta: { units }, data: [{ date, pm2: 1 }] }) };
        }
        default: {
          const row = { postId: `${pad.slice(0, 25)}${KEY}`, date };
          return { kind: 'body', body: JSON.stringify({ data: [row] }) };
        }
      }
    };
    for (let round = 0; round * ids.length < 250; round++) {
      ids.forEach((id, i) => {
        sim.setReadingsFault(id, answer(i, round * ids.length + i));
      });
      const shown = await everythingShown(['--collector.measurements'], 'readings');
      expect(keyPieces(shown), `round ${round}`).toEqual([]);
    }
    for (const id of ids) sim.setReadingsFault(id, undefined);
  }, 120_000);

  it('leaves no piece of it when the API echoes only its head, escapes it in JSON, or breaks it over lines', async () => {
    const escaped = [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const bodies = [
      JSON.stringify({ error: `invalid key ${KEY.slice(0, 14)}...` }),
      `{"error":"bad key ${escaped}"}`,
      `{"error":"bad key ${KEY.replaceAll('-', '\\u002D')}"}`,
      `key ${KEY.slice(0, 12)}\n${KEY.slice(12)}`,
      `key ${KEY.slice(0, 9)}\r\n${KEY.slice(9, 20)}\t${KEY.slice(20)}`,
    ];
    for (const body of bodies) {
      sim.setFault({ kind: 'status', status: 401, body });
      expect(keyPieces(await everythingShown([], 'stations')), body).toEqual([]);
    }
    sim.setFault({ kind: 'none' });
  }, 60_000);
});
