// deploy/kubernetes/prometheusrule.yaml is generated from the rules files of deploy/prometheus, which change as
// alerts are added: the committed file must be what the generator writes today.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import {
  GENERATE_COMMAND,
  PROMETHEUS_RULE_FILE,
  prometheusRuleYaml,
  RULES_FILES,
} from '../../scripts/prometheus-rule.js';
import { REPO_ROOT } from '../container/dockerfile.js';

const read = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');
const shipped = () => RULES_FILES.map((file) => ({ file, text: read(file) }));
const groupsOf = (text: string) => (parseYaml(text) as { groups: unknown[] }).groups;

describe('the generated PrometheusRule', () => {
  it('is up to date with the rules files', () => {
    const expected = prometheusRuleYaml(shipped());
    if (read(PROMETHEUS_RULE_FILE) !== expected) {
      throw new Error(
        `${PROMETHEUS_RULE_FILE} differs from ${RULES_FILES.join(', ')}: run ${GENERATE_COMMAND}`,
      );
    }
  });

  it('keeps every group, rule, expression and annotation of the rules files unchanged, in order', () => {
    const resource = parseYaml(prometheusRuleYaml(shipped())) as { spec: { groups: unknown } };
    expect(resource.spec.groups).toEqual(shipped().flatMap((f) => groupsOf(f.text)));
  });

  it('follows a change of a rules file', () => {
    const [kit, norms] = shipped();
    if (!kit || !norms) throw new Error('two rules files expected');
    const extra = '\n  - name: cityair.extra\n    rules:\n      - record: x:y:z\n        expr: vector(1)\n';
    const resource = parseYaml(prometheusRuleYaml([{ ...kit, text: kit.text + extra }, norms])) as {
      spec: { groups: { name: string }[] };
    };
    const names = resource.spec.groups.map((g) => g.name);
    expect(names[names.indexOf('cityair.extra') + 1]).toBe(
      (groupsOf(norms.text)[0] as { name: string }).name,
    );
  });

  it('refuses a rules file without groups', () => {
    expect(() => prometheusRuleYaml([{ file: 'x.yml', text: 'groups: []\n' }])).toThrow(
      /x.yml has no list of groups/,
    );
    expect(() => prometheusRuleYaml([{ file: 'x.yml', text: 'rules: {}\n' }])).toThrow(/no list of groups/);
  });
});
