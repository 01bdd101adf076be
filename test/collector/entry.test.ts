// The shape of a source's entry: what the registry walks, and how it tells a collector from a worker.
import { describe, expect, it } from 'vitest';
import { isCollector, type SourcePart, sourceEntry } from '../../src/collector/entry.js';

describe('a source’s entry', () => {
  it('is the entry as written', () => {
    const entry = {
      name: 'x',
      settings: {},
      config: () => undefined,
      metrics: [],
      sockets: () => 1,
      create: async () => undefined,
    };
    expect(sourceEntry(entry)).toBe(entry);
  });

  it('tells a collector, which serves part of each scrape, from a worker, which only starts and stops', () => {
    const worker: SourcePart = { start: () => {}, stop: async () => {} };
    const collector = {
      ...worker,
      name: 'c',
      source: { write: () => {} },
      gatesReadiness: false,
      health: () => {
        throw new Error('not asked');
      },
    } as unknown as SourcePart;
    expect(isCollector(worker)).toBe(false);
    expect(isCollector(collector)).toBe(true);
  });
});
