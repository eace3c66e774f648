// What a person does with the page: open it, press play, watch the chart and the numbers move.
//
// Serves dist/ (built by `trunk build --release`) from a sub-path on 127.0.0.1, drives Debian's
// Chromium with playwright-core, and fails on any console error, page error or failed request
// (CSP violations show up as console errors). Run with `npm run test:e2e`.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtemp, mkdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const DIST = join(ROOT, 'dist');
const RESULTS = join(ROOT, 'test-results');
// Served below a sub-path, as on a project page, to check that asset URLs are relative.
const BASE = '/packlab/';
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
const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** A static server for dist/ under BASE, on 127.0.0.1 and a free port. */
async function serveDist() {
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      if (!path.startsWith(BASE)) throw new Error('outside the base');
      let file = normalize(join(DIST, path.slice(BASE.length)));
      if (file !== DIST && !file.startsWith(DIST + sep)) throw new Error('outside dist');
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': MIME[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return server;
}

let server;
let context;
let profile;
let page;
const problems = [];

before(async () => {
  await stat(join(DIST, 'index.html')).catch(() => {
    throw new Error('dist/index.html is missing: run `trunk build --release` first');
  });
  server = await serveDist();
  profile = await mkdtemp(join(tmpdir(), 'packlab-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
    viewport: { width: 1280, height: 720 },
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
    else if (msg.type() === 'warning') console.log(`console warning: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('requestfailed', (req) => problems.push(`request failed: ${req.url()} ${req.failure()?.errorText}`));
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
});

after(async () => {
  await context?.close();
  await new Promise((ok) => (server ? server.close(ok) : ok()));
  if (profile) await rm(profile, { recursive: true, force: true });
});

/** The numbers of one policy's stats row. */
async function row(policy) {
  return page.$eval(`#stats [data-policy="${policy}"]`, (el) => ({
    time: Number(el.dataset.time),
    queue: Number(el.dataset.queue),
    meanQueue: Number(el.dataset.meanQueue),
    text: el.textContent,
  }));
}

test('play runs VQS and BF-J/S live, with a moving chart and stats', async () => {
  const { port } = server.address();
  await page.goto(`http://127.0.0.1:${port}${BASE}`);

  // The preset is explained.
  await page.waitForSelector('h1');
  assert.match(await page.textContent('h1'), /VQS unstable/);
  assert.match(await page.textContent('.figure'), /Fig\. 3a/);
  assert.match(await page.textContent('.explanation'), /One server of capacity 1/);

  // Both policies are listed, at slot 0, before play.
  await page.waitForSelector('#stats [data-policy="bf-js"]');
  assert.equal((await row('vqs')).time, 0);
  assert.equal((await row('bf-js')).time, 0);
  const canvas = page.locator('canvas');
  const before = await canvas.evaluate((c) => c.toDataURL());

  await page.click('#play');
  await page.waitForFunction(
    () => Number(document.querySelector('[data-policy="vqs"]')?.dataset.time) > 10000,
    null,
    { timeout: 60_000 },
  );
  const first = await row('vqs');
  assert.ok(first.text.includes('VQS'), first.text);

  // The numbers move on: wait for the warm-up to end, so the mean queue is measured too.
  await page.waitForFunction(
    ({ time, meanQueue }) => {
      const el = document.querySelector('[data-policy="vqs"]');
      return Number(el.dataset.time) > time && Number(el.dataset.meanQueue) !== meanQueue;
    },
    first,
    { timeout: 60_000 },
  );
  const second = await row('vqs');
  assert.ok(second.time > first.time, `time ${first.time} -> ${second.time}`);
  assert.ok(
    second.queue !== first.queue || second.meanQueue !== first.meanQueue,
    `queue ${first.queue} -> ${second.queue}, mean ${first.meanQueue} -> ${second.meanQueue}`,
  );
  assert.ok(Number.isFinite(second.meanQueue) && second.meanQueue > 0, `mean queue ${second.meanQueue}`);

  // Lockstep: both rows always show the same slot.
  const both = await page.$$eval('#stats [data-policy]', (rows) => rows.map((r) => Number(r.dataset.time)));
  assert.equal(both.length, 2);
  assert.equal(both[0], both[1]);

  // The chart was redrawn.
  const during = await canvas.evaluate((c) => c.toDataURL());
  assert.notEqual(during, before, 'the canvas did not change after play');

  // Pause stops the clock.
  await page.click('#play');
  const paused = (await row('vqs')).time;
  await page.waitForTimeout(300);
  assert.equal((await row('vqs')).time, paused, 'the race ran on after pause');
  await page.click('#play');
  await page.waitForFunction((t) => Number(document.querySelector('[data-policy="vqs"]').dataset.time) > t, paused);

  await mkdir(RESULTS, { recursive: true });
  await page.screenshot({ path: join(RESULTS, 'skeleton.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(200);
  await page.screenshot({ path: join(RESULTS, 'skeleton-narrow.png'), fullPage: true });

  assert.equal(await page.locator('.error').count(), 0, 'the page shows an error');
  assert.deepEqual(problems, []);
});
