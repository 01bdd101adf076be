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

  it('rejects ids that are not safe integers', () => {
    const r = parseStationList([good(2 ** 60), good(1.5), good(4)]);
    if (!r.ok) throw new Error(r.message);
    expect(r.value.stations.map((s) => s.id)).toEqual([4]);
    expect(r.value.rejected.invalid).toBe(2);
  });

  it('keeps a station with an invalid optional field, leaves the field out and counts it', () => {
    const geo = { gmtOffsetSeconds: 10800, timeZoneIana: 'Europe/Moscow', latitude: 55.7, longitude: 37.6 };
    const r = parseStationList([
      good(1, { isOnline: false, geo: { ...geo, latitude: 91 } }),
      good(2, { geo: { ...geo, gmtOffsetSeconds: '+03:00' } }),
      good(3, { geo: { ...geo, gmtOffsetSeconds: 90_000, longitude: -181 } }),
      good(4, { geo: { ...geo, timeZoneIana: 'Europe/Moscow"} 1\nfake 1' } }),
      good(5, { geo: 'Moscow', description: 42 }),
      good(6),
    ]);
    if (!r.ok) throw new Error(r.message);
    expect(r.value.stations.map((s) => s.id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(r.value.rejected).toEqual({ invalid: 0, duplicate: 0 });
    const [s1, s2, s3, s4, s5] = r.value.stations;
    expect(s1).toMatchObject({ online: false, latitude: undefined, longitude: 37.6, tz: 'Europe/Moscow' });
    expect(s2).toMatchObject({ utcOffsetSeconds: undefined, latitude: 55.7 });
    expect(s3).toMatchObject({ utcOffsetSeconds: undefined, longitude: undefined, latitude: 55.7 });
    expect(s4).toMatchObject({ tz: '', utcOffsetSeconds: 10800 });
    expect(s5).toMatchObject({ description: '', latitude: undefined, tz: '' });
    expect(r.value.skippedFields).toEqual({
      description: 1,
      geo: 1,
      latitude: 1,
      longitude: 1,
      utc_offset: 2,
      tz: 1,
    });
    expect(r.value.fieldProblems[0]).toBe('element 0 (id 1): latitude is not valid; left out');
  });

  it('caps names and descriptions, and turns control characters into spaces', () => {
    const r = parseStationList([
      good(1, { name: `${'Ж'.repeat(200_000)}`, description: '😷'.repeat(1000) }),
      good(2, {
        name: '\u0000NUL\u0000 CR\r\nLF\ttab \u001b[31mred \u202eevil\u2028sep\u0085 ',
        description: 'a\u0000b',
      }),
      good(3, { name: 'lone \ud800 surrogate' }),
      good(4, { name: `${'é'.repeat(255)}xy`, description: `${'é'.repeat(255)}xyz` }),
    ]);
    if (!r.ok) throw new Error(r.message);
    const [long, controls, lone] = r.value.stations;
    // Bytes of UTF-8, cut between characters: 126 two-byte letters and the ellipsis in 256.
    expect(long?.name).toBe(`${'Ж'.repeat(126)}…`);
    expect(long?.description).toBe(`${'😷'.repeat(127)}…`);
    expect(Buffer.byteLength(long?.description ?? '')).toBeLessThanOrEqual(512);
    expect(controls?.name).toBe('NUL  CR  LF tab  [31mred  evil sep');
    expect(controls?.description).toBe('a b');
    expect(lone?.name).toBe('lone \ufffd surrogate');
    // 512 bytes fit a description; one more, and the last characters make room for the ellipsis.
    expect(r.value.stations[3]?.name).toBe(`${'é'.repeat(126)}…`);
    expect(r.value.stations[3]?.description).toBe(`${'é'.repeat(254)}…`);
  });

  it('fails a non-empty list without one valid station, so good data is not replaced by nothing', () => {
    const r = parseStationList([{ foo: 1 }, { bar: 2 }]);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(/none of the 2 elements/);
  });
});

describe('the one-parse path and the field-by-field path', () => {
  // A valid element is read in one parse; the same element with one bad field is read field by field. Both must
  // make the same station, but for the bad field left out.
  const variants: Record<string, unknown>[] = [
    good(1),
    good(2, { description: null }),
    good(3, { geo: null }),
    { id: 4, name: '  padded  ', isOnline: false },
    good(5, { geo: { latitude: -90, longitude: 180, gmtOffsetSeconds: -64800, timeZoneIana: null } }),
    good(6, { geo: { latitude: null, extra: 1 }, name: 'Ж\u0007😷' }),
    good(7, { description: `${'x'.repeat(600)}` }),
  ];
  it.each(variants)('reads %o the same either way', (element) => {
    const one = parseStationList([element]);
    const other = parseStationList([{ ...element, geo: 'not an object' }]);
    const [a, b] = [one, other].map((r) => (r.ok ? r.value.stations[0] : undefined));
    expect(a).toBeDefined();
    expect(b).toEqual({
      ...a,
      tz: '',
      utcOffsetSeconds: undefined,
      latitude: undefined,
      longitude: undefined,
    });
    const badTz = parseStationList([
      { ...element, geo: { ...(element.geo as object | null), timeZoneIana: 'bad zone!' } },
    ]);
    const c = badTz.ok ? badTz.value.stations[0] : undefined;
    expect(c).toEqual({ ...a, tz: '' });
  });
});
