// What the browser test and the speed meter share: a static server for dist/ on 127.0.0.1 and
// Debian's Chromium driven by playwright-core, with nothing that reaches the network.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

// The static server is the one `scripts/serve` runs, so the tests see what a user is served.
export { serveDist } from '../../scripts/serve-dist.mjs';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/**
 * Chromium with a fresh profile (named `prefix…` in the temp directory) at 1280×720, or as
 * `options` say (a phone: `viewport`, `hasTouch`, `isMobile`). `close()` closes it and removes
 * the profile.
 */
export async function launchChromium(prefix, options = {}) {
  const profile = await mkdtemp(join(tmpdir(), prefix));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
    viewport: { width: 1280, height: 720 },
    ...options,
  });
  const close = async () => {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  };
  return { context, close };
}
