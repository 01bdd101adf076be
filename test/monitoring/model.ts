// The shipped monitoring files as the tests see them: read from disk, validated, and walked. Nothing here
// assumes a file is well formed before zod has said so.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const RULES_FILE = `${ROOT}deploy/prometheus/cityair-rules.yml`;
export const RULES_TEST_FILE = `${ROOT}deploy/prometheus/cityair-rules.test.yml`;
/** Generated from the norms table (npm run generate:norms). */
export const NORMS_RULES_FILE = `${ROOT}deploy/prometheus/cityair-norms-rules.yml`;
export const NORMS_RULES_TEST_FILE = `${ROOT}deploy/prometheus/cityair-norms-rules.test.yml`;
/** The annual means' tests, evaluated a day at a time over most of a year. */
export const NORMS_ANNUAL_TEST_FILE = `${ROOT}deploy/prometheus/cityair-norms-annual.test.yml`;
/** Every rules file Prometheus loads, each with its promtool unit tests. */
export const RULE_FILES = [
  { rules: RULES_FILE, tests: [RULES_TEST_FILE] },
  { rules: NORMS_RULES_FILE, tests: [NORMS_RULES_TEST_FILE, NORMS_ANNUAL_TEST_FILE] },
] as const;
export const RUNBOOK_FILE = `${ROOT}docs/runbook.md`;
export const DASHBOARD_FILES = {
  stations: `${ROOT}dashboards/cityair-stations.json`,
  exporter: `${ROOT}dashboards/cityair-exporter.json`,
  airQuality: `${ROOT}dashboards/cityair-air-quality.json`,
} as const;
export const RUNBOOK_URL = 'https://github.com/cityair-exporter/cityair-exporter/blob/main/docs/runbook.md';

// ---------------------------------------------------------------- rules

const stringMap = z.record(z.string(), z.string());
const alertingRule = z.strictObject({
  alert: z.string(),
  expr: z.string(),
  for: z.string().optional(),
  labels: stringMap.optional(),
  annotations: stringMap.optional(),
});
const recordingRule = z.strictObject({ record: z.string(), expr: z.string(), labels: stringMap.optional() });
const rulesFile = z.strictObject({
  groups: z.array(
    z.strictObject({
      name: z.string(),
      interval: z.string().optional(),
      rules: z.array(z.union([alertingRule, recordingRule])),
    }),
  ),
});

export type RulesFile = z.infer<typeof rulesFile>;
export type AlertingRule = z.infer<typeof alertingRule>;
export type RecordingRule = z.infer<typeof recordingRule>;

export function parseRules(text: string): RulesFile {
  return rulesFile.parse(parseYaml(text));
}

/** One rules file: the kit's by default. */
export function loadRules(file: string = RULES_FILE): RulesFile {
  return parseRules(readFileSync(file, 'utf8'));
}

/** The groups of every rules file, in the order of RULE_FILES. */
export function loadAllRules(): RulesFile {
  return { groups: RULE_FILES.flatMap((f) => loadRules(f.rules).groups) };
}

export function alertingRules(file: RulesFile): AlertingRule[] {
  return file.groups.flatMap((g) => g.rules.filter((r): r is AlertingRule => 'alert' in r));
}

export function recordingRules(file: RulesFile): RecordingRule[] {
  return file.groups.flatMap((g) => g.rules.filter((r): r is RecordingRule => 'record' in r));
}

const ruleTestsFile = z.object({
  rule_files: z.array(z.string()),
  tests: z.array(
    z.object({
      name: z.string().optional(),
      alert_rule_test: z
        .array(z.object({ eval_time: z.string(), alertname: z.string(), exp_alerts: z.array(z.unknown()) }))
        .optional(),
    }),
  ),
});

export function loadRuleTests(file: string = RULES_TEST_FILE): z.infer<typeof ruleTestsFile> {
  return ruleTestsFile.parse(parseYaml(readFileSync(file, 'utf8')));
}

/** Prometheus duration ("90s", "1h30m") in seconds. */
export function durationSeconds(text: string): number {
  const units: Record<string, number> = {
    ms: 0.001,
    s: 1,
    m: 60,
    h: 3600,
    d: 86_400,
    w: 604_800,
    y: 31_536_000,
  };
  const parts = [...text.matchAll(/(\d+)(ms|s|m|h|d|w|y)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text)
    throw new Error(`not a duration: ${text}`);
  return parts.reduce((sum, p) => sum + Number(p[1]) * (units[p[2] ?? 's'] ?? 0), 0);
}

/** GitHub's anchors of the level-2 headings of docs/runbook.md. */
export function runbookAnchors(): Set<string> {
  const headings = readFileSync(RUNBOOK_FILE, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('## '))
    .map((l) => l.slice(3).trim());
  return new Set(headings.map(githubAnchor));
}

function githubAnchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

// ---------------------------------------------------------------- dashboards

const datasourceRef = z.object({ type: z.string().optional(), uid: z.string().optional() });
const target = z.object({
  refId: z.string(),
  expr: z.string(),
  datasource: datasourceRef.optional(),
  instant: z.boolean().optional(),
  range: z.boolean().optional(),
  format: z.string().optional(),
});
const panel = z.object({
  id: z.number(),
  type: z.string(),
  title: z.string(),
  description: z.string().optional(),
  datasource: datasourceRef.optional(),
  gridPos: z.object({ x: z.number(), y: z.number(), w: z.number(), h: z.number() }),
  targets: z.array(target).optional(),
  fieldConfig: z.object({ defaults: z.object({ unit: z.string().optional() }).passthrough() }).optional(),
});
const variable = z.object({
  name: z.string(),
  type: z.string(),
  query: z.union([z.string(), z.object({ query: z.string() }).passthrough()]).optional(),
  datasource: datasourceRef.optional(),
  current: z
    .object({ value: z.union([z.string(), z.array(z.string())]).optional() })
    .passthrough()
    .optional(),
  multi: z.boolean().optional(),
  includeAll: z.boolean().optional(),
  allValue: z.string().optional(),
});
const dashboard = z.object({
  uid: z.string(),
  title: z.string(),
  __inputs: z.array(
    z.object({ name: z.string(), type: z.string(), pluginId: z.string().optional(), label: z.string() }),
  ),
  __requires: z.array(z.object({ type: z.string(), id: z.string() })),
  panels: z.array(panel),
  templating: z.object({ list: z.array(variable) }),
});

export type Dashboard = z.infer<typeof dashboard>;
export type Panel = z.infer<typeof panel>;
export type Variable = z.infer<typeof variable>;

export interface LoadedDashboard {
  readonly file: string;
  /** The JSON as read, for the schema check. */
  readonly raw: unknown;
  readonly model: Dashboard;
}

export function loadDashboards(): LoadedDashboard[] {
  return Object.values(DASHBOARD_FILES).map((file) => {
    const raw: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return { file, raw, model: dashboard.parse(raw) };
  });
}

export interface PanelQuery {
  readonly dashboard: string;
  readonly panel: string;
  readonly refId: string;
  readonly expr: string;
  readonly instant: boolean;
}

export function panelQueries(d: LoadedDashboard): PanelQuery[] {
  return d.model.panels.flatMap((p) =>
    (p.targets ?? []).map((t) => ({
      dashboard: d.model.uid,
      panel: p.title,
      refId: t.refId,
      expr: t.expr,
      instant: t.instant === true,
    })),
  );
}

export function variableQuery(v: Variable): string | undefined {
  if (v.type !== 'query' || v.query === undefined) return undefined;
  return typeof v.query === 'string' ? v.query : v.query.query;
}

/**
 * Grafana's variables are not PromQL. For parsing they become values that no one writes by hand, so a check can
 * tell afterwards that a range came from $__rate_interval.
 */
export const PARSE_STAND_INS = {
  $__rate_interval: '7777s',
  $__range: '8888s',
  $__interval: '9999s',
  // The air-quality dashboard's "Row interval": how far back each instant looks for the newest row.
  $lookback: '6666s',
} as const;

export function substitute(expr: string, values: Readonly<Record<string, string>>): string {
  // Longest names first: $__range must not eat the start of $__rate_interval.
  const names = Object.keys(values).sort((a, b) => b.length - a.length);
  let out = expr;
  for (const name of names) out = out.split(name).join(values[name] ?? '');
  return out;
}

/** `label_values(selector, label)` as Grafana's Prometheus data source understands it. */
export function labelValuesQuery(query: string): { selector: string; label: string } | undefined {
  const m = /^label_values\((.*),\s*([a-zA-Z_][a-zA-Z0-9_]*)\)$/s.exec(query.trim());
  return m?.[1] !== undefined && m[2] !== undefined ? { selector: m[1].trim(), label: m[2] } : undefined;
}

// ---------------------------------------------------------------- alertmanager

export const ALERTMANAGER_FILE = `${ROOT}deploy/alertmanager/alertmanager.yml`;

const receiver = z
  .object({
    name: z.string(),
    webhook_configs: z.array(z.object({ url: z.string() }).passthrough()).optional(),
  })
  .passthrough();
const alertmanagerConfig = z
  .object({
    route: z.object({ receiver: z.string() }).passthrough(),
    receivers: z.array(receiver),
    inhibit_rules: z.array(z.record(z.string(), z.unknown())).optional(),
  })
  .passthrough();

export type AlertmanagerConfig = z.infer<typeof alertmanagerConfig>;

export function loadAlertmanagerConfig(): AlertmanagerConfig {
  return alertmanagerConfig.parse(parseYaml(readFileSync(ALERTMANAGER_FILE, 'utf8')));
}

/**
 * The shipped routing with every webhook aimed at `webhookUrl/<receiver>` and Alertmanager's waits cut to a
 * second, so a test sees notifications in seconds; routes, matchers and inhibitions stay as shipped.
 */
export function alertmanagerConfigForTest(
  config: AlertmanagerConfig,
  webhookUrl: string,
): AlertmanagerConfig {
  return {
    ...config,
    route: { ...config.route, group_wait: '1s', group_interval: '1s', repeat_interval: '1h' },
    receivers: config.receivers.map((r) => ({
      ...r,
      webhook_configs: (r.webhook_configs ?? []).map((w) => ({ ...w, url: `${webhookUrl}/${r.name}` })),
    })),
  };
}

/** The shipped rules with every `for:` replaced, so alerts fire within seconds in a test. */
export function rulesWithFor(file: RulesFile, duration: string): RulesFile {
  return {
    groups: file.groups.map((g) => ({
      ...g,
      rules: g.rules.map((r) => ('alert' in r && r.for !== undefined ? { ...r, for: duration } : r)),
    })),
  };
}

/** The shipped rules with every group at the global evaluation interval, so an hourly group runs in a test too. */
export function rulesAtGlobalInterval(file: RulesFile): RulesFile {
  return { groups: file.groups.map(({ interval: _, ...g }) => g) };
}
