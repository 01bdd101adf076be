// The registry of sources: every source is a folder with its entry, no two sources (or a source and the engine)
// share a name or a setting, and the connection budget and the collectors come from the list as it is.
import { existsSync } from 'node:fs';
import pino from 'pino';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../src/cli.js';
import type { AnySpec } from '../src/config/command-line.js';
import { LOG_SETTINGS, UPSTREAM_SETTINGS, WEB_SETTINGS } from '../src/config/settings.js';
import { buildCollectors, SOURCES, socketsOf } from '../src/sources.js';
import type { Upstream } from '../src/upstream/exchange.js';
import { configFrom } from './support/in-process.js';

const never = (): never => {
  throw new Error('no request in this test');
};
const upstream = {
  getJson: never,
  getJsonElements: never,
  close: async () => undefined,
} as unknown as Upstream;

describe('the registry of sources', () => {
  it('names each source by a folder of src/ that holds its entry, once', () => {
    const names = SOURCES.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names)
      expect(existsSync(new URL(`../src/${name}/slice.ts`, import.meta.url)), name).toBe(true);
  });

  it('puts every setting of every source into the one table, none shadowing another', () => {
    const tables: Readonly<Record<string, AnySpec>>[] = [
      UPSTREAM_SETTINGS,
      ...SOURCES.map((s) => s.settings),
      WEB_SETTINGS,
      LOG_SETTINGS,
    ];
    const keys = tables.flatMap((t) => Object.keys(t));
    const flags = tables.flatMap((t) => Object.values(t).flatMap((s) => (s.flag ? [s.flag] : [])));
    const envs = tables.flatMap((t) => Object.values(t).map((s) => s.env));
    expect(Object.keys(SETTINGS)).toEqual(keys);
    expect(new Set(flags).size).toBe(flags.length);
    expect(new Set(envs).size).toBe(envs.length);
  });

  it('gives each source a pool as wide as its entry asks', () => {
    expect(socketsOf(configFrom(['--measurements.concurrency=7']))).toEqual({ stations: 2, readings: 7 });
  });

  it('builds the collectors in its order, leaving out a source that is switched off', async () => {
    const parts = (argv: string[]) => ({
      config: configFrom(argv),
      upstream: { stations: upstream, readings: upstream },
      registry: new Registry(),
      log: pino({ level: 'silent' }),
      userAgent: 'cityair-exporter/test',
    });
    expect((await buildCollectors(parts([]))).collectors.map((c) => c.name)).toEqual(['station list']);
    const on = await buildCollectors(parts(['--collector.measurements']));
    expect(on.collectors.map((c) => c.name)).toEqual(['station list', 'readings']);
    expect(Object.keys(on.built)).toEqual(['stations', 'readings', 'record']);
    expect(on.workers).toEqual([]);
  });
});
