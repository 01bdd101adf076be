// The upstream station list: the only place where CityAir's JSON becomes typed data.
import { z } from 'zod';
import type { ElementSink, ElementsReader } from '../upstream/exchange.js';
import { failure, type Result } from '../upstream/failure.js';
import { labelText, MAX_DESCRIPTION_BYTES, MAX_NAME_BYTES } from './label-text.js';

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

/** Optional fields that can be left out of a station that is kept: the `field` label of the skipped count. */
export const STATION_FIELDS = ['description', 'geo', 'latitude', 'longitude', 'utc_offset', 'tz'] as const;
export type StationField = (typeof STATION_FIELDS)[number];

export interface StationList {
  readonly stations: readonly Station[];
  readonly rejected: { readonly invalid: number; readonly duplicate: number };
  /** Invalid optional fields left out of kept stations, by field; absent means none. */
  readonly skippedFields?: Readonly<Record<StationField, number>>;
  /** A few dropped elements and why, for one log line; never the whole element. */
  readonly problems: readonly string[];
  /** A few fields left out of kept stations and why, for the other log line. */
  readonly fieldProblems: readonly string[];
}

const MAX_OFFSET_SECONDS = 18 * 3600;
const MAX_PROBLEMS = 5;
/** A station is well under 1 KiB; a larger element is skipped unread (its size is what would cost). */
export const MAX_ELEMENT_BYTES = 256 * 1024;
/** A station holds about 20 JSON values (30 with extra fields); a list of many more per station is refused. */
export const MAX_VALUES_PER_STATION = 100;

// Which fields are required is "not shown" in the spec: id, name and isOnline carry the metrics, so they are
// required; everything else may be missing or null, and when invalid it is left out and counted, the station
// kept: one bad coordinate must not take a station's online state, and its offline alert, with it.
const requiredSchema = z.object({ id: z.int(), name: z.string(), isOnline: z.boolean() });

const OPTIONAL = {
  description: z.string(),
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  utc_offset: z.int().min(-MAX_OFFSET_SECONDS).max(MAX_OFFSET_SECONDS),
  // An IANA name ("Asia/Novosibirsk", "Etc/GMT+3"): a label value, so nothing else gets through.
  tz: z.string().regex(/^[A-Za-z0-9_+\-/]{0,64}$/),
} as const;

/**
 * A station with every field valid, in one parse: nearly every element of a real list. An element it refuses is
 * read again field by field (requiredSchema, then OPTIONAL one at a time), which says what was wrong and keeps
 * what was not; the two accept the same stations, whole (test/stations/schema.test.ts).
 */
const wholeSchema = z.object({
  id: requiredSchema.shape.id,
  name: requiredSchema.shape.name,
  isOnline: requiredSchema.shape.isOnline,
  description: OPTIONAL.description.nullish(),
  geo: z
    .object({
      latitude: OPTIONAL.latitude.nullish(),
      longitude: OPTIONAL.longitude.nullish(),
      gmtOffsetSeconds: OPTIONAL.utc_offset.nullish(),
      timeZoneIana: OPTIONAL.tz.nullish(),
    })
    .nullish(),
});

/** Where each optional field sits in an element. */
const SOURCE = {
  description: (e: Element) => e.description,
  latitude: (e: Element) => geoOf(e)?.latitude,
  longitude: (e: Element) => geoOf(e)?.longitude,
  utc_offset: (e: Element) => geoOf(e)?.gmtOffsetSeconds,
  tz: (e: Element) => geoOf(e)?.timeZoneIana,
} as const;

type Element = Readonly<Record<string, unknown>>;

const isRecord = (v: unknown): v is Element => typeof v === 'object' && v !== null && !Array.isArray(v);
const geoOf = (e: Element): Element | undefined => (isRecord(e.geo) ? e.geo : undefined);

const zeroFields = (): Record<StationField, number> =>
  Object.fromEntries(STATION_FIELDS.map((f) => [f, 0])) as Record<StationField, number>;

/** The list read element by element by the exchange, at most maxStations of them. */
export function stationListReader(maxStations: number): ElementsReader<StationList> {
  return {
    maxElements: maxStations,
    maxElementsSetting: '--upstream.max-stations',
    maxElementBytes: MAX_ELEMENT_BYTES,
    maxValuesPerElement: MAX_VALUES_PER_STATION,
    start: startStationList,
    whole: parseStationList,
  };
}

/**
 * Validates a decoded body (the exchange reads large lists through stationListReader instead). A non-array, or a
 * non-empty array without one valid station, is a failed answer, because serving it would replace good data with
 * nothing.
 */
export function parseStationList(body: unknown): Result<StationList> {
  if (!Array.isArray(body)) {
    const kind = body === null ? 'null' : typeof body;
    return failure('invalid_payload', `expected a JSON array of stations, got ${kind}`);
  }
  const sink = startStationList();
  body.forEach(sink.add);
  return sink.finish(body.length);
}

/** Each element stands alone: a bad one is skipped and counted, a duplicate id keeps the first. */
function startStationList(): ElementSink<StationList> {
  const stations: Station[] = [];
  const seen = new Set<number>();
  const problems: string[] = [];
  const fieldProblems: string[] = [];
  const skippedFields = zeroFields();
  const rejected = { invalid: 0, duplicate: 0 };
  const problem = (text: string): void => {
    if (problems.length < MAX_PROBLEMS) problems.push(text);
  };
  return {
    add: (element, index) => {
      const whole = wholeSchema.safeParse(element);
      const parsed = whole.success ? whole : requiredSchema.safeParse(element);
      if (!parsed.success) {
        rejected.invalid++;
        problem(describeProblem(index, parsed.error));
        return;
      }
      const { id } = parsed.data;
      if (seen.has(id)) {
        rejected.duplicate++;
        problem(`element ${index}: id ${id} repeats an earlier one`);
        return;
      }
      seen.add(id);
      const optional = whole.success
        ? optionalOf(whole.data)
        : readOptional(element as Element, (field) => {
            skippedFields[field]++;
            if (fieldProblems.length < MAX_PROBLEMS)
              fieldProblems.push(`element ${index} (id ${id}): ${field} is not valid; left out`);
          });
      stations.push({
        id,
        name: labelText(parsed.data.name, MAX_NAME_BYTES),
        online: parsed.data.isOnline,
        description: labelText(optional.description ?? '', MAX_DESCRIPTION_BYTES),
        tz: optional.tz ?? '',
        utcOffsetSeconds: optional.utc_offset,
        latitude: optional.latitude,
        longitude: optional.longitude,
      });
    },
    oversize: (index, bytes) => {
      rejected.invalid++;
      problem(`element ${index}: ${bytes} bytes, more than a station can be (${MAX_ELEMENT_BYTES})`);
    },
    finish: (count) => {
      if (count > 0 && stations.length === 0) {
        return failure(
          'invalid_payload',
          `none of the ${count} elements is a valid station; ${problems[0] ?? ''}`,
        );
      }
      return { ok: true, value: { stations, rejected, skippedFields, problems, fieldProblems } };
    },
  };
}

type Optional = { -readonly [K in keyof typeof OPTIONAL]?: z.output<(typeof OPTIONAL)[K]> | undefined };

/** The optional fields of a station that passed wholeSchema, null read as absent. */
function optionalOf(data: z.output<typeof wholeSchema>): Optional {
  const { description, geo } = data;
  return {
    description: description ?? undefined,
    latitude: geo?.latitude ?? undefined,
    longitude: geo?.longitude ?? undefined,
    utc_offset: geo?.gmtOffsetSeconds ?? undefined,
    tz: geo?.timeZoneIana ?? undefined,
  };
}

/** The optional fields that are valid; each present but invalid one is reported (null counts as absent). */
function readOptional(e: Element, skip: (field: StationField) => void): Optional {
  const out: Optional = {};
  if (e.geo !== undefined && e.geo !== null && !isRecord(e.geo)) skip('geo');
  for (const field of Object.keys(OPTIONAL) as (keyof typeof OPTIONAL)[]) {
    const value = SOURCE[field](e);
    if (value === undefined || value === null) continue;
    const parsed = OPTIONAL[field].safeParse(value);
    if (parsed.success) (out as Record<string, unknown>)[field] = parsed.data;
    else skip(field);
  }
  return out;
}

function describeProblem(index: number, error: z.ZodError): string {
  const issue = error.issues[0];
  const path = issue?.path.length ? issue.path.join('.') : '(element)';
  return `element ${index}: ${path}: ${issue?.message ?? 'invalid'}`;
}
