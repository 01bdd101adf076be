// Debian's Chromium driven by playwright-core, for tests of what a person sees. Never a downloaded browser: the
// executable is the system one, and the flags keep it from calling home (updates, sync, field trials).
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS } from './chromium.js';

/** Where screenshots go (gitignored), for a developer to open after a run. */
export const TEST_OUTPUT = fileURLToPath(new URL('../../test-output/', import.meta.url));

/**
 * The browser, or undefined when it is missing on a developer's machine (the test skips). Under CI, where
 * .ci/run installs it, a missing browser is an error: a broken install must not pass as a skip.
 */
export function chromiumPath(): string | undefined {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  if (process.env.CI) throw new Error(`${CHROMIUM} is required under CI (apt-get install chromium)`);
  return undefined;
}

export interface BrowserSession {
  readonly page: Page;
  /** Every URL the page asked for, in order. */
  readonly requests: () => string[];
  /** Console errors, uncaught exceptions and failed requests. */
  readonly problems: () => string[];
  readonly screenshot: (name: string) => Promise<string>;
  readonly close: () => Promise<void>;
}

export async function openBrowser(options: BrowserContextOptions = {}): Promise<BrowserSession> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error(`${CHROMIUM} is missing`);
  const profile = await mkdtemp(join(tmpdir(), 'cityair-chromium-'));
  // A persistent context on a fresh directory: --user-data-dir is ours, and nothing of an earlier run is in it.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: [...CHROMIUM_FLAGS],
    viewport: { width: 1100, height: 900 },
    ...options,
  });
  const requests: string[] = [];
  const problems: string[] = [];
  context.on('request', (r) => requests.push(r.url()));
  context.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  return {
    page,
    requests: () => [...requests],
    problems: () => [...problems],
    screenshot: async (name) => {
      await mkdir(TEST_OUTPUT, { recursive: true });
      const path = join(TEST_OUTPUT, name);
      await page.screenshot({ path, fullPage: true });
      return path;
    },
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** True for URLs on this machine: 127.0.0.0/8, ::1, localhost. */
export function isLoopback(url: string): boolean {
  const { hostname } = new URL(url);
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}
