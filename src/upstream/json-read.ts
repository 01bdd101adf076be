// A read body into typed data, in one of two ways. A whole parse (JSON.parse, then the slice's validation) for
// answers whose size in values is bounded first. Element by element for a large top-level array: each element is
// parsed and validated on its own and then dropped, so memory holds the body and what was kept from it, never the
// whole tree, and the work pauses between slices. Both take the API key out of the text before parsing it.
import type { Secret } from '../config/secret.js';
import { type Body, joined, slicer } from './body.js';
import { type Failure, failure, type Result } from './failure.js';
import { createScanner, type ScanLimits, type ScanResult } from './json-scan.js';
import { startsWithBom } from './json-syntax.js';
import type { Pace } from './pace.js';
import { withoutKey } from './upstream-text.js';

/** What a slice makes of a decoded body: typed data, or a failure saying why the answer is unusable. */
export type Validate<T> = (json: unknown) => Result<T>;

/** How a slice reads a top-level JSON array one element at a time. */
export interface ElementsReader<T> {
  /** More elements fail the answer before any is parsed. */
  readonly maxElements: number;
  /** The setting behind maxElements, for the failure's message. */
  readonly maxElementsSetting: string;
  /**
   * JSON values per element on average, at most (containers and separators counted): bounds the work of parsing
   * the list, which a few huge elements could otherwise make as long as a million small ones.
   */
  readonly maxValuesPerElement: number;
  /** A larger element is not parsed: the sink hears of it through oversize(). */
  readonly maxElementBytes: number;
  /** A fresh accumulator for each answer. */
  readonly start: () => ElementSink<T>;
  /** The answer parsed whole: what the exchange uses when the body is JSON but not an array (and fakes may use). */
  readonly whole: Validate<T>;
}

export interface ElementSink<T> {
  readonly add: (element: unknown, index: number) => void;
  readonly oversize: (index: number, bytes: number) => void;
  readonly finish: (count: number) => Result<T>;
}

export interface ReadContext {
  readonly pace: Pace;
  readonly secret: Secret | undefined;
  readonly contentType: string;
  /** The failure when the deadline passes during the work. */
  readonly timedOut: () => Failure;
}

/** Bytes scanned between two looks at the clock. */
const SCAN_STEP_BYTES = 256 * 1024;

export async function parseWhole<T>(
  body: Body,
  validate: Validate<T>,
  maxValues: number,
  ctx: ReadContext,
): Promise<Result<T>> {
  const scan = await scanAll(body, { maxElements: Number.POSITIVE_INFINITY, maxValues }, ctx);
  if ('ok' in scan) return scan;
  // The scan reports a syntax error before a cap it passed, as JSON.parse of a small body would fail on it.
  if (scan.kind === 'syntax' || scan.kind === 'too_many_elements') return notJson(body, ctx.contentType);
  if (scan.kind === 'too_many_values') {
    // Answers parsed whole are objects: one of another type is refused for that, in the words a small one gets.
    const empty = emptyLike(body);
    const wrongType = typeof empty !== 'object' || empty === null || Array.isArray(empty);
    const probe = wrongType ? validate(empty) : undefined;
    return probe && !probe.ok ? probe : tooManyValues(maxValues);
  }
  // A turn for the event loop between answers, so that several answers never validate back to back.
  if (!(await ctx.pace.pause())) return ctx.timedOut();
  const text = withoutKey(joined(body).toString('utf8'), ctx.secret);
  let json: unknown;
  try {
    json = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return notJson(body, ctx.contentType);
  }
  return validate(json);
}

export async function parseElements<T>(
  body: Body,
  reader: ElementsReader<T>,
  maxValues: number,
  ctx: ReadContext,
): Promise<Result<T>> {
  const limits = {
    maxElements: reader.maxElements,
    maxValues: reader.maxElements * reader.maxValuesPerElement,
  };
  const scan = await scanAll(body, limits, ctx);
  if ('ok' in scan) return scan;
  // Before any cap: a body that is not JSON fails as invalid_json at every size (a cut-off list is not a long one).
  if (scan.kind === 'syntax') return notJson(body, ctx.contentType);
  if (scan.kind === 'too_many_elements') {
    return failure(
      'invalid_payload',
      `the array holds more than ${reader.maxElements} elements (${reader.maxElementsSetting})`,
    );
  }
  if (scan.kind === 'too_many_values') {
    return failure(
      'invalid_payload',
      `the array holds more than ${limits.maxValues} JSON values (${reader.maxValuesPerElement} per element of ${reader.maxElementsSetting})`,
    );
  }
  if (scan.kind !== 'array') {
    const whole = await parseWhole(body, reader.whole, maxValues, ctx);
    // Too large to parse whole, it is still not an array: refused for that, in the words a small one gets.
    if (!whole.ok && whole.message === tooManyValues(maxValues).message) return reader.whole(emptyLike(body));
    return whole;
  }
  const { bounds } = scan;
  const slice = slicer(body);
  const sink = reader.start();
  const count = bounds.length / 2;
  for (let i = 0; i < count; i++) {
    if (ctx.pace.due() && !(await ctx.pace.pause())) return ctx.timedOut();
    const start = bounds[2 * i] as number;
    const end = bounds[2 * i + 1] as number;
    if (end - start > reader.maxElementBytes) {
      sink.oversize(i, end - start);
      continue;
    }
    let element: unknown;
    try {
      element = JSON.parse(withoutKey(slice(start, end).toString('utf8'), ctx.secret));
    } catch {
      // The words of a small list's whole parse: the same fault reads the same at any size.
      return notJson(body, ctx.contentType);
    }
    sink.add(element, i);
  }
  return sink.finish(count);
}

async function scanAll(body: Body, limits: ScanLimits, ctx: ReadContext): Promise<ScanResult | Failure> {
  const scanner = createScanner(body.chunks, limits);
  for (;;) {
    const result = scanner.step(SCAN_STEP_BYTES);
    if (result) return result;
    if (ctx.pace.due() && !(await ctx.pace.pause())) return ctx.timedOut();
  }
}

function tooManyValues(maxValues: number): Failure {
  return failure('invalid_payload', `answer holds more than ${maxValues} JSON values`);
}

/** An empty value of the body's top-level type (a scan found it is JSON, not an array). */
function emptyLike(body: Body): unknown {
  const first = String.fromCharCode(firstValueByte(body.chunks));
  if (first === '{') return {};
  if (first === '[') return [];
  if (first === '"') return '';
  if (first === 't' || first === 'f') return true;
  if (first === 'n') return null;
  return 0;
}

function notJson(body: Body, contentType: string): Failure {
  const head = body.chunks[0]?.subarray(0, 256).toString('utf8') ?? '';
  const looksHtml = /html/i.test(contentType) || /^\s*</.test(head);
  const what = looksHtml ? 'an HTML page' : 'a body that is not JSON';
  return failure('invalid_json', `expected JSON, got ${what} (content-type "${contentType}")`);
}

/** The first byte of the value, past a byte-order mark and white space, however the chunks cut them. */
function firstValueByte(chunks: readonly Buffer[]): number {
  let skip = startsWithBom(chunks) ? 3 : 0;
  for (const buf of chunks) {
    for (let i = Math.min(skip, buf.length); i < buf.length; i++) {
      const b = buf[i] as number;
      if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) return b;
    }
    skip = Math.max(0, skip - buf.length);
  }
  return 0x7b;
}
