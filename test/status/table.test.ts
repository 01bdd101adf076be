import { describe, expect, it } from 'vitest';
import { stationTable } from '../../src/status/table.js';
import type { StatusStation } from '../../src/status/view.js';

const NOW = Date.UTC(2026, 10, 23, 12);
const station = (
  id: number,
  name: string,
  online = true,
  over: Partial<StatusStation> = {},
): StatusStation => ({
  id,
  name,
  tz: 'Asia/Novosibirsk',
  online,
  ...over,
});

/** The ids of the table's rows, in order. */
const ids = (html: string): number[] =>
  [...html.matchAll(/<tr[^>]*><td>(\d+)<\/td>/g)].map((m) => Number(m[1]));

describe('stationTable', () => {
  it('lists offline stations first, then by name with numbers in order, then by id', () => {
    const stations = [
      station(1, 'Пост 10'),
      station(2, 'Пост 9'),
      station(3, 'Пост 9'),
      station(4, 'Zeta', false),
      station(5, 'alpha', false),
    ];
    const t = stationTable(stations, false, { q: '' }, NOW);
    expect(ids(t.html)).toEqual([5, 4, 2, 3, 1]);
    expect(t).toMatchObject({ total: 5, online: 3, offline: 2, matched: 5, shown: 5, hiddenOffline: 0 });
  });

  it('filters by id, name in any case, or time zone', () => {
    const stations = [station(11, 'Ленина'), station(12, 'Мира', true, { tz: 'Europe/Moscow' })];
    expect(ids(stationTable(stations, false, { q: 'ленина' }, NOW).html)).toEqual([11]);
    expect(ids(stationTable(stations, false, { q: 'moscow' }, NOW).html)).toEqual([12]);
    expect(ids(stationTable(stations, false, { q: '12' }, NOW).html)).toEqual([12]);
    expect(stationTable(stations, false, { q: 'nothing' }, NOW)).toMatchObject({ matched: 0, shown: 0 });
  });

  it('holds 1,000 rows at most, and counts the offline stations left out', () => {
    const stations = Array.from({ length: 1500 }, (_, i) => station(i + 1, `s${i + 1}`, i % 2 === 0));
    const t = stationTable(stations, false, { q: '' }, NOW);
    expect(t).toMatchObject({ total: 1500, matched: 1500, shown: 1000 });
    expect(t.hiddenOffline).toBe(0);
    const mostlyOffline = Array.from({ length: 1200 }, (_, i) => station(i + 1, `s${i + 1}`, false));
    expect(stationTable(mostlyOffline, false, { q: '' }, NOW).hiddenOffline).toBe(200);
  });

  it('writes names as text, cut to 120 characters', () => {
    const t = stationTable([station(1, `<b>${'x'.repeat(200)}`)], false, { q: '' }, NOW);
    expect(t.html).toContain(`<td>&lt;b&gt;${'x'.repeat(116)}…</td>`);
    expect(t.html).not.toContain('<b>');
  });

  it('adds the readings columns with each reading’s age at the time asked', () => {
    const stations = [
      station(1, 'a', true, { reading: { atMs: NOW - 90_000, pm25: 12.34, aqi: 3 } }),
      station(2, 'b', true),
    ];
    const first = stationTable(stations, true, { q: '' }, NOW);
    expect(first.html).toContain('<th>Reading age</th>');
    expect(first.html).toContain(`<td data-v="${-(NOW - 90_000)}">90 s</td>`);
    expect(first.html).toMatch(/<td>b<\/td>.*<td>–<\/td><\/tr>/);
    const later = stationTable(stations, true, { q: '' }, NOW + 60 * 60_000);
    expect(later.html).toContain('62 min</td>');
    expect(stationTable(stations, false, { q: '' }, NOW).html).not.toContain('Reading age');
  });
});
