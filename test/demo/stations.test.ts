import { describe, expect, it } from 'vitest';
import { demoPosts, demoPostsAt, syntheticPosts } from '../../src/demo/stations.js';
import { parseStationList } from '../../src/stations/schema.js';

describe('demoPosts', () => {
  it('is 40 valid stations, 5 of them offline, the exporter keeping every one', () => {
    const posts = demoPosts();
    expect(posts).toHaveLength(40);
    expect(posts.filter((p) => !p.isOnline)).toHaveLength(5);
    const list = parseStationList(posts);
    if (!list.ok) throw new Error(list.message);
    expect(list.value.stations).toHaveLength(40);
    expect(list.value.rejected).toEqual({ invalid: 0, duplicate: 0 });
    expect(list.value.fieldProblems).toEqual([]);
  });

  it('holds the offsets naive code gets wrong: negative, half- and quarter-hour ones', () => {
    const offsets = new Set(demoPosts().map((p) => p.geo?.gmtOffsetSeconds));
    expect(offsets).toContain(-12600);
    expect(offsets).toContain(19800);
    expect(offsets).toContain(20700);
  });

  it('is the same list every time', () => {
    expect(demoPosts()).toEqual(demoPosts());
  });
});

describe('demoPostsAt', () => {
  it('flips every seventh station each period, and back the next', () => {
    const even = demoPostsAt(0);
    const odd = demoPostsAt(60_000);
    const flipped = even.filter((p, i) => p.isOnline !== odd[i]?.isOnline).map((p) => p.id);
    expect(flipped).toEqual(
      demoPosts()
        .filter((_, i) => i % 7 === 3)
        .map((p) => p.id),
    );
    expect(demoPostsAt(120_000)).toEqual(even);
  });
});

describe('syntheticPosts', () => {
  it('makes n valid stations with ids from 1,000,000 up', () => {
    const posts = syntheticPosts(1234);
    expect(posts.map((p) => p.id)).toEqual(Array.from({ length: 1234 }, (_, i) => 1_000_000 + i));
    const list = parseStationList(posts);
    expect(list.ok && list.value.stations).toHaveLength(1234);
  });
});
