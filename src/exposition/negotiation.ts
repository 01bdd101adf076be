// Content negotiation for /metrics. Prometheus 2 and 3 list OpenMetrics first in Accept with q-values; anything
// unrecognised gets the text format, because a scrape must never fail over a header.

export type Format = 'text' | 'openmetrics';

export const CONTENT_TYPES: Readonly<Record<Format, string>> = {
  text: 'text/plain; version=0.0.4; charset=utf-8',
  openmetrics: 'application/openmetrics-text; version=1.0.0; charset=utf-8',
};

interface MediaRange {
  readonly type: string;
  readonly q: number;
  readonly version: string | undefined;
}

function parseRanges(header: string): MediaRange[] {
  return header.split(',').flatMap((part) => {
    const [type = '', ...params] = part.split(';').map((p) => p.trim());
    let q = 1;
    let version: string | undefined;
    for (const p of params) {
      const eq = p.indexOf('=');
      const key = p.slice(0, eq).trim().toLowerCase();
      const value = p
        .slice(eq + 1)
        .trim()
        .replace(/^"|"$/g, '');
      if (key === 'q') q = Number(value);
      else if (key === 'version') version = value;
    }
    return Number.isFinite(q) && q >= 0 && q <= 1 ? [{ type: type.toLowerCase(), q, version }] : [];
  });
}

export function negotiateFormat(accept: string | undefined): Format {
  if (!accept) return 'text';
  let openmetrics = 0;
  let text = 0;
  for (const r of parseRanges(accept)) {
    if (r.type === 'application/openmetrics-text' && (r.version === undefined || r.version === '1.0.0')) {
      openmetrics = Math.max(openmetrics, r.q);
    } else if (
      (r.type === 'text/plain' && (r.version === undefined || r.version === '0.0.4')) ||
      r.type === 'text/*' ||
      r.type === '*/*'
    ) {
      text = Math.max(text, r.q);
    }
  }
  return openmetrics > text ? 'openmetrics' : 'text';
}

export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  if (!acceptEncoding) return false;
  let gzip: number | undefined;
  let any: number | undefined;
  for (const r of parseRanges(acceptEncoding)) {
    if (r.type === 'gzip' || r.type === 'x-gzip') gzip = r.q;
    else if (r.type === '*') any = r.q;
  }
  return (gzip ?? any ?? 0) > 0;
}
