// The path an operator relies on, started on loopback for a test: simulator -> exporter -> Prometheus with rules ->
// Alertmanager -> a webhook receiver. The caller chooses the simulator's answers, the exporter's flags, the rules
// and the Alertmanager configuration (its webhooks aimed at `webhookUrl`).
import type { SimulatorOptions } from '../../src/demo/simulator.js';
import {
  type RunningAlertmanager,
  startAlertmanager,
  startWebhookReceiver,
  type WebhookReceiver,
} from './alertmanager.js';
import { type ExporterProcess, startExporterProcess } from './exporter-process.js';
import { type RuleFile, type RunningPrometheus, startPrometheus } from './prometheus.js';
import { type Simulator, startSimulator } from './simulator.js';

export interface AlertingPathOptions {
  readonly simulator: Omit<SimulatorOptions, 'intercept'> & { readonly apiKey: string };
  readonly exporterArgs: readonly string[];
  readonly job: string;
  readonly ruleFiles: readonly RuleFile[];
  readonly alertmanagerConfig: (webhookUrl: string) => Readonly<Record<string, unknown>>;
}

export interface AlertingPath {
  readonly webhook: WebhookReceiver;
  readonly alertmanager: RunningAlertmanager;
  readonly sim: Simulator;
  readonly exporter: ExporterProcess;
  readonly prom: RunningPrometheus;
  /** The exporter's host:port, the `instance` label of its series. */
  readonly instance: string;
  stop(): Promise<void>;
}

export async function startAlertingPath(options: AlertingPathOptions): Promise<AlertingPath> {
  // What has started, newest first: stopped in that order at the end, or when a later part fails to start.
  const started: (() => Promise<void>)[] = [];
  const stop = async (): Promise<void> => {
    for (const close of started.splice(0)) await close();
  };
  const keep = <T>(part: T, close: (part: T) => Promise<void>): T => {
    started.unshift(() => close(part));
    return part;
  };
  try {
    const webhook = keep(await startWebhookReceiver(), (w) => w.close());
    const alertmanager = keep(await startAlertmanager(options.alertmanagerConfig(webhook.url)), (a) =>
      a.stop(),
    );
    const sim = keep(await startSimulator(options.simulator), (s) => s.close());
    const exporter = keep(
      await startExporterProcess({
        args: [`--upstream.url=${sim.baseUrl}`, ...options.exporterArgs],
        env: { CITYAIR_API_KEY: options.simulator.apiKey },
      }),
      async (e) => {
        await e.stop();
      },
    );
    const instance = new URL(exporter.url).host;
    const prom = keep(
      await startPrometheus({
        scrapeConfigs: [{ job_name: options.job, static_configs: [{ targets: [instance] }] }],
        ruleFiles: options.ruleFiles,
        alertmanagerUrl: alertmanager.url,
      }),
      (p) => p.stop(),
    );
    await prom.waitForTargetsUp();
    return { webhook, alertmanager, sim, exporter, prom, instance, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
