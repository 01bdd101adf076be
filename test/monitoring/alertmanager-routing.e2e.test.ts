// The shipped Alertmanager routing: each alert of the rules file reaches the receiver its severity calls for,
// and the inhibitions silence the alerts they are meant to, and only those.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EXTREME_POLLUTION } from '../../src/norms/table.js';
import {
  alertmanagerPath,
  amtoolPath,
  type RunningAlertmanager,
  startAlertmanager,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../support/alertmanager.js';
import { waitFor } from '../support/daemon.js';
import {
  ALERTMANAGER_FILE,
  alertingRules,
  alertmanagerConfigForTest,
  loadAlertmanagerConfig,
  loadAllRules,
} from './model.js';

const RECEIVER_BY_SEVERITY: Record<string, string> = {
  critical: 'cityair-page',
  warning: 'cityair-notify',
  info: 'cityair-notify',
};

describe.skipIf(!amtoolPath())('routes', () => {
  const routed = new Map(alertingRules(loadAllRules()).map((a) => [a.alert, a.labels?.severity ?? '']));
  it.each([...routed])('%s (%s) goes to the right receiver', (alertname, severity) => {
    const run = spawnSync(
      amtoolPath() ?? 'amtool',
      [
        'config',
        'routes',
        'test',
        `--config.file=${ALERTMANAGER_FILE}`,
        `alertname=${alertname}`,
        `severity=${severity}`,
      ],
      { encoding: 'utf8' },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe(RECEIVER_BY_SEVERITY[severity]);
  });
});

const amAlerts = z.array(
  z.object({
    labels: z.record(z.string(), z.string()),
    status: z.object({ state: z.string(), inhibitedBy: z.array(z.string()) }),
  }),
);

describe.skipIf(!alertmanagerPath())('inhibitions in a real Alertmanager', () => {
  let webhook: WebhookReceiver;
  let am: RunningAlertmanager;

  beforeAll(async () => {
    webhook = await startWebhookReceiver();
    am = await startAlertmanager(alertmanagerConfigForTest(loadAlertmanagerConfig(), webhook.url));
  });
  afterAll(async () => {
    await am?.stop();
    await webhook?.close();
  });

  const post = async (alerts: Record<string, string>[]): Promise<void> => {
    const res = await fetch(`${am.url}/api/v2/alerts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(alerts.map((labels) => ({ labels, annotations: { summary: 'test' } }))),
    });
    expect(res.status).toBe(200);
  };
  const stateOf = (alerts: z.infer<typeof amAlerts>, labels: Record<string, string>): string | undefined =>
    alerts.find((a) => Object.entries(labels).every(([k, v]) => a.labels[k] === v))?.status.state;

  it('holds back per-station alerts under a network-wide one, and upstream alerts under stale data', async () => {
    const a = { job: 'cityair', instance: 'a:9610' };
    const b = { job: 'cityair', instance: 'b:9610' };
    const station = { alertname: 'CityAirStationOffline', severity: 'warning', id: '1000' };
    await post([
      { alertname: 'CityAirManyStationsOffline', severity: 'critical', ...a },
      { ...station, ...a },
      { ...station, ...b },
      { alertname: 'CityAirDataStale', severity: 'critical', ...b },
      { alertname: 'CityAirUpstreamFailing', severity: 'warning', ...b },
      { alertname: 'CityAirUpstreamFailing', severity: 'warning', ...a },
    ]);
    const alerts = await waitFor(
      'alerts processed',
      async () => {
        const all = amAlerts.parse(await (await fetch(`${am.url}/api/v2/alerts`)).json());
        return all.length === 6 && all.every((x) => x.status.state !== 'unprocessed') ? all : undefined;
      },
      10_000,
    );
    expect(stateOf(alerts, { alertname: 'CityAirStationOffline', ...a })).toBe('suppressed');
    expect(stateOf(alerts, { alertname: 'CityAirStationOffline', ...b })).toBe('active');
    expect(stateOf(alerts, { alertname: 'CityAirUpstreamFailing', ...b })).toBe('suppressed');
    expect(stateOf(alerts, { alertname: 'CityAirUpstreamFailing', ...a })).toBe('active');
    expect(stateOf(alerts, { alertname: 'CityAirManyStationsOffline', ...a })).toBe('active');

    // What the team's endpoint actually receives agrees with those states.
    await webhook.waitForAlert(
      (x) => x.labels.alertname === 'CityAirStationOffline' && x.labels.instance === b.instance,
    );
    await webhook.waitForAlert(
      (x) => x.labels.alertname === 'CityAirUpstreamFailing' && x.labels.instance === a.instance,
    );
    const received = webhook.alerts().map((x) => `${x.labels.alertname} ${x.labels.instance}`);
    expect(received).not.toContain(`CityAirStationOffline ${a.instance}`);
    expect(received).not.toContain(`CityAirUpstreamFailing ${b.instance}`);
  });

  it('holds back stale readings of an exporter whose readings requests fail', async () => {
    const a = { job: 'cityair', instance: 'readings-a:9610' };
    const b = { job: 'cityair', instance: 'readings-b:9610' };
    const stale = { alertname: 'CityAirReadingsStale', severity: 'warning', id: '1170' };
    await post([
      { alertname: 'CityAirReadingsFailing', severity: 'warning', ...a },
      { ...stale, ...a },
      { ...stale, ...b },
    ]);
    const alerts = await waitFor(
      'readings alerts processed',
      async () => {
        const all = amAlerts
          .parse(await (await fetch(`${am.url}/api/v2/alerts`)).json())
          .filter((x) => x.labels.instance?.startsWith('readings-'));
        return all.length === 3 && all.every((x) => x.status.state !== 'unprocessed') ? all : undefined;
      },
      10_000,
    );
    expect(stateOf(alerts, { alertname: 'CityAirReadingsStale', ...a })).toBe('suppressed');
    expect(stateOf(alerts, { alertname: 'CityAirReadingsStale', ...b })).toBe('active');
    expect(stateOf(alerts, { alertname: 'CityAirReadingsFailing', ...a })).toBe('active');
  });

  it('keeps one extremely-high-pollution page per station and substance, for the highest criterion met', async () => {
    const [top, eight, twoDays] = EXTREME_POLLUTION.map((c) => c.criterion);
    const at = {
      job: 'cityair',
      instance: 'air:9610',
      severity: 'critical',
      alertname: 'CityAirExtremelyHighPollution',
    };
    const no2 = { ...at, id: '1000', substance: 'no2' };
    const so2 = { ...at, id: '1000', substance: 'so2' };
    const single = {
      job: 'cityair',
      instance: 'air:9610',
      severity: 'warning',
      alertname: 'CityAirPdkSingleExceeded',
    };
    await post([
      { ...no2, criterion: top ?? '' },
      { ...no2, criterion: eight ?? '' },
      { ...no2, criterion: twoDays ?? '' },
      { ...so2, criterion: eight ?? '' },
      { ...so2, criterion: twoDays ?? '' },
      { ...single, id: '1000', substance: 'no2' },
      { ...single, id: '1000', substance: 'pm10' },
    ]);
    const alerts = await waitFor(
      'air alerts processed',
      async () => {
        const all = amAlerts
          .parse(await (await fetch(`${am.url}/api/v2/alerts`)).json())
          .filter((x) => x.labels.instance === at.instance);
        return all.length === 7 && all.every((x) => x.status.state !== 'unprocessed') ? all : undefined;
      },
      10_000,
    );
    const state = (labels: Record<string, string>) => stateOf(alerts, labels);
    expect(state({ ...no2, criterion: top ?? '' })).toBe('active');
    expect(state({ ...no2, criterion: eight ?? '' })).toBe('suppressed');
    expect(state({ ...no2, criterion: twoDays ?? '' })).toBe('suppressed');
    expect(state({ ...so2, criterion: eight ?? '' })).toBe('active');
    expect(state({ ...so2, criterion: twoDays ?? '' })).toBe('suppressed');
    expect(state({ ...single, substance: 'no2' })).toBe('suppressed');
    expect(state({ ...single, substance: 'pm10' })).toBe('active');
  });
});
