// An answer's body, read and decompressed under a cap, as the list of chunks it arrived in. Decompressing as the
// bytes arrive keeps only the decompressed body in memory (not the compressed one too), and keeping the chunks
// instead of joining them saves a second copy: at the cap, that is one body's worth of memory instead of three.
// A small compressed body is decompressed in one synchronous call once it is whole instead: a stream of zlib
// through the thread pool cost about ten times the CPU of the decompression itself for a readings answer.
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  brotliDecompressSync,
  createBrotliDecompress,
  createGunzip,
  createInflate,
  gunzipSync,
  inflateSync,
} from 'node:zlib';
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

type WholeDecoder = (
  compressed: Buffer,
  options: { readonly maxOutputLength: number; readonly info: true },
) => unknown;

/** What node's zlib answers a call with `info: true`: the output, and how much of the input its engine took. */
interface Decoded {
  readonly buffer: Buffer;
  readonly engine: { readonly bytesWritten: number };
}

const WHOLE_DECODERS: Readonly<Record<string, WholeDecoder>> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/**
 * A compressed body up to this size is held until it is whole and decompressed in one call, into at most
 * WHOLE_DECODED_BYTES: about a millisecond of the event loop for gzip, about 10 ms for a brotli bomb (one slice of
 * paced work). Past either, the body goes through the streams, which decompress in the thread pool as it arrives.
 */
export const WHOLE_COMPRESSED_BYTES = 64 * 1024;
export const WHOLE_DECODED_BYTES = 1024 * 1024;

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
    if (!decoder) await collect(stream as AsyncIterable<Buffer>);
    else {
      const small = await readSmall(stream as AsyncIterable<Buffer>, Math.min(max, WHOLE_COMPRESSED_BYTES));
      const whole = small.rest === undefined ? decodeWhole(small.held, encoding, max) : undefined;
      if (whole === 'too_large') return { problem: 'too_large', size: max + 1 };
      if (whole !== undefined) return { chunks: whole.length > 0 ? [whole] : [], size: whole.length };
      // Larger than a whole decode takes: the bytes held so far, then the rest as it comes, through the streams.
      await pipeline(Readable.from(chain(small.held, small.rest)), capped(max, over), decoder(), collect);
    }
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

interface Small {
  readonly held: readonly Buffer[];
  /** The stream's iterator when the body grew past the size asked for; undefined when it ended within it. */
  readonly rest: AsyncIterator<Buffer> | undefined;
}

/** Reads the body until it ends or passes `upTo` bytes, whichever comes first. */
async function readSmall(stream: AsyncIterable<Buffer>, upTo: number): Promise<Small> {
  // The iterator by hand: a for-await left early would destroy the stream the rest is still to come from.
  const iterator = stream[Symbol.asyncIterator]();
  const held: Buffer[] = [];
  let size = 0;
  for (;;) {
    const next = await iterator.next();
    if (next.done) return { held, rest: undefined };
    held.push(next.value);
    size += next.value.length;
    if (size > upTo) return { held, rest: iterator };
  }
}

async function* chain(
  held: readonly Buffer[],
  rest: AsyncIterator<Buffer> | undefined,
): AsyncGenerator<Buffer> {
  yield* held;
  for (;;) {
    const next = await rest?.next();
    if (next === undefined || next.done) return;
    yield next.value;
  }
}

/**
 * The whole compressed body decompressed in one call; 'too_large' past `max`; undefined when it decompresses to
 * more than a whole decode may take but `max` allows (the streams read it then). A body that does not decode
 * throws zlib's error, as the stream would.
 */
function decodeWhole(
  held: readonly Buffer[],
  encoding: string,
  max: number,
): Buffer | 'too_large' | undefined {
  const decode = WHOLE_DECODERS[encoding] as WholeDecoder;
  const compressed = held.length === 1 ? (held[0] as Buffer) : Buffer.concat(held);
  let decoded: Decoded;
  try {
    // @types/node types the call as returning the Buffer alone; with `info` node returns both.
    decoded = decode(compressed, {
      maxOutputLength: Math.min(max, WHOLE_DECODED_BYTES),
      info: true,
    }) as Decoded;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_BUFFER_TOO_LARGE') throw error;
    return max <= WHOLE_DECODED_BYTES ? 'too_large' : undefined;
  }
  // A deflate or brotli stream ends where it says it ends, and zlib leaves what follows unread: bytes after it
  // are a body that does not decode, as gzip's own check calls them.
  if (decoded.engine.bytesWritten < compressed.length)
    throw Object.assign(new Error('bytes after the end of the compressed stream'), { code: 'Z_DATA_ERROR' });
  return decoded.buffer;
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
