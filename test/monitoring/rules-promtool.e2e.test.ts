// The rules file as Prometheus' own tool sees it: `promtool check rules` and the unit tests of every alert
// (deploy/prometheus/cityair-rules.test.yml). Spawns promtool, hence the e2e name.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { promtoolPath } from '../support/promtool.js';
import { alertingRules, loadRules, RULES_FILE, RULES_TEST_FILE, recordingRules } from './model.js';

const promtool = promtoolPath();
const rules = loadRules();
const alerts = alertingRules(rules);

describe.skipIf(!promtool)('promtool', () => {
  const run = (...args: string[]) => spawnSync(promtool ?? 'promtool', args, { encoding: 'utf8' });

  it('accepts the rules file', () => {
    const result = run('check', 'rules', RULES_FILE);
    expect(result.status, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain(`SUCCESS: ${alerts.length + recordingRules(rules).length} rules found`);
  });

  it('passes the unit tests of every alert', () => {
    const result = run('test', 'rules', RULES_TEST_FILE);
    expect(result.status, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('SUCCESS');
  });
});
