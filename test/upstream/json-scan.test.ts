import { describe, expect, it } from 'vitest';
import { createScanner, type ScanLimits, type ScanResult } from '../../src/upstream/json-scan.js';

const NO_LIMITS: ScanLimits = { maxElements: Number.POSITIVE_INFINITY, maxValues: Number.POSITIVE_INFINITY };

/** The body cut into chunks at the given offsets, scanned in steps of `step` bytes. */
function scan(text: string | Buffer, cuts: number[] = [], limits = NO_LIMITS, step = 7): ScanResult {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text);
  const chunks: Buffer[] = [];
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    chunks.push(bytes.subarray(at, cut));
    at = cut;
  }
  const scanner = createScanner(chunks, limits);
  for (let i = 0; i < 1_000_000; i++) {
    const r = scanner.step(step);
    if (r) return r;
  }
  throw new Error('the scan never ended');
}

function elementsOf(text: string, cuts: number[] = []): unknown[] {
  const r = scan(text, cuts);
  if (r.kind !== 'array') throw new Error(`expected an array, got ${JSON.stringify(r)}`);
  const bytes = Buffer.from(text);
  const out: unknown[] = [];
  for (let i = 0; i < r.bounds.length; i += 2) {
    out.push(JSON.parse(bytes.subarray(r.bounds[i], r.bounds[i + 1]).toString('utf8')));
  }
  return out;
}

// A small deterministic generator of awkward JSON: escapes, quotes and brackets inside strings, nesting, unicode.
function randomValue(seed: { n: number }, depth = 0): unknown {
  const next = (): number => {
    seed.n = (seed.n * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed.n / 2 ** 31;
  };
  const r = next();
  const strings = [
    '',
    'plain',
    'with "quotes"',
    'back\\slash\\',
    '[{,:}]',
    'Ж😷\u2028',
    '\\"\\\\',
    '\u0000\r\n',
  ];
  if (depth > 3 || r < 0.3) return strings[Math.floor(next() * strings.length)];
  if (r < 0.45) return Math.round(next() * 1e6) / 100;
  if (r < 0.5) return [true, false, null][Math.floor(next() * 3)];
  if (r < 0.75) return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(seed, depth + 1));
  const obj: Record<string, unknown> = {};
  for (let i = 0; i < Math.floor(next() * 4); i++) obj[`k${i}"[\\`] = randomValue(seed, depth + 1);
  return obj;
}

/** Containers and separators outside strings, counted the plain way. */
function countValues(text: string): number {
  let n = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[' || c === ',' || c === ':') n++;
  }
  return n;
}

describe('the JSON structure scan', () => {
  it('finds each element of an array exactly, whatever the chunking and the step', () => {
    const seed = { n: 42 };
    for (let round = 0; round < 200; round++) {
      const list = Array.from({ length: round % 9 }, () => randomValue(seed));
      const text = round % 2 ? JSON.stringify(list) : JSON.stringify(list, null, 2);
      const cuts = [...new Set([3, 17, 18, 19, 40, 41, 100].filter((c) => c < Buffer.byteLength(text)))];
      expect(elementsOf(text, round % 3 ? cuts : [])).toEqual(list);
    }
  });

  it('cuts a chunk anywhere: inside a string, after a backslash, inside a multi-byte character', () => {
    const text = JSON.stringify([{ name: 'a\\"b', x: 'Ж😷' }, '\\\\', 'q"[']);
    const length = Buffer.byteLength(text);
    for (let cut = 1; cut < length; cut++) {
      expect(elementsOf(text, [cut]), `cut at ${cut}`).toEqual(JSON.parse(text));
    }
  });

  it('skips a byte-order mark and surrounding whitespace', () => {
    expect(elementsOf('\ufeff \n[ 1 , "x" ]\n')).toEqual([1, 'x']);
    // However the network cuts the mark's three bytes.
    for (const cuts of [[1], [2], [1, 2], [1, 3], [2, 4]])
      expect(elementsOf('\ufeff \n[ 1 , "x" ]\n', cuts)).toEqual([1, 'x']);
    expect(scan('\ufeff{"a":1}', [1]).kind).toBe('other');
    expect(scan(Buffer.from([0xef, 0xbb])).kind).toBe('syntax');
    expect(elementsOf('[]')).toEqual([]);
    expect(elementsOf(' [ ] ')).toEqual([]);
  });

  it('tells other JSON values apart from arrays, for a whole parse', () => {
    for (const text of ['{"a":[1,2]}', '"text"', '42', 'null', 'true']) {
      expect(scan(text).kind, text).toBe('other');
    }
  });

  it('finds broken structure at the top level', () => {
    for (const text of [
      '',
      '   ',
      '[',
      '[1,',
      '[1,]',
      '[,1]',
      '[1,,2]',
      '[1}',
      '[1] 2',
      '["open]',
      '[{"a":1]',
    ]) {
      const r = scan(text);
      // Broken inside an element is for JSON.parse to find: the scan may still hand the element out.
      if (r.kind === 'array') {
        const bytes = Buffer.from(text);
        expect(() => {
          for (let i = 0; i < r.bounds.length; i += 2) {
            JSON.parse(bytes.subarray(r.bounds[i], r.bounds[i + 1]).toString());
          }
        }, text).toThrow();
      } else expect(r.kind, text).toBe('syntax');
    }
  });

  it('past the element limit, reads on for the syntax only: a cut-off list is not JSON, a long one is too long', () => {
    const limits = { ...NO_LIMITS, maxElements: 3 };
    expect(scan('[{},{},{}]', [], limits).kind).toBe('array');
    const spaces = Buffer.alloc(5_000_000, 0x20);
    const long = Buffer.concat([Buffer.from('[{},{},{},{}'), spaces, Buffer.from(']')]);
    expect(createScanner([long], limits).step(64)).toBeUndefined();
    // Past the cap the check reads the body from its start again: a step of its length does not reach its end.
    const toEnd = (body: Buffer) => {
      const scanner = createScanner([body], limits);
      for (;;) {
        const result = scanner.step(body.length);
        if (result) return result;
      }
    };
    expect(toEnd(long)).toEqual({ kind: 'too_many_elements' });
    const cut = Buffer.concat([Buffer.from('[{},{},{},{}'), spaces, Buffer.from(',{"a":')]);
    expect(toEnd(cut)).toEqual({ kind: 'syntax', at: cut.length });
  });

  it('counts containers and separators against the value limit', () => {
    const limits = { ...NO_LIMITS, maxValues: 10 };
    expect(scan('{"a":[1,2],"b":{}}', [], limits).kind).toBe('other');
    expect(scan(`{"a":[${'0,'.repeat(20)}0]}`, [], limits).kind).toBe('too_many_values');
    expect(scan(`[${'{},'.repeat(5)}{}]`, [], limits).kind).toBe('too_many_values');
  });

  it('stops at exactly maxValues, however deep the values sit and wherever the chunks are cut', () => {
    const seed = { n: 7 };
    for (let round = 0; round < 100; round++) {
      const list = Array.from({ length: 1 + (round % 5) }, () => randomValue(seed));
      const text = JSON.stringify(round % 2 ? list : { list });
      const values = countValues(text);
      const cuts = [...new Set([5, 23, 24, 61].filter((c) => c < Buffer.byteLength(text)))];
      const kind = round % 2 ? 'array' : 'other';
      expect(scan(text, cuts, { ...NO_LIMITS, maxValues: values }).kind, text).toBe(kind);
      expect(scan(text, cuts, { ...NO_LIMITS, maxValues: values - 1 }).kind, text).toBe('too_many_values');
    }
  });

  it('passes over a long string of escapes', () => {
    // 8 MB of backslashes: searching again for the closing quote after each escape would not end in the test's time.
    const text = `["${'\\\\'.repeat(4_000_000)}"]`;
    expect(scan(text, [], NO_LIMITS, 1 << 20).kind).toBe('array');
  });
});
