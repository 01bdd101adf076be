import { describe, expect, it } from 'vitest';
import { parseByteSize, parseDurationMs } from '../../src/config/units.js';

describe('units', () => {
  it('parses Prometheus durations', () => {
    expect(parseDurationMs('500ms')).toBe(500);
    expect(parseDurationMs('30s')).toBe(30_000);
    expect(parseDurationMs('5m')).toBe(300_000);
    expect(parseDurationMs('1h30m')).toBe(5_400_000);
    expect(parseDurationMs('0')).toBe(0);
    expect(parseDurationMs('1d')).toBe(86_400_000);
    for (const bad of ['', '5', '1.5s', '5 m', 's', '30m1h', '-1s'])
      expect(parseDurationMs(bad)).toBeUndefined();
  });

  it('parses byte sizes', () => {
    expect(parseByteSize('512KiB')).toBe(524_288);
    expect(parseByteSize('64MiB')).toBe(67_108_864);
    expect(parseByteSize('10MB')).toBe(10_000_000);
    expect(parseByteSize('2048')).toBe(2048);
    for (const bad of ['', 'MiB', '1.5MiB', '5 parsecs', '-1']) expect(parseByteSize(bad)).toBeUndefined();
  });
});
