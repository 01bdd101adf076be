// The syntax check a scan relies on past a cap must agree with JSON.parse on every body, however it is cut in chunks.
import { describe, expect, it } from 'vitest';
import { createSyntaxCheck } from '../../src/upstream/json-syntax.js';

const CASES = [
  '[]',
  '{}',
  ' [1, 2.5e-3, -0, 0.1E+2, "a\\u00e9\\n", true, false, null, {"k": [{}]}] ',
  '"x"',
  '-12',
  '0',
  '1e5',
  '\ufeff[1]',
  '[1] ',
  '',
  ' ',
  '[',
  ']',
  '[1,]',
  '[,1]',
  '{"a"}',
  '{"a":}',
  '{"a" 1}',
  '{"a":1,}',
  '{,}',
  '{1:2}',
  '[1}',
  '{"a":1]',
  '[1] {}',
  '[1] [1,2]',
  '{} "x"',
  '[NaN]',
  '[tru]',
  '[truex]',
  '[nul]',
  '[01]',
  '[-]',
  '[1.]',
  '[.5]',
  '[1e]',
  '[1e+]',
  '[+1]',
  '["\\x"]',
  '["\\u12g4"]',
  '["a\u0001b"]',
  '["a\tb"]',
  '"abc',
  '[Infinity]',
  '{"a":1}}',
  '[[[]]]',
  '[[[]]',
  '1 2',
  '[1 2]',
  '{"a":1 "b":2}',
  '["\\"]',
  '["\\\\"]',
  '[-01]',
  '[0,1]',
  '{"a":0,"b":12}',
  '[00]',
  '[0 ,1]',
  '[1e5,2]',
  '[0.5,1]',
  '[-0,1]',
  '{"a":1e2}',
  '[0,]',
  '{"a":0,}',
  '0,',
  '12,',
  '[1.5e3.2]',
];

function check(text: string, chunkBytes: number, stepBytes: number): boolean {
  const bytes = Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunkBytes) chunks.push(bytes.subarray(i, i + chunkBytes));
  const syntax = createSyntaxCheck(chunks);
  for (;;) {
    const result = syntax.step(stepBytes);
    if (result) return result.kind === 'json';
  }
}

const parses = (text: string): boolean => {
  try {
    JSON.parse(text.replace(/^\ufeff/, ''));
    return true;
  } catch {
    return false;
  }
};

describe('the syntax check', () => {
  it.each(CASES)('agrees with JSON.parse on %j, whole and in chunks of any size', (text) => {
    for (const [chunk, step] of [
      [1 << 20, 1 << 20],
      [1, 1],
      [2, 3],
      [3, 1],
      [5, 7],
    ] as const) {
      expect(check(text, chunk, step)).toBe(parses(text));
    }
  });

  it('keeps nothing per value: 100,000 levels of nesting and back are JSON', () => {
    expect(check(`${'['.repeat(100_000)}${']'.repeat(100_000)}`, 4096, 1 << 20)).toBe(true);
    expect(check(`${'['.repeat(100_000)}${']'.repeat(99_999)}}`, 4096, 1 << 20)).toBe(false);
  });
});
