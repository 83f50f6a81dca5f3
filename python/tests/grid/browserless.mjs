// Starts the open-source Browserless server (@browserless.io/browserless, pinned in the repo's
// package.json) on 127.0.0.1 with Debian's Chromium, offline: the Chromium binary Browserless
// looks for (playwright-core's path under PLAYWRIGHT_BROWSERS_PATH) is made a wrapper that runs
// the system Chromium with the offline flags. Only the ChromiumCDP routes are loaded (Chrome,
// Edge, Firefox and WebKit are not installed). Prints READY <port> when it listens.
//
// Environment: PORT, TOKEN (required), CHROMIUM (default /usr/bin/chromium), GRID_DIR (scratch).
import { mkdirSync, writeFileSync, chmodSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const dir = process.env.GRID_DIR;
if (!dir || !process.env.TOKEN || !process.env.PORT) {
  console.error('GRID_DIR, TOKEN and PORT are required');
  process.exit(2);
}
process.env.PLAYWRIGHT_BROWSERS_PATH = path.join(dir, 'browsers');
process.env.DATA_DIR = path.join(dir, 'data');
process.env.DOWNLOAD_DIR = path.join(dir, 'downloads');
process.env.HOST = '127.0.0.1';
// Browserless ends a session after TIMEOUT ms (30 s by default): the tests hold theirs longer.
process.env.TIMEOUT ??= '600000';
mkdirSync(process.env.DATA_DIR, { recursive: true });
mkdirSync(process.env.DOWNLOAD_DIR, { recursive: true });

// playwright-core as Browserless resolves it (its own dependency).
const blRequire = createRequire(import.meta.resolve('@browserless.io/browserless'));
const { chromium } = blRequire('playwright-core');
const exe = chromium.executablePath();
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';
if (!existsSync(chromiumPath)) {
  console.error(`no Chromium at ${chromiumPath}`);
  process.exit(2);
}
mkdirSync(path.dirname(exe), { recursive: true });
const offline = [
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--no-first-run', '--disable-gpu', '--no-default-browser-check', '--disable-default-apps',
  '--disable-breakpad', '--disable-crash-reporter', '--metrics-recording-only',
  '--password-store=basic', '--use-mock-keychain', '--no-sandbox',
];
writeFileSync(exe, `#!/bin/sh\nexec ${chromiumPath} ${offline.join(' ')} "$@"\n`);
chmodSync(exe, 0o755);

const { Browserless } = await import('@browserless.io/browserless');
class Grid extends Browserless {
  // Only the Chromium CDP routes: the other browsers are not installed (offline).
  routeIsDisabled(route) {
    return super.routeIsDisabled(route) || (!!route.browser && route.browser.name !== 'ChromiumCDP');
  }
}
const grid = new Grid();
await grid.start();
console.log(`READY ${process.env.PORT}`);
for (const sig of ['SIGTERM', 'SIGINT']) {
  process.on(sig, async () => {
    await grid.stop().catch(() => {});
    process.exit(0);
  });
}
