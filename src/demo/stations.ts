// Simulated station lists in the shape of /harvester/v2/Posts: the demo's 40 stations, and synthetic lists of
// any size for tests and the benchmark.

export interface ApiPost {
  id: number;
  name: string;
  description: string;
  isOnline: boolean;
  geo: { gmtOffsetSeconds: number; timeZoneIana: string; latitude: number; longitude: number } | null;
}

interface Place {
  readonly city: string;
  readonly tz: string;
  readonly offset: number;
  readonly lat: number;
  readonly lon: number;
}

// Negative and half- and quarter-hour offsets are here on purpose: they are what breaks naive code.
const PLACES: readonly Place[] = [
  { city: 'Москва', tz: 'Europe/Moscow', offset: 10800, lat: 55.7558, lon: 37.6173 },
  { city: 'Новосибирск', tz: 'Asia/Novosibirsk', offset: 25200, lat: 55.0084, lon: 82.9357 },
  { city: 'Екатеринбург', tz: 'Asia/Yekaterinburg', offset: 18000, lat: 56.8389, lon: 60.6057 },
  { city: 'Красноярск', tz: 'Asia/Krasnoyarsk', offset: 25200, lat: 56.0153, lon: 92.8932 },
  { city: 'Норильск', tz: 'Asia/Krasnoyarsk', offset: 25200, lat: 69.3558, lon: 88.1893 },
  { city: 'Алматы', tz: 'Asia/Almaty', offset: 18000, lat: 43.222, lon: 76.8512 },
  { city: 'Mumbai', tz: 'Asia/Kolkata', offset: 19800, lat: 19.076, lon: 72.8777 },
  { city: 'Kathmandu', tz: 'Asia/Kathmandu', offset: 20700, lat: 27.7172, lon: 85.324 },
  { city: "St. John's", tz: 'America/St_Johns', offset: -12600, lat: 47.5615, lon: -52.7126 },
  { city: 'Santiago', tz: 'America/Santiago', offset: -10800, lat: -33.4489, lon: -70.6693 },
];

const STREETS = [
  'ул. Ленина, 12',
  'пр. Мира, 45к2',
  'ул. Советская, 3',
  'Красный проспект, 101',
  'ЖК "Северное сияние", корп. 4',
  'ул. Гагарина, 7/1',
  'мкр. "Солнечный", 15',
  'наб. реки Фонтанки, 20',
];

/** The demo's fixed list: 40 stations, 5 of them offline. */
export function demoStations(): ApiPost[] {
  return Array.from({ length: 40 }, (_, i) => {
    const place = PLACES[i % PLACES.length] as Place;
    const street = STREETS[(i * 3) % STREETS.length] as string;
    return {
      id: 1000 + i * 17,
      name: `${place.city}, ${street}`,
      description: i % 4 === 0 ? `Пост №${i + 1}; школа \\ двор` : `Station ${i + 1}, "${place.city}"`,
      isOnline: i % 8 !== 5,
      geo: {
        gmtOffsetSeconds: place.offset,
        timeZoneIana: place.tz,
        latitude: Math.round((place.lat + (i % 5) * 0.013) * 1e5) / 1e5,
        longitude: Math.round((place.lon - (i % 3) * 0.017) * 1e5) / 1e5,
      },
    };
  });
}

/** Every seventh station flips online/offline each period, so dashboards and alerts have something to show. */
export function demoStationsAt(nowMs: number, periodMs = 60_000): ApiPost[] {
  const tick = Math.floor(nowMs / periodMs);
  return demoStations().map((p, i) => (i % 7 === 3 && tick % 2 === 1 ? { ...p, isOnline: !p.isOnline } : p));
}

/** n stations with ids from 1,000,000 up (the range where %g-style printing breaks), names with escapes. */
export function syntheticStations(n: number): ApiPost[] {
  return Array.from({ length: n }, (_, i) => {
    const place = PLACES[i % PLACES.length] as Place;
    return {
      id: 1_000_000 + i,
      name: `${place.city}, ${STREETS[i % STREETS.length]} #${i}`,
      description: `Synthetic station ${i} of ${n}`,
      isOnline: i % 10 !== 0,
      geo: {
        gmtOffsetSeconds: place.offset,
        timeZoneIana: place.tz,
        latitude: Math.round((place.lat + (i % 1000) * 1e-4) * 1e6) / 1e6,
        longitude: Math.round((place.lon + (i % 997) * 1e-4) * 1e6) / 1e6,
      },
    };
  });
}
