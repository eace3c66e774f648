// Measures the stability map in the page (docs/web.md, "The stability map: how long"): the
// time to the first picture (the first round's intervals) and to the refined map, for a link
// (default: pgrr-a1 with its own policies, 8 replications, as `packlab stability --preset
// pgrr-a1` makes it). Not a test: a loaded machine gives longer times.
//
//   trunk build --release && node tests/e2e/map-speed.mjs [QUERY]
//
// (DIST=dir for another build.) Serves dist/ on 127.0.0.1, opens the link in headless Chromium
// (whose workers take one core each, `navigator.hardwareConcurrency`), and reads the map's
// `data-first-ms` and `data-done-ms` (from the map's start, in the page's clock).

import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { launchChromium, serveDist } from './browser.mjs';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const DIST = resolve(process.env.DIST ?? join(ROOT, 'dist'));
const query = process.argv[2] ?? 'preset=pgrr-a1&map=8';

const { server, origin } = await serveDist(DIST);
const { context, close } = await launchChromium('packlab-map-speed-');
try {
  const page = await context.newPage();
  await page.goto(`${origin}/?${query}`);
  const workers = await page.evaluate(() => navigator.hardwareConcurrency);
  await page.waitForSelector('#map-body[data-first-ms]:not([data-first-ms=""])', { timeout: 30 * 60_000 });
  const first = Number(await page.getAttribute('#map-body', 'data-first-ms'));
  console.log(`${query}: first picture after ${(first / 1000).toFixed(1)} s (${workers} workers, ${cpus().length} cores)`);
  await page.waitForSelector('#map-body[data-done="true"]', { timeout: 60 * 60_000 });
  const done = Number(await page.getAttribute('#map-body', 'data-done-ms'));
  const status = await page.textContent('#map-status');
  console.log(`${query}: refined map after ${(done / 1000).toFixed(1)} s: ${status}`);
  const rows = await page.$$eval('#map-table tr[data-policy]', (trs) =>
    trs.map((tr) => `${tr.dataset.label}: [${tr.dataset.lo}, ${tr.dataset.hi}] ${tr.dataset.status}`),
  );
  for (const row of rows) console.log(`  ${row}`);
} finally {
  await close();
  await new Promise((ok) => server.close(ok));
}
