import { describe, expect, it } from 'vitest';
import { parseStationList } from '../../src/stations/schema.js';

const good = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Station ${id}`,
  description: 'd',
  isOnline: true,
  geo: { gmtOffsetSeconds: 25200, timeZoneIana: 'Asia/Novosibirsk', latitude: 55.0, longitude: 82.9 },
  ...extra,
});

describe('validation of the station list', () => {
  it('accepts [] as zero stations, not as an error', () => {
    const r = parseStationList([]);
    expect(r.ok && r.value.stations.length).toBe(0);
  });

  it('rejects a body that is not an array', () => {
    for (const body of [{ stations: [] }, null, 'x', 42]) expect(parseStationList(body).ok).toBe(false);
  });

  it('skips and counts invalid elements, keeps the rest', () => {
    const r = parseStationList([good(1), { id: 'two', name: 'x', isOnline: true }, good(3), 7, null]);
    if (!r.ok) throw new Error(r.message);
    expect(r.value.stations.map((s) => s.id)).toEqual([1, 3]);
    expect(r.value.rejected).toEqual({ invalid: 3, duplicate: 0 });
    expect(r.value.problems[0]).toMatch(/element 1: id/);
  });

  it('keeps the first of duplicate ids and counts the rest', () => {
    const r = parseStationList([good(5, { name: 'first' }), good(5, { name: 'second' }), good(5)]);
    if (!r.ok) throw new Error(r.message);
    expect(r.value.stations).toHaveLength(1);
    expect(r.value.stations[0]?.name).toBe('first');
    expect(r.value.rejected.duplicate).toBe(2);
  });

  it('ignores unknown fields and accepts missing or null geo and description', () => {
    const r = parseStationList([
      good(1, { firmware: '2.1', extra: { deep: [1] } }),
      { id: 2, name: 'no geo', isOnline: false },
      { id: 3, name: 'null geo', isOnline: true, geo: null, description: null },
    ]);
    if (!r.ok) throw new Error(r.message);
    expect(r.value.rejected.invalid).toBe(0);
    expect(r.value.stations[1]).toMatchObject({ tz: '', latitude: undefined, description: '' });
    expect(r.value.stations[2]).toMatchObject({ tz: '', utcOffsetSeconds: undefined });
  });

  it('rejects coordinates and offsets out of range, and ids that are not safe integers', () => {
    const r = parseStationList([
      good(1, { geo: { latitude: 91 } }),
      good(2, { geo: { gmtOffsetSeconds: 90_000 } }),
      good(2 ** 60),
      good(1.5),
      good(4),
    ]);
    if (!r.ok) throw new Error(r.message);
    expect(r.value.stations.map((s) => s.id)).toEqual([4]);
    expect(r.value.rejected.invalid).toBe(4);
  });

  it('fails a non-empty list without one valid station, so good data is not replaced by nothing', () => {
    const r = parseStationList([{ foo: 1 }, { bar: 2 }]);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(/none of the 2 elements/);
  });
});
