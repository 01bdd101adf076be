// The path an operator relies on, end to end on loopback: simulator -> exporter -> Prometheus with the shipped
// rules -> Alertmanager with the shipped routing -> a webhook receiver. Only `for:` and Alertmanager's waits are
// shortened. CityAirDataStale needs ten minutes of stale data and is covered by the promtool unit tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type ApiPost, demoStations } from '../../src/demo/stations.js';
import { type AlertingPath, startAlertingPath } from '../support/alerting-path.js';
import { alertmanagerPath, type WebhookAlert, type WebhookReceiver } from '../support/alertmanager.js';
import type { ExporterProcess } from '../support/exporter-process.js';
import { prometheusPath, type RunningPrometheus } from '../support/prometheus.js';
import type { Simulator } from '../support/simulator.js';
import { alertmanagerConfigForTest, loadAlertmanagerConfig, loadRules, rulesWithFor } from './model.js';

const KEY = 'e2e-test-key-8c41d0a7';
const JOB = 'cityair';
const allOnline: ApiPost[] = demoStations().map((p) => ({ ...p, isOnline: true }));
const withOffline = (ids: ReadonlySet<number>): ApiPost[] =>
  allOnline.map((p) => (ids.has(p.id) ? { ...p, isOnline: false } : p));
const FEW = new Set(allOnline.slice(0, 2).map((p) => p.id));
const MANY = new Set(allOnline.slice(0, 20).map((p) => p.id));
// A phase waits for the exporter's backoff (1 s doubling) after the failures of the previous one.
const PHASE_MS = 40_000;
const TEST_MS = PHASE_MS + 5_000;

const installed = prometheusPath() !== undefined && alertmanagerPath() !== undefined;

describe.skipIf(!installed)('alerts reach a webhook through Prometheus and Alertmanager', () => {
  let path: AlertingPath;
  let webhook: WebhookReceiver;
  let sim: Simulator;
  let exporter: ExporterProcess;
  let prom: RunningPrometheus;
  let instance: string;

  const firing = (name: string, match: (a: WebhookAlert) => boolean = () => true): Promise<WebhookAlert> =>
    webhook.waitForAlert((a) => a.status === 'firing' && a.labels.alertname === name && match(a), PHASE_MS);

  beforeAll(async () => {
    path = await startAlertingPath({
      simulator: { posts: allOnline, apiKey: KEY },
      exporterArgs: ['--upstream.min-interval=0s'],
      job: JOB,
      ruleFiles: [{ name: 'cityair-rules.yml', content: stringify(rulesWithFor(loadRules(), '2s')) }],
      alertmanagerConfig: (url) => alertmanagerConfigForTest(loadAlertmanagerConfig(), url),
    });
    ({ webhook, sim, exporter, prom, instance } = path);
  }, 60_000);

  afterAll(async () => {
    await path?.stop();
  });

  // The phases build on each other, in this order.
  it(
    'stays quiet while every station is online and the API answers',
    async () => {
      await prom.waitForQuery('cityair_stations{state="online"}', (s) => s[0]?.value === allOnline.length);
      // Four seconds of healthy data: longer than the shortened `for:`, so anything wrong would be firing by now.
      await prom.waitForQuery('count_over_time(cityair_up[1m])', (s) => (s[0]?.value ?? 0) >= 5);
      expect((await prom.alerts()).map((a) => `${a.labels.alertname} ${a.state}`)).toEqual([]);
      expect(webhook.alerts()).toEqual([]);
    },
    TEST_MS,
  );

  it(
    'notifies the stations taken offline, by name, to the notify receiver',
    async () => {
      sim.setPosts(withOffline(FEW));
      for (const id of FEW) {
        const alert = await firing('CityAirStationOffline', (a) => a.labels.id === String(id));
        const post = allOnline.find((p) => p.id === id);
        expect(alert.receiver).toBe('cityair-notify');
        expect(alert.labels).toMatchObject({ severity: 'warning', job: JOB, instance, name: post?.name });
        expect(alert.annotations.description).toContain(`"${post?.name}"`);
        expect(alert.annotations.runbook_url).toMatch(/runbook\.md#cityairstationoffline$/);
      }
    },
    TEST_MS,
  );

  it(
    'pages when half the network is offline, and reports rejected elements',
    async () => {
      sim.setPosts([...withOffline(MANY), { id: 'not-a-number', name: 42 }]);
      const many = await firing('CityAirManyStationsOffline');
      expect(many.receiver).toBe('cityair-page');
      expect(many.labels).toMatchObject({ severity: 'critical', job: JOB, instance });
      expect(many.annotations.description).toMatch(/^50% of the stations/);

      const rejected = await firing('CityAirStationsRejected');
      expect(rejected.receiver).toBe('cityair-notify');
      expect(rejected.labels).toMatchObject({ severity: 'info', reason: 'invalid', instance });
    },
    TEST_MS,
  );

  it(
    'warns when the CityAir API fails',
    async () => {
      sim.setFault({ kind: 'status', status: 503 });
      const failing = await firing('CityAirUpstreamFailing');
      expect(failing.receiver).toBe('cityair-notify');
      expect(failing.labels).toMatchObject({ severity: 'warning', job: JOB, instance });
    },
    TEST_MS,
  );

  it(
    'warns when the CityAir API rate limits the exporter',
    async () => {
      sim.setFault({ kind: 'status', status: 429, retryAfter: '1' });
      const limited = await firing('CityAirUpstreamRateLimited');
      expect(limited.labels).toMatchObject({ severity: 'warning', job: JOB, instance });
    },
    TEST_MS,
  );

  it(
    'pages when Prometheus can no longer scrape the exporter',
    async () => {
      await exporter.stop();
      const down = await firing('CityAirExporterDown');
      expect(down.receiver).toBe('cityair-page');
      expect(down.labels).toMatchObject({ severity: 'critical', job: JOB, instance });
    },
    TEST_MS,
  );

  it('sent nothing it should not have', () => {
    const expected = new Set([
      'CityAirStationOffline',
      'CityAirManyStationsOffline',
      'CityAirStationsRejected',
      'CityAirUpstreamFailing',
      'CityAirUpstreamRateLimited',
      'CityAirExporterDown',
    ]);
    const received = webhook.alerts();
    expect(received.map((a) => a.labels.alertname ?? '').filter((n) => !expected.has(n))).toEqual([]);
    const offlineIds = received
      .filter((a) => a.labels.alertname === 'CityAirStationOffline')
      .map((a) => a.labels.id);
    expect(offlineIds.filter((id) => !MANY.has(Number(id)))).toEqual([]);
  });
});
