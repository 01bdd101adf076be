// The norms alerts on the path an operator relies on: simulator -> exporter (readings on) -> Prometheus with the
// shipped norms rules -> Alertmanager with the shipped routing and inhibitions -> a webhook receiver. Only `for:`,
// the groups' intervals and Alertmanager's waits are shortened. Which alert fires at which multiple is proven by
// the promtool tests; here, what reaches a person: the receiver, the labels, the words and the inhibitions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import {
  DEMO_SMELTER_ID,
  type DemoRow,
  demoReadingsAnswer,
  type ReadingsQuery,
} from '../../src/demo/readings.js';
import { demoStations } from '../../src/demo/stations.js';
import { normValue } from '../../src/norms/lookup.js';
import { type AlertingPath, startAlertingPath } from '../support/alerting-path.js';
import { alertmanagerPath, type WebhookAlert, type WebhookReceiver } from '../support/alertmanager.js';
import { prometheusPath, type RunningPrometheus } from '../support/prometheus.js';
import {
  alertmanagerConfigForTest,
  loadAlertmanagerConfig,
  loadRules,
  NORMS_RULES_FILE,
  rulesAtGlobalInterval,
  rulesWithFor,
} from './model.js';

const KEY = 'norms-alerting-e2e-key-5d2c';
const JOB = 'cityair';
const posts = demoStations();
// One station breathes NO₂ at 60 times its ПДК м.р.: past the ЭВЗ criterion of 50 times, which pages and holds
// back the plain exceedance of the same station and substance.
const POLLUTED_ID = 1034;
const NO2_SINGLE = normValue('no2', 'pdk-single') ?? Number.NaN;
const WAIT_MS = 40_000;

function readingsAnswer(id: number, nowMs: number, query: ReadingsQuery): unknown {
  const answer = demoReadingsAnswer(id, nowMs, query);
  if (id !== POLLUTED_ID) return answer;
  return { ...answer, data: answer.data.map((r: DemoRow) => ({ ...r, no2: (60 * NO2_SINGLE) / 1000 })) };
}

const installed = prometheusPath() !== undefined && alertmanagerPath() !== undefined;

describe.skipIf(!installed)('norms alerts reach a webhook through Prometheus and Alertmanager', () => {
  let path: AlertingPath;
  let webhook: WebhookReceiver;
  let prom: RunningPrometheus;
  let instance: string;

  const firing = (name: string, match: (a: WebhookAlert) => boolean): Promise<WebhookAlert> =>
    webhook.waitForAlert((a) => a.status === 'firing' && a.labels.alertname === name && match(a), WAIT_MS);
  const at = (id: number, substance: string) => (a: WebhookAlert) =>
    a.labels.id === String(id) && a.labels.substance === substance;

  beforeAll(async () => {
    const rules = rulesWithFor(rulesAtGlobalInterval(loadRules(NORMS_RULES_FILE)), '2s');
    path = await startAlertingPath({
      simulator: { posts, apiKey: KEY, readings: readingsAnswer },
      exporterArgs: ['--upstream.min-interval=0s', '--collector.measurements'],
      job: JOB,
      ruleFiles: [{ name: 'cityair-norms-rules.yml', content: stringify(rules) }],
      alertmanagerConfig: (url) => alertmanagerConfigForTest(loadAlertmanagerConfig(), url),
    });
    ({ webhook, prom, instance } = path);
  }, 60_000);

  afterAll(async () => {
    await path?.stop();
  });

  it(
    "notifies the demo smelter's SO₂ above its ПДК м.р., by name, with the multiple and the runbook",
    async () => {
      const alert = await firing('CityAirPdkSingleExceeded', at(DEMO_SMELTER_ID, 'so2'));
      const name = posts.find((p) => p.id === DEMO_SMELTER_ID)?.name ?? '';
      expect(alert.receiver).toBe('cityair-notify');
      expect(alert.labels).toMatchObject({ severity: 'warning', job: JOB, instance });
      const multiple = /is (\d+\.\d) × ПДК м\.р\./.exec(alert.annotations.description ?? '')?.[1];
      expect(Number(multiple)).toBeGreaterThan(1);
      expect(alert.annotations.description).toContain(`"${name}"`);
      expect(alert.annotations.runbook_url).toMatch(/runbook\.md#cityairpdksingleexceeded$/);
    },
    WAIT_MS + 5_000,
  );

  it(
    'pages extremely high pollution (ЭВЗ) at 50 times the norm, and holds back the plain exceedance under it',
    async () => {
      const page = await firing('CityAirExtremelyHighPollution', at(POLLUTED_ID, 'no2'));
      expect(page.receiver).toBe('cityair-page');
      expect(page.labels).toMatchObject({ severity: 'critical', criterion: '50x', job: JOB, instance });
      expect(page.annotations.description).toContain('60.0 × ПДК м.р.');
      // Prometheus fires the plain exceedance too; Alertmanager must not pass it on.
      await prom.waitForQuery(
        `ALERTS{alertname="CityAirPdkSingleExceeded",alertstate="firing",id="${POLLUTED_ID}",substance="no2"}`,
        (s) => s.length === 1,
      );
      // Two more group intervals: what Alertmanager would have sent is in by now.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const sent = webhook.alerts().filter((a) => a.labels.alertname === 'CityAirPdkSingleExceeded');
      expect(sent.filter(at(POLLUTED_ID, 'no2'))).toEqual([]);
      expect(sent.filter(at(DEMO_SMELTER_ID, 'so2')).length).toBeGreaterThan(0);
    },
    WAIT_MS + 10_000,
  );
});
