import { inspect } from 'node:util';

const REDACTED = '[REDACTED]';

/**
 * Holds the API key so that no accidental path (template string, JSON.stringify, util.inspect, a logged
 * config object) can print it; only the upstream client calls reveal().
 */
export class Secret {
  readonly #value: string;
  constructor(value: string) {
    this.#value = value;
  }
  reveal(): string {
    return this.#value;
  }
  toString(): string {
    return REDACTED;
  }
  toJSON(): string {
    return REDACTED;
  }
  [inspect.custom](): string {
    return REDACTED;
  }
}

/**
 * A run of this many characters of the key is treated as the key: an API that echoes the first characters of a bad
 * key, or a line break inside an echoed key, must not show a usable part of it.
 */
export const KEY_FRAGMENT_CHARS = 6;

/**
 * Replaces every occurrence of the secret in text, and every run of KEY_FRAGMENT_CHARS or more characters that
 * stands in the key: the last line of defence for log output and messages. For short texts (lines, excerpts), not
 * whole bodies: it looks at every position.
 */
export function scrub(text: string, secret: Secret | undefined): string {
  const value = secret?.reveal();
  if (!value) return text;
  const whole = text.includes(value) ? text.split(value).join(REDACTED) : text;
  return withoutFragments(whole, value);
}

function withoutFragments(text: string, key: string): string {
  const n = KEY_FRAGMENT_CHARS;
  if (key.length < n || text.length < n) return text;
  let out = '';
  let from = 0;
  let i = 0;
  while (i <= text.length - n) {
    if (!key.includes(text.slice(i, i + n))) {
      i++;
      continue;
    }
    let end = i + n;
    while (end < text.length && key.includes(text.slice(i, end + 1))) end++;
    out += `${text.slice(from, i)}${REDACTED}`;
    from = end;
    i = end;
  }
  return from === 0 ? text : out + text.slice(from);
}
