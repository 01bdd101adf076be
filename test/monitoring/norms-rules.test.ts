// The norms rules file read as an operator reads it: it judges by exactly the table's values, nothing else, and
// keeps each family of norms in groups of its own. (That the file is what the generator writes is checked in
// test/norms/generated.test.ts; what the alerts do, by promtool in rules-promtool.e2e.test.ts.)
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { normsOf } from '../../src/norms/lookup.js';
import { FAMILIES, type NormFamily } from '../../src/norms/table.js';
import {
  alertingRules,
  loadRules,
  loadRuleTests,
  NORMS_RULES_FILE,
  NORMS_RULES_TEST_FILE,
  recordingRules,
} from './model.js';
import { parsePromql } from './promql.js';

const rules = loadRules(NORMS_RULES_FILE);
const CONCENTRATION = 'cityair_concentration_micrograms_per_cubic_meter';
const RATIOS: Readonly<Record<NormFamily, string>> = {
  'pdk-single': 'pdk_single',
  'pdk-daily': 'pdk_daily',
  'pdk-annual': 'pdk_annual',
  'who-24h': 'who_short_term',
  'who-8h': 'who_short_term',
  'who-annual': 'who_annual',
};

/** substance → divisor of every `mean{substance="x"} / n` term of the rules recording a ratio of one family. */
function divisors(family: NormFamily): Map<string, number> {
  const record = `job_instance_id_substance:cityair_concentration_${RATIOS[family]}:ratio`;
  const mean = `:mean${FAMILIES[family].averaging}{`;
  const terms = recordingRules(rules)
    .filter((r) => r.record === record)
    .flatMap((r) => [...r.expr.matchAll(/(\S+)\{substance="([^"]+)"\} \/ ([\d.]+)/g)])
    .filter((m) => m[1]?.endsWith(mean.slice(0, -1)));
  return new Map(terms.map((m) => [m[2] ?? '', Number(m[3])]));
}

describe('the norms rules file', () => {
  it.each(Object.keys(FAMILIES) as NormFamily[])(
    'judges %s by the table’s values, and has no rule for a substance without one',
    (family) => {
      const expected = new Map(normsOf(family).map((n) => [n.substance, n.ugPerM3]));
      expect(divisors(family)).toEqual(expected);
    },
  );

  it('reads nothing but the concentrations and its own recorded series', () => {
    const recorded = new Set(recordingRules(rules).map((r) => r.record));
    const metrics = [...recordingRules(rules), ...alertingRules(rules)].flatMap((r) =>
      parsePromql(r.expr).selectors.map((s) => s.metric),
    );
    expect(metrics.filter((m) => m !== CONCENTRATION && !recorded.has(m))).toEqual([]);
  });

  it('keeps each family’s alerts in a group of its own, apart from the means both families read', () => {
    const byGroup = new Map(
      rules.groups.map((g) => [g.name, alertingRules({ groups: [g] }).map((a) => a.alert)]),
    );
    expect(byGroup.get('cityair.norms.means')).toEqual([]);
    expect(new Set(byGroup.get('cityair.norms.pdk'))).toEqual(
      new Set(['CityAirPdkSingleExceeded', 'CityAirPdkDailyExceeded', 'CityAirExtremelyHighPollution']),
    );
    expect(byGroup.get('cityair.norms.who')).toEqual(['CityAirWhoGuidelineExceeded']);
  });

  it('has every alert carry the station and the substance, as its unit tests expect', () => {
    const expected = z.array(z.object({ exp_labels: z.record(z.string(), z.string()) }));
    const firing = loadRuleTests(NORMS_RULES_TEST_FILE).tests.flatMap((t) =>
      (t.alert_rule_test ?? []).flatMap((c) =>
        expected.parse(c.exp_alerts).map((a) => [c.alertname, a] as const),
      ),
    );
    expect(new Set(firing.map(([name]) => name))).toEqual(new Set(alertingRules(rules).map((a) => a.alert)));
    for (const [name, alert] of firing) {
      expect(Object.keys(alert.exp_labels), name).toEqual(expect.arrayContaining(['id', 'substance']));
    }
  });
});
