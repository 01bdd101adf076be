// The old generation's slack follows the station list: tight for a small list, looser for a large one, whose
// refreshes make more garbage each (figures in docs/benchmarks.md).
import { describe, expect, it } from 'vitest';
import {
  fitHeapGrowth,
  heapGrowthForText,
  heapGrowthInBackground,
  heapGrowthNow,
  withBackgroundHeapGrowth,
  youngGenerationCap,
  youngGenerationCapForText,
} from '../../src/runtime/heap-growth.js';

describe('heapGrowthForText', () => {
  it('keeps a small list (1,000 stations, 0.46 MB of text) tight and lets a large one (10,000, 4.5 MB) grow', () => {
    expect(heapGrowthForText(0)).toBe(50);
    expect(heapGrowthForText(460_000)).toBe(50);
    expect(heapGrowthForText(4_540_000)).toBe(150);
  });
});

describe('heap growth while background work runs', () => {
  it('tightens a small list’s heap to 10 % and leaves a large list’s alone', () => {
    expect(heapGrowthInBackground(heapGrowthForText(460_000))).toBe(10);
    expect(heapGrowthInBackground(heapGrowthForText(4_540_000))).toBe(150);
  });

  it('puts the list’s growth back once the last round ends, even one that failed, and follows the list meanwhile', async () => {
    fitHeapGrowth(460_000);
    expect(heapGrowthNow()).toBe(50);
    let release: () => void = () => undefined;
    const first = withBackgroundHeapGrowth(() => new Promise<void>((r) => (release = r)));
    expect(heapGrowthNow()).toBe(10);
    await expect(withBackgroundHeapGrowth(() => Promise.reject(new Error('store down')))).rejects.toThrow();
    expect(heapGrowthNow()).toBe(10);
    fitHeapGrowth(4_540_000);
    expect(heapGrowthNow()).toBe(150);
    fitHeapGrowth(460_000);
    expect(heapGrowthNow()).toBe(10);
    release();
    await first;
    expect(heapGrowthNow()).toBe(50);
  });
});

describe('youngGenerationCapForText', () => {
  it('holds the young generation of a small list at 4 MiB and lets a large one have 8', () => {
    expect(youngGenerationCapForText(0)).toBe(4 * 1024 * 1024);
    expect(youngGenerationCapForText(460_000)).toBe(4 * 1024 * 1024);
    expect(youngGenerationCapForText(4_540_000)).toBe(8 * 1024 * 1024);
  });

  it('follows the last list read', () => {
    fitHeapGrowth(4_540_000);
    expect(youngGenerationCap()).toBe(8 * 1024 * 1024);
    fitHeapGrowth(460_000);
    expect(youngGenerationCap()).toBe(4 * 1024 * 1024);
  });
});
