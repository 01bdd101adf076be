// The HTML page at /: who this is, where the metrics are, and how the last refresh went.
import type { RefreshPolicy, RefreshState } from '../refresh/policy.js';
import { servable } from '../refresh/policy.js';

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

function ago(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 120 ? `${s} s ago` : `${Math.round(s / 60)} min ago`;
}

export function renderLandingPage(input: {
  version: string;
  telemetryPath: string;
  upstream: string;
  demo: boolean;
  state: RefreshState;
  policy: RefreshPolicy;
  nowMs: number;
}): string {
  const { state, nowMs } = input;
  const last = state.lastAttempt;
  const result = !last
    ? 'no refresh yet'
    : `${last.reason ? `failed (${escapeHtml(last.reason)})` : 'succeeded'}, ${ago(nowMs - last.atMs)}`;
  const snap = servable(state, nowMs, input.policy);
  const counts = snap
    ? `${snap.online + snap.offline} stations: ${snap.online} online, ${snap.offline} offline (data from ${ago(nowMs - snap.fetchedAtMs)})`
    : 'no station data is being served';
  const sample = snap?.list.stations
    .slice(0, 10)
    .map(
      (s) =>
        `<li>${escapeHtml(s.name)} <small>${escapeHtml(s.tz)}</small>: ${s.online ? 'online' : 'offline'}</li>`,
    )
    .join('');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>CityAir exporter</title>
<style>body{font-family:system-ui,sans-serif;margin:2em;max-width:50em}</style></head>
<body><h1>CityAir exporter</h1>
<p>Version ${escapeHtml(input.version)}. Upstream: ${escapeHtml(input.upstream)}${input.demo ? ' <strong>(simulated demo data)</strong>' : ''}.</p>
<ul><li><a href="${escapeHtml(input.telemetryPath)}">Metrics</a></li><li><a href="/healthz">Health</a></li><li><a href="/readyz">Readiness</a></li></ul>
<p>Last refresh: ${result}.</p><p>${counts}.</p>
${sample ? `<ul>${sample}</ul>` : ''}
</body></html>
`;
}
