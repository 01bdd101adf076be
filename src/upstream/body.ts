// An answer's body, read and decompressed under a cap, as the list of chunks it arrived in. Decompressing as the
// bytes arrive keeps only the decompressed body in memory (not the compressed one too), and keeping the chunks
// instead of joining them saves a second copy: at the cap, that is one body's worth of memory instead of three.
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Dispatcher } from 'undici';

export interface Body {
  readonly chunks: readonly Buffer[];
  readonly size: number;
}

/** Why a body could not be read; an error of the stream itself (the deadline's abort) is thrown instead. */
export type BodyProblem =
  /** `size`: the bytes that were read before the cap was passed. */
  | { readonly problem: 'too_large'; readonly size: number }
  | { readonly problem: 'unsupported_encoding'; readonly encoding: string }
  | { readonly problem: 'bad_encoding'; readonly encoding: string; readonly detail: string };

const DECODERS: Readonly<Record<string, () => Transform>> = {
  gzip: () => createGunzip({ chunkSize: 64 * 1024 }),
  'x-gzip': () => createGunzip({ chunkSize: 64 * 1024 }),
  deflate: () => createInflate({ chunkSize: 64 * 1024 }),
  br: () => createBrotliDecompress({ chunkSize: 64 * 1024 }),
};

class TooLarge extends Error {}

/** At most `max` bytes through, else an error that stops the pipeline; `over` says it was this. */
function capped(max: number, over: () => void): Transform {
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size <= max) return done(null, chunk);
      over();
      done(new TooLarge());
    },
  });
}

/**
 * Reads the body whole, compressed and decompressed sizes both capped at `max`. The stream is destroyed on any
 * failure, so a refused body is never read to its end.
 */
export async function readBody(
  stream: Dispatcher.ResponseData['body'],
  encoding: string,
  max: number,
): Promise<Body | BodyProblem> {
  const identity = encoding === 'identity' || encoding === '';
  const decoder = identity ? undefined : DECODERS[encoding];
  if (!identity && !decoder) {
    stream.destroy();
    return { problem: 'unsupported_encoding', encoding };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  // A flag, not the error: once a stage fails, the pipeline may reject with the abort it caused elsewhere.
  let tooLarge = false;
  const over = (): void => {
    tooLarge = true;
  };
  const collect = async (source: AsyncIterable<Buffer>): Promise<void> => {
    for await (const chunk of source) {
      size += chunk.length;
      if (size > max) {
        over();
        throw new TooLarge();
      }
      chunks.push(chunk);
    }
  };
  try {
    if (decoder) await pipeline(stream as Readable, capped(max, over), decoder(), collect);
    else await collect(stream as AsyncIterable<Buffer>);
  } catch (error) {
    stream.destroy();
    if (tooLarge) return { problem: 'too_large', size };
    const code = (error as NodeJS.ErrnoException).code ?? '';
    // zlib's errors: a body that does not decode. Anything else (the deadline's abort, a reset) is the request's.
    if (code.startsWith('Z_') || code.startsWith('ERR__ERROR')) {
      return { problem: 'bad_encoding', encoding, detail: (error as Error).message };
    }
    throw error;
  }
  return { chunks, size };
}

/** The body as one Buffer (for a whole parse: small bodies only). */
export function joined(body: Body): Buffer {
  return body.chunks.length === 1 ? (body.chunks[0] as Buffer) : Buffer.concat(body.chunks, body.size);
}

/** Bytes [start, end) of the body, copied only when they span chunks. */
export function slicer(body: Body): (start: number, end: number) => Buffer {
  // Elements are asked for in order: a cursor over the chunks makes each lookup O(1) on average.
  let index = 0;
  let base = 0;
  return (start, end) => {
    while (index > 0 && start < base) base -= (body.chunks[--index] as Buffer).length;
    while (index < body.chunks.length - 1 && start >= base + (body.chunks[index] as Buffer).length) {
      base += (body.chunks[index++] as Buffer).length;
    }
    const first = body.chunks[index] as Buffer;
    if (end <= base + first.length) return first.subarray(start - base, end - base);
    const pieces: Buffer[] = [];
    let at = start;
    let i = index;
    let b = base;
    while (at < end) {
      const c = body.chunks[i] as Buffer;
      const to = Math.min(end, b + c.length);
      pieces.push(c.subarray(at - b, to - b));
      at = to;
      b += c.length;
      i++;
    }
    return Buffer.concat(pieces, end - start);
  };
}
