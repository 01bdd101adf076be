// The record's section of the status page: when a round last completed, what it filled, and any failure.
import { escapeHtml, formatAge, formatUtc } from '../status/html.js';
import type { RecordState } from './record.js';

export function recordStatusHtml(state: RecordState, nowMs: number): string {
  const when = (ms: number): string => `${formatUtc(ms)} (${formatAge(nowMs - ms)} ago)`;
  const last = state.lastRound;
  const good = state.lastSuccessMs === undefined ? 'none yet' : when(state.lastSuccessMs);
  let round = 'none yet';
  if (last) {
    const r = last.result;
    const outcome =
      r.outcome === 'complete' ? '<span class="ok">complete</span>' : `<span class="bad">${r.outcome}</span>`;
    round =
      `${outcome} at ${when(last.startedAtMs)}, ${formatAge(last.durationMs)}: ${r.gapsFound} gaps found, ` +
      `${r.rowsWritten} rows written for ${r.stationsFilled} stations, ${r.upstreamRequests} CityAir requests; ` +
      `not filled: ${r.unfilled.no_rows} with no rows in CityAir, ${r.unfilled.not_served} not served, ${r.unfilled.failed} failed`;
  }
  const failures = last
    ? Object.entries(last.result.failures)
        .map(([kind, message]) => `<code>${escapeHtml(kind)}</code> — ${escapeHtml(String(message))}`)
        .join('<br>')
    : '';
  const next =
    state.nextRoundAtMs === undefined ? 'after the first station list' : formatUtc(state.nextRoundAtMs);
  return `<h3>Record</h3>
<dl class="facts" id="record"><dt>Last good round</dt><dd>${good}</dd><dt>Last round</dt><dd>${round}</dd>\
<dt>Failure</dt><dd>${failures === '' ? 'none' : `<span class="bad">${failures}</span>`}</dd>\
<dt>Rows written since start</dt><dd>${state.rowsWrittenSinceStart}</dd><dt>Next round</dt><dd>${next}</dd></dl>`;
}
