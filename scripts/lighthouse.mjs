// Lighthouse 12.2.3 (npm) on the served release build, against Debian's Chromium: the gallery
// and a lab page, with the desktop and the mobile presets. Prints the accessibility and
// performance scores with the metrics behind them, and keeps each report as JSON in
// test-results/lighthouse/. Build first (`trunk build --release`), then:
//
//   npm run lighthouse                      # Lighthouse's default throttling (simulate)
//   npm run lighthouse -- --runs=3          # the median of three runs per page and preset
//   npm run lighthouse -- --throttling-method=devtools
//   npm run lighthouse -- --gzip            # served gzip-compressed, as scripts/serve and static hosts do
//
// Scores move with the machine's load: note it with the numbers (docs/web.md).

import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';

import { serveDist } from '../tests/e2e/browser.mjs';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const OUT = join(ROOT, 'test-results', 'lighthouse');
const BASE = '/packlab/';
// The lab as a lecturer's link opens it (issue 55's acceptance: `?preset=pgrr-a1`).
const PAGES = { gallery: '', lab: '?preset=pgrr-a1' };
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '1' },
    'throttling-method': { type: 'string', default: 'simulate' },
    preset: { type: 'string', multiple: true, default: ['desktop', 'mobile'] },
    page: { type: 'string', multiple: true, default: Object.keys(PAGES) },
    gzip: { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
const throttlingMethod = values['throttling-method'];
if (!Number.isInteger(runs) || runs < 1 || runs > 9) throw new Error(`--runs must be 1 to 9, not ${values.runs}`);
if (!['simulate', 'devtools', 'provided'].includes(throttlingMethod)) {
  throw new Error(`--throttling-method must be simulate, devtools or provided, not ${throttlingMethod}`);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
await mkdir(OUT, { recursive: true });
// DIST=dir serves another build (to compare two builds side by side).
const { server, origin } = await serveDist(process.env.DIST ?? join(ROOT, 'dist'), BASE, { gzip: values.gzip });
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  chromeFlags: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const table = [];
try {
  for (const page of values.page) {
    for (const preset of values.preset) {
      const url = `${origin}${BASE}${PAGES[page]}`;
      const scored = [];
      for (let run = 0; run < runs; run++) {
        const flags = {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility'],
          throttlingMethod,
        };
        const result = await lighthouse(url, flags, preset === 'desktop' ? desktopConfig : undefined);
        const lhr = result.lhr;
        await writeFile(join(OUT, `${page}-${preset}-${throttlingMethod}-${run + 1}.json`), result.report);
        const metric = (id) => lhr.audits[id]?.numericValue ?? NaN;
        scored.push({
          performance: Math.round(lhr.categories.performance.score * 100),
          accessibility: Math.round(lhr.categories.accessibility.score * 100),
          fcp: metric('first-contentful-paint'),
          lcp: metric('largest-contentful-paint'),
          tbt: metric('total-blocking-time'),
          cls: metric('cumulative-layout-shift'),
          longTasks: (lhr.audits['long-tasks']?.details?.items ?? []).map((t) => Math.round(t.duration)),
        });
      }
      const best = scored.find((s) => s.performance === median(scored.map((x) => x.performance)));
      table.push({ page, preset, runs, ...best, performanceRuns: scored.map((s) => s.performance).join(' ') });
    }
  }
} finally {
  await chrome.kill();
  await new Promise((ok) => server.close(ok));
}
console.log(`Lighthouse 12.2.3, throttling ${throttlingMethod}${values.gzip ? ', gzip' : ''}, ${new Date().toISOString()}`);
for (const r of table) {
  console.log(
    `${r.page.padEnd(8)} ${r.preset.padEnd(8)} performance ${String(r.performance).padStart(3)} (runs: ${r.performanceRuns})` +
      `  accessibility ${String(r.accessibility).padStart(3)}  FCP ${Math.round(r.fcp)} ms  LCP ${Math.round(r.lcp)} ms` +
      `  TBT ${Math.round(r.tbt)} ms  CLS ${r.cls.toFixed(3)}  long tasks ${r.longTasks.join(', ') || 'none'} ms`,
  );
}
