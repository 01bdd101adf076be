// The Prometheus remote-write 1.0 message (prometheus/prompb WriteRequest: series of sorted labels and samples),
// written field by field into one buffer of the size counted first, and compressed with Snappy's block format, as
// every receiver of that version expects. By hand rather than through protobufjs, whose writer makes several
// objects per sample (an op per field, a state per nested message, a LongBits per int64), all alive until a
// request of thousands of samples is finished: the record's rounds, which send such requests while answers are
// parsed, are where that garbage counted (docs/benchmarks.md, record). protobufjs still decodes, for the tests:
// a reader independent of the writer it checks.
import protobuf from 'protobufjs';
import { compress } from 'snappyjs';

const PROTO = `
syntax = "proto3";
message Label { string name = 1; string value = 2; }
message Sample { double value = 1; int64 timestamp = 2; }
message TimeSeries { repeated Label labels = 1; repeated Sample samples = 2; }
message WriteRequest { repeated TimeSeries timeseries = 1; }
`;

const WriteRequest = protobuf.parse(PROTO).root.lookupType('WriteRequest');

type WireLabel = { readonly name: string; readonly value: string };

export interface WireSeries {
  /** Sorted by name, __name__ included. */
  readonly labels: readonly WireLabel[];
  /** Timestamps in milliseconds, increasing. */
  readonly samples: readonly { readonly value: number; readonly timestamp: number }[];
}

/** A series with its samples as two columns of equal length: no object per sample. */
export interface WireColumns {
  readonly labels: readonly WireLabel[];
  readonly values: readonly number[];
  /** Milliseconds, integers, increasing. */
  readonly timestamps: readonly number[];
}

/** The body of one remote-write request: Snappy-compressed protobuf. */
export function encodeWriteRequest(series: readonly WireSeries[]): Uint8Array {
  return encodeColumns(
    series.map((s) => ({
      labels: s.labels,
      values: s.samples.map((x) => x.value),
      timestamps: s.samples.map((x) => x.timestamp),
    })),
  );
}

/** The same body from series held as columns (the remote-write sink's batches). */
export function encodeColumns(series: readonly WireColumns[]): Uint8Array {
  const sizes = series.map(seriesSize);
  let total = 0;
  for (const size of sizes) total += 1 + varintSize(size) + size;
  const out: Cursor = { buffer: Buffer.alloc(total), at: 0 };
  series.forEach((s, i) => {
    tag(out, 1, LENGTH_DELIMITED);
    varint(out, sizes[i] as number);
    for (const label of s.labels) {
      tag(out, 1, LENGTH_DELIMITED);
      varint(out, labelSize(label));
      text(out, 1, label.name);
      text(out, 2, label.value);
    }
    for (let k = 0; k < s.values.length; k++) {
      const timestamp = s.timestamps[k] as number;
      tag(out, 2, LENGTH_DELIMITED);
      varint(out, sampleSize(timestamp));
      tag(out, 1, FIXED64);
      out.at = out.buffer.writeDoubleLE(s.values[k] as number, out.at);
      tag(out, 2, VARINT);
      int64(out, timestamp);
    }
  });
  // A size counted wrong would send a message the receiver cannot read: better no request at all.
  if (out.at !== total) throw new Error('remote write: the message is not the size computed');
  return compress(out.buffer);
}

const VARINT = 0;
const FIXED64 = 1;
const LENGTH_DELIMITED = 2;

/** Bytes of a varint holding a non-negative safe integer. */
function varintSize(n: number): number {
  let size = 1;
  for (let v = n; v >= 128; v = Math.floor(v / 128)) size++;
  return size;
}

/** An int64 varint: a negative number takes ten bytes, as two's complement. */
const int64Size = (n: number): number => (n < 0 ? 10 : varintSize(Math.trunc(n)));

function textSize(value: string): number {
  const bytes = Buffer.byteLength(value, 'utf8');
  return 1 + varintSize(bytes) + bytes;
}

const labelSize = (label: WireLabel): number => textSize(label.name) + textSize(label.value);

/** A sample: the value's tag and 8 bytes, the timestamp's tag and varint. */
const sampleSize = (timestamp: number): number => 1 + 8 + 1 + int64Size(timestamp);

function seriesSize(s: WireColumns): number {
  let size = 0;
  for (const label of s.labels) {
    const inner = labelSize(label);
    size += 1 + varintSize(inner) + inner;
  }
  for (const timestamp of s.timestamps) {
    const inner = sampleSize(timestamp);
    size += 1 + varintSize(inner) + inner;
  }
  return size;
}

/** A buffer of the message's exact size, and where the next byte goes. */
interface Cursor {
  readonly buffer: Buffer;
  at: number;
}

function tag(out: Cursor, field: number, wireType: number): void {
  out.buffer[out.at++] = (field << 3) | wireType;
}

function varint(out: Cursor, n: number): void {
  let v = n;
  while (v >= 128) {
    out.buffer[out.at++] = (v % 128) | 128;
    v = Math.floor(v / 128);
  }
  out.buffer[out.at++] = v;
}

function int64(out: Cursor, n: number): void {
  if (n >= 0) {
    varint(out, Math.trunc(n));
    return;
  }
  let v = BigInt.asUintN(64, BigInt(Math.trunc(n)));
  for (let i = 0; i < 9; i++) {
    out.buffer[out.at++] = Number(v & 127n) | 128;
    v >>= 7n;
  }
  out.buffer[out.at++] = Number(v);
}

function text(out: Cursor, field: number, value: string): void {
  tag(out, field, LENGTH_DELIMITED);
  varint(out, Buffer.byteLength(value, 'utf8'));
  out.at += out.buffer.write(value, out.at, 'utf8');
}

/** Labels as the protocol wants them: __name__ first among the sorted names (it sorts before lowercase). */
export function wireLabels(
  name: string,
  labels: readonly (readonly [string, string])[],
): { name: string; value: string }[] {
  const all = [{ name: '__name__', value: name }, ...labels.map(([n, v]) => ({ name: n, value: v }))];
  return all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** For tests: the series of a body, as a receiver reads it. */
export function decodeWriteRequest(body: Uint8Array, uncompress: (b: Uint8Array) => Uint8Array): unknown {
  return WriteRequest.toObject(WriteRequest.decode(uncompress(body)), { longs: Number });
}
