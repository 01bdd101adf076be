import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { deflateSegment, gzipSplice } from '../../src/exposition/gzip-splice.js';

const text = (n: number, seed: string): Buffer =>
  Buffer.from(Array.from({ length: n }, (_, i) => `${seed}{id="${i}"} ${i * 0.5}\n`).join(''));

describe('gzipSplice', () => {
  it('makes one gzip member that decodes to the cached parts then the tail', async () => {
    const parts = [text(2000, 'a'), text(1, 'b'), text(5000, 'c')];
    const tail = Buffer.from('cityair_up 1\n');
    const body = Buffer.concat(gzipSplice(await Promise.all(parts.map(deflateSegment)), tail));
    expect(gunzipSync(body).equals(Buffer.concat([...parts, tail]))).toBe(true);
  });

  it('is a valid gzip body with no cached part, or an empty one', async () => {
    expect(gunzipSync(Buffer.concat(gzipSplice([], Buffer.from('x 1\n')))).toString()).toBe('x 1\n');
    const empty = await deflateSegment(Buffer.alloc(0));
    const part = await deflateSegment(Buffer.from('y 2\n'));
    expect(gunzipSync(Buffer.concat(gzipSplice([empty, part], Buffer.from('z\n')))).toString()).toBe(
      'y 2\nz\n',
    );
  });

  it('is a valid gzip body with an empty tail', async () => {
    const part = await deflateSegment(Buffer.from('y 2\n'));
    expect(gunzipSync(Buffer.concat(gzipSplice([part], Buffer.alloc(0)))).toString()).toBe('y 2\n');
  });

  it('reuses a segment in many bodies', async () => {
    const segment = await deflateSegment(text(100, 'r'));
    for (const tail of ['one\n', 'two\n']) {
      const out = gunzipSync(Buffer.concat(gzipSplice([segment, segment], Buffer.from(tail))));
      expect(out.toString()).toBe(`${text(100, 'r')}${text(100, 'r')}${tail}`);
    }
  });
});
