// Where a round of readings starts. A round stopped by the API (429, or 503 with Retry-After) leaves the rest of
// the list unread; the next round starts where it stopped instead of at the top, so every station gets its turn
// and the end of a long list is not starved.

/** The station a round starts with; its index is the fallback when that station has left the list. */
export interface RoundCursor {
  readonly id: number;
  readonly index: number;
}

/** The ids in the order a round asks for them: from the cursor's station to the end, then from the top. */
export function rotate(
  ids: readonly number[],
  cursor: RoundCursor | undefined,
): { readonly order: number[]; readonly start: number } {
  if (cursor === undefined || ids.length === 0) return { order: [...ids], start: 0 };
  const found = ids.indexOf(cursor.id);
  const start = found >= 0 ? found : cursor.index < ids.length ? cursor.index : 0;
  return { order: [...ids.slice(start), ...ids.slice(0, start)], start };
}

/**
 * Where the next round starts, given the order of this one, how many of its stations were asked, and which
 * positions the API refused with a request to wait. A refused station is asked first next time (a limit that
 * refuses every Nth request would otherwise starve the same stations on every pass), unless it was this round's
 * first one too: then it waits for the next pass, so every round moves the cursor on by at least one station and
 * none waits more than a bounded number of rounds.
 */
export function nextCursor(
  order: readonly number[],
  start: number,
  asked: number,
  refused: (position: number) => boolean,
): RoundCursor | undefined {
  if (order.length === 0) return undefined;
  let resume = asked;
  for (let p = 1; p < asked; p++) {
    if (refused(p)) {
      resume = p;
      break;
    }
  }
  const position = resume % order.length;
  return { id: order[position] as number, index: (start + position) % order.length };
}
