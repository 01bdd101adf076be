// The Prometheus remote-write 1.0 message (prometheus/prompb WriteRequest: series of sorted labels and samples),
// encoded with protobufjs and compressed with Snappy's block format, as every receiver of that version expects.
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

export interface WireSeries {
  /** Sorted by name, __name__ included. */
  readonly labels: readonly { readonly name: string; readonly value: string }[];
  /** Timestamps in milliseconds, increasing. */
  readonly samples: readonly { readonly value: number; readonly timestamp: number }[];
}

/** The body of one remote-write request: Snappy-compressed protobuf. */
export function encodeWriteRequest(series: readonly WireSeries[]): Uint8Array {
  const bytes = WriteRequest.encode({ timeseries: series }).finish();
  return compress(bytes);
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
