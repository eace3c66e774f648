// Measures the page's pace at speed "as fast as possible": frames/s and slots/s per link, as
// the page itself reports them next to the progress bar (README, "Speed"). Not a test: speed
// lives in measurements, and a loaded machine gives lower numbers.
//
//   trunk build --release && node tests/e2e/speed.mjs [SECONDS] [QUERY ...]    (DIST=dir for another build)
//
// Serves dist/ on 127.0.0.1, opens each query in headless Chromium (1280×720, software
// rendering, the flags of lab.test.mjs), presses Play, lets it settle for 2 s, then reads the
// page's meter once a second for SECONDS (default 10) and prints the median and range of
// each figure. It also counts the slots the page ran over the whole window (the progress
// label), as a check on the meter.

import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { launchChromium, serveDist } from './browser.mjs';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const DIST = resolve(process.env.DIST ?? join(ROOT, 'dist'));
/** The rows of the README's table. */
const LINKS = [
  'preset=pgrr-a1&servers=1000&policy=bf-js',
  'preset=pgrr-a1&servers=1000&policy=vqs,bf-js',
  'preset=pgrr-a3&servers=1000&policy=bf-js',
  'preset=pgrr-a1&servers=100&policy=vqs,bf-js',
];

const args = process.argv.slice(2);
const seconds = /^\d+$/.test(args[0] ?? '') ? Number(args.shift()) : 10;
const links = args.length ? args : LINKS;

const { server, origin } = await serveDist(DIST);
const { context, close } = await launchChromium('packlab-speed-');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const range = (xs) => `${Math.round(Math.min(...xs)).toLocaleString('en')}-${Math.round(Math.max(...xs)).toLocaleString('en')}`;
/** The slot and the horizon the progress label shows ("slot 12 345 of 2 000 000"). */
const progress = (page) =>
  page.$eval('.progress .slots', (e) => e.textContent.split(' of ').map((part) => Number(part.replace(/\D/g, ''))));
const slot = async (page) => (await progress(page))[0];

try {
  for (const query of links) {
    const page = await context.newPage();
    await page.goto(`${origin}/?${query}&speed=max`);
    await page.waitForSelector('#stats tr[data-policy]');
    await page.click('#play');
    await page.waitForTimeout(2000);
    const fps = [];
    const rate = [];
    const simulating = [];
    const slot0 = await slot(page);
    const t0 = Date.now();
    for (let i = 0; i < seconds; i++) {
      await page.waitForTimeout(1000);
      const text = await page.textContent('#rate');
      const m = /([\d.]+) frames\/s · ([\d\s,]+) (?:slots|time units)\/s/.exec(text);
      if (m) {
        fps.push(Number(m[1]));
        rate.push(Number(m[2].replace(/\D/g, '')));
        simulating.push(Number(await page.getAttribute('#rate', 'data-simulating-ms')));
      }
    }
    const [slot1, horizon] = await progress(page);
    const overall = (slot1 - slot0) / ((Date.now() - t0) / 1000);
    // At the horizon the meter stops (its figures cover the part that ran), the progress does not.
    const finished = slot1 >= horizon ? ' (reached the horizon)' : '';
    await page.close();
    if (!fps.length) {
      console.log(`${query}&speed=max\n  reached the horizon before the first reading`);
      continue;
    }
    console.log(
      `${query}&speed=max\n  frames/s ${median(fps)} (${range(fps)})   slots/s ${Math.round(median(rate)).toLocaleString('en')} ` +
        `(${range(rate)})   progress ${Math.round(overall).toLocaleString('en')} slots/s${finished}   ` +
        `simulating ${median(simulating)} ms/frame`,
    );
  }
} finally {
  await close();
  await new Promise((ok) => server.close(ok));
}
