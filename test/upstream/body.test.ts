import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import type { Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import { joined, readBody, slicer } from '../../src/upstream/body.js';

type Stream = Dispatcher.ResponseData['body'];

/** A response body as undici hands it on: a stream of the given chunks. */
const streamOf = (...chunks: Buffer[]): Stream => Readable.from(chunks) as unknown as Stream;

const TEXT = Buffer.from(`[${Array.from({ length: 400 }, (_, i) => `{"id":${i}}`).join(',')}]`);

describe('readBody', () => {
  it('keeps an identity body as the chunks it came in', async () => {
    const body = await readBody(streamOf(Buffer.from('[1,'), Buffer.from('2]')), 'identity', 100);
    expect(body).toEqual({ chunks: [Buffer.from('[1,'), Buffer.from('2]')], size: 5 });
  });

  it.each([
    ['gzip', gzipSync(TEXT)],
    ['x-gzip', gzipSync(TEXT)],
    ['deflate', deflateSync(TEXT)],
    ['br', brotliCompressSync(TEXT)],
  ])('decodes %s', async (encoding, bytes) => {
    const body = await readBody(streamOf(bytes.subarray(0, 10), bytes.subarray(10)), encoding, 1 << 20);
    if ('problem' in body) throw new Error(`expected a body, got ${JSON.stringify(body)}`);
    expect(joined(body).equals(TEXT)).toBe(true);
  });

  it('refuses an identity body one byte over the cap, and takes one at it', async () => {
    expect(await readBody(streamOf(TEXT), '', TEXT.length)).toMatchObject({ size: TEXT.length });
    expect(await readBody(streamOf(TEXT), '', TEXT.length - 1)).toEqual({
      problem: 'too_large',
      size: TEXT.length,
    });
  });

  it('caps the decompressed size, so a small bomb is refused', async () => {
    const bomb = gzipSync(Buffer.alloc(10 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(64 * 1024);
    const body = await readBody(streamOf(bomb), 'gzip', 1024 * 1024);
    expect(body).toMatchObject({ problem: 'too_large' });
  });

  it('caps the compressed size too', async () => {
    // Random bytes grow a little under gzip: the compressed body passes a cap that the decompressed one is under.
    const noise = randomBytes(4096);
    const compressed = gzipSync(noise);
    const max = noise.length + 4;
    expect(compressed.length).toBeGreaterThan(max);
    expect(await readBody(streamOf(compressed), 'gzip', max)).toMatchObject({ problem: 'too_large' });
  });

  it('names an encoding it cannot decode, and reads nothing of the body', async () => {
    const stream = streamOf(TEXT);
    expect(await readBody(stream, 'zstd', 1 << 20)).toEqual({
      problem: 'unsupported_encoding',
      encoding: 'zstd',
    });
    expect((stream as unknown as Readable).destroyed).toBe(true);
  });

  it('says a body that does not decode is badly encoded', async () => {
    const body = await readBody(streamOf(Buffer.from('not gzip at all')), 'gzip', 1 << 20);
    expect(body).toMatchObject({ problem: 'bad_encoding', encoding: 'gzip' });
  });

  it('throws the stream’s own error (an abort) instead of calling it a bad body', async () => {
    const failing = new Readable({
      read() {
        this.destroy(Object.assign(new Error('aborted'), { code: 'UND_ERR_ABORTED' }));
      },
    });
    await expect(readBody(failing as unknown as Stream, 'identity', 100)).rejects.toThrow('aborted');
  });
});

describe('joined and slicer', () => {
  const body = {
    chunks: [Buffer.from('abc'), Buffer.from('defg'), Buffer.from('h'), Buffer.from('ijkl')],
    size: 12,
  };

  it('joins the chunks, and hands a single chunk back as it is', () => {
    expect(joined(body).toString()).toBe('abcdefghijkl');
    const one = { chunks: [Buffer.from('xyz')], size: 3 };
    expect(joined(one)).toBe(one.chunks[0]);
  });

  it('slices any range, within a chunk or across several, forwards and back', () => {
    const slice = slicer(body);
    const ranges: [number, number][] = [
      [0, 3],
      [1, 2],
      [2, 9],
      [7, 8],
      [8, 12],
      [0, 12],
      [3, 7],
      [5, 11],
      [0, 1],
    ];
    for (const [start, end] of ranges) {
      expect(slice(start, end).toString(), `${start}..${end}`).toBe('abcdefghijkl'.slice(start, end));
    }
  });
});
