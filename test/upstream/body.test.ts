import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import type { Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import {
  joined,
  readBody,
  slicer,
  WHOLE_COMPRESSED_BYTES,
  WHOLE_DECODED_BYTES,
} from '../../src/upstream/body.js';

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

  describe('a small body decoded whole, a larger one through the streams: the same answers either way', () => {
    // Random bytes do not compress: a body that is small decompressed is large compressed.
    const incompressible = randomBytes(WHOLE_COMPRESSED_BYTES + 4096);
    const repetitive = Buffer.alloc(WHOLE_DECODED_BYTES + 4096, 'x');
    /** The compressed bytes in pieces of `size`, as a network may hand them on. */
    const pieces = (bytes: Buffer, size: number): Buffer[] =>
      Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) =>
        bytes.subarray(i * size, (i + 1) * size),
      );

    it.each([
      ['past the compressed size a whole decode takes', incompressible],
      ['past the decompressed size a whole decode takes', repetitive],
    ])('decodes a body %s, whatever its chunks', async (_, plain) => {
      const compressed = gzipSync(plain);
      for (const size of [1000, WHOLE_COMPRESSED_BYTES - 1, compressed.length]) {
        const body = await readBody(streamOf(...pieces(compressed, size)), 'gzip', 4 * 1024 * 1024);
        if ('problem' in body) throw new Error(`expected a body, got ${JSON.stringify(body)}`);
        expect(joined(body).equals(plain), `chunks of ${size}`).toBe(true);
      }
    });

    it('refuses a bomb past a cap above the whole decode’s, and one past a cap below it', async () => {
      const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024));
      expect(bomb.length).toBeLessThan(WHOLE_COMPRESSED_BYTES);
      for (const max of [WHOLE_DECODED_BYTES / 2, WHOLE_DECODED_BYTES, 2 * WHOLE_DECODED_BYTES]) {
        expect(await readBody(streamOf(bomb), 'gzip', max), `max ${max}`).toMatchObject({
          problem: 'too_large',
        });
      }
    });

    it('takes a body exactly at the cap and refuses one a byte over, decoded whole or not', async () => {
      for (const plain of [TEXT, repetitive]) {
        const compressed = gzipSync(plain);
        expect(await readBody(streamOf(compressed), 'gzip', plain.length)).toMatchObject({
          size: plain.length,
        });
        expect(await readBody(streamOf(compressed), 'gzip', plain.length - 1)).toMatchObject({
          problem: 'too_large',
        });
      }
    });

    it.each([
      ['cut off', (b: Buffer) => b.subarray(0, b.length - 6)],
      ['followed by bytes that are not gzip', (b: Buffer) => Buffer.concat([b, Buffer.from('trailing')])],
    ])('says a body %s is badly encoded, small or large', async (_, spoil) => {
      for (const plain of [TEXT, incompressible]) {
        const body = await readBody(streamOf(spoil(gzipSync(plain))), 'gzip', 4 * 1024 * 1024);
        expect(body).toMatchObject({ problem: 'bad_encoding', encoding: 'gzip' });
      }
    });

    it.each([
      ['deflate', deflateSync],
      ['br', brotliCompressSync],
    ] as const)(
      'says a small %s body followed by more bytes is badly encoded, not read in part',
      async (encoding, compress) => {
        for (const after of [Buffer.from('trailing'), compress(TEXT)]) {
          const body = await readBody(
            streamOf(Buffer.concat([compress(TEXT), after])),
            encoding,
            4 * 1024 * 1024,
          );
          expect(body).toMatchObject({ problem: 'bad_encoding', encoding });
        }
        const whole = await readBody(streamOf(compress(TEXT)), encoding, 4 * 1024 * 1024);
        if ('problem' in whole) throw new Error(`expected a body, got ${JSON.stringify(whole)}`);
        expect(joined(whole).equals(TEXT)).toBe(true);
      },
    );

    it('reads two gzip members one after the other as one body, small or large', async () => {
      for (const plain of [TEXT, incompressible]) {
        const twice = Buffer.concat([gzipSync(plain), gzipSync(plain)]);
        const body = await readBody(streamOf(twice), 'gzip', 4 * 1024 * 1024);
        if ('problem' in body) throw new Error(`expected a body, got ${JSON.stringify(body)}`);
        expect(joined(body).equals(Buffer.concat([plain, plain]))).toBe(true);
      }
    });
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
