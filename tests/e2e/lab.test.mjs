// What a person does with the lab: open a link, press play, watch the charts and the clusters
// move, share the link, get the same numbers as the command line.
//
// Serves dist/ (built by `trunk build --release`) from a sub-path on 127.0.0.1, drives Debian's
// Chromium with playwright-core, and fails on any console error, page error or failed request
// (CSP violations show up as console errors). Run with `npm run test:e2e`.
//
// The CLI comparison runs `packlab run --link ... --json`: $PACKLAB_CLI if set, else
// target/release/packlab or target/debug/packlab when newer than the core's and the CLI's
// sources, else `cargo run --release -p packlab-cli` (slow the first time).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { launchChromium, serveDist } from './browser.mjs';
import {
  BASE,
  DIST,
  MAP_TIMEOUT_MS,
  RACE,
  RESULTS,
  ROOT,
  RUN_TIMEOUT_MS,
  assertClose,
  cliCommand,
  cliReports,
  context,
  copyLink,
  grabCanvases,
  labTest,
  origin,
  pause,
  rows,
  runSweep,
  runToEnd,
  setField,
  slot,
  waitForSlot,
  waitPastSlot,
} from './harness.mjs';

// ---------------------------------------------------------------------------------------------
// Tests

labTest('a run to the horizon gives the CLI numbers for the same link', async (open) => {
  const horizon = 200_000;
  const query = `${RACE}&horizon=${horizon}&speed=max`;
  const cli = cliReports(query);

  const page = await open(query);
  await runToEnd(page, horizon);
  const pageRows = await rows(page);
  assert.deepEqual(Object.keys(pageRows).sort(), Object.keys(cli).sort(), 'the page and the CLI name the policies alike');
  assert.deepEqual(Object.keys(pageRows), ['vqs', 'bf-js']);
  for (const [policy, row] of Object.entries(pageRows)) {
    assert.equal(row.time, horizon, `${policy} data-time`);
    assertClose(row.meanQueue, cli[policy].mean_queue, `${policy} mean queue`);
  }
  // VQS is unstable here: its queue grows while BF-J/S keeps up.
  assert.ok(
    pageRows.vqs.meanQueue > pageRows['bf-js'].meanQueue,
    `VQS ${pageRows.vqs.meanQueue} should wait longer than BF-J/S ${pageRows['bf-js'].meanQueue}`,
  );
});

labTest('multiserver jobs: MSFQ answers faster than MSF on the same arrivals, as the CLI says', async (open) => {
  // msfq-d1's default view races MSF against MSFQ(31) at λ = 7.5 on k = 32 cores.
  const horizon = 20_000;
  const query = `preset=msfq-d1&seed=1&horizon=${horizon}&speed=max`;
  const cli = cliReports(query);
  const page = await open(query);
  assert.equal(await page.inputValue('#field-cores'), '32');
  await runToEnd(page, horizon);
  const pageRows = await rows(page);
  assert.deepEqual(Object.keys(pageRows), ['msf', 'msfq:l=31']);
  for (const [policy, row] of Object.entries(pageRows)) {
    assert.equal(row.time, horizon, `${policy} data-time`);
    assertClose(row.meanResponse, cli[policy].mean_response, `${policy} mean response`);
    assertClose(row.meanQueue, cli[policy].mean_queue, `${policy} mean queue`);
  }
  const msf = pageRows.msf.meanResponse;
  const msfq = pageRows['msfq:l=31'].meanResponse;
  assert.ok(msfq < msf, `MSFQ ${msfq} should answer faster than MSF ${msf}`);
  // The machine's cores are drawn with MSFQ's phase as the label, and the why sentence names the rule.
  const why = (await page.$$eval('.lane .why', (ps) => ps.map((p) => p.textContent))).join(' ');
  assert.match(why, /MSFQ phase|MSF: the largest/);
  // The response charts are there for this model (and only for it): every policy's E[T], and
  // the focused policy's per class with its own picker.
  assert.ok(await page.$('#chart-job-time'), 'a response-time chart');
  assert.ok(await page.$('#chart-class-job-time'), 'a per-class response-time chart');
  await page.selectOption('#focus-job-time', '1');
  // The focus comes back with the race worker's next snapshot.
  await page.waitForFunction(() => document.querySelector('#focus')?.value === '1', null, { timeout: 5_000 });
  assert.equal(await page.inputValue('#focus'), '1', 'one focus for both per-bin charts');
  await page.screenshot({ path: join(RESULTS, 'lab-msfq-d1.png'), fullPage: false });
  await page.screenshot({ path: join(RESULTS, 'lab-msfq-d1-full.png'), fullPage: true });
});

labTest('VM scheduling: on a mixed fleet MW-local queues up while Algorithm 2 keeps up, as the CLI says', async (open) => {
  // ghra-b3's default view races MW-local against Algorithm 2 on 5 small + 5 large EC2 servers
  // at ζ = 0.9 (GH-RA Fig. 3); MW-local's queue is clearly growing by t = 8000.
  const horizon = 8_000;
  const query = `preset=ghra-b3&seed=1&horizon=${horizon}&speed=max`;
  const cli = cliReports(query);
  const page = await open(query);
  assert.equal(await page.inputValue('#field-servers'), '5xsmall,5xlarge');
  await runToEnd(page, horizon);
  const pageRows = await rows(page);
  assert.deepEqual(Object.keys(pageRows), ['mw-local', 'alg2-jsq']);
  for (const [policy, row] of Object.entries(pageRows)) {
    assert.equal(row.time, horizon, `${policy} data-time`);
    assertClose(row.meanQueue, cli[policy].mean_queue, `${policy} mean queue`);
    assertClose(row.meanDelay, cli[policy].mean_delay, `${policy} mean delay`);
    assert.equal(row.queue, cli[policy].final_queue, `${policy} queue at the horizon`);
  }
  const mw = pageRows['mw-local'];
  const alg2 = pageRows['alg2-jsq'];
  assert.ok(mw.queue > 10 * alg2.queue, `MW-local waiting ${mw.queue} vs Alg. 2 ${alg2.queue}`);
  assert.ok(mw.meanQueue > alg2.meanQueue, `MW-local mean ${mw.meanQueue} vs Alg. 2 ${alg2.meanQueue}`);
  // Each server has one bar per resource; dummies are explained; the readouts show Alg. 2's
  // clock rates and MW-local's configurations.
  const text = await page.textContent('main');
  assert.match(text, /memory/);
  assert.match(text, /dummy/i);
  const readouts = (await page.$$eval('.lane .readout', (ps) => ps.map((p) => p.textContent))).join(' ');
  assert.match(readouts, /configurations in use/);
  assert.match(readouts, /clock rates/);
  assert.ok(await page.$('#chart-job-time'), 'a delay chart');
  await page.screenshot({ path: join(RESULTS, 'lab-ghra-b3.png'), fullPage: false });
  await page.screenshot({ path: join(RESULTS, 'lab-ghra-b3-full.png'), fullPage: true });
});

labTest('reward-maximising reservation: DRA earns close to U^(g), as the CLI says; the α view finds 6/7 and 6', async (open) => {
  // pgas-c4 (PG-AS Fig. 4): DRA against power-of-d on 180 servers from an empty system, 50 time units.
  const horizon = 50;
  const query = 'preset=pgas-c4&seed=1&speed=max';
  const cli = cliReports(query);
  const page = await open(query);
  await runToEnd(page, horizon);
  const greedy = Number(await page.getAttribute('#stats', 'data-greedy-reward'));
  const optimal = Number(await page.getAttribute('#stats', 'data-optimal-reward'));
  assertClose(greedy, 3196 / 3, 'U^(g)', 1e-9);
  assertClose(optimal, 1236, 'U*', 1e-6);
  const reward = (policy) =>
    page.$eval(`#stats tr[data-policy="${policy}"]`, (tr) => ({
      mean: Number(tr.dataset.meanReward),
      now: Number(tr.dataset.rewardNow),
    }));
  const dra = await reward('dra');
  const pod = await reward('po-d');
  assertClose(dra.mean, cli.dra.normalized_reward, 'DRA normalised reward');
  assertClose(pod.mean, cli['po-d'].normalized_reward, 'power-of-d normalised reward');
  // The curve approaches the U^(g) line: the mean over the run (from an empty system) is within
  // 10% below it and the latest reward within 10% of it; power-of-d stays far below.
  assert.ok(dra.mean / greedy > 0.9 && dra.mean / greedy < 1.02, `DRA mean ${dra.mean} vs U^(g) ${greedy}`);
  assert.ok(Math.abs(dra.now / greedy - 1) < 0.1, `DRA now ${dra.now} vs U^(g) ${greedy}`);
  assert.ok(pod.mean < 0.8 * dra.mean, `power-of-d ${pod.mean} vs DRA ${dra.mean}`);
  // A loss system has no queue chart; it has the reward chart and the α view.
  assert.ok(await page.$('#chart-reward'), 'a reward chart');
  assert.equal(await page.$('#chart-queue'), null, 'no queue chart for a loss system');
  const critical = (await page.getAttribute('#alpha-view', 'data-critical')).split(',').map(Number);
  assert.equal(critical.length, 2, `critical points ${critical}`);
  assert.ok(Math.abs(critical[0] - 6 / 7) < 1e-5 && Math.abs(critical[1] - 6) < 1e-5, `critical points ${critical}`);
  assert.match(await page.textContent('#alpha-view figcaption'), /α = 6\/7 and from α = 6 on/);
  await page.screenshot({ path: join(RESULTS, 'lab-pgas-c4.png'), fullPage: false });
  await page.screenshot({ path: join(RESULTS, 'lab-pgas-c4-full.png'), fullPage: true });
  // The slot grids of a small cluster: filled and reserved slots, the servers' groups.
  const small = await open('preset=pgas-c3&servers=12&horizon=20&speed=max');
  await runToEnd(small, 20);
  await small.locator('div.lanes').screenshot({ path: join(RESULTS, 'lab-pgas-slots.png') });
  // pgas-c1 is bounds only: the random collections' statistics stand in for a race.
  const c1 = await open('preset=pgas-c1&seed=1', { waitFor: '#collections-view' });
  const count = Number(await c1.getAttribute('#collections-view', 'data-count'));
  const min = Number(await c1.getAttribute('#collections-view', 'data-min-ratio'));
  assert.equal(count, 50);
  assert.ok(min >= 1 - 1 / Math.E && min <= 1, `minimum ratio ${min}`);
  assert.equal(await c1.$('#play'), null, 'no race for bounds-only collections');
});

labTest('the charts and the clusters are redrawn while playing', async (open) => {
  const page = await open(`${RACE}&speed=100000`);
  assert.equal(await page.$('#chart-job-time'), null, 'PG-RR has no response times');
  assert.equal(await page.$('#chart-class-job-time'), null, 'nor per-class response times');
  const idle = await grabCanvases(page);
  await page.click('#play');
  // The race plays in the race worker: the button turns when its first snapshot is back (the
  // worker may still be starting).
  await page.waitForSelector('#play[aria-pressed="true"]', { timeout: 20_000 });
  assert.equal((await page.textContent('#play')).trim(), 'Pause');
  await waitPastSlot(page, 0);
  const first = await grabCanvases(page);
  // Half a second of play, or more where the machine is slow to draw: until both canvases moved.
  await page.waitForTimeout(500);
  let second = await grabCanvases(page);
  for (let tries = 0; tries < 40 && (second.queue === first.queue || second.cluster === first.cluster); tries++) {
    await page.waitForTimeout(250);
    second = await grabCanvases(page);
  }

  assert.ok(second.slot > first.slot, `slot ${first.slot} -> ${second.slot}`);
  for (const grab of [idle, first, second]) {
    assert.notEqual(grab.queue, 'data:,', 'the queue chart has no size');
    assert.notEqual(grab.cluster, 'data:,', 'the cluster canvas has no size');
  }
  assert.notEqual(second.queue, first.queue, 'canvas#chart-queue did not change in 500 ms of play');
  assert.notEqual(second.cluster, first.cluster, 'canvas.cluster did not change in 500 ms of play');
});

labTest('a copied link replays the same run in a new page', async (open) => {
  const horizon = 50_000;
  const first = await open(`${RACE}&horizon=${horizon}&speed=max`);
  await setField(first, 'servers', '2');
  await setField(first, 'seed', '7');
  // The address bar follows too (history.replaceState).
  const address = new URL(first.url()).searchParams;
  assert.equal(address.get('servers'), '2');
  assert.equal(address.get('seed'), '7');
  assert.equal(address.get('horizon'), String(horizon));
  assert.equal(address.get('speed'), 'max');

  const link = await copyLink(first);
  assert.equal(link, await first.inputValue('#link'), 'the clipboard holds the link shown');
  assert.ok(link.startsWith(`${origin}${BASE}?`), link);

  const second = await open(link);
  assert.equal(await second.inputValue('#field-servers'), '2');
  assert.equal(await second.inputValue('#field-seed'), '7');
  assert.equal(await second.inputValue('#link'), link, 'the link survives a round trip');

  await runToEnd(first, horizon);
  await runToEnd(second, horizon);
  const [a, b] = [await rows(first), await rows(second)];
  assert.deepEqual(Object.keys(b), Object.keys(a));
  for (const policy of Object.keys(a)) {
    assert.equal(b[policy].time, horizon, `${policy} data-time`);
    assert.equal(b[policy].meanQueue, a[policy].meanQueue, `${policy} mean queue`);
  }
});

labTest('rejected link keys are named with their ranges and the rest loads', async (open) => {
  const page = await open('servers=-3&seed=abc');
  const notices = page.locator('#notices');
  await notices.waitFor({ state: 'visible' });
  assert.equal(await notices.getAttribute('role'), 'alert');
  const text = await notices.textContent();
  for (const part of ['servers', '1..=100000', 'seed', '0..=18446744073709551615']) {
    assert.ok(text.includes(part), `#notices should mention ${part}: ${text}`);
  }
  // Each field says what is wrong with it too.
  assert.ok((await page.locator('.field-error', { hasText: '1..=100000' }).count()) >= 1, 'no .field-error for servers');
  assert.ok(
    (await page.locator('.field-error', { hasText: '0..=18446744073709551615' }).count()) >= 1,
    'no .field-error for seed',
  );
  // …linked to its input for screen readers; only #notices is announced.
  assert.equal(await page.getAttribute('#field-seed', 'aria-describedby'), 'error-seed');
  assert.match(await page.textContent('#error-seed'), /0\.\.=18446744073709551615/);
  assert.equal(await page.locator('.field-error[role="alert"]').count(), 0, 'one announcement, not one per field');

  // The rest of the page is there and works.
  const names = Object.keys(await rows(page));
  assert.ok(names.length >= 1);
  for (const id of ['chart-queue', 'chart-occupancy', 'chart-bins']) {
    assert.equal(await page.locator(`canvas#${id}`).count(), 1, `canvas#${id}`);
  }
  for (const name of names) {
    assert.equal(await page.locator(`article.lane[data-lane="${name}"] canvas.cluster`).count(), 1, `lane ${name}`);
  }
  assert.ok(await page.isEnabled('#play'), '#play is disabled');
  await page.click('#play');
  await waitPastSlot(page, 0);
});

// Links the fuzzer found to kill the page (nMSR's LP on a vanishing mean size) or to
// mislead: each now opens with the offending key named, and the page runs.
labTest('a repeated key is named, and a long or right-to-left bad value stays inside its notice', async (open) => {
  const page = await open(`servers=3&seed=12%E2%80%AE34&servers=2&horizon=${'9'.repeat(5000)}`);
  const notices = page.locator('#notices');
  await notices.waitFor({ state: 'visible' });
  const text = await notices.textContent();
  for (const part of ['given 2 times', "'2'", '5000 characters', '\\u{202e}']) {
    assert.ok(text.includes(part), `#notices should mention ${part}: ${text}`);
  }
  assert.ok(!text.includes('\u202e'), 'the override character reached the page');
  const box = await notices.boundingBox();
  const width = await page.evaluate(() => document.documentElement.clientWidth);
  assert.ok(box.x + box.width <= width, `#notices overflows: ${box.x + box.width} > ${width}`);
  assert.equal(await page.inputValue('#field-servers'), '2');
});

labTest('links that used to crash the page name their key and the page runs', async (open) => {
  for (const [link, key, part] of [
    ['preset=msfq-d5&policy=nmsr&classes=1@0.9@5e-324,32@0.1', 'classes', '[1e-6, 1e6]'],
    ['preset=pgas-c5&load=1e-9', 'load', 'at least 10'],
  ]) {
    const page = await open(link);
    const notices = page.locator('#notices');
    await notices.waitFor({ state: 'visible' });
    const text = await notices.textContent();
    assert.ok(text.includes(key) && text.includes(part), `${link}: #notices should name ${key} (${part}): ${text}`);
    assert.equal(await page.locator('#crash').count(), 0, `${link}: the page crashed`);
    assert.ok(Object.keys(await rows(page)).length >= 1, `${link}: no lane`);
    await page.click('#play');
    await waitPastSlot(page, 0);
  }
});

/** Everything the stats rows say, attribute by attribute, as the page wrote it. */
async function statsAttributes(page) {
  return page.$$eval('#stats tr[data-policy]', (trs) => trs.map((tr) => ({ ...tr.dataset })));
}

/** The timeline's exact time. */
async function timelineNow(page) {
  return Number(await page.getAttribute('#timeline', 'data-now'));
}

labTest('issue 15: the timeline goes back and forth exactly, steps are events, a link opens at a moment', async (open) => {
  const cases = [
    ['preset=msfq-d1&policy=msf,msfq&horizon=400&warmup=50&seed=3', 'continuous'],
    ['preset=pgrr-a1&policy=vqs,bf-js&horizon=2000&warmup=100&seed=3', 'slotted'],
  ];
  for (const [query, kind] of cases) {
    const page = await open(`${query}&speed=max`);
    await page.click('#play');
    await page.waitForSelector('#play:has-text("Run again")', { timeout: RUN_TIMEOUT_MS });
    const end = await statsAttributes(page);
    const T = Number(await page.getAttribute('#timeline', 'data-furthest'));
    assert.ok(T > 0, `${kind}: the timeline covers the run`);
    // Checkpoints spaced by their cost: few on a run this short, and time 0 always.
    assert.ok(Number(await page.getAttribute('#timeline', 'data-checkpoints')) >= 1, `${kind}: checkpoints`);
    assert.ok(Number(await page.getAttribute('#timeline', 'data-checkpoint-bytes')) > 0, `${kind}: checkpoints weighed`);
    const half = T / 2;
    // Back to the middle by the scrubber.
    await page.locator('#scrubber').fill(String(half));
    await page.waitForSelector(`#timeline[data-now="${half}"]`, { timeout: 10_000 });
    const back = await statsAttributes(page);
    assert.ok(back.every((r) => Number(r.time) === half), `${kind}: every lane at ${half}`);
    assert.ok(back.some((r, i) => r.meanQueue !== end[i].meanQueue), `${kind}: the middle differs from the end`);
    // A fresh page opening at that moment shows the same, attribute by attribute.
    const moment = await page.getAttribute('#moment-link', 'href');
    assert.ok(moment.endsWith(`&t=${half}`), moment);
    const fresh = await open(`${query}&speed=max&t=${half}`);
    await fresh.waitForSelector(`#timeline[data-now="${half}"]`, { timeout: RUN_TIMEOUT_MS });
    await fresh.waitForSelector('#play[aria-pressed="false"]');
    assert.deepEqual(await statsAttributes(fresh), back, `${kind}: t=${half} opened fresh`);
    // Forward to the end again: the first reading, bit for bit.
    await page.locator('#scrubber').fill(String(T));
    await page.waitForSelector(`#timeline[data-now="${T}"]`, { timeout: 10_000 });
    assert.deepEqual(await statsAttributes(page), end, `${kind}: forward to the end again`);
    // Step, step, back: the first step's moment again; a step is one event in continuous time.
    await page.locator('#scrubber').fill(String(half));
    await page.waitForSelector(`#timeline[data-now="${half}"]`, { timeout: 10_000 });
    await page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((h) => Number(document.querySelector('#timeline').dataset.now) > h, half);
    const first = [await timelineNow(page), await statsAttributes(page)];
    if (kind === 'continuous') {
      assert.ok(first[0] < half + 1 && first[0] !== Math.floor(first[0]), `one event, not a time unit: ${first[0]}`);
      assert.ok((await page.textContent('#timeline .now')).includes(first[0].toFixed(4)));
    } else {
      assert.equal(first[0], half + 1, 'one slot');
    }
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((t) => Number(document.querySelector('#timeline').dataset.now) > t, first[0]);
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction((t) => Number(document.querySelector('#timeline').dataset.now) === t, first[0]);
    assert.deepEqual([await timelineNow(page), await statsAttributes(page)], first, `${kind}: step back`);
    if (kind === 'continuous') {
      // A link to the moment of an event opens exactly there, not at the whole unit before.
      const at = await page.getAttribute('#moment-link', 'href');
      assert.ok(at.endsWith(`&t=${first[0]}`), at);
      const exact = await open(`${query}&speed=max&t=${first[0]}`);
      await exact.waitForSelector(`#timeline[data-now="${first[0]}"]`, { timeout: RUN_TIMEOUT_MS });
      await exact.waitForSelector('#play[aria-pressed="false"]');
      assert.deepEqual([await timelineNow(exact), await statsAttributes(exact)], first, 'the link to an event');
    }
  }
});

/** The rows of a CSV file (RFC 4180 quoting, no line breaks inside fields) as objects. */
function parseCsv(text) {
  const lines = text.split('\n').filter((line) => line && !line.startsWith('#'));
  const fields = (line) => {
    const out = [];
    let field = '';
    let quoted = false;
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (quoted) {
        if (c === '"' && line[i + 1] === '"') {
          field += '"';
          i++;
        } else if (c === '"') quoted = false;
        else field += c;
      } else if (c === '"') quoted = true;
      else if (c === ',') {
        out.push(field);
        field = '';
      } else field += c;
    }
    out.push(field);
    return out;
  };
  const [head, ...rows] = lines.map(fields);
  return rows.map((row) => Object.fromEntries(head.map((h, i) => [h, row[i]])));
}

/** `packlab run --link QUERY --events FILE --events-to T`: every decision, as CSV rows. */
async function cliEvents(query, to) {
  const [command, prefix] = cliCommand();
  const dir = await mkdtemp(join(tmpdir(), 'packlab-events-'));
  const file = join(dir, 'events.csv');
  execFileSync(command, [...prefix, 'run', '--link', query, '--events', file, '--events-to', String(to)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const rows = parseCsv(readFileSync(file, 'utf8'));
  await rm(dir, { recursive: true });
  return rows;
}

/** What the inspector shows: the decision's lane, number, time, what, why and facts. */
async function inspected(page) {
  return page.$eval('#inspector', (el) => ({
    policy: el.dataset.lane,
    seq: el.dataset.seq,
    time: Number(el.dataset.time),
    what: el.querySelector('.what').textContent,
    why: el.querySelector('.why').textContent.replace(/^why: /, ''),
    facts: [...el.querySelectorAll('table.facts tr')]
      .map((tr) => `${tr.querySelector('th').textContent}: ${tr.querySelector('td').textContent}`)
      .join('; '),
  }));
}

labTest('issue 15: the inspector shows each model\'s decisions with the numbers the CLI writes', async (open) => {
  const cases = [
    ['preset=pgrr-a3&policy=bf-js,vqs,fifo-ff&seed=5&horizon=400', 300, 'room before → after'],
    ['preset=msfq-d1&policy=msfq,msf&seed=5&horizon=200', 100, 'free cores before → after'],
    ['preset=ghra-b4&seed=5&horizon=40', 20, 'queue there now'],
    ['preset=pgas-c3&policy=dra&seed=5&horizon=10', 5, 'I*: the first rank whose configuration got fewer servers than its target (J if none)'],
  ];
  for (const [query, t, fact] of cases) {
    const page = await open(`${query}&t=${t}`);
    await page.waitForSelector(`#timeline[data-now="${t}"]`, { timeout: RUN_TIMEOUT_MS });
    await page.waitForSelector('#play[aria-pressed="false"]');
    const cli = await cliEvents(query, t);
    const find = (d) => cli.find((r) => r.policy === d.policy && r.seq === d.seq);
    // The newest decision of every lane, and one whose rule noted `fact`.
    const lanes = await page.$$eval('#stats tr[data-policy]', (trs) => trs.map((tr) => tr.dataset.policy));
    for (const lane of lanes) {
      const row = page.locator(`#log li.decision[data-lane="${lane}"] button`).first();
      await row.click();
      await page.waitForSelector(`#inspector[data-lane="${lane}"]`);
      const shown = await inspected(page);
      const written = find(shown);
      assert.ok(written, `${query}: ${lane} decision ${shown.seq} is not in the CLI's log`);
      assert.deepEqual(
        { time: shown.time, what: shown.what, why: shown.why, facts: shown.facts },
        { time: Number(written.time), what: written.what, why: written.why, facts: written.facts },
        `${query}: ${lane} decision ${shown.seq}`,
      );
    }
    const rows = await page.locator('#log li.decision').count();
    let checked = false;
    for (let i = 0; i < rows && !checked; i++) {
      await page.locator('#log li.decision button').nth(i).click();
      const shown = await inspected(page);
      if (!shown.facts.includes(`${fact}:`)) continue;
      const written = find(shown);
      assert.equal(written?.facts, shown.facts, `${query}: the numbers behind ${shown.what}`);
      checked = true;
    }
    assert.ok(checked, `${query}: no decision in the log shows '${fact}'`);
  }

  // Side by side: one job's decisions in every lane; a click on a server filters by it.
  const page = await open('preset=pgrr-a3&policy=bf-js,vqs,fifo-ff&seed=5&horizon=400&t=300');
  await page.waitForSelector('#timeline[data-now="300"]', { timeout: RUN_TIMEOUT_MS });
  // The oldest job BF-J/S started: the other lanes have started it by now too.
  await page.locator('#log li.decision[data-lane="bf-js"][data-action="start"] button').last().click();
  const job = await page.getAttribute('#inspector', 'data-job');
  await page.fill('#log-job', job);
  await page.dispatchEvent('#log-job', 'change');
  await page.waitForFunction((j) => [...document.querySelectorAll('#log li.decision')].every((li) => li.dataset.job === j), job);
  const lanesOfJob = await page.$$eval('#log li.decision', (lis) => [...new Set(lis.map((li) => li.dataset.lane))]);
  assert.ok(lanesOfJob.length >= 2, `job ${job} decided in one lane only: ${lanesOfJob}`);
  await page.locator('#log li.decision button').first().click();
  const others = await page.$$eval('#inspector ul.side-by-side li', (lis) => lis.map((li) => li.dataset.lane));
  assert.equal(others.length, 2, 'the two other lanes, side by side');
  await page.click('#log-clear');
  const canvas = page.locator('article.lane[data-lane="vqs"] canvas.cluster');
  await canvas.click({ position: { x: 10, y: 5 } });
  await page.waitForFunction(() => document.querySelector('#log-server').value === '1');
  const servers = await page.$$eval('#log li.decision', (lis) => lis.map((li) => [li.dataset.lane, li.dataset.server]));
  assert.ok(servers.length > 0 && servers.every(([l, s]) => l === 'vqs' && s === '1'), JSON.stringify(servers));
});

labTest('issue 17: the bundled Google sample replays on pgrr-a5 as in the CLI; a dropped SWF log runs MSFQ; bad files are named', async (open) => {
  const page = await open('preset=pgrr-a5&policy=bf-js,vqs,vqs-bf,fifo-ff&seed=1&load=1.5&speed=max');
  await page.click('#trace-sample');
  await page.waitForSelector('#trace-summary');
  const summary = (await page.textContent('#trace-summary')).replaceAll('\u202f', '');
  assert.match(summary, /Google cluster-data task_events: 38992 kept; skipped present when the trace began \(time 0\) 40/);
  assert.match(summary, /fingerprint b7d425969002bcb6/);
  assert.equal(await page.locator('.trace-histogram rect').count(), 11, 'one bar per size class');
  // The link names the trace by its fingerprint, and the horizon covers it.
  const link = await page.inputValue('#link');
  const query = link.slice(link.indexOf('?') + 1);
  assert.match(query, /trace=b7d425969002bcb6/);
  // The link's scaling (1/β = 1.5) was a scaling already, so it stays; the horizon covers the
  // trace at it, and the page says how the file replays.
  const horizon = Number(/horizon=(\d+)/.exec(query)[1]);
  assert.equal(horizon, 3338, `horizon ${horizon}: 500.5 s of trace at 1/β = 1.5 in 100 ms slots`);
  assert.equal(await page.getAttribute('#replay-status', 'data-scaling'), '1.5');
  assert.match(await page.textContent('#replay-status'), /replays at 1\/β = 1\.5: offered load 1\.5\d of the capacity, more than the machine can serve/);
  assert.match(await page.inputValue('#command'), /--set trace=b7d425969002bcb6/);
  // The sweep workers are handed the file too: the section offers the sweep, not a refusal
  // (trace-sweep.test.mjs runs one against the CLI).
  assert.equal(await page.locator('#sweep-run').count(), 1);
  const cli = cliReports(query, ['--trace', 'samples/google-task-events.csv.gz']);
  // The race worker was handed the same file and read it too: the race replays it there.
  await page.waitForSelector('main.lab[data-race-thread="worker"]', { timeout: 10_000 });
  await runToEnd(page, horizon);
  const pageRows = await rows(page);
  assert.deepEqual(Object.keys(pageRows), ['bf-js', 'vqs', 'vqs-bf', 'fifo-ff']);
  for (const [policy, row] of Object.entries(pageRows)) {
    assert.equal(row.time, horizon, `${policy} data-time`);
    assertClose(row.meanQueue, cli[policy].mean_queue, `${policy} mean queue`);
    assertClose(row.meanOccupancy, cli[policy].mean_occupancy, `${policy} occupancy`);
  }

  // The same link opened where the file is not loaded asks for it, by its fingerprint.
  const elsewhere = await open(query);
  const asks = await elsewhere.locator('#notices').textContent();
  assert.ok(asks.includes('b7d425969002bcb6') && asks.includes('not loaded here'), asks);
  await elsewhere.close();

  // An SWF log dropped on MSFQ's box (gzip): the machine becomes the log's 32 cores, and the
  // log replays at its own pace, not at the preset's λ = 4.5 taken as a scaling.
  const msfq = await open('preset=msfq-d6&speed=max');
  const swf = readFileSync(join(ROOT, 'samples/synthetic-32.swf.gz'));
  const drop = await msfq.evaluateHandle((bytes) => {
    const data = new DataTransfer();
    data.items.add(new File([new Uint8Array(bytes)], 'synthetic-32.swf.gz', { type: 'application/gzip' }));
    return data;
  }, Array.from(swf));
  await msfq.dispatchEvent('#trace-drop', 'drop', { dataTransfer: drop });
  await msfq.waitForSelector('#trace-summary');
  assert.match(await msfq.textContent('#trace-summary'), /Standard Workload Format \(SWF\): 20.?336 kept; skipped unknown run time 435, unknown processors 229/);
  assert.equal(await msfq.inputValue('#field-cores'), '32');
  assert.equal(await msfq.inputValue('#field-load'), '1');
  assert.match(await msfq.textContent('#replay-status'), /replays at 1\/β = 1: offered load 0\.88 of the capacity\.$/);
  assert.equal(await msfq.textContent('label[for="field-load"]'), 'Traffic scaling 1/β');
  // The log brings its classes: the class editor leaves the form while it replays.
  assert.equal(await msfq.locator('#classes-file').count(), 0);
  assert.equal(await msfq.locator('#from-trace').count(), 1);
  assert.match(await msfq.inputValue('#link'), /trace=[0-9a-f]{16}/);

  // Bad files: a gzip cut short, a line of the wrong width; each named where it goes wrong.
  const gz = readFileSync(join(ROOT, 'samples/google-task-events.csv.gz'));
  const bad = await open('preset=pgrr-a5');
  for (const [file, needle] of [
    [{ name: 'cut.csv.gz', mimeType: 'application/gzip', buffer: gz.subarray(0, gz.length - 5000) }, 'gzip'],
    [
      { name: 'wide.csv', mimeType: 'text/csv', buffer: Buffer.from('600,,1,0,,0,u,2,3,0.1,0.1,0,0\n601,,1,0,,1,u,2,3,0.1,0.1,0,0,9\n') },
      'wide.csv line 2: 14 columns',
    ],
    [{ name: 'nan.csv', mimeType: 'text/csv', buffer: Buffer.from('600,,1,0,,0,u,2,3,NaN,0.1,0,0\n') }, "nan.csv line 1: CPU request 'NaN'"],
  ]) {
    await bad.setInputFiles('#trace-file', file);
    await bad.waitForFunction((n) => document.querySelector('#notices')?.textContent.includes(n), needle, { timeout: 20_000 });
  }
  await bad.close();
});

/**
 * Plays the race of `page` until `#rate` matches `meter` (where it runs), pauses, and checks that
 * Pause stopped it at once: nothing runs on after it.
 */
async function playsWhereTheMeterSaysAndPausesAtOnce(page, meter) {
  await page.waitForSelector('main.lab[data-race-thread="worker"]', { timeout: 10_000 });
  await page.click('#play');
  await page.waitForSelector(`#rate${meter}`, { timeout: 10_000 });
  await page.click('#play');
  await page.waitForSelector('#play[aria-pressed="false"]', { timeout: 5_000 });
  const paused = await slot(page);
  await page.waitForTimeout(300);
  assert.equal(await slot(page), paused, 'the race ran on after Pause');
}

/**
 * At the horizon: every lane's numbers are `packlab run`'s for `query`, and one slot back and
 * one forward (the workers' moves too) give them again. Returns the rows.
 */
async function assertHorizonIsCli(page, query, horizon) {
  const cli = cliReports(query);
  const end = await rows(page);
  for (const [policy, row] of Object.entries(end)) {
    assert.equal(row.time, horizon, `${policy} data-time`);
    assertClose(row.meanQueue, cli[policy].mean_queue, `${policy} mean queue`);
    assertClose(row.meanOccupancy, cli[policy].mean_occupancy, `${policy} occupancy`);
  }
  await page.click('#back');
  await waitForSlot(page, horizon - 1, 5_000);
  await page.click('#step');
  await waitForSlot(page, horizon, 5_000);
  assert.deepEqual(await rows(page), end);
  return end;
}

/** The log's decisions, as the page lists them. */
async function loggedDecisions(page) {
  return page.$$eval('#log li.decision', (lis) => lis.map((li) => `${li.dataset.lane} ${li.textContent.trim()}`));
}

labTest('issue 35: a race\'s lanes run on one worker per core, in lockstep, and show what one worker shows', async (open) => {
  // Three lanes on two "cores": two workers, one lane and two. Played to the horizon, the
  // numbers are the CLI's, and the meter says how many workers run the race.
  const long = await open('preset=pgrr-a1&servers=1000&policy=vqs,bf-js,bf-j&horizon=100000000&speed=max', { cores: 2 });
  await playsWhereTheMeterSaysAndPausesAtOnce(long, '[data-workers="2"][title*="2 Web Workers"]');
  await long.close();

  const query = 'preset=pgrr-a1&servers=20&policy=vqs,bf-js,bf-j&seed=5&horizon=3000&warmup=100&speed=max';
  const split = await open(query, { cores: 2 });
  await split.waitForSelector('main.lab[data-race-thread="worker"]', { timeout: 10_000 });
  await runToEnd(split, 3000);
  // Back and forth again at the horizon: the parts move together.
  const end = await assertHorizonIsCli(split, query, 3000);
  assert.deepEqual(Object.keys(end), ['vqs', 'bf-js', 'bf-j']);

  // A moment opened from a link, in two workers and in one: the same numbers, the same decisions
  // in the log, the same answer from the inspector; after a pause in the middle of a run too.
  for (const [moment, label] of [
    ['t=1234', 'slotted, a link'],
    ['t=77.5', 'continuous time, a link'],
  ]) {
    const link = label.startsWith('slotted') ? `${query}&${moment}` : `preset=msfq-d1&policy=msf,msfq,fcfs&seed=3&horizon=400&speed=max&${moment}`;
    const pages = [];
    for (const cores of [2, 1]) {
      const page = await open(link, { cores });
      await page.waitForSelector('#play[aria-pressed="false"]:not([disabled])', { timeout: 20_000 });
      await page.waitForFunction((t) => Number(document.querySelector('#timeline')?.dataset.now) === t, Number(moment.slice(2)), {
        timeout: 20_000,
      });
      pages.push(page);
    }
    const [two, one] = pages;
    assert.deepEqual(await statsAttributes(two), await statsAttributes(one), `${label}: the numbers`);
    assert.deepEqual(await loggedDecisions(two), await loggedDecisions(one), `${label}: the decisions`);
    // Steps: in continuous time, each goes to the next event of any lane, in every part.
    for (let i = 0; i < 3; i++) {
      for (const page of pages) {
        const before = await timelineNow(page);
        await page.click('#step');
        await page.waitForFunction((t) => Number(document.querySelector('#timeline')?.dataset.now) > t, before, { timeout: 10_000 });
      }
      assert.equal(await timelineNow(two), await timelineNow(one), `${label}: step ${i + 1}`);
      assert.deepEqual(await statsAttributes(two), await statsAttributes(one), `${label}: step ${i + 1}`);
    }
    const last = async (page) => {
      await page.locator('#log li.decision button').last().click();
      return inspected(page);
    };
    assert.deepEqual(await last(two), await last(one), `${label}: the inspector`);
    for (const page of pages) await page.close();
  }
});

labTest('issue 35: a sweep runs fewer tasks at a time while the race plays, and all again when it pauses', async (open) => {
  // Two "cores", a race of three lanes on both, and a sweep of 18 runs beside it. The race is
  // paced so that it plays all through the test (it claims its workers while it plays, paced
  // or not).
  const page = await open('preset=pgrr-a4&seed=1&horizon=3000000&speed=1000', { cores: 2 });
  await page.waitForSelector('main.lab[data-race-thread="worker"]', { timeout: 10_000 });
  await page.click('#sweep > summary');
  await page.fill('#sweep-loads', '0.8,0.85,0.9');
  await page.press('#sweep-loads', 'Tab');
  // Far more runs than the test watches (it stops the sweep at the end): a machine twice as
  // fast must not finish them while the test still looks at them.
  await page.fill('#sweep-reps', '10');
  await page.press('#sweep-reps', 'Tab');
  await page.click('#sweep-run');
  const status = page.locator('#sweep-status');
  // The race paused: both workers run tasks.
  await page.waitForSelector('#sweep-status[data-at-a-time="2"][data-in-flight="2"]', { timeout: 10_000 });
  assert.match(await status.textContent(), /runs in [\d.]+ s on 2 workers$/);
  // Playing, the race comes first: one task at a time, and the status says why.
  await page.click('#play');
  await page.waitForSelector('#sweep-status[data-at-a-time="1"]', { timeout: 10_000 });
  assert.match(await status.textContent(), /on 2 workers, 1 at a time while the race plays$/);
  // The task that was running when it started ends; from then on only one runs.
  await page.waitForSelector('#sweep-status[data-in-flight="1"]', { timeout: RUN_TIMEOUT_MS });
  const seen = [];
  for (let i = 0; i < 10; i++) {
    seen.push(await status.getAttribute('data-in-flight'));
    await page.waitForTimeout(150);
  }
  assert.ok(seen.every((n) => Number(n) <= 1), `tasks at a time while the race plays: ${seen}`);
  assert.equal(await page.getAttribute('#sweep', 'data-done'), 'false', 'the sweep still runs');
  // Paused, both workers run tasks again.
  await page.click('#play');
  await page.waitForSelector('#sweep-status[data-at-a-time="2"][data-in-flight="2"]', { timeout: 10_000 });
  assert.match(await status.textContent(), /on 2 workers$/);
  await page.click('#sweep-stop');
});

labTest('issue 35: while a race plays, its numbers move ten times a second and its lanes every frame; paused, the numbers are exact; nothing moves on the page', async (open) => {
  // Counts, over a second of play, the changes of the text (the stats table, the progress
  // label, the lanes' sentences) and the heat strips drawn on the lanes' canvases.
  const page = await open('preset=pgrr-a1&servers=1000&policy=bf-js,bf-j&seed=3&horizon=100000000&speed=max', { cores: 2 });
  await page.waitForSelector('main.lab[data-race-thread="worker"]', { timeout: 10_000 });
  // Where the lanes are on the page: Play and Pause do not move them (the pace's line stays).
  const lanesAt = () => page.$eval('.lanes', (lanes) => lanes.getBoundingClientRect().top + window.scrollY);
  const before = await lanesAt();
  await page.click('#play');
  await page.waitForSelector('#rate[data-thread="worker"]', { timeout: 10_000 });
  assert.equal(await lanesAt(), before, 'the lanes stay where they were when the race plays');
  const seen = await page.evaluate(async () => {
    const text = new Map();
    const watch = (selector) => {
      for (const [i, element] of [...document.querySelectorAll(selector)].entries()) {
        const key = `${selector} ${i}`;
        text.set(key, 0);
        new MutationObserver(() => text.set(key, text.get(key) + 1)).observe(element, {
          subtree: true,
          childList: true,
          characterData: true,
        });
      }
    };
    watch('#stats tr[data-policy] td.num');
    watch('.progress .slots');
    watch('.lane .why');
    let drawn = 0;
    const put = CanvasRenderingContext2D.prototype.putImageData;
    CanvasRenderingContext2D.prototype.putImageData = function (...args) {
      if (this.canvas.closest('.lane')) drawn += 1;
      return put.apply(this, args);
    };
    let frames = 0;
    const start = performance.now();
    await new Promise((done) => {
      const frame = () => {
        frames += 1;
        if (performance.now() - start < 1000) requestAnimationFrame(frame);
        else done();
      };
      requestAnimationFrame(frame);
    });
    CanvasRenderingContext2D.prototype.putImageData = put;
    return { text: Object.fromEntries(text), drawn, frames, ms: performance.now() - start };
  });
  const most = Math.max(...Object.values(seen.text));
  assert.ok(Object.keys(seen.text).length >= 5, `the text watched: ${JSON.stringify(seen)}`);
  // Ten times a second, and one more for a second that starts just after a change.
  assert.ok(most <= Math.ceil(seen.ms / 100) + 1, `the text changed ${most} times in ${seen.ms} ms: ${JSON.stringify(seen)}`);
  assert.ok(most >= 3, `the text follows the race: ${JSON.stringify(seen)}`);
  // Two lanes, each drawn in at least half the frames (a frame without a new snapshot draws
  // nothing), whatever the machine's frame rate: here about 60 a second, six times as often
  // as the text changes.
  assert.ok(seen.drawn >= seen.frames, `the lanes were drawn ${seen.drawn} times in ${seen.frames} frames: ${JSON.stringify(seen)}`);
  // Paused, every number is the moment on screen: the table's, the label's and the timeline's.
  await pause(page);
  const shown = await slot(page);
  const label = await page.$eval('.progress .slots', (e) => Number(e.textContent.split(' of ')[0].replace(/\D/g, '')));
  const timeline = Number(await page.getAttribute('#timeline', 'data-now'));
  assert.equal(label, shown, 'the progress label');
  assert.equal(timeline, shown, 'the timeline');
  assert.equal(await lanesAt(), before, 'and where they were when it pauses');
  await page.close();
});

labTest('issue 19: the race runs in a Web Worker; the page draws its snapshots, and the numbers are the CLI\'s', async (open) => {
  // While it plays, the meter says where the simulation runs; Pause stops it at once.
  const long = await open('preset=pgrr-a1&servers=1000&policy=vqs,bf-js&seed=3&horizon=100000000&speed=max');
  await playsWhereTheMeterSaysAndPausesAtOnce(long, '[data-thread="worker"]');
  await long.close();

  const query = 'preset=pgrr-a1&servers=1000&policy=vqs,bf-js&seed=3&horizon=4000&speed=max';
  const page = await open(query);
  await page.waitForSelector('main.lab[data-race-thread="worker"]', { timeout: 10_000 });
  await page.click('#play');
  await waitForSlot(page, 4000);
  await page.waitForFunction(() => document.querySelector('#play')?.textContent.trim() === 'Run again', null, {
    timeout: 5_000,
  });
  // Going back and stepping are the worker's too, and land exactly: back one slot and
  // forward one give the horizon's numbers again.
  const pageRows = await assertHorizonIsCli(page, query, 4000);
  // "Run again" at the horizon plays the same race from 0 to the same numbers: the button
  // sends what it says, and the worker starts over (its first snapshot is at 0).
  await page.waitForSelector('#play:has-text("Run again")', { timeout: 5_000 });
  await page.evaluate(() => {
    window.earliestShown = Infinity;
    const note = () => {
      const time = Number(document.querySelector('#stats tr[data-policy]')?.dataset.time);
      window.earliestShown = Math.min(window.earliestShown, time);
    };
    new MutationObserver(note).observe(document.querySelector('#stats'), {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-time'],
    });
  });
  // Paced, so that the run from 0 lasts several frames: at full speed its 4 000 slots can all be
  // played within one frame (a split race's parts run up to eight marks ahead of the page), and
  // the page then shows only the horizon, which would prove nothing about where it started.
  await page.selectOption('#speed', '10000');
  await page.click('#play');
  await page.waitForFunction(() => window.earliestShown < 4000, null, { timeout: 10_000 });
  await waitForSlot(page, 4000);
  await page.waitForSelector('#play:has-text("Run again")', { timeout: 5_000 });
  assert.deepEqual(await rows(page), pageRows, 'the run again ends where the first run did');
  // A new scenario is a new race in the same worker.
  await setField(page, 'seed', '4');
  await page.waitForFunction(() => document.querySelector('#stats tr[data-policy]')?.dataset.time === '0', null, {
    timeout: 5_000,
  });
  await page.waitForSelector('main.lab[data-race-thread="worker"]', { timeout: 10_000 });
  await page.click('#step');
  await waitForSlot(page, 1, 5_000);

  // A trace file is read by the worker too (the same blob, handed over): a PG-AS task CSV
  // replays there, and gives the CLI's numbers for the same file.
  const csv =
    Array.from(
      { length: 300 },
      (_, i) => `${(i * 0.05).toFixed(2)},${(1 + (i % 7) * 0.3).toFixed(1)},${1 / 2 ** (1 + (i % 5))},${i % 3}`,
    ).join('\n') + '\n';
  await mkdir(RESULTS, { recursive: true });
  const csvPath = join(RESULTS, 'issue19-tasks.csv');
  writeFileSync(csvPath, csv);
  const pgas = await open('preset=pgas-c5&seed=2&speed=max');
  await pgas.setInputFiles('#trace-file', { name: 'tasks.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await pgas.waitForFunction(() => /trace=[0-9a-f]{16}/.test(document.querySelector('#link')?.value ?? ''), null, {
    timeout: 20_000,
  });
  await pgas.waitForSelector('main.lab[data-race-thread="worker"]', { timeout: 10_000 });
  const pgasLink = await pgas.inputValue('#link');
  const pgasQuery = pgasLink.slice(pgasLink.indexOf('?') + 1);
  const [, pgasHorizon] = await pgas.$eval('.progress .slots', (e) =>
    e.textContent.split(' of ').map((part) => Number(part.replace(/\D/g, ''))),
  );
  const pgasCli = cliReports(pgasQuery, ['--trace', csvPath]);
  await runToEnd(pgas, pgasHorizon);
  const pgasRows = await pgas.$$eval('#stats tr[data-policy]', (trs) =>
    trs.map((tr) => [tr.dataset.policy, Number(tr.dataset.meanOccupancy), Number(tr.dataset.meanReward)]),
  );
  assert.ok(pgasRows.length > 0);
  for (const [policy, occupancy, reward] of pgasRows) {
    // The upper bound holds no servers: the page leaves its occupancy empty.
    if (!Number.isNaN(occupancy)) assertClose(occupancy, pgasCli[policy].mean_occupancy, `${policy} occupancy`);
    assertClose(reward, pgasCli[policy].normalized_reward, `${policy} reward`);
  }
});

labTest('space plays and pauses, the right arrow steps one slot, reset goes back to 0', async (open) => {
  const page = await open(`${RACE}&speed=1000`);
  // The keys go to the page, not to a control.
  await page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());

  await page.keyboard.press('Space');
  await page.waitForSelector('#play[aria-pressed="true"]', { timeout: 20_000 });
  assert.equal((await page.textContent('#play')).trim(), 'Pause');
  await waitPastSlot(page, 0);

  await page.keyboard.press('Space');
  await page.waitForSelector('#play[aria-pressed="false"]', { timeout: 5_000 });
  assert.equal((await page.textContent('#play')).trim(), 'Resume');
  const paused = await slot(page);
  await page.waitForTimeout(300);
  assert.equal(await slot(page), paused, 'the run went on after pause');

  await page.keyboard.press('ArrowRight');
  await waitPastSlot(page, paused, 5_000);
  await page.waitForTimeout(300);
  assert.equal(await slot(page), paused + 1, 'ArrowRight should step exactly one slot');
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'false');

  await page.click('#restart');
  await waitForSlot(page, 0, 5_000);
  assert.equal((await page.textContent('#play')).trim(), 'Play');
});

labTest('space and the right arrow keep working after the scenario changes', async (open) => {
  const page = await open(`${RACE}&speed=1000`);
  // A field, a policy checkbox: each change starts a new race, which the keys must drive.
  await setField(page, 'servers', '3');
  await page.click('#play');
  await waitPastSlot(page, 0);
  await page.click('#play');
  await page.waitForSelector('#play[aria-pressed="false"]', { timeout: 5_000 });
  await setField(page, 'seed', '5');
  await page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
  assert.equal(await slot(page), 0, 'a new seed starts a new race');

  await page.keyboard.press('ArrowRight');
  await waitForSlot(page, 1, 5_000);
  await page.keyboard.press('Space');
  await page.waitForSelector('#play[aria-pressed="true"]', { timeout: 20_000 });
  await waitPastSlot(page, 1);
  await page.keyboard.press('Space');
  await page.waitForSelector('#play[aria-pressed="false"]', { timeout: 5_000 });
});

// Issue 20: a newcomer's defects, one fixed link each.

/** The lane headings, in order. */
async function laneLabels(page) {
  return (await page.locator('article.lane h2').allTextContents()).map((t) => t.trim());
}

/** The link's `policy` value. */
async function linkPolicies(page) {
  return page.evaluate(() => new URL(document.querySelector('#link').value).searchParams.get('policy'));
}

/** Commits `value` in a lane's parameter field (`#lane-2-l`) and waits for the link to say `policies`. */
async function setLaneParam(page, id, value, policies) {
  const input = page.locator(`#${id}`);
  if ((await input.evaluate((e) => e.tagName)) === 'SELECT') await input.selectOption(value);
  else {
    await input.fill(value);
    await input.press('Enter');
    await input.blur();
  }
  await page.waitForFunction(
    (want) => new URL(document.querySelector('#link').value).searchParams.get('policy') === want,
    policies,
    { timeout: 5_000 },
  );
}

labTest('item 1: the J field re-bins every lane, VQS and VQS-BF included', async (open) => {
  const page = await open('preset=pgrr-a4&seed=1');
  assert.deepEqual(await laneLabels(page), ['VQS (J=4)', 'BF-J/S', 'VQS-BF (J=4)']);
  await setField(page, 'j', '2');
  await page.waitForFunction(() => document.querySelector('article.lane h2').textContent.includes('J=2'));
  assert.deepEqual(await laneLabels(page), ['VQS (J=2)', 'BF-J/S', 'VQS-BF (J=2)']);
  assert.equal(await linkPolicies(page), 'vqs,bf-js,vqs-bf');
});

labTest('item 3: each lane sets its own parameters, and a policy races twice with different ones', async (open) => {
  const horizon = 20_000;
  const page = await open(`preset=msfq-d1&seed=1&horizon=${horizon}&speed=max`);
  assert.equal(await linkPolicies(page), 'msf,msfq:l=31');
  // ℓ of lane 2, then a second MSFQ lane with ℓ = 2.
  assert.equal(await page.inputValue('#lane-2-l'), '31');
  await setLaneParam(page, 'lane-2-l', '8', 'msf,msfq:l=8');
  await page.locator('#lanes-setup li').nth(1).locator('.add-lane').click();
  await page.waitForFunction(() => document.querySelectorAll('#lanes-setup li').length === 3);
  // The new lane's field is empty: the placeholder shows the value it takes (k - 1).
  assert.equal(await page.inputValue('#lane-3-l'), '');
  assert.equal(await page.getAttribute('#lane-3-l', 'placeholder'), '31');
  await setLaneParam(page, 'lane-3-l', '2', 'msf,msfq:l=8,msfq:l=2');
  assert.deepEqual(await laneLabels(page), ['MSF', 'MSFQ (ℓ=8)', 'MSFQ (ℓ=2)']);
  // A lane identical to another is refused, naming both; the lanes stay.
  await page.fill('#lane-3-l', '8');
  await page.press('#lane-3-l', 'Enter');
  await page.locator('#policies .field-error').waitFor();
  assert.match(await page.textContent('#policies .field-error'), /lane 2 already races MSFQ \(ℓ=8\)/);
  assert.equal(await linkPolicies(page), 'msf,msfq:l=8,msfq:l=2');
  // The lanes run and agree with the CLI on the same link.
  const query = new URL(await page.inputValue('#link')).search;
  const cli = cliReports(query);
  await runToEnd(page, horizon);
  const pageRows = await rows(page);
  assert.deepEqual(Object.keys(pageRows), ['msf', 'msfq:l=8', 'msfq:l=2']);
  for (const [policy, row] of Object.entries(pageRows)) assertClose(row.meanResponse, cli[policy].mean_response, policy);
  // Removing a lane.
  await page.locator('#lanes-setup li').nth(0).locator('.remove-lane').click();
  await page.waitForFunction(() => new URL(document.querySelector('#link').value).searchParams.get('policy') === 'msfq:l=8,msfq:l=2');
});

labTest('item 4: by default a run is paced to play in 30 s, and the pace is a choice', async (open) => {
  const page = await open('preset=pgas-c6&seed=1');
  assert.equal(await page.inputValue('#speed'), '30s');
  // It plays (how fast, against the page's clock, is the player's unit test: a wall clock
  // on a loaded machine is no measure).
  await page.click('#play');
  await page.waitForFunction(() => Number(document.querySelector('progress').value) > 0);
  await pause(page);
  await page.selectOption('#speed', '10s');
  await page.waitForFunction(() => new URL(document.querySelector('#link').value).searchParams.get('speed') === '10s');
});

labTest('item 9: Play is the second Tab stop, a change mid-run says it restarted, the CSV says where it comes from', async (open) => {
  const page = await open(`${RACE}&speed=1000`);
  await page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.className), 'skip');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'play');
  assert.equal(new URL(page.url()).search, `?${RACE}&speed=1000`, 'the skip link leaves the address alone');

  await page.keyboard.press('Space');
  await waitPastSlot(page, 100);
  assert.equal(await page.locator('#restarted').count(), 0);
  // A key no playing race takes (the seed: the server count and the load change it where it is).
  await setField(page, 'seed', '2');
  await page.locator('#restarted').waitFor();
  assert.match(await page.textContent('#restarted'), /^The scenario changed at slot [\d\u202f ]+, so the run started again from 0 with the new values and plays on\.$/);
  await waitPastSlot(page, 0);
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'true', 'the new run plays on');
  await pause(page);

  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
  const path = await download.path();
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n');
  assert.match(lines[0], /^# packlab \d+\.\d+\.\d+ series$/);
  assert.equal(lines[1], `# link: ${await page.inputValue('#link')}`);
  assert.equal(lines[2], '# seed: 2');
  assert.match(lines[3], /^# run to slot \d+ of 2000000$/);
  assert.match(lines[4], /^slot,vqs queue,/);
  for (const cell of lines.slice(5).flatMap((l) => l.split(',').slice(1))) {
    assert.ok(cell.replace(/^[0.]+/, '').replace(/\D/g, '').length <= 6, `float noise in ${cell}`);
  }

  // Every refused policy of a link is named, not just the last.
  const mixed = await open('preset=pgrr-a1&policy=msf,dra,vqs&seed=1');
  await mixed.locator('#notices').waitFor();
  const notices = await mixed.textContent('#notices');
  assert.ok(notices.includes('msf is a policy of MSFQ') && notices.includes('dra'), notices);
});

labTest('item 5: job classes take colours no policy has, and each lane is edged in its policy colour', async (open) => {
  const horizon = 2_000;
  const page = await open(`preset=msfq-d1&seed=1&horizon=${horizon}&speed=max`);
  await runToEnd(page, horizon);
  const policyColours = ['#0072b2', '#d55e00', '#009e73', '#cc79a7'];
  const counts = await page.$$eval('canvas.cluster', (canvases, policy) => {
    const hex = (r, g, b) => `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
    return canvases.map((canvas) => {
      const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      const seen = { policy: 0, yellow: 0, cyan: 0 };
      for (let i = 0; i < data.length; i += 4) {
        const c = hex(data[i], data[i + 1], data[i + 2]);
        if (policy.includes(c)) seen.policy += 1;
        if (c === '#eedd88') seen.yellow += 1;
        if (c === '#99ddff') seen.cyan += 1;
      }
      return seen;
    });
  }, policyColours);
  for (const [lane, seen] of counts.entries()) {
    assert.equal(seen.policy, 0, `lane ${lane + 1} draws a policy colour: ${JSON.stringify(seen)}`);
    assert.ok(seen.yellow + seen.cyan > 0, `lane ${lane + 1} shows no class colour: ${JSON.stringify(seen)}`);
  }
  const edges = await page.$$eval('article.lane', (lanes) => lanes.map((l) => getComputedStyle(l).borderTopColor));
  assert.deepEqual(edges, ['rgb(0, 114, 178)', 'rgb(213, 94, 0)']);
  assert.match(await page.textContent('.colour-key'), /one per job class\./);
});

labTest('item 6: charts are sharp at any pixel density, keep their legend off the data, and export at 2x and as SVG', async (open) => {
  const page = await open(`${RACE}&speed=max&horizon=20000`);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setDeviceMetricsOverride', { width: 1280, height: 900, deviceScaleFactor: 2, mobile: false });
  await page.reload();
  await page.waitForSelector('#stats tr[data-policy]');
  await runToEnd(page, 20_000);
  const size = await page.$eval('#chart-queue', (c) => ({ w: c.width, h: c.height, cw: c.clientWidth, ch: c.clientHeight }));
  assert.equal(size.w, 2 * size.cw, `canvas ${size.w} px for ${size.cw} CSS px at DPR 2`);
  assert.equal(size.h, 2 * size.ch);
  await page.screenshot({ path: join(RESULTS, 'lab-charts-dpr2.png'), fullPage: true });

  const save = async (id) => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(`#${id}`)]);
    return readFileSync(await download.path());
  };
  const png = await save('export-chart-occupancy');
  assert.equal(png.subarray(1, 4).toString(), 'PNG');
  const [width, height] = [png.readUInt32BE(16), png.readUInt32BE(20)];
  assert.equal(width, 2 * Math.max(640, size.cw), 'PNG width: twice the chart on the page');
  assert.equal(height, 2 * Math.max(400, size.ch));

  const svg = (await save('export-chart-occupancy-svg')).toString('utf8');
  assert.match(svg, /^<svg/);
  // Every curve and every reference line is named once, in the legend under the plot.
  const texts = [...svg.matchAll(/<text[^>]*>\s*([^<]*?)\s*<\/text>/g)].map((m) => m[1]);
  for (const label of ['VQS (J=2)', 'BF-J/S', 'offered load']) {
    assert.equal(texts.filter((t) => t === label).length, 1, `${label} once in the SVG: ${JSON.stringify(texts)}`);
  }
  await cdp.send('Emulation.clearDeviceMetricsOverride');
  // The SVG opens in Chromium.
  const viewer = await context.newPage();
  try {
    await viewer.goto(`data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`);
    const box = await viewer.$eval('svg', (e) => e.getBoundingClientRect().width);
    assert.ok(box >= 640, `the SVG renders ${box} px wide`);
    await viewer.screenshot({ path: join(RESULTS, 'export-occupancy-svg.png') });
  } finally {
    await viewer.close();
  }
  writeFileSync(join(RESULTS, 'export-occupancy.png'), png);
});


/** `packlab sweep ARGS --out DIR`'s summary CSV as rows. */
function cliSweep(args) {
  const dir = join(RESULTS, `sweep-${process.pid}-${Date.now()}`);
  const [command, prefix] = cliCommand();
  execFileSync(command, [...prefix, 'sweep', ...args, '--out', dir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const file = readdirSync(dir).find((f) => f.endsWith('-summary.csv'));
  const [header, ...lines] = readFileSync(join(dir, file), 'utf8').trim().split('\n');
  const keys = header.split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((v, i) => [keys[i], v])));
}

labTest('item 7: the sweep view runs the figure in Web Workers and equals packlab sweep', async (open) => {
  const page = await open('preset=pgrr-a4&seed=1&horizon=20000');
  const points = await runSweep(page, '0.8,0.85,0.9', 2);
  assert.equal(points.length, 3 * 3, 'three policies at three loads');
  const status = await page.textContent('#sweep-status');
  assert.match(status, /^18 of 18 runs in [\d.]+ s on \d+ workers: done$/);
  const command = await page.textContent('#sweep-command');
  const link = command.match(/--link '([^']+)'/)[1];
  const cli = cliSweep(['--link', link, '--load', '0.8,0.85,0.9', '--reps', '2']);
  assert.equal(cli.length, points.length);
  for (const row of cli) {
    const point = points.find((p) => p.policy === row.policy && p.load === Number(row.load));
    assert.ok(point, `no point for ${row.policy} at ${row.load}`);
    assertClose(point.value, Number(row.value), `${row.policy} at ${row.load}: mean`);
    assertClose(point.lo, Number(row.ci_lo), `${row.policy} at ${row.load}: interval`);
    assertClose(point.hi, Number(row.ci_hi), `${row.policy} at ${row.load}: interval`);
  }
  await page.locator('#sweep').screenshot({ path: join(RESULTS, 'sweep-pgrr-a4.png') });
});

labTest('item 7: PG-AS sweeps against L in the page as packlab sweep --servers does', async (open) => {
  const page = await open('preset=pgas-c3&seed=1&horizon=5');
  const points = await runSweep(page, '12,24', 2);
  assert.equal(points.length, 2 * 2 * 2, 'DRA and power-of-d at two server counts, over each bound');
  const link = (await page.textContent('#sweep-command')).match(/--link '([^']+)'/)[1];
  const cli = cliSweep(['--link', link, '--servers', '12,24', '--reps', '2']);
  assert.equal(cli.length, points.length);
  for (const row of cli) {
    const at = `${row.policy} at L = ${row.servers}, ${row.metric}`;
    const point = points.find((p) => p.policy === row.policy && p.load === Number(row.servers) && p.figure === row.metric);
    assert.ok(point, `no point for ${at}`);
    assertClose(point.value, Number(row.value), `${at}: ratio`);
    assertClose(point.lo, Number(row.ci_lo), `${at}: interval`);
    assertClose(point.hi, Number(row.ci_hi), `${at}: interval`);
  }
  await page.locator('#sweep').screenshot({ path: join(RESULTS, 'sweep-pgas-c3.png') });
});

labTest('issue 32: an in-page sweep runs under every page key, gets the CLI\'s numbers, and outlives presenter mode', async (open) => {
  for (const keys of ['theme=dark', 'speed=max', 't=100', 'theme=high-contrast&t=50', 'tour=vqs-vs-best-fit&step=1']) {
    const page = await open(`preset=pgrr-a4&seed=3&horizon=2000&${keys}`);
    const loads = keys.startsWith('tour') ? '0.6,0.7' : '0.8,0.9';
    const points = await runSweep(page, loads, 1);
    assert.equal(await page.locator('#sweep .error').count(), 0, `${keys}: the sweep stopped`);
    const link = (await page.textContent('#sweep-command')).match(/--link '([^']+)'/)[1];
    const cli = cliSweep(['--link', link, '--load', loads, '--reps', '1']);
    assert.equal(cli.length, points.length, keys);
    for (const row of cli) {
      const point = points.find((p) => p.policy === row.policy && p.load === Number(row.load));
      assert.ok(point, `${keys}: no point for ${row.policy} at ${row.load}`);
      assertClose(point.value, Number(row.value), `${keys}: ${row.policy} at ${row.load}`);
    }
    if (keys === 'theme=dark') {
      // Presenter mode on and off (P, P) leaves a finished sweep where it was.
      await page.locator('body').press('p');
      await page.locator('body').press('p');
      assert.equal(await page.locator('#sweep-table tr[data-policy]').count(), points.length, 'the sweep survived P, P');
      assert.equal(await page.getAttribute('#sweep', 'data-done'), 'true');
    }
    await page.close();
  }
});

labTest('item 7: a sweep of each model, looked at', async (open) => {
  for (const [query, loads] of [
    ['preset=msfq-d2&seed=1&horizon=20000', '6,7,7.5'],
    ['preset=ghra-b1&seed=1&horizon=500', ''],
  ]) {
    const page = await open(query);
    await page.click('#sweep > summary');
    const grid = loads || (await page.inputValue('#sweep-loads')).split(',').slice(0, 3).join(',');
    await page.click('#sweep > summary');
    const points = await runSweep(page, grid, 2);
    assert.ok(points.length >= 3, `${query}: ${points.length} points`);
    assert.ok(points.every((p) => Number.isFinite(p.value)), `${query}: ${JSON.stringify(points)}`);
    await page.locator('#sweep').screenshot({ path: join(RESULTS, `sweep-${query.split('&')[0].split('=')[1]}.png`) });
  }
});

labTest('item 8: the header says what was edited, and no internal label reaches the page', async (open) => {
  const page = await open('preset=pgrr-a1&seed=1');
  assert.equal(await page.locator('#edited').count(), 0);
  await setField(page, 'servers', '1000');
  await page.locator('#edited').waitFor();
  assert.match(await page.textContent('#edited'), /^Edited: Servers L = 1000\. The summary above/);
  assert.equal(await page.getAttribute('.summary', 'class'), 'summary stale');
  await page.click('#reset-scenario');
  await page.locator('#edited').waitFor({ state: 'detached' });

  // Every preset's texts, its fields' help and its lanes' parameter help: no "SPEC 5.6" or
  // "RES-12", which name sections of the implementation spec, not anything a reader has.
  const ids = await page.$$eval('#preset option', (options) => options.map((o) => o.value));
  assert.ok(ids.length >= 20, `${ids.length} presets`);
  for (const id of ids) {
    await page.selectOption('#preset', id);
    await page.waitForFunction((want) => new URL(document.querySelector('#link').value).searchParams.get('preset') === want, id);
    const text = await page.evaluate(() => {
      document.querySelectorAll('details').forEach((d) => (d.open = true));
      const titles = [...document.querySelectorAll('[title]')].map((e) => e.getAttribute('title'));
      return [document.body.innerText, ...titles].join('\n');
    });
    const leaks = text.match(/.{0,40}\b(SPEC \d|RES-\d).{0,20}/g);
    assert.equal(leaks, null, `${id}: ${JSON.stringify(leaks)}`);
  }
});

// Issue 16 (in part): copy as command, keyboard help.

labTest('copy as command gives the packlab run line of the link, and ? lists the shortcuts', async (open) => {
  const page = await open('preset=pgrr-a1&policy=vqs,bf-js&seed=1&servers=3&horizon=20000');
  const command = await page.inputValue('#command');
  assert.equal(
    command,
    'packlab run --preset pgrr-a1 --policy vqs,bf-js --seed 1 --set servers=3 --set horizon=20000 --set warmup=2000 --set sample_every=10',
  );
  await page.click('#copy-command');
  await page.waitForFunction(() => document.querySelector('.share .status').textContent === 'command copied.');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), command);
  // The command prints what the link prints.
  const [binary, prefix] = cliCommand();
  const args = command.split(' ').slice(1);
  const byCommand = execFileSync(binary, [...prefix, ...args, '--json'], { cwd: ROOT, encoding: 'utf8' });
  const byLink = execFileSync(binary, [...prefix, 'run', '--link', await page.inputValue('#link'), '--json'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.equal(byCommand, byLink);

  await page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
  await page.keyboard.press('Shift+Slash');
  await page.locator('#keyboard-help').waitFor();
  assert.equal(await page.evaluate(() => document.activeElement.id), 'keyboard-help-close');
  assert.match(await page.textContent('#keyboard-help'), /Space\s*play or pause/);
  await page.keyboard.press('Escape');
  await page.locator('#keyboard-help').waitFor({ state: 'detached' });
  await page.click('#shortcuts');
  await page.locator('#keyboard-help').waitFor();
  await page.click('#keyboard-help-close');
  await page.locator('#keyboard-help').waitFor({ state: 'detached' });
});

labTest('embed: two packlab iframes on a page of another server; each pauses off-screen and plays on', async (open) => {
  // A course page on its own static server, as a lecturer would publish it.
  const host = await mkdtemp(join(tmpdir(), 'packlab-host-'));
  const one = `${origin}${BASE}?preset=pgrr-a1&policy=vqs,bf-js&seed=1&speed=1000&embed=1`;
  const two = `${origin}${BASE}?preset=msfq-d1&seed=1&embed=1&views=stats,occupancy`;
  await writeFile(
    join(host, 'index.html'),
    `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>A course page</title></head><body>
     <h1>Week 3: packing jobs</h1>
     <iframe id="one" src="${one}" width="760" height="560" title="packlab: VQS unstable"></iframe>
     <div style="height: 1600px"></div>
     <iframe id="two" src="${two}" width="760" height="520" title="packlab: MSF vs MSFQ"></iframe>
     </body></html>`,
  );
  const { server: hostServer, origin: hostOrigin } = await serveDist(host, '/');
  try {
    const page = await open(`${hostOrigin}/`, { waitFor: 'iframe#two' });
    const first = page.frameLocator('#one');
    const second = page.frameLocator('#two');
    await first.locator('#stats tr[data-policy], .lanes').first().waitFor();
    // The first shows the lanes and its first chart, no controls or stats; the second its views.
    assert.equal(await first.locator('article.lane').count(), 2);
    assert.equal(await first.locator('#chart-queue').count(), 1);
    assert.equal(await first.locator('#stats, .controls').count(), 0);
    await page.locator('#two').scrollIntoViewIfNeeded();
    await second.locator('#stats tr[data-policy]').first().waitFor();
    assert.equal(await second.locator('#chart-occupancy').count(), 1);
    assert.equal(await second.locator('article.lane').count(), 0);
    const full = await second.locator('#open-full').getAttribute('href');
    assert.ok(full.includes('preset=msfq-d1') && !full.includes('embed'), full);

    // Play the first, scroll it out of sight: it pauses; back in sight it plays on.
    await page.evaluate(() => window.scrollTo(0, 0));
    await first.locator('#play').click();
    await first.locator('#play[aria-pressed="true"]').waitFor();
    await page.locator('#two').scrollIntoViewIfNeeded();
    await first.locator('#play[aria-pressed="false"]').waitFor({ timeout: 5_000 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await first.locator('#play[aria-pressed="true"]').waitFor({ timeout: 5_000 });
    await page.screenshot({ path: join(RESULTS, 'embed-host-page.png') });
  } finally {
    // The course page is still open: its kept-alive connection would hold close() until it
    // timed out (a minute or more).
    hostServer.closeAllConnections();
    await new Promise((ok) => hostServer.close(ok));
    await rm(host, { recursive: true, force: true });
  }
});

labTest('a lane is drawn opaque over what lies behind it, and drawn again when the theme changes', async (open) => {
  // Opaque, the compositor copies the lane rather than blending it over the page each frame
  // (docs/speed.md, "Opaque lanes"): so it must paint the backdrop the theme puts behind it.
  // Read between the servers and the bins, at the right edge, where nothing else is drawn.
  const backdrop = (page) =>
    page.$eval('canvas.cluster', (c) => {
      const ctx = c.getContext('2d');
      const y = Math.round(159 * (c.height / c.clientHeight));
      return { alpha: ctx.getContextAttributes().alpha, rgb: [...ctx.getImageData(c.width - 2, y, 1, 1).data].slice(0, 3) };
    });
  const shows = async (page, rgb, why) => {
    const drawn = async () => JSON.stringify((await backdrop(page)).rgb) === JSON.stringify(rgb);
    for (let tries = 0; tries < 50 && !(await drawn()); tries++) await page.waitForTimeout(100);
    assert.deepEqual((await backdrop(page)).rgb, rgb, why);
  };
  const page = await open('preset=pgrr-a1&seed=1&theme=light');
  await shows(page, [255, 255, 255], 'light: the white of the lanes behind it');
  assert.equal((await backdrop(page)).alpha, false, 'the lane is drawn opaque');
  // Paused all along: only the change of theme draws the lane again.
  await page.selectOption('#theme', 'dark');
  await shows(page, [0xee, 0xf1, 0xf4], 'dark: the light panel style.css gives the lanes');
  await page.selectOption('#theme', 'high-contrast');
  await shows(page, [255, 255, 255], 'high contrast: white');
  const embed = await open('preset=pgrr-a1&seed=1&theme=light&embed=1', { waitFor: 'canvas.cluster' });
  await shows(embed, [0xf5, 0xf6, 0xf8], 'embedded: the page behind it');
});

labTest('themes follow the system or the choice, charts included; P presents, at projector sizes', async (open) => {
  const page = await open('preset=msfq-d1&seed=1&speed=max&horizon=20000');
  await page.emulateMedia({ colorScheme: 'dark' });
  const background = () => page.evaluate(() => getComputedStyle(document.body.parentElement).getPropertyValue('--page').trim());
  assert.equal(await page.getAttribute('html', 'data-theme'), 'auto');
  // The emulated preference reaches the page's styles asynchronously: wait for it (a fresh
  // clone under load once read the light value right after emulateMedia).
  await page
    .waitForFunction(
      () => getComputedStyle(document.body.parentElement).getPropertyValue('--page').trim() === '#12161c',
      null,
      { timeout: 5_000 },
    )
    .catch(() => {});
  assert.equal(await background(), '#12161c', 'the system asks for dark');
  await runToEnd(page, 20_000);
  // The chart's own background is the dark theme's (pixel at the top-left corner).
  await page.waitForTimeout(200);
  const corner = await page.$eval('#chart-queue', (c) => [...c.getContext('2d').getImageData(2, 2, 1, 1).data].slice(0, 3));
  assert.deepEqual(corner, [0x16, 0x1a, 0x21]);
  await page.selectOption('#theme', 'high-contrast');
  await page.waitForFunction(() => new URL(document.querySelector('#link').value).searchParams.get('theme') === 'high-contrast');
  assert.equal(await page.getAttribute('html', 'data-theme'), 'high-contrast');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.selectOption('#theme', 'auto');

  for (const viewport of [
    { width: 1920, height: 1080 },
    { width: 1280, height: 720 },
  ]) {
    await page.setViewportSize(viewport);
    await page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
    await page.keyboard.press('p');
    await page.locator('#present-cues').waitFor();
    assert.equal(await page.getAttribute('html', 'data-present'), '1');
    assert.equal(await page.locator('.controls').isVisible(), false, 'the scenario controls fold away');
    assert.ok(new URL(await page.inputValue('#link')).searchParams.get('present') === '1');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(RESULTS, `present-${viewport.width}x${viewport.height}.png`) });
    await page.keyboard.press('p');
    await page.locator('#present-cues').waitFor({ state: 'detached' });
    assert.equal(await page.locator('.controls').isVisible(), true);
  }
});

labTest('the bare address opens the gallery: every preset by paper, thumbnails, a card opens the lab', async (open) => {
  const page = await open('', { waitFor: '#gallery' });
  const papers = await page.$$eval('#gallery section.paper[data-model]', (sections) => sections.map((s) => s.dataset.model));
  assert.deepEqual(papers, ['pgrr', 'msfq', 'ghra', 'pgas']);
  const cli = execFileSync(...cliCommand().flatMap((c, i) => (i === 0 ? [c] : [])), [...cliCommand()[1], 'presets'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const ids = cli.split('\n').map((l) => l.split(/\s+/)[0]).filter((id) => /^(pgrr|msfq|ghra|pgas)-/.test(id));
  const cards = await page.$$eval('#gallery li.card[data-preset]', (lis) => lis.map((li) => li.dataset.preset));
  assert.deepEqual(cards, ids, 'one card per preset, in the catalogue order');
  // The thumbnails are pictures drawn when the page was built (first-paint/ID.svg, issue 55),
  // loaded once scrolled to; a preset of the theory alone says so in place of one.
  const thumbnails = await page.$$eval('#gallery li.card[data-preset]', (lis) =>
    lis.map((li) => li.querySelector('img.thumbnail, span.thumbnail.bounds')?.tagName ?? `none in ${li.dataset.preset}`),
  );
  assert.ok(thumbnails.every((t) => t === 'IMG' || t === 'SPAN'), thumbnails.join(', '));
  for (const img of await page.$$('img.thumbnail')) {
    await img.scrollIntoViewIfNeeded();
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  // Every thumbnail loads (a race's first moments, or "bounds only" for pgas-c1).
  await page.waitForFunction(
    () => [...document.querySelectorAll('img.thumbnail')].every((i) => i.complete && i.naturalWidth > 0),
    null,
    { timeout: 30_000 },
  );
  await page.screenshot({ path: join(RESULTS, 'gallery-1280x720.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(RESULTS, 'gallery-390x844.png') });
  await page.setViewportSize({ width: 1280, height: 720 });

  await page.click('li.card[data-preset="msfq-d2"] a');
  await page.waitForSelector('#stats tr[data-policy]');
  assert.equal(new URL(await page.inputValue('#link')).searchParams.get('preset'), 'msfq-d2');
  await page.click('#gallery-link');
  await page.waitForSelector('#gallery');
  assert.equal(new URL(page.url()).search, '');
});

labTest('every tour of `packlab tours` plays step by step as listed: its question, a prediction, the check, and every number it quotes as the page shows it', async (open) => {
  const listing = execFileSync(cliCommand()[0], [...cliCommand()[1], 'tours'], { cwd: ROOT, encoding: 'utf8' });
  // The CLI's listing, tour by tour: each step's link and the question it asks, if any.
  const tours = [];
  for (const line of listing.split('\n')) {
    const head = line.match(/^(\S+) \(/);
    const step = line.match(/^ {2}step \d+: packlab run --link '\?(.+)'$/);
    const asks = line.match(/^ {4}asks: (.+) \(/);
    const exercise = line.match(/^ {4}exercise: (\S+) /);
    if (head) tours.push({ id: head[1], steps: [] });
    else if (step) tours.at(-1).steps.push({ link: new URLSearchParams(step[1]), asks: undefined });
    else if (asks) tours.at(-1).steps.at(-1).asks = asks[1];
    else if (exercise) tours.at(-1).steps.at(-1).exercise = exercise[1];
  }
  assert.ok(tours.length >= 4 && tours.every((t) => t.steps.length > 0), listing);
  const page = await open('', { waitFor: '#gallery' });
  for (const { id, steps } of tours) {
    await page.click('#gallery-link').catch(() => {});
    await page.waitForSelector('#gallery');
    await page.click(`li.card[data-tour="${id}"] a`);
    await page.waitForSelector('#tour');
    for (const [index, listed] of steps.entries()) {
      const k = index + 1;
      const where = `${id} step ${k}`;
      assert.equal(await page.getAttribute('#tour', 'data-step'), String(k), where);
      // The step plays the scenario the CLI lists for it.
      const link = new URL(await page.inputValue('#link'));
      for (const key of ['preset', 'policy', 'seed']) {
        assert.equal(link.searchParams.get(key), listed.link.get(key), `${where}: ${key}`);
      }
      assert.equal(link.searchParams.get('tour'), id);
      assert.equal(link.searchParams.get('step'), String(k));
      // What the step asks to look at is on the page, outlined.
      const highlight = await page.getAttribute('main.lab', 'data-highlight');
      const target = highlight === 'lanes' ? '.lanes' : `#${highlight}`;
      assert.equal(await page.locator(target).count(), 1, `${where}: ${highlight}`);
      assert.notEqual(await page.$eval(target, (e) => getComputedStyle(e).outlineStyle), 'none');
      // The question the CLI lists is asked; predict (the first choice) and the verdict says
      // whether it was right.
      assert.equal(await page.locator('#tour-question').count(), listed.asks ? 1 : 0, where);
      // An exercise's step is judged by checking the learner's script (exercise.test.mjs), not
      // by the race: its panel is there, for the exercise the CLI lists.
      if (listed.exercise) {
        assert.equal(await page.getAttribute('#exercise', 'data-exercise'), listed.exercise, where);
        const last = k === steps.length;
        assert.equal(await page.locator('#tour-next').count(), last ? 0 : 1, `${where}: Next on every step but the last`);
        if (!last) await page.click('#tour-next');
        continue;
      }
      if (listed.asks) {
        assert.equal((await page.textContent('#tour-question legend')).trim(), listed.asks, where);
        await page.locator('#tour-question input').first().check();
      }
      await page.selectOption('#speed', 'max');
      console.log('STEP', where, await page.evaluate(() => document.querySelector('#tour')?.innerText.slice(0, 600)));
      await page.click('#tour-play');
      // A step that draws a stability map is checked once the map is done.
      const waits = listed.link.get('map') ? MAP_TIMEOUT_MS : RUN_TIMEOUT_MS;
      await page.locator('#tour-check').waitFor({ timeout: waits });
      assert.equal(await page.getAttribute('#tour-check', 'data-holds'), 'true', where);
      const statement = await page.textContent('#tour-check');
      if (listed.asks) assert.match(statement, /^You predicted .+?(: right\. |; the run says .+?\. )/, where);
      // Each lane the statement names: its verdict and mean waiting as its row shows them.
      const table = await page.$$eval('#stats tr[data-policy]', (trs) =>
        trs.map((tr) => ({ label: tr.querySelector('th').textContent.trim(), cells: [...tr.cells].map((c) => c.textContent.trim()) })),
      );
      const named = table.filter((r) => statement.includes(`${r.label}'s queue `));
      assert.equal(named.length, statement.split("'s queue ").length - 1, `${where}: every lane named has a row: ${statement}`);
      for (const row of named) {
        const rest = statement.slice(statement.indexOf(`${row.label}'s queue `) + row.label.length);
        const [, verdict, mean] = rest.match(/^'s queue (?:grew|settled) \((not stable|stable)\), mean waiting (\d[\d\u202f]*\.\d+)/) ?? [];
        assert.ok(row.cells.includes(verdict) && row.cells.includes(mean), `${where}: ${row.label} ${verdict} ${mean} vs ${row.cells}`);
      }
      // Every other number it quotes is on the page: in #stats, in the recovery table (a step
      // built on a change) or in what the step highlights.
      const recovery = (await page.locator('#recovery').count()) ? await page.textContent('#recovery') : '';
      const visible = `${await page.textContent('#stats')} ${recovery} ${await page.textContent(target)}`;
      for (const [n] of statement.replace(/^You predicted .+?(: right\. |; the run says .+?\. )/, '').matchAll(/\d[\d\u202f]*(?:[./]\d+)?/g)) {
        assert.ok(visible.includes(n), `${where}: "${n}" of "${statement}" is not on the page`);
      }
      const last = k === steps.length;
      assert.equal(await page.locator('#tour-next').count(), last ? 0 : 1, `${where}: Next on every step but the last`);
      if (!last) await page.click('#tour-next');
    }
    await page.click('#tour-leave');
    await page.locator('#tour').waitFor({ state: 'detached' });
  }
  // A link to a step restores it.
  const again = await open('tour=vqs-vs-best-fit&step=2', { waitFor: '#tour' });
  assert.equal(await again.getAttribute('#tour', 'data-step'), '2');
  assert.equal(new URL(await again.inputValue('#link')).searchParams.get('preset'), 'pgrr-a2');
});

labTest('screenshots of the lab, wide and narrow', async (open) => {
  for (const viewport of [
    { width: 1280, height: 720 },
    { width: 390, height: 844 },
  ]) {
    const page = await open(RACE, { viewport });
    await page.click('#play');
    await waitPastSlot(page, 50_000);
    await pause(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    const size = `${viewport.width}x${viewport.height}`;
    await page.screenshot({ path: join(RESULTS, `lab-${size}.png`), fullPage: false });
    // On a phone the race is below the controls: show it as well.
    if (viewport.width < 600) {
      await page.locator('#play').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(RESULTS, `lab-${size}-race.png`), fullPage: false });
    }
  }
});

labTest('screenshot of a 1000-server heat strip', async (open) => {
  const page = await open('preset=pgrr-a3&servers=1000&speed=max');
  await page.click('#play');
  await waitPastSlot(page, 0);
  await page.waitForTimeout(1_000);
  await pause(page);
  const lane = page.locator('article.lane').first();
  await lane.scrollIntoViewIfNeeded();
  await lane.screenshot({ path: join(RESULTS, 'lab-heat-1000.png') });
  await page.screenshot({ path: join(RESULTS, 'lab-heat-1000-view.png'), fullPage: false });
});
