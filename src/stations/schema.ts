// The upstream station list: the only place where CityAir's JSON becomes typed data.
import { z } from 'zod';
import { failure, type Result } from '../upstream/failure.js';

/** One station as the exporter uses it: flat, validated, labels ready. */
export interface Station {
  readonly id: number;
  readonly name: string;
  readonly description: string;
  readonly online: boolean;
  /** IANA time zone name, '' when unknown. */
  readonly tz: string;
  readonly utcOffsetSeconds: number | undefined;
  readonly latitude: number | undefined;
  readonly longitude: number | undefined;
}

export interface StationList {
  readonly stations: readonly Station[];
  readonly rejected: { readonly invalid: number; readonly duplicate: number };
  /** A few element problems, for one log line; never the whole element. */
  readonly problems: readonly string[];
}

const MAX_OFFSET_SECONDS = 18 * 3600;
const MAX_PROBLEMS = 5;

// Which fields are required is "not shown" in the spec: id, name and isOnline carry the metrics, so they are
// required; everything else may be missing or null and only removes the series that need it.
const geoSchema = z
  .object({
    gmtOffsetSeconds: z.int().min(-MAX_OFFSET_SECONDS).max(MAX_OFFSET_SECONDS).nullish(),
    timeZoneIana: z.string().max(256).nullish(),
    latitude: z.number().min(-90).max(90).nullish(),
    longitude: z.number().min(-180).max(180).nullish(),
  })
  .nullish();

const stationSchema = z.object({
  id: z.int(),
  name: z.string(),
  description: z.string().nullish(),
  isOnline: z.boolean(),
  geo: geoSchema,
});

type StationInput = z.infer<typeof stationSchema>;

function toStation(s: StationInput): Station {
  const geo = s.geo ?? undefined;
  return {
    id: s.id,
    name: s.name,
    description: s.description ?? '',
    online: s.isOnline,
    tz: geo?.timeZoneIana ?? '',
    utcOffsetSeconds: geo?.gmtOffsetSeconds ?? undefined,
    latitude: geo?.latitude ?? undefined,
    longitude: geo?.longitude ?? undefined,
  };
}

function describeProblem(index: number, error: z.ZodError): string {
  const issue = error.issues[0];
  const path = issue?.path.length ? issue.path.join('.') : '(element)';
  return `element ${index}: ${path}: ${issue?.message ?? 'invalid'}`;
}

/**
 * Validates the decoded body. Each element stands alone: a bad one is skipped and counted, a duplicate id keeps
 * the first. A non-array, or a non-empty array without one valid station, is a failed answer, because serving
 * it would replace good data with nothing.
 */
export function parseStationList(body: unknown): Result<StationList> {
  if (!Array.isArray(body)) {
    const kind = body === null ? 'null' : typeof body;
    return failure('invalid_payload', `expected a JSON array of stations, got ${kind}`);
  }
  const stations: Station[] = [];
  const seen = new Set<number>();
  const problems: string[] = [];
  let invalid = 0;
  let duplicate = 0;
  for (let i = 0; i < body.length; i++) {
    const parsed = stationSchema.safeParse(body[i]);
    if (!parsed.success) {
      invalid++;
      if (problems.length < MAX_PROBLEMS) problems.push(describeProblem(i, parsed.error));
      continue;
    }
    if (seen.has(parsed.data.id)) {
      duplicate++;
      if (problems.length < MAX_PROBLEMS)
        problems.push(`element ${i}: id ${parsed.data.id} repeats an earlier one`);
      continue;
    }
    seen.add(parsed.data.id);
    stations.push(toStation(parsed.data));
  }
  if (body.length > 0 && stations.length === 0) {
    return failure(
      'invalid_payload',
      `none of the ${body.length} elements is a valid station; ${problems[0] ?? ''}`,
    );
  }
  return { ok: true, value: { stations, rejected: { invalid, duplicate }, problems } };
}
