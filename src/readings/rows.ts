// The rows of one readings answer that may be read: the answer's shape, each row's date and station, and rows
// dated in the future. The newest of them is the live reading (schema.ts), all of them are the history.
import { z } from 'zod';
import { failure, type Result } from '../upstream/failure.js';
import { isFutureDated, parseUtcDate } from './dates.js';

/** Rows of an answer that are not served, besides the ones it was built from. */
export interface RowCounts {
  /** Rows dropped: no ISO date with an offset, or a postId naming another station. */
  readonly rejectedRows: number;
  /** Rows dated more than FUTURE_TOLERANCE_MS ahead of the exporter's clock, never served; absent when none. */
  readonly futureRows?: number;
  /** The latest of those dates, for the log line. */
  readonly newestFutureMs?: number;
}

export interface ValidRow {
  readonly row: Record<string, unknown>;
  readonly atMs: number;
}

const answerSchema = z.object({
  meta: z.object({ units: z.record(z.string(), z.unknown()).nullish() }).nullish(),
  data: z.array(z.unknown()),
});

// Checks the two fields every row must carry; the row's own object is kept (its readings are checked one by one
// in schema.ts), so a history of thousands of rows is not copied key by key.
const rowSchema = z.object({
  date: z.string().max(64),
  postId: z.unknown(),
});

/** A row that names a station names this one; a number or its digits as a string both count. */
const namesOther = (postId: unknown, id: number): boolean =>
  (typeof postId === 'number' || typeof postId === 'string') && String(postId) !== String(id);

/**
 * The rows of one answer for station `id` that may be served at `nowMs`, in the answer's order, with its units.
 * A wrong outer shape, or rows of which none is valid (and none merely dated in the future), fail the answer.
 */
export function validRows(
  id: number,
  body: unknown,
  nowMs: number,
): Result<{ rows: ValidRow[]; units: Record<string, unknown>; counts: RowCounts }> {
  const parsed = answerSchema.safeParse(body);
  if (!parsed.success) return failure('invalid_payload', `readings answer: ${firstIssue(parsed.error)}`);
  const { data } = parsed.data;
  const rows: ValidRow[] = [];
  let rejectedRows = 0;
  let futureRows = 0;
  let newestFutureMs: number | undefined;
  let firstProblem = '';
  for (let i = 0; i < data.length; i++) {
    const row = rowSchema.safeParse(data[i]);
    const atMs = row.success ? parseUtcDate(row.data.date) : undefined;
    const otherStation = row.success && namesOther(row.data.postId, id);
    if (!row.success || atMs === undefined || otherStation) {
      rejectedRows++;
      firstProblem ||= !row.success
        ? `row ${i}: ${firstIssue(row.error)}`
        : otherStation
          ? `row ${i}: postId ${String(row.data.postId).slice(0, 20)} is not station ${id}`
          : `row ${i}: date is not an ISO time with an offset`;
    } else if (isFutureDated(atMs, nowMs)) {
      futureRows++;
      newestFutureMs = Math.max(atMs, newestFutureMs ?? atMs);
    } else rows.push({ row: data[i] as Record<string, unknown>, atMs });
  }
  if (rows.length === 0 && futureRows === 0 && rejectedRows > 0) {
    return failure('invalid_payload', `none of the ${data.length} rows is valid; ${firstProblem}`);
  }
  const counts: RowCounts =
    newestFutureMs === undefined ? { rejectedRows } : { rejectedRows, futureRows, newestFutureMs };
  return { ok: true, value: { rows, units: parsed.data.meta?.units ?? {}, counts } };
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const path = issue?.path.length ? issue.path.join('.') : '(answer)';
  return `${path}: ${issue?.message ?? 'invalid'}`;
}
