import { describe, expect, it } from 'vitest';
import { demoStations, demoStationsAt, syntheticStations } from '../../src/demo/stations.js';
import { parseStationList } from '../../src/stations/schema.js';

describe('demoStations', () => {
  it('is 40 valid stations, 5 of them offline, the exporter keeping every one', () => {
    const posts = demoStations();
    expect(posts).toHaveLength(40);
    expect(posts.filter((p) => !p.isOnline)).toHaveLength(5);
    const list = parseStationList(posts);
    if (!list.ok) throw new Error(list.message);
    expect(list.value.stations).toHaveLength(40);
    expect(list.value.rejected).toEqual({ invalid: 0, duplicate: 0 });
    expect(list.value.fieldProblems).toEqual([]);
  });

  it('holds the offsets naive code gets wrong: negative, half- and quarter-hour ones', () => {
    const offsets = new Set(demoStations().map((p) => p.geo?.gmtOffsetSeconds));
    expect(offsets).toContain(-12600);
    expect(offsets).toContain(19800);
    expect(offsets).toContain(20700);
  });

  it('is the same list every time', () => {
    expect(demoStations()).toEqual(demoStations());
  });
});

describe('demoStationsAt', () => {
  it('flips every seventh station each period, and back the next', () => {
    const even = demoStationsAt(0);
    const odd = demoStationsAt(60_000);
    const flipped = even.filter((p, i) => p.isOnline !== odd[i]?.isOnline).map((p) => p.id);
    expect(flipped).toEqual(
      demoStations()
        .filter((_, i) => i % 7 === 3)
        .map((p) => p.id),
    );
    expect(demoStationsAt(120_000)).toEqual(even);
  });
});

describe('syntheticStations', () => {
  it('makes n valid stations with ids from 1,000,000 up', () => {
    const posts = syntheticStations(1234);
    expect(posts.map((p) => p.id)).toEqual(Array.from({ length: 1234 }, (_, i) => 1_000_000 + i));
    const list = parseStationList(posts);
    expect(list.ok && list.value.stations).toHaveLength(1234);
  });
});
