// The query string of the status page: ?q= filters the station table. Anything malformed means no filter.
import { z } from 'zod';

/** The page's query string, parsed. */
export interface StatusQuery {
  /** Filter by name, id or time zone; '' shows every station. */
  readonly q: string;
}

/** Longer than any station name worth typing; keeps a hostile URL from costing more than a normal one. */
const MAX_QUERY_CHARS = 100;

// Control characters cannot come from the form and would only make odd matches.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
const CONTROL = /[\u0000-\u001f\u007f]/g;

const query = z
  .object({ q: z.union([z.string(), z.array(z.string()).transform((all) => all[0] ?? '')]).optional() })
  .catch({});

export function parseStatusQuery(raw: unknown): StatusQuery {
  const q = query.parse(raw).q ?? '';
  return { q: q.replace(CONTROL, '').trim().slice(0, MAX_QUERY_CHARS) };
}
