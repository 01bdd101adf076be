// `cityair-exporter report`: settings, the store, the period read station by station with progress on a
// terminal, then the report written in its format. Exit 0 complete, 1 the store failed part of it (the report is
// still written, and says which part), 2 invalid use.
import { writeFile } from 'node:fs/promises';
import { ConfigError, EXIT, usageFailure } from '../config/command-line.js';
import type { BuildFacts } from '../config/package-info.js';
import { limitHeapGrowth } from '../runtime/heap-growth.js';
import { parseReportCli, type ReportConfig, reportHelp } from './config.js';
import { reportCsv } from './csv.js';
import { reportHtml } from './html.js';
import { reportJson } from './json.js';
import { gapMessage } from './messages.js';
import { formatTime } from './numbers.js';
import { reportOutputProblem } from './output-check.js';
import { type Gap, type Progress, type Report, readReport } from './read.js';
import { openStore } from './store.js';

export async function reportMain(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  build: BuildFacts,
): Promise<number> {
  limitHeapGrowth();
  let config: ReportConfig;
  try {
    const action = parseReportCli(argv, env, Date.now());
    if (action.kind === 'help') {
      process.stdout.write(reportHelp(build.version));
      return EXIT.ok;
    }
    config = action.config;
    const problem = await reportOutputProblem(config.output);
    if (problem !== undefined) throw new ConfigError(problem);
  } catch (error) {
    return usageFailure('report', error, { argv, env });
  }
  const store = openStore(config.store, `cityair-exporter/${build.version}`);
  const progress = progressLine(config);
  let report: Report;
  try {
    report = await readReport(
      store,
      {
        period: { fromMs: config.fromMs, toMs: config.toMs, offsetMinutes: config.offsetMinutes },
        matchers: config.labels,
        stations: config.stations,
      },
      progress.show,
    );
  } finally {
    progress.clear();
    await store.close();
  }
  const text = render(report, config);
  try {
    if (config.output === '-')
      await new Promise<void>((resolve) => process.stdout.write(text, () => resolve()));
    else await writeFile(config.output, text);
  } catch (error) {
    process.stderr.write(
      `cityair-exporter report: cannot write ${config.output} (${(error as NodeJS.ErrnoException).code ?? 'unwritable'})\n`,
    );
    return 1;
  }
  for (const gap of report.gaps) process.stderr.write(`cityair-exporter report: ${gapLine(gap, config)}\n`);
  return report.gaps.length === 0 ? 0 : 1;
}

/** A missing part of the report on standard error, in the report's language. */
function gapLine(gap: Gap, config: ReportConfig): string {
  const from = formatTime(gap.fromMs, config.offsetMinutes);
  const to = formatTime(gap.toMs, config.offsetMinutes);
  const message = gapMessage(gap, config.lang);
  if (config.lang === 'ru')
    return `неполный: ${gap.stationId === undefined ? 'список станций' : `станция ${gap.stationId}`} с ${from} по ${to}: ${message}`;
  return `incomplete: ${gap.stationId === undefined ? 'the station list' : `station ${gap.stationId}`} from ${from} to ${to}: ${message}`;
}

function render(report: Report, config: ReportConfig): string {
  if (config.format === 'csv') return reportCsv(report, config.lang, config.offsetMinutes);
  if (config.format === 'json') return reportJson(report, config.lang);
  return reportHtml(report, {
    lang: config.lang,
    offsetMinutes: config.offsetMinutes,
    generatedAtMs: Date.now(),
  });
}

/** A line redrawn in place on a terminal, at most every 200 ms; nothing when standard error is not one. */
function progressLine(config: ReportConfig): { show: (p: Progress) => void; clear: () => void } {
  const tty = process.stderr.isTTY ? process.stderr : undefined;
  let last = 0;
  let shown = false;
  const span = config.toMs - config.fromMs;
  return {
    show: (p) => {
      const now = Date.now();
      if (!tty || now - last < 200) return;
      last = now;
      const within = Math.round((100 * (p.doneMs - config.fromMs)) / span);
      tty.write(`\r\x1b[Kreport: station ${p.station + 1} of ${p.stations}, ${within} % of its period`);
      shown = true;
    },
    clear: () => {
      if (shown) tty?.write('\r\x1b[K');
    },
  };
}
