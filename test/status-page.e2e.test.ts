// The status page in a real browser (Debian's Chromium), served by the built exporter against the simulator:
// what an operator sees, with scripts on and off, when the upstream fails, and behind basic auth.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { DEMO_SMELTER_ID } from '../src/demo/readings.js';
import { demoStations } from '../src/demo/stations.js';
import { hashOf } from './security/helpers.js';
import { type BrowserSession, chromiumPath, isLoopback, openBrowser } from './support/browser.js';
import { waitFor } from './support/daemon.js';
import type { ExporterProcess } from './support/exporter-process.js';
import { get } from './support/http.js';
import { useUpstreamFixture } from './support/upstream-fixture.js';

const KEY = 'status-page-e2e-key-3c2b1a09';
const upstream = useUpstreamFixture(KEY);
const browserPath = chromiumPath();
if (!browserPath)
  console.warn('status page browser tests skipped: /usr/bin/chromium is missing (apt-get install chromium)');

const sessions: BrowserSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
});

async function browse(options: Parameters<typeof openBrowser>[0] = {}): Promise<BrowserSession> {
  const session = await openBrowser(options);
  sessions.push(session);
  return session;
}

async function ready(...args: string[]): Promise<ExporterProcess> {
  const p = await upstream.exporter('--upstream.min-interval=0s', ...args);
  await p.waitForLog((l) => l.msg === 'first refresh succeeded');
  return p;
}

/** What the page looked like to a careful reader: nothing went wrong in the console, nothing left the machine. */
function expectCleanVisit(session: BrowserSession): void {
  expect(session.problems()).toEqual([]);
  const requests = session.requests();
  expect(requests.length).toBeGreaterThan(0);
  expect(requests.filter((u) => !isLoopback(u))).toEqual([]);
}

interface BrowserWindow {
  getComputedStyle(element: unknown): { backgroundColor: string };
}

const stateColumn = (s: BrowserSession) =>
  s.page.locator('#stations tbody tr:visible td:nth-child(4)').allTextContents();
const visibleNames = (s: BrowserSession) =>
  s.page.locator('#stations tbody tr:visible td:nth-child(2)').allTextContents();

describe.skipIf(!browserPath)('status page in Chromium', () => {
  it('lists the offline stations at the top, filters as one types, sorts, and leaves a screenshot', async () => {
    const p = await ready();
    const s = await browse();
    const res = await s.page.goto(`${p.url}/`);
    expect(res?.status()).toBe(200);
    await expect(s.page.locator('h1').textContent()).resolves.toBe('CityAir exporter');

    const states = await stateColumn(s);
    expect(states).toHaveLength(40);
    expect(states.slice(0, 5)).toEqual(Array(5).fill('offline'));
    expect(states.slice(5)).toEqual(Array(35).fill('online'));
    // Upstream text arrives as text: the quotes of a demo name are shown, not parsed.
    expect((await visibleNames(s)).filter((n) => n.includes('мкр. "Солнечный", 15'))).not.toEqual([]);
    const screenshot = await s.screenshot('status-page.png');

    await s.page.locator('#q').pressSequentially('kathm');
    const names = await visibleNames(s);
    expect(names).toHaveLength(4);
    for (const n of names) expect(n).toMatch(/^Kathmandu, /);
    await expect(s.page.locator('#live').textContent()).resolves.toBe('4 of the 40 rows on this page match.');
    await s.page.locator('#q').fill('');
    expect(await visibleNames(s)).toHaveLength(40);

    await s.page.getByRole('button', { name: 'Id' }).click();
    const ids = (await s.page.locator('#stations tbody tr td:first-child').allTextContents()).map(Number);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    await s.page.getByRole('button', { name: 'Id' }).click();
    const down = (await s.page.locator('#stations tbody tr td:first-child').allTextContents()).map(Number);
    expect(down).toEqual([...ids].reverse());

    expectCleanVisit(s);
    console.info(`status page screenshot: ${screenshot}`);
  });

  it('colours the readings by their band of ПДК м.р., explains the colours, and sorts by the multiple', async () => {
    const p = await ready('--collector.measurements', '--measurements.refresh-interval=1m');
    const smelter = demoStations().find((x) => x.id === DEMO_SMELTER_ID)?.name ?? '';
    // The first round of readings follows the first station list.
    await waitFor(
      'the demo smelter’s reading',
      async () =>
        (await get(`${p.url}/metrics`)).text.includes(`{id="${DEMO_SMELTER_ID}",substance="so2"}`)
          ? true
          : undefined,
      20_000,
    );
    const s = await browse();
    await s.page.goto(`${p.url}/`);

    const legend = s.page.locator('#legend');
    await expect(legend.textContent()).resolves.toMatch(
      /a 5-minute mean; ПДК м.р. applies to 20-minute means/,
    );
    // Runs in the page, where globalThis is the window (the tests compile without the DOM's types).
    const background = (l: Locator): Promise<string> =>
      l.evaluate((e) => (globalThis as unknown as BrowserWindow).getComputedStyle(e).backgroundColor);
    const bands = await Promise.all([0, 1, 2, 3].map((b) => background(legend.locator(`.b${b}`))));
    // Four colours, applied: the page's stylesheet reached the browser through the CSP.
    expect(new Set(bands).size).toBe(4);
    expect(bands).not.toContain('rgba(0, 0, 0, 0)');

    const highest = s.page.getByRole('row', { name: smelter }).locator('td:nth-child(7)');
    await expect(highest.textContent()).resolves.toMatch(/^SO₂ 1\.\d×$/);
    await expect(background(highest)).resolves.toBe(bands[1]);
    const pm25 = s.page.locator('#stations tbody tr:visible td:nth-child(5)').first();
    await expect(background(pm25)).resolves.toBe(bands[0]);

    const column = s.page.getByRole('button', { name: 'Highest × ПДК м.р.' });
    await column.click();
    await column.click();
    // Highest first; stations without a reading come after the sorted values either way.
    const names = await visibleNames(s);
    const highestColumn = await s.page
      .locator('#stations tbody tr:visible td:nth-child(7)')
      .allTextContents();
    const valued = names.map((n, i) => [n, highestColumn[i]]).filter(([, cell]) => cell !== '–');
    expect(valued[0]?.[0]).toBe(smelter);
    await s.screenshot('status-page-readings.png');
    expectCleanVisit(s);
  });

  it('runs its own script and no other: the Content-Security-Policy reaches the browser', async () => {
    const p = await ready();
    const s = await browse();
    await s.page.goto(`${p.url}/`);
    // The page's script ran (the headings became sort buttons) with nothing refused so far.
    await expect(s.page.getByRole('button', { name: 'Time zone' }).count()).resolves.toBe(1);
    expectCleanVisit(s);
    // As if a name had slipped through as markup: the browser refuses the script.
    await s.page.evaluate(`document.body.append(Object.assign(document.createElement('script'), {
      textContent: 'document.title = "injected"' }))`);
    await expect(s.page.title()).resolves.toBe('CityAir exporter');
    expect(s.problems().join('\n')).toMatch(/Content Security Policy/);
  });

  it('filters on the server with scripts off', async () => {
    const p = await ready();
    const s = await browse({ javaScriptEnabled: false });
    await s.page.goto(`${p.url}/`);
    await s.page.locator('#q').fill('asia/kathmandu');
    await Promise.all([s.page.waitForURL(/\?q=asia%2Fkathmandu$/), s.page.locator('#q').press('Enter')]);
    const names = await visibleNames(s);
    expect(names).toHaveLength(4);
    await expect(s.page.getByText('4 of 40 stations match “asia/kathmandu”.').count()).resolves.toBe(1);
    await s.page.getByRole('link', { name: 'Show all' }).click();
    expect(await visibleNames(s)).toHaveLength(40);
    expectCleanVisit(s);
  });

  it('shows why the last refresh failed once the upstream starts failing, and keeps the last good list', async () => {
    const p = await ready();
    const s = await browse();
    await s.page.goto(`${p.url}/`);
    await expect(s.page.locator('#refresh-station-list').textContent()).resolves.toMatch(
      /Last attemptsucceeded at /,
    );

    upstream.sim().setFault({ kind: 'status', status: 503 });
    // On demand: a scrape is what makes the exporter ask the upstream.
    await get(`${p.url}/metrics`);
    await p.waitForLog((l) => l.msg.startsWith('refresh of the station list failed'));
    await s.page.reload();
    const refresh = (await s.page.locator('#refresh-station-list').textContent()) ?? '';
    expect(refresh).toMatch(/Last attemptfailed at .*: http_5xx/);
    expect(refresh).toMatch(/Backoffno request before .* UTC|Backoffnone/);
    expect(refresh).toContain('Consecutive failures1');
    expect(await stateColumn(s)).toHaveLength(40);
    await s.screenshot('status-page-failing.png');
    expectCleanVisit(s);
  });
});

describe.skipIf(!browserPath)('status page behind basic auth', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cityair-status-auth-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('asks for credentials like every other route and shows the page with them', async () => {
    const file = join(dir, 'web.yml');
    writeFileSync(file, stringify({ basic_auth_users: { operator: hashOf('status-secret') } }));
    const p = await ready(`--web.config.file=${file}`);
    expect((await get(`${p.url}/`)).status).toBe(401);
    expect((await get(`${p.url}/?q=x`)).status).toBe(401);

    const s = await browse({ httpCredentials: { username: 'operator', password: 'status-secret' } });
    const res = await s.page.goto(`${p.url}/`);
    expect(res?.status()).toBe(200);
    expect(await stateColumn(s)).toHaveLength(40);
    await s.page.locator('#q').pressSequentially('mumbai');
    expect(await visibleNames(s)).toHaveLength(4);
    expectCleanVisit(s);
  });
});
