import { uncompress } from 'snappyjs';
import { describe, expect, it } from 'vitest';
import { decodeWriteRequest, encodeWriteRequest, wireLabels } from '../../src/backfill/remote-write-proto.js';

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
