// The station families are rendered by hand (src/stations/text.ts), not by prom-client: this holds the
// hand-written text to prom-client's output for the same series, and to promtool's parser and linter.
import { Gauge, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { syntheticStations } from '../../src/demo/stations.js';
import { escapeLabelValue } from '../../src/exposition/escape.js';
import { STATION_METRICS } from '../../src/stations/metrics.js';
import {
  parseStationList,
  STATION_FIELDS,
  type Station,
  type StationList,
} from '../../src/stations/schema.js';
import { labelValueBytes, renderStationText } from '../../src/stations/text.js';
import { checkMetrics } from '../support/promtool.js';

/** The rendered bytes as text, the way a client decodes them. */
const renderStationFamilies = (list: StationList): string => renderStationText(list).toString('utf8');

const NASTY_NAMES = [
  'plain ASCII',
  'with "double quotes"',
  'back\\slash and \\\\ two',
  'line\nfeed and \\n literal',
  'trailing backslash\\',
  'Москва, ул. Ленина, 12',
  'emoji 🌫️ smog 😷',
  'lone high \uD800 surrogate',
  'lone low \uDC00 surrogate',
  '',
  'tab\there, CR\rhere, NUL\u0000here',
  '{id="1",name="injected"} 1',
  '"\\\n',
];

function station(i: number, overrides: Partial<Station> = {}): Station {
  return {
    id: 1_000_000 + i,
    name: NASTY_NAMES[i % NASTY_NAMES.length] as string,
    description: i % 3 === 0 ? '' : `desc ${NASTY_NAMES[(i + 5) % NASTY_NAMES.length]}`,
    online: i % 4 !== 0,
    tz: i % 5 === 0 ? '' : 'Asia/Kathmandu',
    utcOffsetSeconds: i % 6 === 0 ? undefined : [-12600, 0, 20700, 64800][i % 4],
    latitude: i % 7 === 0 ? undefined : [-90, 0, 55.7558, 1e-7, 89.999999][i % 5],
    longitude: i % 8 === 0 ? undefined : [-180, 0, 37.6173, -0.000123, 179.5][i % 5],
    ...overrides,
  };
}

function sampleList(): StationList {
  const stations = Array.from({ length: 3 * NASTY_NAMES.length }, (_, i) => station(i));
  stations.push(station(1000, { id: 9_007_199_254_740_991, name: 'max safe id' }));
  return { stations, rejected: { invalid: 2, duplicate: 1 }, problems: [], fieldProblems: [] };
}

/** The same series through prom-client's own Gauge objects and its own escaping. */
async function renderWithPromClient(list: StationList): Promise<string> {
  const registry = new Registry();
  const M = STATION_METRICS;
  const gauge = (spec: (typeof M)[keyof typeof M]) =>
    new Gauge({ name: spec.name, help: spec.help, labelNames: [...spec.labels], registers: [registry] });
  const info = gauge(M.info);
  const online = gauge(M.online);
  const latitude = gauge(M.latitude);
  const longitude = gauge(M.longitude);
  const offset = gauge(M.utcOffset);
  const count = gauge(M.count);
  const rejected = gauge(M.rejected);
  const skipped = gauge(M.fieldsSkipped);
  let up = 0;
  for (const s of list.stations) {
    const id = String(s.id);
    info.set({ id, name: s.name, description: s.description, tz: s.tz }, 1);
    online.set({ id, name: s.name, tz: s.tz }, s.online ? 1 : 0);
    if (s.online) up++;
    if (s.latitude !== undefined) latitude.set({ id }, s.latitude);
    if (s.longitude !== undefined) longitude.set({ id }, s.longitude);
    if (s.utcOffsetSeconds !== undefined) offset.set({ id }, s.utcOffsetSeconds);
  }
  count.set({ state: 'online' }, up);
  count.set({ state: 'offline' }, list.stations.length - up);
  rejected.set({ reason: 'invalid' }, list.rejected.invalid);
  rejected.set({ reason: 'duplicate' }, list.rejected.duplicate);
  for (const field of STATION_FIELDS) skipped.set({ field }, list.skippedFields?.[field] ?? 0);
  return registry.metrics();
}

interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** A strict reader of text format 0.0.4 sample lines: unescapes label values, rejects anything it cannot read. */
function parseExposition(text: string): { samples: Sample[]; meta: string[] } {
  const samples: Sample[] = [];
  const meta: string[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      meta.push(line);
      continue;
    }
    samples.push(parseSampleLine(line));
  }
  return { samples, meta };
}

function parseSampleLine(line: string): Sample {
  const nameEnd = line.search(/[{ ]/);
  const name = line.slice(0, nameEnd);
  const labels: Record<string, string> = {};
  let i = nameEnd;
  if (line[i] === '{') {
    i++;
    while (line[i] !== '}') {
      const eq = line.indexOf('="', i);
      const key = line.slice(i, eq);
      let value = '';
      for (i = eq + 2; line[i] !== '"'; i++) {
        if (i >= line.length) throw new Error(`unterminated label value in ${JSON.stringify(line)}`);
        const c = line[i] as string;
        if (c !== '\\') {
          value += c;
          continue;
        }
        const next = line[++i];
        if (next === 'n') value += '\n';
        else if (next === '\\' || next === '"') value += next;
        else throw new Error(`bad escape \\${next} in ${JSON.stringify(line)}`);
      }
      labels[key] = value;
      i++;
      if (line[i] === ',') i++;
    }
    i++;
  }
  if (line[i] !== ' ') throw new Error(`no space before the value in ${JSON.stringify(line)}`);
  return { name, labels, value: Number(line.slice(i + 1)) };
}

const key = (s: Sample): string =>
  `${s.name}${JSON.stringify(Object.entries(s.labels).sort(([a], [b]) => (a < b ? -1 : 1)))} ${s.value}`;

// Both outputs reach the wire as UTF-8, where a lone surrogate becomes U+FFFD: compare what is sent.
const wire = (text: string): string => Buffer.from(text, 'utf8').toString('utf8');

describe('station families rendered by hand', () => {
  it('carry exactly the series, labels, values, HELP and TYPE lines prom-client writes', async () => {
    const list = sampleList();
    const ours = parseExposition(wire(renderStationFamilies(list)));
    const theirs = parseExposition(wire(await renderWithPromClient(list)));
    expect(ours.samples.length).toBe(theirs.samples.length);
    expect(new Set(ours.samples.map(key))).toEqual(new Set(theirs.samples.map(key)));
    expect(new Set(ours.meta)).toEqual(new Set(theirs.meta));
  });

  it('escape and encode label values byte for byte as prom-client does once sent', async () => {
    for (const name of NASTY_NAMES) {
      const list: StationList = {
        stations: [station(1, { name })],
        rejected: { invalid: 0, duplicate: 0 },
        problems: [],
        fieldProblems: [],
      };
      const line = (text: string): string | undefined =>
        wire(text)
          .split('\n')
          .find((l) => l.startsWith(`${STATION_METRICS.online.name}{`));
      const theirs = line(await renderWithPromClient(list));
      // prom-client orders labels as declared, which is our order too.
      expect(line(renderStationFamilies(list)), JSON.stringify(name)).toBe(theirs);
      expect(theirs).toContain(`name="${wire(escapeLabelValue(name))}"`);
      expect(renderStationText(list).equals(Buffer.from(renderStationFamilies(list), 'utf8'))).toBe(true);
    }
  });

  it('size label values exactly as Buffer.from encodes them once escaped', () => {
    for (const name of [...NASTY_NAMES, '\uDBFF\uDFFF', '\uDC00\uD800', 'a\uD800']) {
      expect(labelValueBytes(name), JSON.stringify(name)).toBe(
        Buffer.byteLength(escapeLabelValue(name), 'utf8'),
      );
    }
  });

  it('print every id in full, never in exponent form', () => {
    const text = renderStationFamilies(sampleList());
    expect(text).toContain('{id="9007199254740991"}');
    expect(text).toContain('{id="1000000",');
    expect(text).not.toMatch(/id="[^"]*e\+/);
  });

  it('leave out a family with no series, and keep the counts', () => {
    const list: StationList = {
      stations: [station(1, { latitude: undefined, longitude: undefined, utcOffsetSeconds: undefined })],
      rejected: { invalid: 0, duplicate: 0 },
      problems: [],
      fieldProblems: [],
    };
    const text = renderStationFamilies(list);
    expect(text).not.toContain('cityair_station_latitude_degrees');
    expect(text).toContain('cityair_stations{state="online"} 1\n');
    expect(
      renderStationFamilies({
        stations: [],
        rejected: { invalid: 0, duplicate: 0 },
        problems: [],
        fieldProblems: [],
      }),
    ).toContain('cityair_stations{state="offline"} 0\n');
  });

  it('pass promtool check metrics, nasty names and a synthetic list alike', () => {
    const parsed = parseStationList(syntheticStations(500));
    if (!parsed.ok) throw new Error(parsed.message);
    for (const text of [renderStationFamilies(sampleList()), renderStationFamilies(parsed.value)]) {
      const lint = checkMetrics(wire(text));
      if (lint) expect(lint).toEqual({ code: 0, findings: '' });
    }
  });

  it('agree with prom-client on a large synthetic list', async () => {
    const parsed = parseStationList(syntheticStations(2000));
    if (!parsed.ok) throw new Error(parsed.message);
    const ours = parseExposition(renderStationFamilies(parsed.value)).samples.map(key);
    const theirs = parseExposition(await renderWithPromClient(parsed.value)).samples.map(key);
    expect(new Set(ours)).toEqual(new Set(theirs));
    expect(ours.length).toBe(theirs.length);
  });
});
