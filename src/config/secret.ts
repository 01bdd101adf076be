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

/** Replaces every occurrence of the secret in text: the last line of defence for log output. */
export function scrub(text: string, secret: Secret | undefined): string {
  const value = secret?.reveal();
  if (!value || !text.includes(value)) return text;
  return text.split(value).join(REDACTED);
}
