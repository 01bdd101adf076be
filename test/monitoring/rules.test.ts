// The rules files operators load (the kit's and the norms'): unit-tested alert by alert (promtool runs the tests in
// rules-promtool.e2e.test.ts) and written to the conventions of the monitoring mixins so that routing and runbooks
// work without reading the files.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  alertingRules,
  DASHBOARD_FILES,
  durationSeconds,
  loadAllRules,
  loadRules,
  loadRuleTests,
  RULE_FILES,
  RUNBOOK_URL,
  recordingRules,
  runbookAnchors,
} from './model.js';

const rules = loadAllRules();
const alerts = alertingRules(rules);
const SEVERITIES = ['critical', 'warning', 'info'];
/** Extremely high pollution has one rule per Roshydromet criterion, told apart by this label. */
const CRITERION = { alert: 'CityAirExtremelyHighPollution', label: 'criterion' };
/** Read by people and by their own alerts where Prometheus holds a year; the dashboards compute it in the store. */
const ANNUAL_GROUP = 'cityair.norms.annual';

describe.each(RULE_FILES.map((f) => [basename(f.rules), f] as const))(
  'unit test coverage of %s',
  (name, f) => {
    const cases = f.tests.flatMap((file) =>
      loadRuleTests(file).tests.flatMap((t) => t.alert_rule_test ?? []),
    );

    it.each(f.tests.map((file) => [basename(file)]))(
      'the unit tests of %s load the shipped rules file',
      (file) => {
        expect(loadRuleTests(f.tests.find((t) => basename(t) === file) ?? '').rule_files).toEqual([name]);
      },
    );

    it.each([...new Set(alertingRules(loadRules(f.rules)).map((a) => a.alert))].map((a) => [a]))(
      '%s has a case where it fires and one where it does not',
      (alert) => {
        const mine = cases.filter((c) => c.alertname === alert);
        expect(
          mine.some((c) => c.exp_alerts.length > 0),
          'no firing case',
        ).toBe(true);
        expect(
          mine.some((c) => c.exp_alerts.length === 0),
          'no quiet case',
        ).toBe(true);
      },
    );
  },
);

describe('conventions of the monitoring mixins', () => {
  const anchors = runbookAnchors();

  it.each(alerts.map((a) => [`${a.alert} ${a.labels?.criterion ?? ''}`, a] as const))('%s', (_title, a) => {
    const name = a.alert;
    expect(name).toMatch(/^CityAir([A-Z][a-z]+)+$/);
    expect(SEVERITIES).toContain(a.labels?.severity);
    const labels = Object.keys(a.labels ?? {});
    expect(labels).toEqual(name === CRITERION.alert ? ['severity', CRITERION.label] : ['severity']);

    const { summary, description, runbook_url: runbook } = a.annotations ?? {};
    expect(summary, 'summary').toMatch(/^[A-Z].*\.$/);
    expect(summary, 'a static summary groups well in notifications').not.toContain('{{');
    expect(description, 'description').toMatch(/\{\{ \$labels\.instance \}\}/);
    expect(runbook).toBe(`${RUNBOOK_URL}#${name.toLowerCase()}`);
    expect(anchors, `docs/runbook.md has no "## ${name}"`).toContain(name.toLowerCase());

    // A failed scrape or two (1m intervals) must not page anyone.
    expect(durationSeconds(a.for ?? '0s')).toBeGreaterThanOrEqual(300);
  });

  it('tells the rules of one alert apart by their criterion', () => {
    const criteria = alerts.filter((a) => a.alert === CRITERION.alert).map((a) => a.labels?.criterion);
    expect(criteria.length).toBeGreaterThan(1);
    expect(new Set(criteria).size).toBe(criteria.length);
  });

  it('has no runbook section without an alert', () => {
    const names = new Set(alerts.map((a) => a.alert.toLowerCase()));
    expect([...anchors].filter((x) => x.startsWith('cityair') && !names.has(x))).toEqual([]);
  });

  it('uses every recording rule, in an alert, a dashboard or another rule', () => {
    const recorded = rules.groups.flatMap((g) =>
      g.rules.flatMap((r) => ('record' in r ? [{ group: g.name, record: r.record, expr: r.expr }] : [])),
    );
    for (const r of recorded) {
      expect(r.record).toMatch(/^[a-z_]+:[a-z_]+:[a-z0-9_]+$/);
      if (r.group === ANNUAL_GROUP && r.record.endsWith(':ratio')) continue;
      const users = [
        ...alerts.map((a) => a.expr),
        ...recorded.filter((other) => other.record !== r.record).map((other) => other.expr),
        ...Object.values(DASHBOARD_FILES).map((f) => readFileSync(f, 'utf8')),
      ].join('\n');
      expect(users, `${r.record} is recorded but never used`).toContain(r.record);
    }
  });

  it('records each series in one group only, so dropping a group drops it whole', () => {
    const owners = new Map<string, Set<string>>();
    for (const g of rules.groups) {
      for (const r of recordingRules({ groups: [g] }))
        owners.set(r.record, (owners.get(r.record) ?? new Set()).add(g.name));
    }
    expect([...owners].filter(([, groups]) => groups.size > 1)).toEqual([]);
  });
});
