// Text that came from the API and goes into a message (a log line, the status page, a failure): the key taken
// out first, then control characters, then the length cut. In the other order a cut can split the key, and the
// half that remains is no longer recognisable as the key.
import { type Secret, scrub } from '../config/secret.js';

const REDACTED = '[REDACTED]';

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/** Every occurrence of the key in text from the API, also as a JSON string may spell it (`/` written `\/`). */
export function withoutKey(text: string, secret: Secret | undefined): string {
  const key = secret?.reveal();
  if (!key) return text;
  let out = text.includes(key) ? text.split(key).join(REDACTED) : text;
  const escaped = key.includes('/') ? key.replaceAll('/', '\\/') : undefined;
  if (escaped && out.includes(escaped)) out = out.split(escaped).join(REDACTED);
  return out;
}

/**
 * One line of at most `max` characters for a message: JSON escapes read (so `\u002B` cannot hide a `+` of the key),
 * controls turned into spaces, the key and any run of its characters removed, then cut.
 */
export function excerpt(text: string, secret: Secret | undefined, max: number): string {
  const line = scrub(
    withoutKey(text, secret).replace(JSON_ESCAPE, unescapeOne).replace(CONTROLS, ' '),
    secret,
  ).trim();
  if (line.length <= max) return line;
  // Never half of a surrogate pair.
  const cut = isHighSurrogate(line.charCodeAt(max - 2)) ? max - 2 : max - 1;
  return `${line.slice(0, cut)}…`;
}

const JSON_ESCAPE = /\\(u[0-9a-fA-F]{4}|[\\/"bfnrt])/g;
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\',
  '/': '/',
  '"': '"',
  b: ' ',
  f: ' ',
  n: ' ',
  r: ' ',
  t: ' ',
};
const unescapeOne = (_: string, e: string): string =>
  e.startsWith('u') ? String.fromCharCode(Number.parseInt(e.slice(1), 16)) : (SIMPLE_ESCAPES[e] ?? e);

const isHighSurrogate = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
