// Issue 36, the lab in a real classroom: a keyboard or a screen reader, a projector, a shared
// moment, and every theme's contrast. Each test names the link that reproduced the defect.
//
// axe-core (npm) is loaded into the page through the DevTools protocol (`page.evaluate`), which
// the page's Content-Security-Policy does not govern, so the page itself stays as served.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
  axeViolations,
  RACE,
  RESULTS,
  ROOT,
  cliReports,
  copyLink,
  labTest,
  rows,
  runSweep,
  runToEnd,
  seek,
  slot,
  waitForSlot,
} from './harness.mjs';

const THEMES = ['light', 'dark', 'high-contrast'];

/** The id, or else the tag and class, of the focused element. */
async function focusedName(page) {
  return page.evaluate(() => {
    const a = document.activeElement;
    if (!a || a === document.body) return 'body';
    return a.id || `${a.tagName.toLowerCase()}.${a.className}`;
  });
}

labTest('issue 36: the keyboard help holds the focus and gives it back; removals and new views keep the focus; each view has its title', async (open) => {
  const page = await open('preset=pgrr-a1&policy=vqs,bf-js,bf-j&seed=1&horizon=20000');
  const heading = await page.textContent('#preset-title');
  assert.ok((await page.title()).includes(heading), `the title names the preset: ${await page.title()}`);

  // The dialog: Tab and Shift+Tab stay in it; closing gives the focus back to its opener.
  await page.click('#shortcuts');
  await page.locator('#keyboard-help').waitFor();
  for (const key of ['Shift+Tab', 'Shift+Tab', 'Tab', 'Tab']) {
    await page.keyboard.press(key);
    assert.ok(await page.evaluate(() => document.querySelector('#keyboard-help').contains(document.activeElement)), `${key} left the dialog`);
  }
  await page.keyboard.press('Escape');
  await page.locator('#keyboard-help').waitFor({ state: 'detached' });
  assert.equal(await focusedName(page), 'shortcuts', 'Escape gives the focus back to the ? button');
  await page.focus('#play');
  await page.keyboard.press('Shift+Slash');
  await page.locator('#keyboard-help').waitFor();
  await page.click('#keyboard-help-close');
  assert.equal(await focusedName(page), 'play', 'Close gives the focus back to where ? was pressed');

  // Removing lane 2 of three: the focus goes to the lane now second, not to <body>.
  await page.click('.lane-setup:nth-child(2) .remove-lane');
  await page.waitForFunction(() => document.querySelectorAll('.lane-setup').length === 2);
  await page.waitForFunction(() => document.activeElement?.classList.contains('remove-lane'), null, { timeout: 5_000 });
  assert.match(await page.evaluate(() => document.activeElement.getAttribute('aria-label')), /^remove lane 2 /);
  // The last lane's own button goes too: the focus stays in the lanes.
  await page.click('.lane-setup:nth-child(2) .remove-lane');
  await page.waitForFunction(() => document.querySelectorAll('.lane-setup').length === 1);
  await page.waitForFunction(() => document.activeElement !== document.body, null, { timeout: 5_000 });
  assert.ok(await page.evaluate(() => document.querySelector('#policies').contains(document.activeElement)), await focusedName(page));

  // A size row: its button goes with it, the row now in its place takes the focus.
  await page.selectOption('#size-kind', 'discrete');
  const plus = page.locator('.size-table tfoot button');
  await plus.click();
  await plus.click();
  const before = await page.locator('.size-table tbody tr').count();
  await page.click('.size-table button[aria-label="remove row 1"]');
  await page.waitForFunction((n) => document.querySelectorAll('.size-table tbody tr').length === n - 1, before);
  await page.waitForFunction(() => document.activeElement !== document.body, null, { timeout: 5_000 });
  assert.match(await page.evaluate(() => document.activeElement.getAttribute('aria-label') ?? ''), /^remove row 1$/);
  assert.equal(await page.$$eval('.size-table thead th', (ths) => ths.filter((th) => !th.textContent.trim()).length), 0, 'no empty header cell');

  // The gallery: its own title and a skip link whose target exists; a card or a tour opened
  // from the keyboard puts the focus on the new view's heading.
  await page.click('#gallery-link');
  await page.waitForSelector('#gallery');
  assert.match(await page.title(), /^Every figure of the papers, live/);
  const skip = await page.getAttribute('a.skip', 'href');
  assert.equal(await page.locator(skip).count(), 1, `the skip link's target ${skip} exists`);
  await page.focus('li.card[data-preset="msfq-d1"] a');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#stats tr[data-policy]');
  await page.waitForFunction(() => document.activeElement?.id === 'preset-title', null, { timeout: 5_000 });
  assert.ok((await page.title()).includes(await page.textContent('#preset-title')));
  assert.equal(await page.locator(await page.getAttribute('a.skip', 'href')).count(), 1);
  await page.click('#gallery-link');
  await page.waitForSelector('#gallery');
  await page.focus('#gallery a[href^="?tour="]');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#tour');
  await page.waitForFunction(() => document.activeElement?.tagName === 'H1', null, { timeout: 5_000 });
  assert.match(await page.title(), /^Tour: .+, step 1 of \d+/);
});

labTest('issue 36: Play comes early in the tab order; the event log is one tab stop with arrows; pause, step, back, seek and the end are announced; charts say their values', async (open) => {
  const page = await open(`${RACE}&horizon=20000&speed=max`);
  await page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
  let stops = 0;
  while ((await focusedName(page)) !== 'play' && stops < 80) {
    await page.keyboard.press('Tab');
    stops += 1;
  }
  assert.ok(stops <= 8, `Play is tab stop ${stops} (it was 50)`);
  const box = await page.locator('#policies input[type="checkbox"]').first().boundingBox();
  assert.ok(box.width >= 24 && box.height >= 24, `checkboxes are ${box.width}×${box.height} px`);

  await runToEnd(page, 20_000);
  const status = () => page.textContent('#announcer');
  await page.waitForFunction(() => /reached the horizon, slot 20\u202f000\. VQS \(J=2\): waiting now \d+, mean waiting [\d.\u202f]+; BF-J\/S/.test(document.querySelector('#announcer').textContent));
  // The chart in words: each line's value now and its trend.
  const words = await page.textContent('#chart-queue-summary');
  assert.match(words, /VQS \(J=2\): [\d.\u202f]+ now, [\d.\u202f]+ at the start, (rising|falling|level)/);
  assert.equal(await page.getAttribute('#chart-queue', 'aria-describedby'), 'chart-queue-summary');

  // Back, step and a jump on the timeline each say where the run is, with its numbers.
  await page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => /^Back to slot 19\u202f999\. VQS/.test(document.querySelector('#announcer').textContent));
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => /^Back to slot 19\u202f998\. /.test(document.querySelector('#announcer').textContent));
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => /^Stepped to slot 19\u202f999\. /.test(document.querySelector('#announcer').textContent));
  await seek(page, 12_000);
  await page.waitForFunction(() => /^Went to slot 12\u202f000\. /.test(document.querySelector('#announcer').textContent));
  // At a pace that lets it be seen playing (at full speed it may reach the horizon between
  // two frames).
  await page.selectOption('#speed', '1000');
  await page.click('#play');
  await page.waitForFunction(() => /^Playing from slot 12\u202f000\.$/.test(document.querySelector('#announcer').textContent));
  await page.click('#play');
  await page.waitForFunction(() => /^Paused at slot [\d\u202f]+\. VQS/.test(document.querySelector('#announcer').textContent));
  console.log(`announced: ${await status()}`);

  // The event log: one Tab stop; ↓ and ↑ move between rows and pick them; → does not step.
  await seek(page, 15_000);
  await page.waitForFunction(() => document.querySelectorAll('#log li.decision').length > 3);
  const stopsInLog = await page.$$eval('#log button', (bs) => bs.filter((b) => b.tabIndex >= 0).length);
  assert.equal(stopsInLog, 1, 'the log is one tab stop');
  await page.focus('#log button[tabindex="0"]');
  const now = await page.getAttribute('#timeline', 'data-now');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  const picked = () => page.$eval('#log', (log) => [...log.querySelectorAll('li.decision')].findIndex((li) => li.contains(document.activeElement)));
  assert.equal(await picked(), 2, '↓ moves down a row each time');
  await page.waitForFunction(() => document.activeElement?.getAttribute('aria-pressed') === 'true');
  await page.keyboard.press('ArrowUp');
  assert.equal(await picked(), 1, '↑ moves up');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  await page.waitForTimeout(300);
  assert.equal(await page.getAttribute('#timeline', 'data-now'), now, 'the arrows in the log do not step the run');
  assert.equal(await picked(), 1, 'the focus stays in the log');
});

labTest('issue 36: after going back, Copy link and the link box keep t=, and packlab run --link prints that moment', async (open) => {
  // The link of the report: pgrr-a1 rewound; Copy link dropped t and the CLI ignored it.
  const page = await open(`${RACE}&horizon=20000&speed=max`);
  await runToEnd(page, 20_000);
  // The jump says it works until the race shows the moment (a long run's replay took 12-15 s
  // with no sign): read in the same task as the input, before the worker can answer.
  const busy = await page.$eval('#scrubber', async (el) => {
    el.value = '7300';
    el.dispatchEvent(new Event('input', { bubbles: true }));
    for (let i = 0; i < 5; i++) await Promise.resolve();
    return [document.querySelector('.playback').getAttribute('aria-busy'), document.querySelector('#seeking')?.textContent];
  });
  assert.deepEqual(busy, ['true', 'going to slot 7\u202f300…']);
  await waitForSlot(page, 7_300);
  await page.waitForSelector('#seeking', { state: 'detached' });
  assert.match(await page.textContent('.playback .slots'), /^slot 7\u202f300 of 20\u202f000$/);
  assert.equal(await page.getAttribute('.playback', 'aria-busy'), null);
  const link = await page.inputValue('#link');
  assert.equal(new URL(link).searchParams.get('t'), '7300', link);
  assert.equal(await copyLink(page), link);
  const shown = await rows(page);
  const cli = cliReports(new URL(link).search);
  for (const [policy, row] of Object.entries(shown)) {
    assert.equal(cli[policy].horizon, 7_300, 'the CLI stops at t');
    assert.equal(cli[policy].final_queue, row.queue, `${policy}: waiting now`);
    assert.ok(Math.abs(cli[policy].mean_queue - row.meanQueue) <= 1e-9 * Math.max(1, row.meanQueue), `${policy}: mean waiting`);
  }
  // Playing on to the end, the link is the whole run's again.
  await runToEnd(page, 20_000);
  assert.equal(new URL(await page.inputValue('#link')).searchParams.get('t'), null);
  assert.equal(await slot(page), 20_000);
});

labTest('issue 36: contrast in every theme (the moment link, the picked decision, the swept figure), and axe finds nothing on any view', async (open) => {
  const page = await open(`${RACE}&horizon=20000&speed=max`);
  await runToEnd(page, 20_000);
  await page.click('#log li.decision:nth-child(2) button');
  for (const theme of THEMES) {
    await page.selectOption('#theme', theme);
    await page.waitForFunction((t) => document.documentElement.dataset.theme === t, theme);
    assert.deepEqual(await axeViolations(page, ['color-contrast']), [], `contrast in the ${theme} theme`);
    const colours = await page.evaluate(() => {
      const picked = getComputedStyle(document.querySelector('#log li.picked button'));
      return { ink: picked.color, back: picked.backgroundColor };
    });
    assert.notEqual(colours.ink, colours.back, `${theme}: the picked decision has ink unlike its background`);
  }
  assert.deepEqual(await axeViolations(page), [], 'the lab, played and paused');
  await page.click('#shortcuts');
  await page.locator('#keyboard-help').waitFor();
  assert.deepEqual(await axeViolations(page), [], 'the keyboard help');
  await page.keyboard.press('Escape');

  // The swept figure follows the dark theme (it stayed white).
  const sweep = await open('preset=pgrr-a4&seed=3&horizon=2000&theme=dark');
  await runSweep(sweep, '0.8,0.9', 1);
  const corner = await sweep.$eval('#chart-sweep', (c) => [...c.getContext('2d').getImageData(2, 2, 1, 1).data].slice(0, 3));
  assert.ok(corner.every((v) => v < 80), `the swept figure's background is dark: ${corner}`);

  // Every other view, each theme.
  const views = [
    ['', '#gallery'],
    ['preset=msfq-d1&seed=1&horizon=2000', '#stats tr[data-policy]'],
    ['preset=ghra-b3&seed=1&horizon=200', '#stats tr[data-policy]'],
    ['preset=pgas-c4&seed=1&horizon=200', '#stats tr[data-policy]'],
    ['tour=vqs-vs-best-fit&step=1', '#tour'],
    [`${RACE}&present=1`, '#stats tr[data-policy]'],
    [`${RACE}&embed=1&views=stats,lanes,queue`, '#stats tr[data-policy]'],
  ];
  for (const [link, ready] of views) {
    for (const theme of THEMES) {
      // The gallery is the bare address: its theme is the menu's.
      const view = await open(link ? `${link}&theme=${theme}` : '', { waitFor: ready });
      if (!link) await view.selectOption('#theme', theme);
      assert.deepEqual(await axeViolations(view), [], `${link || 'the gallery'} in the ${theme} theme`);
      await view.close();
    }
  }
});

labTest('issue 36: presenter mode puts the charts above the fold at projector sizes and keeps the swept figure; the embed fits its documented size', async (open) => {
  for (const viewport of [
    { width: 1280, height: 720 },
    { width: 1920, height: 1080 },
  ]) {
    const page = await open(`${RACE}&horizon=20000&present=1`, { viewport });
    const chart = await page.locator('#chart-queue').boundingBox();
    assert.ok(chart.y + chart.height <= viewport.height, `the queue chart ends at ${chart.y + chart.height} px of ${viewport.height}`);
    assert.equal(await page.locator('#event-log').isVisible(), false, 'the decision log folds away');
    await page.screenshot({ path: join(RESULTS, `present-charts-${viewport.width}x${viewport.height}.png`) });
  }
  // The sweep survives P and is shown while presenting.
  const sweep = await open('preset=pgrr-a4&seed=3&horizon=2000');
  const points = await runSweep(sweep, '0.8,0.9', 1);
  await sweep.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
  await sweep.keyboard.press('p');
  await sweep.locator('#present-cues').waitFor();
  assert.equal(await sweep.locator('#chart-sweep').isVisible(), true, 'the swept figure is presented');
  assert.equal(await sweep.locator('#sweep-table tr[data-policy]').count(), points.length, 'with its results');

  // The documented embed, 760 × 560, holds views=lanes,queue without scrolling.
  const docs = readFileSync(join(ROOT, 'docs/web.md'), 'utf8');
  const [, width, height] = docs.match(/views=lanes,queue"\s+width="(\d+)" height="(\d+)"/);
  const embed = await open(`${RACE}&embed=1&views=lanes,queue`, {
    viewport: { width: Number(width), height: Number(height) },
    waitFor: '#chart-queue',
  });
  // Playing fills the lanes' sentences: measure with them.
  await embed.click('#play');
  await embed.waitForFunction(() => !/No job placed yet/.test(document.querySelector('.lane .why').textContent));
  await embed.click('#play');
  const scroll = await embed.evaluate(() => document.scrollingElement.scrollHeight);
  assert.ok(scroll <= Number(height), `the embed scrolls: ${scroll} px in a ${height} px frame`);
});

labTest('issue 36: tours ask before they tell, start each step without a stale banner, quote their own run, and end with a summary', async (open) => {
  const page = await open('tour=dra-approaches-greedy&step=1', { waitFor: '#tour' });
  const preset = 'preset=pgas-c4';
  const intro = () => page.textContent('section.intro');
  // The question is open: the tour's title, not the preset's, and no explanation.
  assert.equal((await page.textContent('#preset-title')).trim(), 'DRA and the global greedy\'s reward');
  assert.equal(await page.locator('.explain').isVisible(), false);
  assert.ok(new URL(await page.inputValue('#link')).search.includes(preset));
  await page.locator('#tour-question input').first().check();
  await page.selectOption('#speed', 'max');
  await page.click('#tour-play');
  await page.locator('#tour-check').waitFor({ timeout: 120_000 });
  assert.notEqual((await page.textContent('#preset-title')).trim(), 'DRA and the global greedy\'s reward', 'the verdict shows the preset');

  await page.click('#tour-next');
  await page.waitForFunction(() => document.querySelector('#tour')?.dataset.step === '2');
  assert.equal(await page.locator('#restarted').count(), 0, 'no "the scenario changed" banner: the step changed it');
  // Step 2 asks where U^(g) falls below U*: the α view's marks and the load caption wait.
  assert.equal(await page.locator('#alpha-view').isVisible(), false);
  assert.ok(!/6\/7/.test(await intro()), await intro());
  assert.equal(await page.locator('#load-marks + .hint').isVisible(), false);
  await page.locator('#tour-question input').nth(1).check();
  await page.selectOption('#speed', 'max');
  await page.click('#tour-play');
  await page.locator('#tour-check').waitFor({ timeout: 120_000 });
  const verdict = await page.textContent('#tour-check');
  assert.match(verdict, /At this run's α, DRA earned [\d.\u202f]+ per server, U\^\(g\) = [\d.\u202f]+, below U\* = [\d.\u202f]+\./);
  assert.equal(await page.locator('#alpha-view').isVisible(), true, 'the α view after the verdict');

  // Step 3, a surge (issue 54): its table of stretches answers it ("both rise", the first).
  await page.click('#tour-next');
  await page.waitForFunction(() => document.querySelector('#tour')?.dataset.step === '3');
  await page.locator('#tour-question input').first().check();
  await page.selectOption('#speed', 'max');
  await page.click('#tour-play');
  await page.locator('#tour-check').waitFor({ timeout: 120_000 });
  assert.equal((await page.textContent('#tour-leave')).trim(), 'Finish the tour');
  await page.click('#tour-leave');
  await page.locator('#tour-summary').waitFor();
  assert.match(await page.textContent('#tour-summary'), /2 of 3 predictions right\./);
  assert.equal(await page.locator('#edited').count(), 0, 'no "Edited: lanes …" note for the tour\'s own scenario');
});
