// The rules file operators load: unit-tested alert by alert (promtool runs the tests in rules-promtool.e2e.test.ts)
// and written to the conventions of the monitoring mixins so that routing and runbooks work without reading the file.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  alertingRules,
  DASHBOARD_FILES,
  durationSeconds,
  loadRules,
  loadRuleTests,
  RUNBOOK_URL,
  recordingRules,
  runbookAnchors,
} from './model.js';

const rules = loadRules();
const alerts = alertingRules(rules);
const SEVERITIES = ['critical', 'warning', 'info'];

describe('unit test coverage', () => {
  const cases = loadRuleTests().tests.flatMap((t) => t.alert_rule_test ?? []);

  it('loads the shipped rules file', () => {
    expect(loadRuleTests().rule_files).toEqual(['cityair-rules.yml']);
  });

  it.each(alerts.map((a) => [a.alert]))('%s has a case where it fires and one where it does not', (name) => {
    const mine = cases.filter((c) => c.alertname === name);
    expect(
      mine.some((c) => c.exp_alerts.length > 0),
      'no firing case',
    ).toBe(true);
    expect(
      mine.some((c) => c.exp_alerts.length === 0),
      'no quiet case',
    ).toBe(true);
  });
});

describe('conventions of the monitoring mixins', () => {
  const anchors = runbookAnchors();

  it.each(alerts.map((a) => [a.alert, a] as const))('%s', (name, a) => {
    expect(name).toMatch(/^CityAir([A-Z][a-z]+)+$/);
    expect(SEVERITIES).toContain(a.labels?.severity);
    expect(Object.keys(a.labels ?? {})).toEqual(['severity']);

    const { summary, description, runbook_url: runbook } = a.annotations ?? {};
    expect(summary, 'summary').toMatch(/^[A-Z].*\.$/);
    expect(summary, 'a static summary groups well in notifications').not.toContain('{{');
    expect(description, 'description').toMatch(/\{\{ \$labels\.instance \}\}/);
    expect(runbook).toBe(`${RUNBOOK_URL}#${name.toLowerCase()}`);
    expect(anchors, `docs/runbook.md has no "## ${name}"`).toContain(name.toLowerCase());

    // A failed scrape or two (1m intervals) must not page anyone.
    expect(durationSeconds(a.for ?? '0s')).toBeGreaterThanOrEqual(300);
  });

  it('has no runbook section without an alert', () => {
    const names = new Set(alerts.map((a) => a.alert.toLowerCase()));
    expect([...anchors].filter((x) => x.startsWith('cityair') && !names.has(x))).toEqual([]);
  });

  it('uses every recording rule, in an alert or a dashboard', () => {
    const users = [
      ...alerts.map((a) => a.expr),
      ...Object.values(DASHBOARD_FILES).map((f) => readFileSync(f, 'utf8')),
    ].join('\n');
    for (const r of recordingRules(rules)) {
      expect(r.record).toMatch(/^[a-z_]+:[a-z_]+:[a-z0-9_]+$/);
      expect(users, `${r.record} is recorded but never used`).toContain(r.record);
    }
  });
});
