import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../../src/cli.js';
import { LOG_SETTINGS, UPSTREAM_SETTINGS, WEB_SETTINGS } from '../../src/config/settings.js';
import { parseDurationMs } from '../../src/config/units.js';

const specs = Object.entries(SETTINGS);

describe('the settings table', () => {
  it('holds the engine’s tables whole: the upstream settings first, the web and log settings last', () => {
    const engine = [UPSTREAM_SETTINGS, WEB_SETTINGS, LOG_SETTINGS].flatMap((t) => Object.values(t));
    const all = Object.values(SETTINGS);
    expect(all.slice(0, Object.keys(UPSTREAM_SETTINGS).length)).toEqual(Object.values(UPSTREAM_SETTINGS));
    for (const spec of engine) expect(all, spec.env).toContain(spec);
    expect(all.slice(-Object.keys(LOG_SETTINGS).length)).toEqual(Object.values(LOG_SETTINGS));
  });

  it('gives each setting its own flag and its own CITYAIR_ variable', () => {
    const flags = specs.map(([, s]) => s.flag).filter((f) => f !== undefined);
    const envs = specs.map(([, s]) => s.env);
    expect(new Set(flags).size).toBe(flags.length);
    expect(new Set(envs).size).toBe(envs.length);
    expect(envs.filter((e) => !/^CITYAIR_[A-Z0-9_]+$/.test(e))).toEqual([]);
    expect(flags.filter((f) => !/^[a-z]+(\.[a-z0-9-]+)*$/.test(f))).toEqual([]);
  });

  it('writes defaults and demo defaults that its own checks accept', () => {
    const refused = specs.flatMap(([name, s]) =>
      [s.default, s.demoDefault]
        .filter((v): v is string => v !== undefined)
        .filter((v) => !s.schema.safeParse(v).success)
        .map((v) => `${name}: ${v}`),
    );
    expect(refused).toEqual([]);
  });

  it('keeps every duration default inside its range, and every range under Node’s timer limit', () => {
    const outside = specs.flatMap(([name, s]) => {
      if (!('range' in s) || !s.range) return [];
      const [min, max] = s.range;
      const ms = parseDurationMs(String(s.default));
      const wrong = ms !== undefined && (ms < min || ms > max);
      // The record's lookback is a span of the store that no timer waits (up to 31 days, issue 22).
      const timer = name !== 'lookback';
      return wrong || (timer && max >= 2 ** 31 - 1) ? [name] : [];
    });
    expect(outside).toEqual([]);
  });

  it('explains every setting in a sentence', () => {
    expect(specs.filter(([, s]) => !/^[A-Z].*[.)]$/s.test(s.help)).map(([n]) => n)).toEqual([]);
  });
});
