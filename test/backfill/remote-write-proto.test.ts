import { uncompress } from 'snappyjs';
import { describe, expect, it } from 'vitest';
import {
  decodeWriteRequest,
  encodeColumns,
  encodeWriteRequest,
  wireLabels,
} from '../../src/backfill/remote-write-proto.js';

describe('wireLabels', () => {
  it('puts __name__ among the labels sorted by name, as the protocol requires', () => {
    expect(
      wireLabels('cityair_aqi', [
        ['index', 'cityair'],
        ['id', '7'],
        ['Zone', 'a'],
      ]),
    ).toEqual([
      { name: 'Zone', value: 'a' },
      { name: '__name__', value: 'cityair_aqi' },
      { name: 'id', value: '7' },
      { name: 'index', value: 'cityair' },
    ]);
  });
});

describe('encodeWriteRequest', () => {
  it('encodes series a receiver reads back as they were, timestamps in milliseconds', () => {
    const series = [
      {
        labels: wireLabels('cityair_temperature_celsius', [['id', '7']]),
        samples: [
          { value: -3.5, timestamp: Date.UTC(2026, 9, 1) },
          { value: 1e-9, timestamp: Date.UTC(2026, 9, 1, 0, 5) },
        ],
      },
    ];
    const body = encodeWriteRequest(series);
    expect(decodeWriteRequest(body, (b) => uncompress(b))).toEqual({ timeseries: series });
  });

  it('compresses the body with Snappy’s block format', () => {
    const labels = wireLabels('x', [['id', '1']]);
    const samples = Array.from({ length: 1000 }, (_, i) => ({ value: 1, timestamp: i * 1000 }));
    const body = encodeWriteRequest([{ labels, samples }]);
    expect(() => uncompress(body)).not.toThrow();
    expect(uncompress(body).length).toBeGreaterThan(body.length);
  });
});

describe('encodeColumns', () => {
  it('writes series held as columns as protobufjs reads them: many series, non-ASCII labels, every kind of value', () => {
    const values = [0, -0.5, 1e300, Number.MIN_VALUE, 123456.789, Number.POSITIVE_INFINITY];
    const timestamps = [0, 1, 127, 128, 16_384, Date.UTC(2026, 10, 27, 11, 0)];
    const series = [
      { labels: wireLabels('cityair_aqi', [['name', 'Тест 🌫'.repeat(30)]]), values, timestamps },
      { labels: wireLabels('cityair_station_info', [['id', '7']]), values: [1], timestamps: [-1000] },
      { labels: wireLabels('empty', []), values: [], timestamps: [] },
    ];
    const decoded = decodeWriteRequest(encodeColumns(series), (b) => uncompress(b)) as {
      timeseries: { labels: unknown[]; samples?: { value?: number; timestamp?: number }[] }[];
    };
    expect(decoded.timeseries).toHaveLength(3);
    expect(decoded.timeseries.map((s) => s.labels)).toEqual(series.map((s) => s.labels));
    // protobufjs leaves out a field at its default (0) when it reads one back.
    const samples = decoded.timeseries.map((s) =>
      (s.samples ?? []).map((x) => ({ value: x.value ?? 0, timestamp: x.timestamp ?? 0 })),
    );
    expect(samples).toEqual(
      series.map((s) => s.values.map((value, k) => ({ value, timestamp: s.timestamps[k] }))),
    );
  });

  it('makes the same body as encodeWriteRequest of the same samples', () => {
    const labels = wireLabels('x', [['id', '1']]);
    const samples = Array.from({ length: 300 }, (_, i) => ({
      value: i / 7,
      timestamp: 1_700_000_000_000 + i,
    }));
    expect(
      encodeColumns([
        { labels, values: samples.map((s) => s.value), timestamps: samples.map((s) => s.timestamp) },
      ]),
    ).toEqual(encodeWriteRequest([{ labels, samples }]));
  });
});
