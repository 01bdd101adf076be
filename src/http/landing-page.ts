// The HTML page at /: who this is, where the metrics are, and how the last refresh went.
import { servable } from '../collectors/refresh-policy.js';
import type { StationState } from '../collectors/stations.js';

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
  state: StationState;
  maxAgeMs: number;
  nowMs: number;
}): string {
  const { state, nowMs } = input;
  const last = state.lastAttempt;
  const result = !last
    ? 'no refresh yet'
    : `${last.reason ? `failed (${escapeHtml(last.reason)})` : 'succeeded'}, ${ago(nowMs - last.atMs)}`;
  const served = servable(state, nowMs, input.maxAgeMs);
  const all = served?.data.stations ?? [];
  const online = all.filter((s) => s.online).length;
  const counts = served
    ? `${all.length} stations: ${online} online, ${all.length - online} offline (data from ${ago(nowMs - served.fetchedAtMs)})`
    : 'no station data is being served';
  const sample = served?.data.stations
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
