// The rules files as Prometheus' own tool sees them: `promtool check rules` and the unit tests of every alert
// (deploy/prometheus/*.test.yml). Spawns promtool, hence the e2e name.
import { spawnSync } from 'node:child_process';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { promtoolPath } from '../support/promtool.js';
import { alertingRules, loadRules, RULE_FILES, recordingRules } from './model.js';

const promtool = promtoolPath();

describe.skipIf(!promtool).each(RULE_FILES.map((f) => [basename(f.rules), f] as const))(
  'promtool on %s',
  (_n, f) => {
    const run = (...args: string[]) => spawnSync(promtool ?? 'promtool', args, { encoding: 'utf8' });
    const rules = loadRules(f.rules);

    it('accepts the rules file', () => {
      const result = run('check', 'rules', f.rules);
      expect(result.status, result.stdout + result.stderr).toBe(0);
      const count = alertingRules(rules).length + recordingRules(rules).length;
      expect(result.stdout).toContain(`SUCCESS: ${count} rules found`);
    });

    // The norms' tests evaluate two days of rules; on a busy machine that takes promtool tens of seconds.
    it('passes the unit tests of every alert', { timeout: 180_000 }, () => {
      const result = run('test', 'rules', ...f.tests);
      expect(result.status, result.stdout + result.stderr).toBe(0);
      expect(result.stdout).toContain('SUCCESS');
    });
  },
);
