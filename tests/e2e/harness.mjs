// What every browser test file shares: dist/ served below a sub-path on 127.0.0.1, one
// Chromium, and the helpers that open the lab, wait for slots and ask the CLI. Importing it
// registers the before/after hooks of the file that imports it.
//
// Serves dist/ (built by `trunk build --release`) from a sub-path on 127.0.0.1, drives Debian's
// Chromium with playwright-core, and fails on any console error, page error or failed request
// (CSP violations show up as console errors). Run with `npm run test:e2e`.
//
// The CLI comparison runs `packlab run --link ... --json`: $PACKLAB_CLI if set, else
// target/release/packlab or target/debug/packlab when newer than the core's and the CLI's
// sources, else `cargo run --release -p packlab-cli` (slow the first time).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { launchChromium, serveDist } from './browser.mjs';

export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const DIST = join(ROOT, 'dist');
export const RESULTS = join(ROOT, 'test-results');
// Served below a sub-path, as on a project page, to check that asset URLs are relative.
export const BASE = '/packlab/';
/** How long a run to the horizon at speed=max may take. */
export const RUN_TIMEOUT_MS = 120_000;
/** How long a stability map may take (dozens of runs on the machine's workers). */
export const MAP_TIMEOUT_MS = 10 * 60_000;
/** The race of tests (a): VQS is unstable on one server, BF-J/S is not. */
export const RACE = 'preset=pgrr-a1&policy=vqs,bf-js&seed=1';

let server;
export let context;
let closeChromium;
export let origin;

before(async () => {
  await stat(join(DIST, 'index.html')).catch(() => {
    throw new Error('dist/index.html is missing: run `trunk build --release` first');
  });
  await mkdir(RESULTS, { recursive: true });
  ({ server, origin } = await serveDist(DIST, BASE));
  ({ context, close: closeChromium } = await launchChromium('packlab-chromium-'));
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
});

after(async () => {
  await closeChromium?.();
  await new Promise((ok) => (server ? server.close(ok) : ok()));
});

// ---------------------------------------------------------------------------------------------
// Helpers

/**
 * Opens the lab in a new tab at `target` (a query such as `preset=pgrr-a1&seed=1`, or a full
 * URL) and waits for the stats table (`cores`: what `navigator.hardwareConcurrency` says). The tab and its `problems` (console errors, page errors,
 * failed requests, HTTP errors) go into `opened` first, so they are reported even if loading fails.
 */
export async function openLab(opened, target, { viewport, waitFor = '#stats tr[data-policy]', cores } = {}) {
  const page = await context.newPage();
  // The cores the page believes it has: how many workers it splits a race's lanes over.
  if (cores) await page.addInitScript((n) => Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => n }), cores);
  const problems = [];
  opened.push({ page, problems });
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
    else if (msg.type() === 'warning') console.log(`console warning: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('requestfailed', (req) => problems.push(`request failed: ${req.url()} ${req.failure()?.errorText}`));
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
  if (viewport) await page.setViewportSize(viewport);
  const url = /^https?:/.test(target) ? target : `${origin}${BASE}${target ? `?${target.replace(/^\?/, '')}` : ''}`;
  await page.goto(url);
  await page.waitForSelector(waitFor);
  // The lab draws the parts below its first screen in the tasks after it (data-drawing).
  await page.waitForFunction(() => !document.querySelector('main[data-drawing]'));
  return page;
}

/**
 * A test that opens pages with `open(target, options)`. Afterwards it fails if any page logged
 * a console error, threw, had a request fail, or shows an `.error`; then it closes the pages.
 */
export function labTest(name, body) {
  test(name, async () => {
    const opened = [];
    const open = (target, options) => openLab(opened, target, options);
    let failure;
    try {
      await body(open);
    } catch (err) {
      failure = err;
    }
    const problems = opened.flatMap((lab) => lab.problems);
    const errors = [];
    for (const { page } of opened) {
      if (page.isClosed()) continue;
      for (const text of await page.locator('.error').allTextContents()) errors.push(`shown: ${text}`);
    }
    await Promise.all(opened.map(({ page }) => page.close()));
    if (failure) {
      if (problems.length || errors.length) failure.message += `\nand in the browser:\n  ${[...problems, ...errors].join('\n  ')}`;
      throw failure;
    }
    assert.deepEqual(problems, [], 'console errors, page errors or failed requests');
    assert.deepEqual(errors, [], 'the page shows an error');
  });
}

/** Every stats row by policy (as the link names it: `vqs`, `bf-js`). */
export async function rows(page) {
  return page.$$eval('#stats tr[data-policy]', (trs) =>
    Object.fromEntries(
      trs.map((tr) => [
        tr.dataset.policy,
        {
          time: Number(tr.dataset.time),
          queue: Number(tr.dataset.queue),
          meanQueue: Number(tr.dataset.meanQueue),
          meanOccupancy: Number(tr.dataset.meanOccupancy),
          meanResponse: tr.dataset.meanResponse === undefined ? undefined : Number(tr.dataset.meanResponse),
          meanDelay: tr.dataset.meanDelay === undefined ? undefined : Number(tr.dataset.meanDelay),
        },
      ]),
    ),
  );
}

/** The slot every row shows (they run in lockstep). */
export async function slot(page) {
  const times = Object.values(await rows(page)).map((r) => r.time);
  assert.ok(times.length > 0, 'no stats rows');
  assert.ok(
    times.every((t) => t === times[0]),
    `the policies are not in lockstep: ${times}`,
  );
  return times[0];
}

/**
 * Waits until every row has simulated exactly `target` slots. On a timeout the error says what
 * the page showed instead: a paused race and a stuck one look alike from the wait alone.
 */
export async function waitForSlot(page, target, timeout = RUN_TIMEOUT_MS) {
  try {
    await page.waitForFunction(
      (t) => {
        const trs = [...document.querySelectorAll('#stats tr[data-policy]')];
        return trs.length > 0 && trs.every((tr) => Number(tr.dataset.time) === t);
      },
      target,
      { timeout },
    );
  } catch (err) {
    if (page.isClosed()) throw err;
    const shown = await page
      .evaluate(() => ({
        play: document.querySelector('#play')?.textContent.trim(),
        times: Object.fromEntries([...document.querySelectorAll('#stats tr[data-policy]')].map((tr) => [tr.dataset.policy, tr.dataset.time])),
        notices: document.querySelector('#notices')?.textContent.trim(),
      }))
      .catch(() => 'nothing (the page did not answer)');
    err.message += `\nwaiting for slot ${target}, the page showed ${JSON.stringify(shown)}`;
    throw err;
  }
}

/** Waits until every row is past slot `previous`. */
export async function waitPastSlot(page, previous, timeout = 30_000) {
  await page.waitForFunction(
    (t) => {
      const trs = [...document.querySelectorAll('#stats tr[data-policy]')];
      return trs.length > 0 && trs.every((tr) => Number(tr.dataset.time) > t);
    },
    previous,
    { timeout },
  );
}

/** Moves to moment `t` on the timeline, as a drag of the scrubber does. */
export async function seek(page, t) {
  await page.$eval(
    '#scrubber',
    (el, value) => {
      el.value = String(value);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    },
    t,
  );
  await page.waitForFunction((v) => Number(document.querySelector('#timeline').dataset.now) === v, t, { timeout: 60_000 });
}

/** Clicks #play and waits for the run to reach `horizon`, where #play offers "Run again". */
export async function runToEnd(page, horizon) {
  await page.bringToFront();
  // A click on a playing race pauses it, and one on a finished race starts it again while the
  // waits below pass on the end it shows: either way the test would wait or read far from here.
  assert.match(await playLabel(page), /^(Play|Resume)$/, 'runToEnd starts from a race that is ready or paused');
  await page.click('#play');
  await waitForSlot(page, horizon);
  await page.waitForFunction(() => document.querySelector('#play')?.textContent.trim() === 'Run again', null, {
    timeout: 5_000,
  });
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'false');
}

/**
 * Plays a race just opened until every lane has stepped, then pauses it. By then every worker
 * the race is split over has loaded the page's module: a test that goes back or closes the page
 * sooner aborts those loads, which the harness would count as failed requests (CI, stop 61).
 */
export async function playUntilStepped(page) {
  assert.equal(await playLabel(page), 'Play', 'a race just opened');
  await page.click('#play');
  await waitPastSlot(page, 0);
  await pause(page);
}

/** What #play offers now: Play, Pause, Resume or Run again. */
export async function playLabel(page) {
  return (await page.textContent('#play')).trim();
}

/**
 * Pauses a race that plays (the caller waits until it does: right after a click on Play, the
 * worker may not have answered yet). A race that reached its horizon meanwhile is left there:
 * clicking "Run again" would start it over.
 */
export async function pause(page) {
  if ((await playLabel(page)) === 'Pause') await page.click('#play');
  await page.waitForFunction(() => /^(Resume|Run again)$/.test(document.querySelector('#play')?.textContent.trim()), null, {
    timeout: 5_000,
  });
}

/** Types `value` into the `#field-KEY` input and commits it, as a person would. */
export async function setField(page, key, value) {
  const input = page.locator(`#field-${key}`);
  await input.fill(value);
  await input.press('Enter');
  await input.blur();
  // The link follows the state.
  await page.waitForFunction(
    ([k, v]) => new URL(document.querySelector('#link').value).searchParams.get(k) === v,
    [key, value],
    { timeout: 5_000 },
  );
}

/** Clicks #copy-link and returns what landed on the clipboard. */
export async function copyLink(page) {
  await page.bringToFront();
  await page.click('#copy-link');
  let lastError;
  for (let i = 0; i < 50; i++) {
    try {
      const text = await page.evaluate(() => navigator.clipboard.readText());
      if (text) return text;
    } catch (err) {
      lastError = err;
    }
    await page.waitForTimeout(100);
  }
  // The context grants clipboard-read: a clipboard that cannot be read is a failure, not a
  // reason to compare the link box with itself.
  throw new Error(`the clipboard could not be read after Copy link: ${lastError?.message.split('\n')[0] ?? 'it stayed empty'}`);
}

/** Both canvases' pixels and the slot, in one go. */
export async function grabCanvases(page) {
  return page.evaluate(() => ({
    slot: Number(document.querySelector('#stats tr[data-policy]').dataset.time),
    queue: document.querySelector('canvas#chart-queue').toDataURL(),
    cluster: document.querySelector('article.lane canvas.cluster').toDataURL(),
  }));
}

/** Newest modification time of the files under `path` (a file or a directory). */
export function newest(path) {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/** The command that runs the CLI: a built binary newer than its sources, else `cargo run`. */
export function cliCommand() {
  if (process.env.PACKLAB_CLI) return [process.env.PACKLAB_CLI, []];
  const sources = Math.max(
    ...['crates/core', 'crates/cli/src', 'crates/cli/Cargo.toml', 'Cargo.toml', 'Cargo.lock'].map((p) =>
      newest(join(ROOT, p)),
    ),
  );
  for (const profile of ['release', 'debug']) {
    const binary = join(ROOT, 'target', profile, 'packlab');
    if (existsSync(binary) && statSync(binary).mtimeMs >= sources) return [binary, []];
  }
  return ['cargo', ['run', '--release', '-q', '-p', 'packlab-cli', '--']];
}

/** `packlab run --link QUERY --json`: the report of each policy, by policy name. */
export function cliReports(query, extra = []) {
  const [command, prefix] = cliCommand();
  const args = [...prefix, 'run', '--link', query, '--json', ...extra];
  let stdout;
  try {
    stdout = execFileSync(command, args, {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 30 * 60_000,
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (err) {
    throw new Error(`${command} ${args.join(' ')} failed: ${err.message}\n${err.stderr ?? ''}`);
  }
  const reports = stdout
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));
  return Object.fromEntries(reports.map((r) => [r.policy, r]));
}

/** `actual` and `expected` agree to `rel` relative to the larger. */
export function assertClose(actual, expected, what, rel = 1e-9) {
  const scale = Math.max(Math.abs(actual), Math.abs(expected));
  assert.ok(
    Number.isFinite(actual) && Math.abs(actual - expected) <= rel * scale,
    `${what}: page ${actual}, CLI ${expected}`,
  );
}

/** Runs the page's sweep view with `loads` and `reps`, and returns its points by policy and load. */
export async function runSweep(page, loads, reps) {
  await page.click('#sweep > summary');
  await page.fill('#sweep-loads', loads);
  await page.press('#sweep-loads', 'Tab');
  await page.fill('#sweep-reps', String(reps));
  await page.press('#sweep-reps', 'Tab');
  await page.click('#sweep-run');
  await page.waitForSelector('#sweep[data-done="true"]', { timeout: RUN_TIMEOUT_MS });
  return page.$$eval('#sweep-table tr[data-policy]', (trs) =>
    trs.map((tr) => ({
      policy: tr.dataset.policy,
      load: Number(tr.dataset.valueX),
      figure: tr.dataset.figure,
      value: Number(tr.dataset.value),
      lo: Number(tr.dataset.ciLo),
      hi: Number(tr.dataset.ciHi),
    })),
  );
}

/** axe-core's script (npm), read when a test first asks for it. */
let axeSource;

/** axe's violations on the page (WCAG 2.1 A and AA), or only `rules` if given; within `within` (a
 * selector) if given, else on the whole page. */
export async function axeViolations(page, rules, within = undefined) {
  axeSource ??= readFileSync(join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
  const options = rules
    ? { runOnly: { type: 'rule', values: rules } }
    : { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } };
  const found = await page.evaluate(
    (o) => window.axe.run(o.within ? document.querySelector(o.within) : document, o.options),
    { options, within },
  );
  return found.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.length}) ${v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')}: ${n.failureSummary?.split('\n')[1]?.trim() ?? ''}`).join(' | ')}`,
  );
}
