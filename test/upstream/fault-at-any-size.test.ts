// The same fault gets the same reason and message whatever the size of the answer: a small body is parsed whole,
// a large one scanned in slices and read element by element, and an operator must not be sent after a cap that was
// never reached because the body was cut off or broken (issue 26).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readReadings } from '../../src/readings/read.js';
import { readStations } from '../../src/stations/read.js';
import { createUpstream, type Upstream } from '../../src/upstream/exchange.js';
import type { Result } from '../../src/upstream/failure.js';

/**
 * 10 stations parse whole in any path; 10,000 hold about 120,000 JSON values, far past a whole parse's 50,000;
 * 25,000 are more than the station list's cap of 20,000 elements.
 */
const SIZES = { small: 10, large: 10_000, overCap: 25_000 } as const;

const stations = (n: number): Buffer =>
  Buffer.from(
    JSON.stringify(
      Array.from({ length: n }, (_, i) => ({
        id: i + 1,
        name: `s${i + 1}`,
        isOnline: true,
        geo: { latitude: 55, longitude: 83 },
      })),
    ),
  );

/** A readings-like answer: its schema does not matter to these faults, its count of values does. */
const readings = (n: number): Buffer =>
  Buffer.from(JSON.stringify({ data: Array.from({ length: n }, (_, i) => ({ date: i, a: 1, b: 2, c: 3 })) }));

interface Served {
  readonly body: Buffer;
  readonly headers?: Record<string, string>;
}

const FAULTS: Record<string, (good: Buffer) => Served> = {
  'cut at 60 %': (good) => ({ body: good.subarray(0, Math.floor(good.length * 0.6)) }),
  'trailing garbage': (good) => ({ body: Buffer.concat([good, Buffer.from(' x')]) }),
  'a second value after the first': (good) => ({ body: Buffer.concat([good, Buffer.from(',[]')]) }),
  'an HTML page': (good) => ({
    body: Buffer.from(`<html><body>${'<p>a, b, c: d</p>'.repeat(good.length / 16)}</body></html>`),
    headers: { 'content-type': 'text/html' },
  }),
  'bytes that are not JSON': (good) => ({ body: Buffer.concat([Buffer.from('x'), good]) }),
  'an empty body': () => ({ body: Buffer.alloc(0) }),
  'a gzip body cut off': (good) => {
    const gz = gzipSync(good);
    return { body: gz.subarray(0, Math.floor(gz.length * 0.6)), headers: { 'content-encoding': 'gzip' } };
  },
  'a closing bracket too many': (good) => ({ body: Buffer.concat([good, Buffer.from(']')]) }),
  'the wrong top-level type': (good) => ({
    body: Buffer.concat([
      Buffer.from(good[0] === 0x5b ? '{"data":' : '['),
      good,
      Buffer.from(good[0] === 0x5b ? '}' : ']'),
    ]),
  }),
  'a second object after the first': (good) => ({ body: Buffer.concat([good, Buffer.from(' {}')]) }),
  'a second array after the first': (good) => ({ body: Buffer.concat([good, Buffer.from(' [1,2]')]) }),
  'a string after the first value': (good) => ({ body: Buffer.concat([good, Buffer.from(' "x"')]) }),
  'a brace closing the array': (good) => {
    const at = good.lastIndexOf(']');
    return { body: Buffer.concat([good.subarray(0, at), Buffer.from('}'), good.subarray(at + 1)]) };
  },
  'a key with no colon': (good) => atLastKey(good, '" '),
  'a key with no value': (good) => atLastKey(good, '":,"z":'),
  'NaN for a value': (good) => atLastKey(good, '":NaN,"z":'),
  'the literal tru': (good) => atLastKey(good, '":tru,"z":'),
  'a raw control character in a string': (good) => {
    const at = good.lastIndexOf('"');
    return { body: Buffer.concat([good.subarray(0, at), Buffer.from([0x01]), good.subarray(at)]) };
  },
  'nesting 100,000 deep': (good) => ({
    body: Buffer.concat([Buffer.from('['.repeat(100_000)), good, Buffer.from(']'.repeat(100_000))]),
  }),
  'bytes that are not UTF-8 in a string': (good) => {
    const at = good.indexOf('"s1"') + 2;
    return { body: Buffer.concat([good.subarray(0, at), Buffer.from([0xff, 0xfe]), good.subarray(at)]) };
  },
};

/** The body with its last key's `":` replaced: late in the body, so that a large one is past every cap there. */
function atLastKey(good: Buffer, text: string): Served {
  const at = good.lastIndexOf('":');
  return { body: Buffer.concat([good.subarray(0, at), Buffer.from(text), good.subarray(at + 2)]) };
}

/**
 * What each fault comes to, where it is not invalid_json (a body that does not decompress is no JSON text either,
 * as a plain body cut off is not): JSON of the wrong type does not fit; a bad byte in a name is read as U+FFFD and
 * the list kept.
 */
const OTHER_OUTCOMES: Record<string, string> = {
  'the wrong top-level type': 'invalid_payload',
  'bytes that are not UTF-8 in a string': 'ok',
};
const reasonOf = (fault: string): string => OTHER_OUTCOMES[fault] ?? 'invalid_json';

let server: Server;
let served: Served = { body: Buffer.alloc(0) };
let upstream: Upstream;

beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(200, {
      'content-type': 'application/json',
      ...served.headers,
      'content-length': served.body.length,
    });
    res.end(served.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  upstream = createUpstream({
    baseUrl: `http://127.0.0.1:${port}`,
    apiKey: undefined,
    timeoutMs: 10_000,
    maxBodyBytes: 64 * 1024 * 1024,
    userAgent: 'cityair-exporter/test',
  });
});
afterAll(async () => {
  await upstream.close();
  await new Promise<void>((r) => server.close(() => r()));
});

const outcome = (r: Result<unknown>): { reason: string; message: string } | 'ok' =>
  r.ok ? 'ok' : { reason: r.reason, message: r.message };

async function bothSizes(
  build: (n: number) => Buffer,
  fault: (good: Buffer) => Served,
  read: () => Promise<Result<unknown>>,
  sizes: readonly (keyof typeof SIZES)[] = ['small', 'large'],
): Promise<Partial<Record<keyof typeof SIZES, ReturnType<typeof outcome>>>> {
  const found: Partial<Record<keyof typeof SIZES, ReturnType<typeof outcome>>> = {};
  for (const size of sizes) {
    served = fault(build(SIZES[size]));
    found[size] = outcome(await read());
  }
  return found;
}

describe('a fault in the station list', () => {
  it.each(Object.keys(FAULTS).filter((f) => !f.startsWith('nesting')))(
    '%s: the same reason and message for 10, 10,000 and 25,000 stations (over the cap)',
    async (name) => {
      const fault = FAULTS[name] as (good: Buffer) => Served;
      const sizes = ['small', 'large', 'overCap'] as const;
      const { small, large, overCap } = await bothSizes(
        stations,
        fault,
        readStations(upstream, 20_000),
        sizes,
      );
      expect(large).toEqual(small);
      if (reasonOf(name) === 'ok') {
        // Past the cap, a list that is JSON is refused for its length.
        expect(small).toBe('ok');
        expect(overCap).toMatchObject({ reason: 'invalid_payload', message: /more than 20000 elements/ });
      } else {
        expect(small).toMatchObject({ reason: reasonOf(name) });
        expect(overCap).toEqual(small);
      }
    },
  );

  it('a list nested 100,000 deep is refused as invalid_payload at both sizes', async () => {
    // Its one element is an array (small) or larger than a station can be (large): the message names which.
    const fault = FAULTS['nesting 100,000 deep'] as (good: Buffer) => Served;
    const { small, large } = await bothSizes(stations, fault, readStations(upstream, 20_000));
    expect([small, large]).toMatchObject([{ reason: 'invalid_payload' }, { reason: 'invalid_payload' }]);
  });

  it('a cut-off list is not said to hold too many values', async () => {
    served = FAULTS['cut at 60 %']?.(stations(SIZES.large)) as Served;
    const r = await readStations(upstream, 20_000)();
    expect(outcome(r)).toEqual({
      reason: 'invalid_json',
      message: 'expected JSON, got a body that is not JSON (content-type "application/json")',
    });
  });

  it('a byte-order mark before the list is read at both sizes', async () => {
    const bom = (good: Buffer): Served => ({ body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), good]) });
    const { small, large } = await bothSizes(stations, bom, readStations(upstream, 20_000));
    expect([small, large]).toEqual(['ok', 'ok']);
  });
});

describe('a fault in a readings answer', () => {
  const read = (): Promise<Result<unknown>> => readReadings(upstream)(1, { interval: '5m', dateGtMs: 0 });
  // A large answer that is JSON is refused for its 50,000 values before its content is looked at, except for its
  // top-level type; these faults make it not JSON or not an object, which is said first at any size.
  const faults = Object.keys(FAULTS).filter((f) => reasonOf(f) !== 'ok' && !f.startsWith('nesting'));
  it.each(faults)('%s: the same reason and message for a small and a large answer', async (name) => {
    const fault = FAULTS[name] as (good: Buffer) => Served;
    const { small, large } = await bothSizes(readings, fault, read);
    expect(large).toEqual(small);
    expect(small).toMatchObject({ reason: reasonOf(name) });
  });
});
