#!/usr/bin/env node
// Entry point: parse the configuration, start, and stop cleanly on SIGTERM/SIGINT.
// First, so that the V8 settings act before any dependency is loaded.
import './v8-settings.js';
import { helpText, parseCli } from './cli.js';
import { ConfigError, EXIT, usageFailure } from './config/command-line.js';
import { readBuildFacts } from './config/package-info.js';

const SHUTDOWN_GRACE_MS = 4500;

async function main(): Promise<void> {
  const build = readBuildFacts(new URL('.', import.meta.url));
  if (process.argv[2] === 'backfill') {
    // A command of its own: loaded only when asked for, with its own flags and exit statuses.
    const { backfillMain } = await import('./backfill/command.js');
    const demo = async (key: string) => (await import('./demo/history.js')).startDemoHistory(key);
    process.exitCode = await backfillMain(process.argv.slice(3), process.env, build, demo);
    return;
  }
  if (process.argv[2] === 'report') {
    const { reportMain } = await import('./report/command.js');
    process.exitCode = await reportMain(process.argv.slice(3), process.env, build);
    return;
  }
  let action: ReturnType<typeof parseCli>;
  try {
    action = parseCli(process.argv.slice(2), process.env);
  } catch (error) {
    process.exit(usageFailure(undefined, error, { argv: process.argv.slice(2), env: process.env }));
  }
  if (action.kind === 'help') return void process.stdout.write(helpText(build.version));
  if (action.kind === 'version')
    return void process.stdout.write(`cityair-exporter ${build.version} (revision ${build.revision})\n`);

  // Loaded only to run: --help, --version and configuration errors answer without fastify, prom-client or undici.
  const [{ startExporter, ListenError }, { createLogger }] = await Promise.all([
    import('./app.js'),
    import('./log/logger.js'),
  ]);
  const { config } = action;
  const log = createLogger({ ...config.log, secret: config.upstream.apiKey });
  for (const warning of action.warnings) log.warn(warning);
  // A process in an unknown state must not keep answering /healthz: exit, and let the supervisor restart it.
  const crash = (what: string) => (err: unknown) => {
    log.fatal({ err }, `${what}; exiting`);
    process.exit(70);
  };
  process.on('uncaughtException', crash('uncaught exception'));
  process.on('unhandledRejection', crash('unhandled rejection'));

  let exporter: Awaited<ReturnType<typeof startExporter>>;
  try {
    exporter = await startExporter(config, build, log);
  } catch (error) {
    // Problems found while starting (web config file, CA file, proxy variables) are configuration errors too.
    if (error instanceof ConfigError)
      process.exit(usageFailure(undefined, error, { argv: process.argv.slice(2), env: process.env }));
    // The address is valid but cannot be had now: one line, as for a bad setting, and the status of a failed start.
    if (error instanceof ListenError) {
      process.stderr.write(`cityair-exporter: ${error.message}\n`);
      process.exit(EXIT.incomplete);
    }
    log.fatal({ err: error }, 'cannot start');
    process.exit(1);
  }

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    setTimeout(() => {
      log.warn('in-flight work did not finish in time; exiting anyway');
      process.exit(0);
    }, SHUTDOWN_GRACE_MS).unref();
    exporter.close().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, 'error while shutting down');
        process.exit(0);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

await main();
