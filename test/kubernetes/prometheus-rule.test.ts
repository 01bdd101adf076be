// deploy/kubernetes/prometheusrule.yaml is generated from deploy/prometheus/cityair-rules.yml, which changes as
// alerts are added: the committed file must be what the generator writes today.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import {
  GENERATE_COMMAND,
  PROMETHEUS_RULE_FILE,
  prometheusRuleYaml,
  RULES_FILE,
} from '../../scripts/prometheus-rule.js';
import { REPO_ROOT } from '../container/dockerfile.js';

const read = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');

describe('the generated PrometheusRule', () => {
  it('is up to date with the rules file', () => {
    const expected = prometheusRuleYaml(read(RULES_FILE));
    if (read(PROMETHEUS_RULE_FILE) !== expected) {
      throw new Error(`${PROMETHEUS_RULE_FILE} differs from ${RULES_FILE}: run ${GENERATE_COMMAND}`);
    }
  });

  it('keeps every group, rule, expression and annotation of the rules file unchanged', () => {
    const rules = parseYaml(read(RULES_FILE)) as { groups: unknown };
    const resource = parseYaml(prometheusRuleYaml(read(RULES_FILE))) as { spec: { groups: unknown } };
    expect(resource.spec.groups).toEqual(rules.groups);
  });

  it('follows a change of the rules file', () => {
    const changed = `${read(RULES_FILE)}\n  - name: cityair.extra\n    rules:\n      - record: x:y:z\n        expr: vector(1)\n`;
    const resource = parseYaml(prometheusRuleYaml(changed)) as { spec: { groups: { name: string }[] } };
    expect(resource.spec.groups.at(-1)?.name).toBe('cityair.extra');
  });

  it('refuses a rules file without groups', () => {
    expect(() => prometheusRuleYaml('groups: []\n')).toThrow(/no list of groups/);
    expect(() => prometheusRuleYaml('rules: {}\n')).toThrow(/no list of groups/);
  });
});
