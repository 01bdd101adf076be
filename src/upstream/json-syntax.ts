// Whether a body is JSON, decided without building any of it: the check a scan falls back on once a cap is passed,
// so that a large body that is not JSON fails as invalid_json exactly where JSON.parse would fail a small one. It
// keeps a state, a literal's progress and a stack of open containers, one byte each: no allocation per value, and
// the stack grows only with nesting, which the body's size bounds.

export type SyntaxResult = { readonly kind: 'json' } | { readonly kind: 'syntax'; readonly at: number };

export interface SyntaxCheck {
  /** Checks about `bytes` more bytes; the result once the body is done or broken, else undefined. */
  readonly step: (bytes: number) => SyntaxResult | undefined;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;

const IN_ARRAY = 0;
const IN_OBJECT = 1;

// What the next byte may be.
const VALUE = 0; // A value (after `:`, `,` in an array, or at the start).
const VALUE_OR_CLOSE = 1; // After `[`.
const KEY = 2; // After `,` in an object.
const KEY_OR_CLOSE = 3; // After `{`.
const COLON_NEXT = 4; // After a key.
const AFTER_VALUE = 5; // `,` or the container's close; at the top level, white space only.
const STRING = 6;
const ESCAPE = 7; // After a backslash in a string.
const UNICODE = 8; // Within `\uXXXX`.
const LITERAL = 9; // Within true, false or null.
const NUMBER_MINUS = 10; // After `-`: a digit must follow.
const NUMBER_ZERO = 11; // After a leading 0: no more digits.
const NUMBER_INT = 12;
const NUMBER_DOT = 13; // After `.`: a digit must follow.
const NUMBER_FRACTION = 14;
const NUMBER_E = 15; // After `e`: a sign or digit.
const NUMBER_E_SIGN = 16; // After the exponent's sign: a digit.
const NUMBER_EXPONENT = 17;

const LITERALS = new Map([...['true', 'false', 'null']].map((w) => [w.charCodeAt(0), Buffer.from(w)]));
const ESCAPES = new Set([...'"\\/bfnrtu'].map((c) => c.charCodeAt(0)));

const isSpace = (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
const isDigit = (b: number): boolean => b >= ZERO && b <= NINE;
const isHex = (b: number): boolean => isDigit(b) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);

/** The body opens with a UTF-8 byte-order mark, however its first bytes are cut into chunks. */
export function startsWithBom(chunks: readonly Buffer[]): boolean {
  const head = Buffer.concat(chunks.slice(0, 3)).subarray(0, 3);
  return head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;
}

/** A check over the body's chunks, in order; a UTF-8 byte-order mark may open the body, as JSON.parse is given it. */
export function createSyntaxCheck(chunks: readonly Buffer[]): SyntaxCheck {
  let chunk = 0;
  let offset = 0;
  let base = 0;
  let state = VALUE;
  let key = false; // The open string is an object's key.
  let literal: Buffer = Buffer.alloc(0);
  let matched = 0; // Bytes of the literal, or hex digits of `\u`, seen so far.
  let stack = new Uint8Array(64);
  const bom = startsWithBom(chunks) ? 3 : 0;
  let depth = 0;

  const push = (kind: number): void => {
    if (depth === stack.length) {
      const grown = new Uint8Array(stack.length * 2);
      grown.set(stack);
      stack = grown;
    }
    stack[depth++] = kind;
  };

  /** The byte closes the innermost container if it is of that kind. */
  const close = (b: number): boolean => {
    if (depth === 0) return false;
    const kind = b === CLOSE_ARRAY ? IN_ARRAY : IN_OBJECT;
    if (stack[depth - 1] !== kind) return false;
    depth--;
    state = AFTER_VALUE;
    return true;
  };

  /** The start of a value; false when no value starts with this byte. */
  const startValue = (b: number): boolean => {
    if (b === QUOTE) {
      state = STRING;
      key = false;
    } else if (b === OPEN_ARRAY) {
      push(IN_ARRAY);
      state = VALUE_OR_CLOSE;
    } else if (b === OPEN_OBJECT) {
      push(IN_OBJECT);
      state = KEY_OR_CLOSE;
    } else if (b === MINUS) state = NUMBER_MINUS;
    else if (b === ZERO) state = NUMBER_ZERO;
    else if (isDigit(b)) state = NUMBER_INT;
    else {
      const word = LITERALS.get(b);
      if (word === undefined) return false;
      literal = word;
      matched = 1;
      state = LITERAL;
    }
    return true;
  };

  /** One byte in any state but a string's plain run; false on a syntax error. */
  const byte = (b: number): boolean => {
    switch (state) {
      case VALUE:
        return isSpace(b) || startValue(b);
      case VALUE_OR_CLOSE:
        return isSpace(b) || (b === CLOSE_ARRAY ? close(b) : startValue(b));
      case KEY:
      case KEY_OR_CLOSE:
        if (isSpace(b)) return true;
        if (b === CLOSE_OBJECT && state === KEY_OR_CLOSE) return close(b);
        if (b !== QUOTE) return false;
        state = STRING;
        key = true;
        return true;
      case COLON_NEXT:
        if (isSpace(b)) return true;
        if (b !== COLON) return false;
        state = VALUE;
        return true;
      case AFTER_VALUE:
        if (isSpace(b)) return true;
        if (depth === 0) return false;
        if (b === COMMA) {
          state = stack[depth - 1] === IN_ARRAY ? VALUE : KEY;
          return true;
        }
        return (b === CLOSE_ARRAY || b === CLOSE_OBJECT) && close(b);
      case ESCAPE:
        if (!ESCAPES.has(b)) return false;
        state = b === 0x75 ? UNICODE : STRING;
        matched = 0;
        return true;
      case UNICODE:
        if (!isHex(b)) return false;
        if (++matched === 4) state = STRING;
        return true;
      case LITERAL:
        if (b !== literal[matched]) return false;
        if (++matched === literal.length) state = AFTER_VALUE;
        return true;
      default:
        return number(b);
    }
  };

  /** A byte within a number; the byte after its end is handed back to byte() as the one after a value. */
  const number = (b: number): boolean => {
    const digit = isDigit(b);
    switch (state) {
      case NUMBER_MINUS:
        if (!digit) return false;
        state = b === ZERO ? NUMBER_ZERO : NUMBER_INT;
        return true;
      case NUMBER_DOT:
        if (!digit) return false;
        state = NUMBER_FRACTION;
        return true;
      case NUMBER_E:
        if (!digit && b !== PLUS && b !== MINUS) return false;
        state = digit ? NUMBER_EXPONENT : NUMBER_E_SIGN;
        return true;
      case NUMBER_E_SIGN:
        if (!digit) return false;
        state = NUMBER_EXPONENT;
        return true;
    }
    if (digit && state !== NUMBER_ZERO) return true;
    if (b === DOT && (state === NUMBER_ZERO || state === NUMBER_INT)) state = NUMBER_DOT;
    else if ((b === 0x65 || b === 0x45) && state !== NUMBER_EXPONENT) state = NUMBER_E;
    else {
      state = AFTER_VALUE;
      return byte(b);
    }
    return true;
  };

  /** Checks buf[from, stop); the offset reached, or -(offset + 1) of a syntax error. */
  const run = (buf: Buffer, from: number, stop: number): number => {
    for (let i = from; i < stop; i++) {
      if (state === STRING) {
        // Most of a body is strings: a tight loop to the next quote, backslash or raw control character.
        let b = buf[i] as number;
        while (b !== QUOTE && b !== BACKSLASH && b >= 0x20 && ++i < stop) b = buf[i] as number;
        if (i === stop) return stop;
        if (b === QUOTE) state = key ? COLON_NEXT : AFTER_VALUE;
        else if (b === BACKSLASH) state = ESCAPE;
        else return -(i + 1);
      } else if (
        state === NUMBER_INT ||
        state === NUMBER_ZERO ||
        state === NUMBER_FRACTION ||
        state === NUMBER_EXPONENT
      ) {
        // Digits, the bulk of a list of numbers, in a tight loop too, and the comma after them at once.
        let b = buf[i] as number;
        if (state !== NUMBER_ZERO) while (b >= ZERO && b <= NINE && ++i < stop) b = buf[i] as number;
        if (i === stop) return stop;
        if (b === COMMA && depth > 0) state = stack[depth - 1] === IN_ARRAY ? VALUE : KEY;
        else if (!number(b)) return -(i + 1);
      } else if (state === VALUE && buf[i] === ZERO) state = NUMBER_ZERO;
      else if (!byte(buf[i] as number)) return -(i + 1);
    }
    return stop;
  };

  const finish = (): SyntaxResult => {
    const number = state === NUMBER_ZERO || state === NUMBER_INT || state === NUMBER_FRACTION;
    const done = depth === 0 && (state === AFTER_VALUE || number || state === NUMBER_EXPONENT);
    return done ? { kind: 'json' } : { kind: 'syntax', at: base };
  };

  return {
    step: (bytes) => {
      const limit = base + offset + bytes;
      while (chunk < chunks.length) {
        const buf = chunks[chunk] as Buffer;
        if (bom > 0 && base + offset < bom) offset = Math.min(buf.length, bom - base);
        const stop = Math.min(buf.length, limit - base);
        const at = run(buf, offset, stop);
        if (at < 0) return { kind: 'syntax', at: base - at - 1 };
        offset = at;
        if (offset < buf.length) return undefined;
        base += buf.length;
        chunk++;
        offset = 0;
      }
      return finish();
    },
  };
}
