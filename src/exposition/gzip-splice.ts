// One gzip stream made of deflate segments compressed once per refresh (each collector's cached part) and a small
// segment compressed per scrape. A gzip member per part would be simpler, but curl and some browsers stop after
// the first member.

import { promisify } from 'node:util';
import { constants, crc32, deflateRaw, deflateRawSync } from 'node:zlib';

const deflateRawAsync = promisify(deflateRaw);

/** A deflate segment that ends on a byte boundary without the final-block bit, so more can follow it. */
export interface DeflateSegment {
  readonly deflated: Buffer;
  readonly crc: number;
  readonly length: number;
}

// Speed over ratio: level 1 deflates 45 MB of station text (100,000 stations) about 4x faster than level 6 for
// a body about 8% larger.
const LEVEL = 1;

export async function deflateSegment(data: Buffer): Promise<DeflateSegment> {
  const deflated = await deflateRawAsync(data, { level: LEVEL, finishFlush: constants.Z_SYNC_FLUSH });
  return { deflated, crc: crc32(data), length: data.length };
}

const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/** A complete gzip body: the cached segments in order, then `tail` compressed now as the final block. */
export function gzipSplice(heads: readonly DeflateSegment[], tail: Buffer): Buffer[] {
  const last = deflateRawSync(tail, { level: LEVEL });
  let crc = 0;
  let length = 0;
  for (const h of heads) {
    crc = crc32Combine(crc, h.crc, h.length);
    length += h.length;
  }
  const trailer = Buffer.alloc(8);
  // Node 20's crc32 answers 0, not the running value, for an empty buffer: an empty tail adds nothing to it.
  trailer.writeUInt32LE(tail.length === 0 ? crc : crc32(tail, crc), 0);
  trailer.writeUInt32LE((length + tail.length) >>> 0, 4);
  return [HEADER, ...heads.map((h) => h.deflated), last, trailer];
}

// CRC-32 of A then B from crc(A), crc(B) and B's length, as zlib's crc32_combine does (Node exposes no binding):
// appending len2 zero bytes is a linear map over GF(2), applied by repeated squaring of its 32x32 matrix.
function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  if (lengthB <= 0) return crcA >>> 0;
  let even = new Uint32Array(32);
  let odd = new Uint32Array(32);
  odd[0] = 0xedb88320; // The reflected CRC-32 polynomial: the operator for one zero bit.
  for (let n = 1, row = 1; n < 32; n++, row <<= 1) odd[n] = row;
  square(even, odd); // two zero bits
  square(odd, even); // four zero bits
  let crc = crcA >>> 0;
  let len = lengthB;
  while (len > 0) {
    // Each pass squares the operator: one zero byte, then 2, 4, 8... applied where len has a 1 bit.
    square(even, odd);
    if (len % 2 === 1) crc = times(even, crc);
    len = Math.floor(len / 2);
    [even, odd] = [odd, even];
  }
  return (crc ^ crcB) >>> 0;
}

function times(matrix: Uint32Array, vector: number): number {
  let sum = 0;
  for (let i = 0, v = vector >>> 0; v !== 0; i++, v >>>= 1) if (v & 1) sum ^= matrix[i] as number;
  return sum >>> 0;
}

function square(out: Uint32Array, matrix: Uint32Array): void {
  for (let n = 0; n < 32; n++) out[n] = times(matrix, matrix[n] as number);
}
