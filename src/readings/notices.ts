// The readings collector's log lines that must not repeat every round: each says something once, or once per
// change, however many rounds keep saying it. Each remembers a bounded amount, whatever the API sends.
import type { Logger } from 'pino';
import type { FutureDated, UnknownUnit } from './data.js';

// Bounds what an API sending a new unit text, or a new station ahead of time, every round can make us remember.
const MAX_REMEMBERED = 1024;
/** Ids named in one log line at most. */
const MAX_IDS_LOGGED = 20;

function onceEach(): (key: string) => boolean {
  const seen = new Set<string>();
  return (key) => {
    if (seen.has(key) || seen.size >= MAX_REMEMBERED) return false;
    seen.add(key);
    return true;
  };
}

/** A unit we do not convert: once per field and unit, with the unit's text. */
export function unknownUnitNotice(log: Logger): (u: UnknownUnit) => void {
  const first = onceEach();
  return ({ field, unit }) => {
    if (first(JSON.stringify([field, unit])))
      log.warn({ field, unit }, 'readings field left out: its unit is not one the exporter converts');
  };
}

/** A station sending rows dated ahead of our clock: once per station. */
export function futureDatedNotice(log: Logger): (f: FutureDated, nowMs: number) => void {
  const first = onceEach();
  return ({ id, atMs }, nowMs) => {
    if (!first(String(id))) return;
    log.warn(
      { id, row_date: new Date(atMs).toISOString(), ahead_s: Math.round((atMs - nowMs) / 1000) },
      "readings rows dated ahead of the exporter's clock are not served; is the station's clock right?",
    );
  };
}

/**
 * Ids of --measurements.stations that the station list does not hold are never asked for: said once, and again
 * whenever that set of ids changes (a station leaving or joining the list).
 */
export function missingIdsNotice(
  log: Logger,
): (wanted: readonly number[] | undefined, listed: readonly number[]) => void {
  let last = '';
  return (wanted, listed) => {
    const held = new Set(listed);
    const missing = [...new Set(wanted ?? [])].filter((id) => !held.has(id)).sort((a, b) => a - b);
    const key = missing.join(',');
    if (key === last) return;
    last = key;
    if (missing.length === 0) return;
    log.warn(
      { missing: missing.length, ids: missing.slice(0, MAX_IDS_LOGGED) },
      '--measurements.stations names stations the station list does not hold; they are not read',
    );
  };
}

/** Info lines for the first round that brings readings and for every change between working and failing. */
export function workingNotice(log: Logger): (ok: boolean, detail: object) => void {
  let working: boolean | undefined;
  let everWorked = false;
  return (ok, detail) => {
    if (ok && working !== true)
      log.info(detail, everWorked ? 'readings work again' : 'readings work: first successful round');
    if (!ok && working === true)
      log.info(detail, 'readings stopped working: every request of the round failed');
    everWorked ||= ok;
    working = ok;
  };
}
