// Parsers for the human units that appear in flags and env: Prometheus durations and byte sizes.

const DURATION_UNITS_MS: ReadonlyArray<readonly [string, number]> = [
  ['y', 365 * 24 * 3600 * 1000],
  ['w', 7 * 24 * 3600 * 1000],
  ['d', 24 * 3600 * 1000],
  ['h', 3600 * 1000],
  ['m', 60 * 1000],
  ['s', 1000],
  ['ms', 1],
];

// Same grammar as Prometheus' model.ParseDuration: units in descending order, each at most once.
const DURATION_RE = /^(?:(\d+)y)?(?:(\d+)w)?(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?(?:(\d+)ms)?$/;

/** Milliseconds, or undefined when the text is not a Prometheus duration. */
export function parseDurationMs(text: string): number | undefined {
  if (text === '0') return 0;
  if (text === '') return undefined;
  const match = DURATION_RE.exec(text);
  if (!match) return undefined;
  let total = 0;
  DURATION_UNITS_MS.forEach(([, factor], i) => {
    const part = match[i + 1];
    if (part !== undefined) total += Number(part) * factor;
  });
  return Number.isSafeInteger(total) ? total : undefined;
}

export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  let rest = ms;
  let out = '';
  for (const [unit, factor] of DURATION_UNITS_MS) {
    if (unit === 'y' || unit === 'w') continue;
    const n = Math.floor(rest / factor);
    if (n > 0) {
      out += `${n}${unit}`;
      rest -= n * factor;
    }
  }
  return out;
}

const BYTE_UNITS: Readonly<Record<string, number>> = {
  '': 1,
  b: 1,
  kb: 1000,
  mb: 1000 ** 2,
  gb: 1000 ** 3,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
};

/** Bytes from `512KiB`, `64MiB`, `10MB` or a plain integer; undefined when not a size. */
export function parseByteSize(text: string): number | undefined {
  const match = /^(\d+)\s*([a-zA-Z]*)$/.exec(text.trim());
  if (!match) return undefined;
  const factor = BYTE_UNITS[(match[2] ?? '').toLowerCase()];
  if (factor === undefined) return undefined;
  const bytes = Number(match[1]) * factor;
  return Number.isSafeInteger(bytes) ? bytes : undefined;
}
