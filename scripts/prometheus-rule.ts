// The PrometheusRule of the Kubernetes base is the rules file of deploy/prometheus, wrapped: one source of
// truth for the alerts, whether Prometheus loads the file or the Prometheus Operator loads the resource.
import { Document, isSeq, parseDocument } from 'yaml';

export const RULES_FILE = 'deploy/prometheus/cityair-rules.yml';
export const PROMETHEUS_RULE_FILE = 'deploy/kubernetes/prometheusrule.yaml';
export const GENERATE_COMMAND = 'npm run generate:kubernetes';

/** The text of deploy/kubernetes/prometheusrule.yaml for a rules file; the groups keep their comments. */
export function prometheusRuleYaml(rulesText: string): string {
  const rules = parseDocument(rulesText);
  if (rules.errors.length > 0) throw new Error(`${RULES_FILE}: ${rules.errors[0]?.message}`);
  const groups = rules.get('groups', true);
  if (!isSeq(groups) || groups.items.length === 0) throw new Error(`${RULES_FILE} has no list of groups`);

  const resource = new Document({
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata: {
      name: 'cityair-exporter',
      labels: { 'app.kubernetes.io/name': 'cityair-exporter', 'app.kubernetes.io/component': 'exporter' },
    },
    spec: { groups: [] },
  });
  resource.setIn(['spec', 'groups'], groups);
  resource.commentBefore = [
    ` Generated from ${RULES_FILE} by \`${GENERATE_COMMAND}\`: edit that file, not this one.`,
    ' The alerts select the scrape job "cityair", which servicemonitor.yaml sets.',
  ].join('\n');
  return resource.toString({ lineWidth: 120 });
}
