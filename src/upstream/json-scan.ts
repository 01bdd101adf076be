// The shape of a JSON body found without building it: how many values it holds and, when it is an array, where
// each element starts and ends. JSON.parse of a whole body builds every value at once (a 3 MB list of `{}` is a
// million objects) and cannot be paused; this pass costs no allocation per value, stops as soon as a limit is
// passed, and runs in steps so that the event loop gets turns in between.

import { createSyntaxCheck, type SyntaxCheck, startsWithBom } from './json-syntax.js';

export interface ScanLimits {
  /** Elements of a top-level array, at most. */
  readonly maxElements: number;
  /** Containers and separators (`{`, `[`, `,`, `:`), at most: a bound on the values JSON.parse would build. */
  readonly maxValues: number;
}

export type ScanResult =
  /** A top-level array; `bounds` holds each element's start and end offset, in pairs. */
  | { readonly kind: 'array'; readonly bounds: readonly number[] }
  /** Any other JSON value (object, string, number...), for a whole parse. */
  | { readonly kind: 'other' }
  | { readonly kind: 'too_many_elements' | 'too_many_values' }
  /** Not JSON: `at` is the byte offset where that became certain. */
  | { readonly kind: 'syntax'; readonly at: number };

export interface Scanner {
  /** Scans about `bytes` more bytes; the result once the body is done (or a limit is passed), else undefined. */
  readonly step: (bytes: number) => ScanResult | undefined;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const COMMA = 0x2c;
const COLON = 0x3a;

/** The next position of a byte, or the buffer's length when there is none. */
const indexOr = (buf: Buffer, byte: number, from: number): number => {
  const at = buf.indexOf(byte, from);
  return at === -1 ? buf.length : at;
};

/** The bytes a JSON value can start with. */
const VALUE_START = new Set([...'[{"-0123456789tfn'].map((c) => c.charCodeAt(0)));

const STRUCTURAL = new Set([OPEN_ARRAY, CLOSE_ARRAY, OPEN_OBJECT, CLOSE_OBJECT, COMMA, COLON]);

const isSpace = (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/** Where the array's elements stand: `between` after `[` or `,`, `inside` within one, `done` after `]`. */
type ArrayState = 'between' | 'inside' | 'done';

/**
 * A scanner over the body's chunks, in order. It checks the top level only (an array's brackets and commas);
 * each element is checked by JSON.parse when it is read, so the whole is valid exactly when every part is.
 */
export function createScanner(chunks: readonly Buffer[], limits: ScanLimits): Scanner {
  let chunk = 0;
  let offset = 0; // Within chunks[chunk].
  let base = 0; // Offset of chunks[chunk] in the body.
  let inString = false;
  let escaped = false; // The previous byte in a string was an unescaped backslash.
  let depth = 0;
  let top: 'array' | 'other' | undefined;
  let array: ArrayState = 'between';
  let afterComma = false;
  let closed = false; // The top-level container has closed: only white space may follow.
  let elementStart = -1;
  let values = 0;
  const bounds: number[] = [];
  let over: 'too_many_elements' | 'too_many_values' | undefined;
  let check: SyntaxCheck | undefined;

  // Strings are most of a body: jump to the next quote or backslash instead of looking at every byte. Both
  // positions are kept until passed, so a long string of escapes costs one search per escape, not one per byte.
  let nextQuote = -1;
  let nextSlash = -1;
  let searched = -1; // The chunk the two positions belong to.
  const skipString = (buf: Buffer, from: number): number => {
    let i = from;
    if (escaped) {
      escaped = false;
      i++;
    }
    if (searched !== chunk) {
      searched = chunk;
      nextQuote = -1;
      nextSlash = -1;
    }
    while (i < buf.length) {
      if (nextQuote !== buf.length && nextQuote < i) nextQuote = indexOr(buf, QUOTE, i);
      if (nextSlash !== buf.length && nextSlash < i) nextSlash = indexOr(buf, BACKSLASH, i);
      if (nextSlash < nextQuote) {
        if (nextSlash + 1 >= buf.length) {
          escaped = true;
          return buf.length;
        }
        i = nextSlash + 2;
        continue;
      }
      if (nextQuote === buf.length) return buf.length;
      inString = false;
      return nextQuote + 1;
    }
    return i;
  };

  /**
   * Bytes inside a container below the top level, where all a byte can do is open or close a container, count a
   * separator or start a string: the bulk of a list, in one tight loop instead of structural() per byte. It hands
   * back (the offset reached) at `stop`, after the close that leaves depth 2, and at a separator or opening that
   * would pass maxValues, which structural() then takes: the counts and verdicts are those of the byte-wise path.
   */
  const inside = (buf: Buffer, from: number, stop: number): number => {
    let i = from;
    let d = depth;
    let v = values;
    const max = limits.maxValues;
    while (i < stop) {
      const b = buf[i] as number;
      if (b === QUOTE) {
        // A string: to its closing quote, an escape skipping the byte after it. Most are keys of a few bytes,
        // where a native search per string costs more than this loop.
        let j = i + 1;
        for (;;) {
          if (j >= buf.length) {
            inString = true;
            escaped = j > buf.length;
            depth = d;
            values = v;
            return buf.length;
          }
          const c = buf[j] as number;
          if (c === QUOTE) break;
          j += c === BACKSLASH ? 2 : 1;
        }
        i = j + 1;
        continue;
      }
      if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
        if (v >= max) break;
        d++;
        v++;
      } else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
        d--;
        if (d < 2) {
          i++;
          break;
        }
      } else if (b === COMMA || b === COLON) {
        if (v >= max) break;
        v++;
      }
      i++;
    }
    depth = d;
    values = v;
    return i;
  };

  const endElement = (at: number): void => {
    if (over === undefined) bounds.push(elementStart, at);
    elementStart = -1;
  };

  /** One byte outside strings; a result when the scan is over. */
  const structural = (b: number, at: number): ScanResult | undefined => {
    if (isSpace(b)) return undefined;
    if (top === undefined) {
      if (!VALUE_START.has(b)) return { kind: 'syntax', at };
      top = b === OPEN_ARRAY ? 'array' : 'other';
      if (top === 'array') {
        depth = 1;
        values++;
        return undefined;
      }
    } else if (top === 'array' && depth === 1) {
      if (b === COMMA) {
        if (array !== 'inside') return { kind: 'syntax', at };
        endElement(at);
        array = 'between';
        afterComma = true;
        values++;
        return undefined;
      }
      if (b === CLOSE_ARRAY) {
        if (array === 'inside') endElement(at);
        else if (afterComma) return { kind: 'syntax', at };
        array = 'done';
        depth = 0;
        closed = true;
        return undefined;
      }
      if (b === CLOSE_OBJECT) return { kind: 'syntax', at };
      if (array === 'between') {
        if (over === undefined && bounds.length / 2 >= limits.maxElements) over = 'too_many_elements';
        elementStart = at;
        array = 'inside';
        afterComma = false;
      }
    } else if (depth === 0 && (closed || STRUCTURAL.has(b))) {
      // Something after the closing bracket or brace, or a container's byte after a top-level scalar.
      return { kind: 'syntax', at };
    }
    if (b === QUOTE) inString = true;
    else if (b === OPEN_ARRAY || b === OPEN_OBJECT) {
      depth++;
      values++;
    } else if (b === CLOSE_ARRAY || b === CLOSE_OBJECT) {
      if (depth === 0) return { kind: 'syntax', at };
      depth--;
      if (depth === 0) closed = true;
    } else if (b === COMMA || b === COLON) values++;
    if (over === undefined && values > limits.maxValues) over = 'too_many_values';
    return undefined;
  };

  let started = false;
  const skip = (n: number): void => {
    let left = n;
    while (left > 0 && chunk < chunks.length) {
      const length = (chunks[chunk] as Buffer).length;
      const take = Math.min(left, length - offset);
      offset += take;
      left -= take;
      if (offset === length) {
        base += length;
        chunk++;
        offset = 0;
      }
    }
  };

  const finish = (): ScanResult => {
    const end = base;
    if (top === undefined || inString || depth > 0) return { kind: 'syntax', at: end };
    if (top === 'array' && array !== 'done') return { kind: 'syntax', at: end };
    if (over) return { kind: over };
    return top === 'array' ? { kind: 'array', bounds } : { kind: 'other' };
  };

  const checkSyntax = (syntax: SyntaxCheck, bytes: number): ScanResult | undefined => {
    const checked = syntax.step(bytes);
    return checked && (checked.kind === 'syntax' ? checked : { kind: over ?? 'too_many_values' });
  };

  return {
    step: (bytes) => {
      if (check) return checkSyntax(check, bytes);
      // A UTF-8 byte-order mark may open the body, its three bytes cut into chunks however the network cut them.
      if (!started) {
        started = true;
        if (startsWithBom(chunks)) skip(3);
      }
      const limit = base + offset + bytes;
      while (chunk < chunks.length) {
        const buf = chunks[chunk] as Buffer;
        const stop = Math.min(buf.length, limit - base);
        while (offset < stop) {
          if (inString) {
            offset = skipString(buf, offset);
            continue;
          }
          if (depth >= 2 && over === undefined) {
            offset = inside(buf, offset, stop);
            if (offset >= stop) continue;
          }
          const result = structural(buf[offset] as number, base + offset);
          if (result) return result;
          offset++;
          // A limit passed: the body is checked from its start for its syntax only (nothing more is counted or
          // kept), so that a body that is not JSON fails as such whatever its size, as a small one does.
          if (over) {
            check = createSyntaxCheck(chunks);
            return checkSyntax(check, limit - base - offset);
          }
        }
        if (offset < buf.length) return undefined;
        base += buf.length;
        chunk++;
        offset = 0;
      }
      return finish();
    },
  };
}
