// promtool from Debian's prometheus package. Locally a missing binary skips the check; under CI=true it fails.
import { spawnSync } from 'node:child_process';
import { expect } from 'vitest';
import { READING_METRICS } from '../../src/readings/metrics.js';

export function promtoolPath(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v promtool'], { encoding: 'utf8' }).stdout.trim();
  if (found) return found;
  if (process.env.CI === 'true')
    throw new Error('promtool is required under CI=true (apt-get install prometheus)');
  return undefined;
}

/** `promtool check metrics` on exposition text: exit code and findings (stderr). */
export function checkMetrics(text: string): { code: number; findings: string } | undefined {
  const promtool = promtoolPath();
  if (!promtool) return undefined;
  const run = spawnSync(promtool, ['check', 'metrics'], { input: text, encoding: 'utf8' });
  return { code: run.status ?? -1, findings: `${run.stderr}${run.stdout}`.trim() };
}

/**
 * promtool's linter asks for base units ("grams"), but the concentration's name is part of the public contract:
 * micrograms per cubic metre is what every air-quality exporter uses (grams would give values near 1e-6). That
 * finding, exit code 3 (lint, not a parse error), is the only one allowed.
 */
export function expectOnlyKnownLint(text: string): void {
  const check = checkMetrics(text);
  if (!check) return;
  const known = `${READING_METRICS.concentration.name} use base unit "grams" instead of "micrograms"`;
  const others = check.findings.split('\n').filter((l) => l !== '' && l !== known);
  expect(others).toEqual([]);
  expect(check.code === 0 || (check.code === 3 && check.findings.includes(known))).toBe(true);
}
