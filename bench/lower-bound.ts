// The floor the exporter is measured against: the same station series from the same upstream body, with nothing
// but gunzip, JSON.parse and string building. It trusts its input (no validation, no dedupe, no framework), so
// no correct exporter can beat it by much; it deliberately shares no code with src/stations or src/exposition.
import { gunzipSync } from 'node:zlib';

interface RawPost {
  id: number;
  name: string;
  description?: string | null;
  isOnline: boolean;
  geo?: {
    gmtOffsetSeconds?: number | null;
    timeZoneIana?: string | null;
    latitude?: number | null;
    longitude?: number | null;
  } | null;
}

const esc = (s: string): string =>
  s.includes('\\') || s.includes('"') || s.includes('\n')
    ? s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')
    : s;

const head = (name: string): string => `# HELP ${name} Station series.\n# TYPE ${name} gauge\n`;

export function lowerBoundRender(body: Buffer, gzipped: boolean): Buffer {
  const posts = JSON.parse((gzipped ? gunzipSync(body) : body).toString('utf8')) as RawPost[];
  let info = head('cityair_station_info');
  let online = head('cityair_station_online');
  let lat = head('cityair_station_latitude_degrees');
  let lon = head('cityair_station_longitude_degrees');
  let off = head('cityair_station_utc_offset_seconds');
  let up = 0;
  for (const p of posts) {
    const name = esc(p.name);
    const tz = esc(p.geo?.timeZoneIana ?? '');
    info += `cityair_station_info{id="${p.id}",name="${name}",description="${esc(p.description ?? '')}",tz="${tz}"} 1\n`;
    online += `cityair_station_online{id="${p.id}",name="${name}",tz="${tz}"} ${p.isOnline ? 1 : 0}\n`;
    if (p.isOnline) up++;
    const g = p.geo;
    if (g?.latitude != null) lat += `cityair_station_latitude_degrees{id="${p.id}"} ${g.latitude}\n`;
    if (g?.longitude != null) lon += `cityair_station_longitude_degrees{id="${p.id}"} ${g.longitude}\n`;
    if (g?.gmtOffsetSeconds != null)
      off += `cityair_station_utc_offset_seconds{id="${p.id}"} ${g.gmtOffsetSeconds}\n`;
  }
  const counts = `${head('cityair_stations')}cityair_stations{state="online"} ${up}\ncityair_stations{state="offline"} ${posts.length - up}\n`;
  return Buffer.from(info + online + lat + lon + off + counts, 'utf8');
}
