// How the page reads a large trace: `node tests/e2e/trace-load.mjs FILE [PRESET]` opens the
// lab (dist/, as built by `trunk build --release`), picks FILE in the trace box and reports how
// long reading took, how many frames the page drew meanwhile and the longest gap between two,
// and whether the progress bar showed. A measurement, not a test: timings depend on the machine.
//
// For the 10^6-task acceptance case:
//   packlab trace synth --format google --tasks 1000000 --out /tmp/g1m.csv.gz
//   node tests/e2e/trace-load.mjs /tmp/g1m.csv.gz

import { resolve } from 'node:path';
import { launchChromium, serveDist } from './browser.mjs';

const [file, preset = 'pgrr-a5'] = process.argv.slice(2);
if (!file) {
  console.error('usage: node tests/e2e/trace-load.mjs FILE [PRESET]');
  process.exit(2);
}
const { server, origin } = await serveDist('dist', '/packlab/');
const { context, close } = await launchChromium('packlab-trace-load-');
try {
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(`${origin}/packlab/?preset=${preset}`);
  await page.waitForSelector('#stats tr[data-policy]');
  await page.evaluate(() => {
    window.frames_ = { count: 0, longest: 0, last: performance.now(), progress: 0 };
    const tick = (t) => {
      const f = window.frames_;
      f.longest = Math.max(f.longest, t - f.last);
      f.last = t;
      f.count += 1;
      if (document.querySelector('#trace-progress')) f.progress += 1;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const start = Date.now();
  await page.evaluate(() => Object.assign(window.frames_, { count: 0, longest: 0, last: performance.now() }));
  await page.setInputFiles('#trace-file', resolve(file));
  await page.waitForSelector('#trace-summary', { timeout: 600_000 });
  const seconds = (Date.now() - start) / 1000;
  const frames = await page.evaluate(() => window.frames_);
  const memory = await page.evaluate(() => performance.memory?.usedJSHeapSize ?? 0);
  const summary = await page.textContent('#trace-summary');
  console.log(`read in ${seconds.toFixed(1)} s; ${frames.count} frames (${(frames.count / seconds).toFixed(1)}/s), ` +
    `longest gap ${frames.longest.toFixed(0)} ms; progress bar seen in ${frames.progress} frames; JS heap ${(memory / 1e6).toFixed(0)} MB`);
  console.log(summary.replaceAll('\u202f', ' '));
} finally {
  await close();
  server.close();
}
