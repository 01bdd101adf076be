// Text into HTML, and the few time formats the status page uses.

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

// Control characters other than tab and line feed: NUL, CR, ESC, DEL and the C1 range. Station text is cleaned
// when it is read; this is the last line for any other text from outside (a failure message, a filter query).
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this replaces
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Safe in element content and in quoted attribute values alike; control characters become spaces. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c).replace(CONTROLS, ' ');
}

/** A duration in the largest unit that keeps two significant digits: "45 s", "12 min", "5 h", "3 d". */
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 120) return `${s} s`;
  const min = Math.round(s / 60);
  if (min < 120) return `${min} min`;
  const h = Math.round(min / 60);
  return h < 48 ? `${h} h` : `${Math.round(h / 24)} d`;
}

/** UTC, to the second: the exporter has no idea of the reader's time zone, and servers log in UTC. */
export function formatUtc(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
