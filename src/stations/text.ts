// Renders the station families straight to exposition bytes, once per refresh. prom-client would build an
// object per series on every scrape. Building the text as strings line by line was the largest cost of a refresh
// at 100,000 stations (millions of rope nodes kept alive through every young-generation GC, a two-byte flatten,
// then a UTF-8 pass), so this measures the exact size first and writes UTF-8 into one Buffer.

import { familyHeader } from '../exposition/gauge-text.js';
import { COLLECT_ABOVE_BYTES, collectDeadBuffers } from '../runtime/dead-buffers.js';
import { STATION_INFO_LABELS, STATION_METRICS } from './metrics.js';
import { STATION_FIELDS, type Station, type StationList } from './schema.js';

const M = STATION_METRICS;
const ascii = (s: string): Buffer => Buffer.from(s, 'latin1');

// The constant pieces of every line, in label order (the order prom-client uses: as declared in the catalog).
const INFO_OPEN = ascii(`${M.info.name}{id="`);
const ONLINE_OPEN = ascii(`${M.online.name}{id="`);
const LAT_OPEN = ascii(`${M.latitude.name}{id="`);
const LON_OPEN = ascii(`${M.longitude.name}{id="`);
const OFFSET_OPEN = ascii(`${M.utcOffset.name}{id="`);
// The info family's labels after id, in the order the table declares them (name, description, tz).
const [NAME, DESCRIPTION, TZ] = STATION_INFO_LABELS.map((label) => ascii(`",${label}="`)) as [
  Buffer,
  Buffer,
  Buffer,
];
const CLOSE = ascii('"} ');
const ONE = ascii('"} 1\n');
const ONLINE_1 = ascii('"} 1\n');
const ONLINE_0 = ascii('"} 0\n');

/** Bytes of a label value once escaped (backslash, quote, line feed) and UTF-8 encoded as Buffer.from would. */
export function labelValueBytes(value: string): number {
  let n = value.length;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x80) {
      if (c === 0x5c || c === 0x22 || c === 0x0a) n++;
    } else if (c < 0x800) {
      n += 1;
    } else if (c >= 0xd800 && c <= 0xdbff && isLowSurrogate(value.charCodeAt(i + 1))) {
      n += 2; // Two UTF-16 units, four bytes.
      i++;
    } else {
      n += 2; // Three bytes, also for a lone surrogate (written as U+FFFD).
    }
  }
  return n;
}

const isLowSurrogate = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

/** Writes into a Buffer sized in advance; the station loop calls nothing that allocates. */
class Writer {
  pos = 0;
  constructor(readonly buf: Buffer) {}

  bytes(piece: Uint8Array): void {
    const { buf } = this;
    let pos = this.pos;
    for (let i = 0; i < piece.length; i++) buf[pos++] = piece[i] as number;
    this.pos = pos;
  }

  /** Numbers as JavaScript prints them: ASCII only. */
  ascii(text: string): void {
    const { buf } = this;
    let pos = this.pos;
    for (let i = 0; i < text.length; i++) buf[pos++] = text.charCodeAt(i);
    this.pos = pos;
  }

  newline(): void {
    this.buf[this.pos++] = 0x0a;
  }

  text(text: string): void {
    this.pos += this.buf.write(text, this.pos, 'utf8');
  }

  labelValue(value: string): void {
    const { buf } = this;
    let pos = this.pos;
    for (let i = 0; i < value.length; i++) {
      let c = value.charCodeAt(i);
      if (c < 0x80) {
        if (c === 0x5c || c === 0x22) {
          buf[pos++] = 0x5c;
        } else if (c === 0x0a) {
          buf[pos++] = 0x5c;
          c = 0x6e;
        }
        buf[pos++] = c;
      } else if (c < 0x800) {
        buf[pos++] = 0xc0 | (c >> 6);
        buf[pos++] = 0x80 | (c & 0x3f);
      } else if (c >= 0xd800 && c <= 0xdbff && isLowSurrogate(value.charCodeAt(i + 1))) {
        const cp = 0x10000 + ((c - 0xd800) << 10) + (value.charCodeAt(++i) - 0xdc00);
        buf[pos++] = 0xf0 | (cp >> 18);
        buf[pos++] = 0x80 | ((cp >> 12) & 0x3f);
        buf[pos++] = 0x80 | ((cp >> 6) & 0x3f);
        buf[pos++] = 0x80 | (cp & 0x3f);
      } else {
        if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
        buf[pos++] = 0xe0 | (c >> 12);
        buf[pos++] = 0x80 | ((c >> 6) & 0x3f);
        buf[pos++] = 0x80 | (c & 0x3f);
      }
    }
    this.pos = pos;
  }
}

/** What the write pass needs, computed once: numbers as text, and the exact size of the result. */
interface Layout {
  readonly ids: string[];
  readonly latitudes: (string | undefined)[];
  readonly longitudes: (string | undefined)[];
  readonly offsets: (string | undefined)[];
  readonly headers: { readonly latitude: string; readonly longitude: string; readonly utcOffset: string };
  readonly trailer: string;
  readonly size: number;
}

// Ids are integers from JSON: String() prints them in full (1000000, never 1e+06) up to 2^53; values as
// prom-client prints them (`${value}`), which Prometheus parses back to the same float64.
const optional = (v: number | undefined): string | undefined => (v === undefined ? undefined : String(v));

interface Sizes {
  online: number;
  stationLines: number;
  latitude: number;
  longitude: number;
  utcOffset: number;
}

// The loop lives alone: V8 compiled it on the stack while the code after it had never run, and deoptimised on
// every call there, leaving most of each refresh in the interpreter (seen with --trace-deopt).
function measure(stations: readonly Station[], numbers: Omit<Layout, 'headers' | 'trailer' | 'size'>): Sizes {
  const sizes: Sizes = { online: 0, stationLines: 0, latitude: 0, longitude: 0, utcOffset: 0 };
  for (let i = 0; i < stations.length; i++) {
    const s = stations[i] as Station;
    const id = String(s.id);
    numbers.ids[i] = id;
    if (s.online) sizes.online++;
    const name = labelValueBytes(s.name);
    const tz = labelValueBytes(s.tz);
    sizes.stationLines +=
      INFO_OPEN.length + id.length + NAME.length + name + DESCRIPTION.length + labelValueBytes(s.description);
    sizes.stationLines += TZ.length + tz + ONE.length;
    sizes.stationLines +=
      ONLINE_OPEN.length + id.length + NAME.length + name + TZ.length + tz + ONLINE_1.length;
    const lat = optional(s.latitude);
    const lon = optional(s.longitude);
    const off = optional(s.utcOffsetSeconds);
    numbers.latitudes[i] = lat;
    numbers.longitudes[i] = lon;
    numbers.offsets[i] = off;
    if (lat !== undefined) sizes.latitude += LAT_OPEN.length + id.length + CLOSE.length + lat.length + 1;
    if (lon !== undefined) sizes.longitude += LON_OPEN.length + id.length + CLOSE.length + lon.length + 1;
    if (off !== undefined) sizes.utcOffset += OFFSET_OPEN.length + id.length + CLOSE.length + off.length + 1;
  }
  return sizes;
}

function layout(list: StationList): Layout {
  const n = list.stations.length;
  const numbers = {
    ids: new Array<string>(n),
    latitudes: new Array<string | undefined>(n),
    longitudes: new Array<string | undefined>(n),
    offsets: new Array<string | undefined>(n),
  };
  const sizes = measure(list.stations, numbers);
  const headers = {
    latitude: sizes.latitude > 0 ? familyHeader(M.latitude) : '',
    longitude: sizes.longitude > 0 ? familyHeader(M.longitude) : '',
    utcOffset: sizes.utcOffset > 0 ? familyHeader(M.utcOffset) : '',
  };
  const { online } = sizes;
  const trailer =
    `${familyHeader(M.count)}${M.count.name}{state="online"} ${online}\n${M.count.name}{state="offline"} ${n - online}\n` +
    `${familyHeader(M.rejected)}${M.rejected.name}{reason="invalid"} ${list.rejected.invalid}\n` +
    `${M.rejected.name}{reason="duplicate"} ${list.rejected.duplicate}\n` +
    familyHeader(M.fieldsSkipped) +
    STATION_FIELDS.map((f) => `${M.fieldsSkipped.name}{field="${f}"} ${list.skippedFields?.[f] ?? 0}\n`).join(
      '',
    );
  const stationHeaders =
    n > 0 ? Buffer.byteLength(familyHeader(M.info)) + Buffer.byteLength(familyHeader(M.online)) : 0;
  const size =
    stationHeaders +
    sizes.stationLines +
    sizes.latitude +
    sizes.longitude +
    sizes.utcOffset +
    Buffer.byteLength(headers.latitude + headers.longitude + headers.utcOffset + trailer);
  return { ...numbers, headers, trailer, size };
}

function writeNumberFamily(
  w: Writer,
  open: Uint8Array,
  ids: readonly string[],
  values: readonly (string | undefined)[],
): void {
  for (let i = 0; i < ids.length; i++) {
    const v = values[i];
    if (v === undefined) continue;
    w.bytes(open);
    w.ascii(ids[i] as string);
    w.bytes(CLOSE);
    w.ascii(v);
    w.newline();
  }
}

function writeInfo(w: Writer, stations: readonly Station[], ids: readonly string[]): void {
  for (let i = 0; i < stations.length; i++) {
    const s = stations[i] as Station;
    w.bytes(INFO_OPEN);
    w.ascii(ids[i] as string);
    w.bytes(NAME);
    w.labelValue(s.name);
    w.bytes(DESCRIPTION);
    w.labelValue(s.description);
    w.bytes(TZ);
    w.labelValue(s.tz);
    w.bytes(ONE);
  }
}

function writeOnline(w: Writer, stations: readonly Station[], ids: readonly string[]): void {
  for (let i = 0; i < stations.length; i++) {
    const s = stations[i] as Station;
    w.bytes(ONLINE_OPEN);
    w.ascii(ids[i] as string);
    w.bytes(NAME);
    w.labelValue(s.name);
    w.bytes(TZ);
    w.labelValue(s.tz);
    w.bytes(s.online ? ONLINE_1 : ONLINE_0);
  }
}

/** The station part of the exposition as UTF-8, identical in text 0.0.4 and OpenMetrics (gauges, no timestamps). */
export function renderStationText(list: StationList): Buffer {
  const { stations } = list;
  const plan = layout(list);
  if (plan.size > COLLECT_ABOVE_BYTES) collectDeadBuffers();
  const out = new Writer(Buffer.allocUnsafe(plan.size));
  if (stations.length > 0) {
    out.text(familyHeader(M.info));
    writeInfo(out, stations, plan.ids);
    out.text(familyHeader(M.online));
    writeOnline(out, stations, plan.ids);
  }
  const families = [
    [plan.headers.latitude, LAT_OPEN, plan.latitudes],
    [plan.headers.longitude, LON_OPEN, plan.longitudes],
    [plan.headers.utcOffset, OFFSET_OPEN, plan.offsets],
  ] as const;
  for (const [head, open, values] of families) {
    if (head === '') continue;
    out.text(head);
    writeNumberFamily(out, open, plan.ids, values);
  }
  out.text(plan.trailer);
  // A wrong size would mean a truncated or padded exposition: fail the refresh loudly instead.
  if (out.pos !== plan.size) throw new Error(`station text is ${out.pos} bytes, expected ${plan.size}`);
  return out.buf;
}
