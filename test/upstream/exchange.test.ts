// The exchange's bounds on what one answer may cost, with any validation: the caps by endpoint, the budget of a
// whole parse, and a list read element by element in slices, within the request's deadline.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Secret } from '../../src/config/secret.js';
import { demoStations } from '../../src/demo/stations.js';
import { createUpstream, type ElementsReader, type Upstream } from '../../src/upstream/exchange.js';
import type { Result } from '../../src/upstream/failure.js';
import { type Simulator, startSimulator } from '../support/simulator.js';

const KEY = 'exchange-test-key-6d1e0b9a';
const POSTS = '/harvester/v2/Posts';
let sim: Simulator;
let upstream: Upstream;

const upstreamWith = (timeoutMs: number): Upstream =>
  createUpstream({
    baseUrl: sim.baseUrl,
    apiKey: new Secret(KEY),
    timeoutMs,
    maxBodyBytes: 1024 * 1024,
    userAgent: 'exchange-test',
  });

beforeAll(async () => {
  sim = await startSimulator({ posts: demoStations(), apiKey: KEY });
  upstream = upstreamWith(5000);
});
afterAll(async () => {
  await upstream.close();
  await sim.close();
});
beforeEach(() => sim.setFault({ kind: 'none' }));

const anything = (json: unknown): Result<unknown> => ({ ok: true, value: json });

/** Collects elements as they come; `each` runs for every one (to make the work slow). */
function collecting(each: () => void = () => undefined, max = 1000): ElementsReader<unknown[]> {
  return {
    maxElements: max,
    maxElementsSetting: '--test.max',
    maxElementBytes: 64,
    maxValuesPerElement: 10,
    whole: (json) => ({ ok: true, value: [json] }),
    start: () => {
      const got: unknown[] = [];
      return {
        add: (element) => {
          each();
          got.push(element);
        },
        oversize: (index, bytes) => got.push(`oversize ${index} ${bytes}`),
        finish: () => ({ ok: true, value: got }),
      };
    },
  };
}

const failureOf = (r: Result<unknown>): string => (r.ok ? 'success' : `${r.reason}: ${r.message}`);

describe('caps by endpoint', () => {
  it('names the cap of the endpoint that refused the body', async () => {
    sim.setFault({ kind: 'body', body: Buffer.from(`[${'1,'.repeat(2000)}1]`) });
    const r = await upstream.getJson(POSTS, anything, {
      maxBodyBytes: 2048,
      maxBodySetting: '--x.max-body-size',
    });
    expect(failureOf(r)).toBe('invalid_payload: body larger than --x.max-body-size (2048 bytes)');
  });

  it('caps the compressed body too, not only what it decompresses to', async () => {
    const random = Buffer.from(Array.from({ length: 300_000 }, () => Math.floor(Math.random() * 256)));
    sim.setFault({ kind: 'body', body: gzipSync(random), contentEncoding: 'gzip' });
    const r = await upstream.getJson(POSTS, anything, { maxBodyBytes: 100_000 });
    expect(failureOf(r)).toMatch(/^invalid_payload: body larger than --upstream.max-body-size/);
  });

  it('refuses a body of more JSON values than a whole parse may build, before building any', async () => {
    sim.setFault({ kind: 'body', body: Buffer.from(`{"data":[${'0,'.repeat(60_000)}0]}`) });
    const r = await upstream.getJson(POSTS, anything);
    expect(failureOf(r)).toBe('invalid_payload: answer holds more than 50000 JSON values');
    sim.setFault({ kind: 'body', body: Buffer.from(`{"data":[${'0,'.repeat(40_000)}0]}`) });
    expect((await upstream.getJson(POSTS, anything)).ok).toBe(true);
  });
});

describe('a list read element by element', () => {
  it('hands each element over in order, skips one too large to parse, and reads other JSON whole', async () => {
    sim.setFault({ kind: 'body', body: Buffer.from(`[1, {"a":"b"}, "${'x'.repeat(100)}", null]`) });
    const r = await upstream.getJsonElements(POSTS, collecting());
    expect(r.ok && r.value).toEqual([1, { a: 'b' }, 'oversize 2 102', null]);
    sim.setFault({ kind: 'body', body: Buffer.from('{"stations":[]}') });
    expect((await upstream.getJsonElements(POSTS, collecting())).ok && 'whole').toBe('whole');
  });

  it('refuses more elements, or more values, than allowed, and a syntax error anywhere', async () => {
    sim.setFault({ kind: 'body', body: Buffer.from(`[${'{},'.repeat(10)}{}]`) });
    expect(failureOf(await upstream.getJsonElements(POSTS, collecting(undefined, 10)))).toBe(
      'invalid_payload: the array holds more than 10 elements (--test.max)',
    );
    sim.setFault({ kind: 'body', body: Buffer.from(`[[${'0,'.repeat(40)}0]]`) });
    expect(failureOf(await upstream.getJsonElements(POSTS, collecting(undefined, 2)))).toMatch(
      /^invalid_payload: the array holds more than 20 JSON values/,
    );
    for (const broken of ['[1, {"a":}]', '[1, 2', '[1] x', '<html>']) {
      sim.setFault({ kind: 'body', body: Buffer.from(broken) });
      expect(failureOf(await upstream.getJsonElements(POSTS, collecting())), broken).toMatch(
        /^invalid_json: /,
      );
    }
  });

  it('gives the event loop turns while it works, and stops at the deadline', async () => {
    const busy = (ms: number) => () => {
      const end = performance.now() + ms;
      while (performance.now() < end);
    };
    sim.setFault({ kind: 'body', body: Buffer.from(`[${'1,'.repeat(99)}1]`) });
    let turns = 0;
    const ticker = setInterval(() => turns++, 1);
    try {
      // 100 elements of 3 ms each: 300 ms of work, paused every 10 ms.
      const r = await upstream.getJsonElements(POSTS, collecting(busy(3)));
      expect(r.ok && r.value.length).toBe(100);
      expect(turns).toBeGreaterThanOrEqual(10);
    } finally {
      clearInterval(ticker);
    }
    const quick = upstreamWith(150);
    try {
      const r = await quick.getJsonElements(POSTS, collecting(busy(5)));
      expect(failureOf(r)).toBe('timeout: no complete answer within --upstream.timeout (150 ms)');
    } finally {
      await quick.close();
    }
  });
});
