// Debian's Chromium as the browser tests and the status-page measurement (bench/status-page.ts) start it: the
// system executable only, never a downloaded browser, with flags that keep it from calling home (updates, sync,
// field trials), which this machine's closed network would refuse many times over.

export const CHROMIUM = '/usr/bin/chromium';

export const CHROMIUM_FLAGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
