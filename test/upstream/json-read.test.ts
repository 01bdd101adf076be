import { describe, expect, it } from 'vitest';
import { Secret } from '../../src/config/secret.js';
import type { Body } from '../../src/upstream/body.js';
import { failure, type Result } from '../../src/upstream/failure.js';
import {
  type ElementSink,
  type ElementsReader,
  parseElements,
  parseWhole,
  type ReadContext,
} from '../../src/upstream/json-read.js';
import type { Pace } from '../../src/upstream/pace.js';

const KEY = 'the-secret-api-key';

/** The body cut into chunks of `size` bytes, as the network may deliver it. */
function bodyOf(text: string, size = 5): Body {
  const bytes = Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return { chunks, size: bytes.length };
}

const TIMED_OUT = failure('timeout', 'the deadline passed');

function context(
  pace: Pace = { due: () => false, pause: async () => true },
  contentType = 'application/json',
) {
  return {
    pace,
    secret: new Secret(KEY),
    contentType,
    timedOut: () => TIMED_OUT,
  } satisfies ReadContext;
}

/** Objects with a string `name` only; anything else is invalid_payload. */
const validateObject = (json: unknown): Result<unknown> =>
  typeof json === 'object' && json !== null && !Array.isArray(json)
    ? { ok: true, value: json }
    : failure('invalid_payload', `expected an object, got ${Array.isArray(json) ? 'an array' : typeof json}`);

interface Kept {
  readonly added: [unknown, number][];
  readonly oversize: [number, number][];
  readonly count: number;
}

const reader = (overrides: Partial<ElementsReader<Kept>> = {}): ElementsReader<Kept> => ({
  maxElements: 10,
  maxElementsSetting: '--test.max-elements',
  maxValuesPerElement: 10,
  maxElementBytes: 100,
  start: (): ElementSink<Kept> => {
    const added: [unknown, number][] = [];
    const oversize: [number, number][] = [];
    return {
      add: (element, index) => added.push([element, index]),
      oversize: (index, bytes) => oversize.push([index, bytes]),
      finish: (count) => ({ ok: true, value: { added, oversize, count } }),
    };
  },
  whole: (json) => failure('invalid_payload', `not a list: ${JSON.stringify(json)}`),
  ...overrides,
});

describe('parseWhole', () => {
  it('parses a body in chunks and hands it to the validation', async () => {
    expect(await parseWhole(bodyOf('{"name":"Новосибирск"}', 3), validateObject, 100, context())).toEqual({
      ok: true,
      value: { name: 'Новосибирск' },
    });
  });

  it('skips a byte order mark', async () => {
    const r = await parseWhole(bodyOf('\uFEFF{"a":1}'), validateObject, 100, context());
    expect(r).toEqual({ ok: true, value: { a: 1 } });
  });

  it('takes the API key out of the text before parsing it', async () => {
    const r = await parseWhole(bodyOf(`{"echo":"${KEY}"}`), validateObject, 100, context());
    expect(r).toEqual({ ok: true, value: { echo: '[REDACTED]' } });
  });

  it('calls a body that is not JSON invalid_json, and an HTML page by its name', async () => {
    expect(await parseWhole(bodyOf('{"a":1'), validateObject, 100, context())).toEqual(
      failure('invalid_json', 'expected JSON, got a body that is not JSON (content-type "application/json")'),
    );
    const html = await parseWhole(
      bodyOf('<html></html>'),
      validateObject,
      100,
      context(undefined, 'text/html'),
    );
    expect(html).toEqual(
      failure('invalid_json', 'expected JSON, got an HTML page (content-type "text/html")'),
    );
    const mislabelled = await parseWhole(bodyOf('  <!doctype html>'), validateObject, 100, context());
    expect(mislabelled).toMatchObject({ message: expect.stringContaining('an HTML page') });
  });

  it('refuses an object of more values than allowed before parsing it', async () => {
    const big = JSON.stringify({ a: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] });
    expect(await parseWhole(bodyOf(big), validateObject, 5, context())).toEqual(
      failure('invalid_payload', 'answer holds more than 5 JSON values'),
    );
  });

  it('refuses a large value of the wrong type in the words a small one gets', async () => {
    const small = await parseWhole(bodyOf('[1]'), validateObject, 100, context());
    const large = await parseWhole(bodyOf(JSON.stringify(Array(50).fill(1))), validateObject, 5, context());
    expect(small).toEqual(failure('invalid_payload', 'expected an object, got an array'));
    expect(large).toEqual(small);
  });

  it('fails as a timeout when the deadline passes during the work', async () => {
    const pace: Pace = { due: () => true, pause: async () => false };
    expect(await parseWhole(bodyOf('{"a":1}'), validateObject, 100, context(pace))).toBe(TIMED_OUT);
  });
});

describe('parseElements', () => {
  it('hands each element with its index to the sink, and the count to its finish', async () => {
    const r = await parseElements(bodyOf('[{"a":1}, 2 ,"x"]', 4), reader(), 100, context());
    expect(r).toEqual({
      ok: true,
      value: {
        added: [
          [{ a: 1 }, 0],
          [2, 1],
          ['x', 2],
        ],
        oversize: [],
        count: 3,
      },
    });
  });

  it('takes the API key out of each element', async () => {
    const r = await parseElements(bodyOf(`[{"k":"${KEY}"}]`), reader(), 100, context());
    expect(r.ok && r.value.added).toEqual([[{ k: '[REDACTED]' }, 0]]);
  });

  it('does not parse an element larger than its cap, and says so to the sink', async () => {
    const long = `"${'x'.repeat(200)}"`;
    const r = await parseElements(bodyOf(`[1,${long},3]`), reader(), 100, context());
    expect(r.ok && r.value).toEqual({
      added: [
        [1, 0],
        [3, 2],
      ],
      oversize: [[1, long.length]],
      count: 3,
    });
  });

  it('refuses more elements than allowed, naming the setting', async () => {
    const r = await parseElements(bodyOf(JSON.stringify(Array(11).fill(0))), reader(), 100, context());
    expect(r).toEqual(
      failure('invalid_payload', 'the array holds more than 10 elements (--test.max-elements)'),
    );
  });

  it('refuses a list whose values pass their cap per element', async () => {
    const heavy = JSON.stringify([Array(200).fill(0)]);
    const r = await parseElements(bodyOf(heavy), reader({ maxElementBytes: 10_000 }), 100, context());
    expect(r).toEqual(
      failure(
        'invalid_payload',
        'the array holds more than 100 JSON values (10 per element of --test.max-elements)',
      ),
    );
  });

  it('calls a cut-off list invalid_json, not a long one', async () => {
    const cut = JSON.stringify(Array(50).fill(0)).slice(0, 40);
    expect(await parseElements(bodyOf(cut), reader(), 100, context())).toMatchObject({
      ok: false,
      reason: 'invalid_json',
    });
  });

  it('reads a body that is JSON but not an array whole', async () => {
    const r = await parseElements(bodyOf('{"error":"no"}'), reader(), 100, context());
    expect(r).toEqual(failure('invalid_payload', 'not a list: {"error":"no"}'));
  });

  it('stops at the deadline between elements', async () => {
    let pauses = 0;
    const pace: Pace = { due: () => true, pause: async () => ++pauses < 2 };
    const r = await parseElements(bodyOf('[1,2,3,4]'), reader(), 100, context(pace));
    expect(r).toBe(TIMED_OUT);
  });
});
