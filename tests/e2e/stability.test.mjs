// The stability map in the page: computed in Web Workers from the link, it finds the intervals
// `packlab stability` finds for the same link and seeds (lo and hi per policy, the same
// numbers), says the same "below a proven boundary" warnings, and every tested load opens the
// lab at that scenario and load, by a click on the chart or on the table's link, or by Enter on
// the focused link. The chart colours each tested load by its verdict in every theme, axe finds
// nothing wrong with the map, and the live region says how a map ended.
//
//   trunk build --release && PACKLAB_CLI=target/release/packlab node --test tests/e2e/stability.test.mjs

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { MAP_TIMEOUT_MS, RESULTS, ROOT, axeViolations, cliCommand, labTest, playUntilStepped } from './harness.mjs';

/** A small map: two policies, a short horizon, 2 replications per load. */
const MAP = 'preset=pgrr-a1&policy=vqs,bf-js&seed=3&horizon=20000';
const REPS = 2;

/** `packlab stability --link LINK --reps R …`: its CSV rows by policy, and what it printed. */
function cliMap(query, args) {
  const dir = mkdtempSync(join(tmpdir(), 'packlab-map-'));
  const [command, prefix] = cliCommand();
  const all = [...prefix, 'stability', '--link', query, ...args, '--out', dir];
  try {
    const stdout = execFileSync(command, all, { cwd: ROOT, encoding: 'utf8', timeout: 30 * 60_000 });
    const [header, ...lines] = readFileSync(join(dir, 'pgrr-a1-stability.csv'), 'utf8').trim().split('\n');
    const columns = header.split(',');
    // No field holds a comma (policy labels such as "VQS (J=2)" do not).
    const rows = lines.map((line) => Object.fromEntries(line.split(',').map((cell, i) => [columns[i], cell])));
    return { rows, stdout };
  } catch (err) {
    throw new Error(`${command} ${all.join(' ')} failed: ${err.message}\n${err.stderr ?? ''}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The page's intervals, one per (axis value, policy), in the table's order. */
function pageIntervals(page) {
  return page.$$eval('#map-table tr[data-policy]', (trs) =>
    trs.map((tr) => ({
      label: tr.dataset.label,
      value: tr.dataset.value,
      lo: tr.dataset.lo,
      hi: tr.dataset.hi,
      status: tr.dataset.status,
    })),
  );
}

/** The words a verdict's identifier (`data-verdict`) reads as. */
const WORD = { stable: 'stable', unstable: 'not stable', undecided: 'undecided' };

labTest('the stability map in the page finds the CLI intervals for the same link and seeds', async (open) => {
  const page = await open(`${MAP}&map=${REPS}`);
  await page.waitForSelector('#stability-map[open]');
  await page.waitForSelector('#map-body[data-done="true"]', { timeout: MAP_TIMEOUT_MS });
  // The coarse frontier came first: the first round's intervals were drawn before the last.
  const first = Number(await page.getAttribute('#map-body', 'data-first-ms'));
  const done = Number(await page.getAttribute('#map-body', 'data-done-ms'));
  assert.ok(first > 0 && first < done, `first picture ${first} ms, refined map ${done} ms`);
  assert.ok(Number(await page.getAttribute('#map-body', 'data-rounds')) > 1);
  assert.match(await page.textContent('#map-status'), /first picture after \d+\.\d s: done$/);
  const mine = await pageIntervals(page);
  // The command the page prints for its map, run as printed.
  const command = await page.textContent('#map-command');
  const printed = command.match(/^packlab stability --link '([^']+)' --reps (\d+)$/);
  assert.ok(printed, command);
  const [, link, reps] = printed;
  assert.equal(reps, String(REPS));
  assert.equal(new URL(link).searchParams.get('horizon'), '20000');
  const { rows, stdout } = cliMap(link, ['--reps', reps]);
  assert.equal(mine.length, rows.length, 'one interval per policy');
  rows.forEach((row, i) => {
    const ours = mine[i];
    assert.equal(ours.label, row.policy);
    // Both print the same f64 in Rust's shortest round-trip form.
    assert.equal(ours.lo, row.lo, `${row.policy}: lo`);
    assert.equal(ours.hi, row.hi, `${row.policy}: hi`);
    assert.equal(ours.status, row.status, `${row.policy}: how the search ended`);
  });
  // The same warnings where a measured boundary falls below a proven one (at this short
  // horizon the verdict may leave every load near 2/3 undecided, and then there are none).
  const theirs = stdout
    .split('\n')
    .filter((line) => line.startsWith('below a proven boundary: '))
    .map((line) => line.slice('below a proven boundary: '.length));
  const warned = await page.$$eval('#map-below-proven li', (lis) =>
    lis.map((li) => li.textContent.replace(/^Below a proven boundary: /, '')),
  );
  assert.deepEqual(warned, theirs, stdout);
  // The chart is drawn.
  assert.ok((await page.$eval('#chart-stability', (c) => c.width)) > 0);
  // The page's link holds the map.
  const own = new URL(await page.inputValue('#link'));
  assert.equal(own.searchParams.get('map'), String(REPS));
});

labTest('a tested load opens the lab there, by click or by Enter, and the link reproduces the map', async (open) => {
  const page = await open(`${MAP}&map=${REPS}`);
  // Once done, the table stays as it is (while the map runs, its links move as loads are added).
  await page.waitForSelector('#map-body[data-done="true"]', { timeout: MAP_TIMEOUT_MS });
  const first = page.locator('#map-table a.verdict').first();
  const load = await first.getAttribute('data-load');
  const verdict = await first.getAttribute('data-verdict');
  assert.ok(['stable', 'unstable', 'undecided'].includes(verdict), verdict);
  assert.match(await first.getAttribute('aria-label'), new RegExp(`load .*: ${WORD[verdict]}; open the lab there`));
  // Keyboard: focus the point and press Enter.
  await first.focus();
  await Promise.all([page.waitForURL(/load=/), page.keyboard.press('Enter')]);
  await page.waitForSelector('#stats tr[data-policy]');
  const opened = new URL(page.url());
  assert.equal(Number(opened.searchParams.get('load')), Number(load));
  assert.equal(opened.searchParams.get('policy'), 'vqs,bf-js');
  assert.equal(opened.searchParams.get('map'), null, 'the lab at a point, not the map again');
  assert.equal(await page.inputValue('#field-load'), String(Number(load)));
  await playUntilStepped(page);
  // Back to the map's link: it opens and computes the map again.
  await page.goBack();
  await page.waitForSelector('#stability-map[open] #map-body[data-done="true"]', { timeout: MAP_TIMEOUT_MS });
  const again = page.locator('#map-table a.verdict').first();
  await Promise.all([page.waitForURL(/load=/), again.click()]);
  assert.equal(Number(new URL(page.url()).searchParams.get('load')), Number(load));
  // The lab opens there and plays (and the test does not close the page while its workers
  // load, which the harness would count as a failed request).
  await page.waitForSelector('#stats tr[data-policy]');
  await playUntilStepped(page);
});

labTest('a bad map key in the link is named with its range', async (open) => {
  const page = await open(`${MAP}&map=1`);
  const notice = await page.textContent('#notices');
  assert.match(notice, /map/);
  assert.match(notice, /2\.\.=50/);
  const axis = await open(`${MAP}&map=2&map_axis=nope:1,2`);
  await axis.waitForSelector('#map-error');
  assert.match(await axis.textContent('#map-error'), /map_axis.*no key 'nope'/);
});

labTest('along a second axis, the page and the CLI find the same intervals at every value', async (open) => {
  const page = await open(`preset=pgrr-a1&policy=vqs&seed=3&horizon=20000&map=2&map_axis=servers:1,2`);
  await page.waitForSelector('#map-body[data-done="true"]', { timeout: MAP_TIMEOUT_MS });
  const mine = await pageIntervals(page);
  const printed = (await page.textContent('#map-command')).match(/^packlab stability --link '([^']+)' --reps (\d+) --axis (\S+)$/);
  assert.ok(printed, await page.textContent('#map-command'));
  assert.equal(printed[3], 'servers=1,2');
  const { rows } = cliMap(printed[1], ['--reps', printed[2], '--axis', printed[3]]);
  assert.equal(rows.length, 2, 'one interval per server count');
  assert.deepEqual(
    mine.map((r) => [r.value, r.lo, r.hi]),
    rows.map((r) => [r.value, r.lo, r.hi]),
  );
  // The axis is in the page's link.
  assert.equal(new URL(await page.inputValue('#link')).searchParams.get('map_axis'), 'servers:1,2');
});

/** The verdicts' colours in each theme (the plot's `Theme::verdicts`), as RGB. */
const VERDICT_RGB = {
  light: { stable: [0x1b, 0x78, 0x37], unstable: [0xb2, 0x18, 0x2b], undecided: [0x6a, 0x6a, 0x6a] },
  dark: { stable: [0x7f, 0xbf, 0x7b], unstable: [0xff, 0x8a, 0x80], undecided: [0xc2, 0xc8, 0xd0] },
  'high-contrast': { stable: [0x00, 0x64, 0x00], unstable: [0xa0, 0x00, 0x00], undecided: [0x00, 0x00, 0x00] },
};

/** Where a verdict's colour is read, off the centre of its mark: the policy's interval is drawn
 * over the marks as a vertical line through their centres, and 3 px down and right lies inside
 * every verdict's mark (the stable disc and the undecided square, on an arm of the not-stable
 * cross) and clear of that line. */
const OFF = 3;

/** The chart's tested loads where the page drew them (CSS pixels on the canvas), each with
 * the colour of the canvas's pixel where its verdict is read. */
function drawnPoints(page) {
  return page.$eval('#chart-stability', (canvas, off) => {
    const points = JSON.parse(canvas.dataset.points);
    const scale = canvas.width / canvas.clientWidth;
    const context = canvas.getContext('2d');
    return points.map((p) => ({
      ...p,
      rgb: Array.from(context.getImageData(Math.floor((p.x + off) * scale), Math.floor((p.y + off) * scale), 1, 1).data.slice(0, 3)),
    }));
  }, OFF);
}

/** Points no other point crowds (their marks do not overlap). */
function apart(points) {
  return points.filter((p) => points.every((q) => q === p || Math.hypot(p.x - q.x, p.y - q.y) > 16));
}

labTest('the chart colours each tested load by its verdict in every theme, axe finds nothing, and a click opens the lab there', async (open) => {
  const page = await open(`${MAP}&map=${REPS}`);
  await page.waitForSelector('#map-body[data-done="true"]', { timeout: MAP_TIMEOUT_MS });
  // The live region says the map is done, with its intervals.
  await page.waitForFunction(() => /stability map is done after \d+ rounds/.test(document.querySelector('#announcer').textContent));
  const links = await page.$$eval('#map-table a.verdict', (as) => as.map((a) => [a.dataset.load, a.dataset.verdict]));
  for (const theme of ['light', 'dark', 'high-contrast']) {
    await page.selectOption('#theme', theme);
    await page.waitForFunction((t) => document.documentElement.dataset.theme === t, theme);
    // The chart redraws in the theme: every point no other crowds in its verdict's colour.
    await page.waitForFunction(
      ([rgb, off]) => {
        const c = document.querySelector('#chart-stability');
        const all = JSON.parse(c.dataset.points);
        const alone = (p) => all.every((q) => q === p || Math.hypot(p.x - q.x, p.y - q.y) > 16);
        const scale = c.width / c.clientWidth;
        return all.filter(alone).every((p) => {
          const d = c.getContext('2d').getImageData(Math.floor((p.x + off) * scale), Math.floor((p.y + off) * scale), 1, 1).data;
          const want = rgb[p.verdict];
          return Math.abs(d[0] - want[0]) + Math.abs(d[1] - want[1]) + Math.abs(d[2] - want[2]) < 30;
        });
      },
      [VERDICT_RGB[theme], OFF],
    );
    const points = await drawnPoints(page);
    // The chart's points are the table's tested loads, verdicts and all.
    assert.deepEqual(
      points.map((p) => [String(p.load), p.verdict]).sort(),
      // The table's links carry the word the page shows, the chart its identifier.
      links.map(([load, verdict]) => [String(Number(load)), verdict === 'not stable' ? 'unstable' : verdict]).sort(),
    );
    const verdicts = new Set(points.map((p) => p.verdict));
    assert.ok(verdicts.has('stable') && verdicts.has('unstable'), [...verdicts].join());
    for (const p of apart(points)) {
      const want = VERDICT_RGB[theme][p.verdict];
      const off = p.rgb.reduce((sum, c, i) => sum + Math.abs(c - want[i]), 0);
      assert.ok(off < 30, `${theme}: ${p.policy} at ${p.load} (${p.verdict}) drawn as rgb(${p.rgb}), not rgb(${want})`);
    }
    assert.deepEqual(await axeViolations(page, ['color-contrast']), [], `contrast in the ${theme} theme`);
    // For looking at (issue 53): the policies named under their places, each proven line over
    // its own place, the intervals over the marks.
    await page.locator('#chart-stability').screenshot({ path: join(RESULTS, `map-chart-${theme}.png`) });
  }
  assert.deepEqual(await axeViolations(page, undefined, '#stability-map'), [], 'the stability map');
  await page.selectOption('#theme', 'light');
  // Hover names the point; a click opens the lab at that scenario and load.
  // A point no other crowds (not stable if one is, the map's narrowing crowds the rest).
  const alone = apart(await drawnPoints(page));
  const target = alone.find((p) => p.verdict === 'unstable') ?? alone[0];
  assert.ok(target, 'a tested load stands apart on the chart');
  const word = target.verdict === 'unstable' ? 'not stable' : target.verdict;
  await page.locator('#chart-stability').scrollIntoViewIfNeeded();
  const box = await page.locator('#chart-stability').boundingBox();
  await page.mouse.move(box.x + target.x + 2, box.y + target.y - 1);
  await page.waitForFunction(() => document.querySelector('#chart-stability').dataset.pointing === 'true');
  assert.match(await page.getAttribute('#chart-stability', 'title'), new RegExp(`at load .*: ${word}; open the lab there`));
  await Promise.all([page.waitForURL(/load=/), page.mouse.click(box.x + target.x + 2, box.y + target.y - 1)]);
  await page.waitForSelector('#stats tr[data-policy]');
  const opened = new URL(page.url());
  assert.equal(Number(opened.searchParams.get('load')), target.load);
  assert.equal(opened.searchParams.get('policy'), 'vqs,bf-js');
  assert.equal(opened.searchParams.get('horizon'), '20000');
  assert.equal(opened.searchParams.get('map'), null, 'the lab at a point, not the map again');
  await playUntilStepped(page);
});

labTest('a map stopped by hand says so, on the page and in the live region', async (open) => {
  // Long runs: the map is still in its first round when Stop is pressed.
  const page = await open(`preset=pgrr-a1&policy=vqs,bf-js&seed=3&horizon=4000000&map=2`);
  await page.waitForSelector('#map-stop:not([disabled])');
  await page.waitForFunction(() => /Mapping where each policy stops being stable/.test(document.querySelector('#announcer').textContent));
  await page.click('#map-stop');
  const said = await page.textContent('#map-stopped');
  assert.match(said, /^The map was stopped by you after \d+ rounds? \(\d+ runs\): the intervals below are those found so far/);
  await page.waitForFunction((s) => document.querySelector('#announcer').textContent === s, said);
  assert.ok(await page.isDisabled('#map-stop'));
  assert.ok(!(await page.isDisabled('#map-run')), 'the map can be run again');
});
