// The report as JSON for other programs: every figure unrounded, times as RFC 3339, the rules the figures rest on.
import { UNCONFIRMED_RULES } from '../norms/reporting.js';
import { gapMessage } from './messages.js';
import { reportNotes } from './notes.js';
import type { Lang } from './numbers.js';
import type { Report } from './read.js';

const iso = (ms: number): string => new Date(ms).toISOString();

export function reportJson(report: Report, lang: Lang): string {
  const { period } = report.request;
  return `${JSON.stringify(
    {
      period: { from: iso(period.fromMs), to: iso(period.toMs) },
      labels: Object.fromEntries(report.request.matchers),
      complete: report.gaps.length === 0,
      missing: report.gaps.map((g) => ({
        stationId: g.stationId ?? null,
        from: iso(g.fromMs),
        to: iso(g.toMs),
        message: gapMessage(g, lang),
      })),
      network: report.network,
      stations: report.stations.map((station) => ({
        id: station.id,
        name: station.name,
        substances: station.series.map(({ chart, ...figures }) => ({
          ...figures,
          single: figures.single && { ...figures.single, maxAt: iso(figures.single.maxAtMs) },
          dailyMeans: chart.daily,
        })),
      })),
      notes: reportNotes(report, lang),
      rules: UNCONFIRMED_RULES.map((rule) => ({ key: rule.key, text: rule[lang] })),
      storeQueries: report.queries,
      lateSamples: report.lateSamples,
    },
    null,
    2,
  )}\n`;
}
