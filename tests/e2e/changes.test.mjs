// Changes while a run plays (issue 54, first step): a link's `change` key replays in the page as
// `packlab run --link` replays it, in every lane at once, also after going back.
//
//   trunk build --release && node --test --test-concurrency=1 tests/e2e/changes.test.mjs

import assert from 'node:assert/strict';

import { assertClose, cliReports, labTest, rows, runToEnd, slot, waitForSlot, waitPastSlot } from './harness.mjs';

/** pgrr-a1 at half its load, a surge past VQS's frontier at slot 5 000 and back at 12 000. */
const HORIZON = 40_000;
const SURGE = `preset=pgrr-a1&policy=vqs,bf-js&seed=1&load=0.5&horizon=${HORIZON}&change=${encodeURIComponent('5000:load=1.3;12000:load=0.5')}`;

labTest('issue 54: a link with changes of the load gives the CLI numbers at the horizon, in every lane', async (open) => {
  const cli = cliReports(SURGE);
  const page = await open(`${SURGE}&speed=max`);
  // The link keeps its changes (the page's own link carries them).
  assert.equal(new URL(await page.inputValue('#link')).searchParams.get('change'), '5000:load=1.3;12000:load=0.5');
  await runToEnd(page, HORIZON);
  const shown = await rows(page);
  assert.deepEqual(Object.keys(shown), ['vqs', 'bf-js']);
  for (const [policy, row] of Object.entries(shown)) {
    assertClose(row.meanQueue, cli[policy].mean_queue, `${policy} mean queue`);
  }
  // The surge is in the numbers: the same link without it queues less in every lane.
  const calm = cliReports(SURGE.replace(/&change=[^&]*/, ''));
  for (const policy of ['vqs', 'bf-js']) {
    assert.ok(cli[policy].mean_queue > calm[policy].mean_queue, `${policy}: ${cli[policy].mean_queue} vs ${calm[policy].mean_queue}`);
  }
  // And the CLI's report names each change's recovery.
  assert.equal(cli['bf-js'].recovery?.length, 2, JSON.stringify(cli['bf-js'].recovery));
});

labTest('issue 54: a bad change in a link is named with the entry and the allowed range', async (open) => {
  const page = await open(`preset=pgrr-a1&seed=1&change=${encodeURIComponent('5000:load=99')}`);
  const notice = await page.textContent('#notices');
  assert.match(notice, /change/);
  assert.match(notice, /5000:load=99/);
});

// Issue 54 item 3 (RES-96): the load control moved while the race plays changes it from the
// moment on screen; the race goes on from where it was, and its link replays it exactly.
labTest('issue 54: moving the load while the race plays changes it where it is, and the link replays it', async (open) => {
  const horizon = 30_000;
  const page = await open(`preset=pgrr-a1&policy=vqs,bf-js&seed=1&load=0.5&horizon=${horizon}`);
  await page.click('#play');
  await waitPastSlot(page, 3_000);
  const before = await slot(page);
  // As the slider reports a move (keyboard or pointer): its change event. To 1.1, past VQS's
  // frontier and within the slider's range.
  const moved = await page.locator('#load-slider').evaluate((el) => {
    el.value = '1.1';
    el.dispatchEvent(new Event('change', { bubbles: true }));
    return el.value;
  });
  assert.equal(moved, '1.1');
  await page.waitForFunction(() => new URL(document.querySelector('#link').value).searchParams.get('change') !== null, null, {
    timeout: 5_000,
  });
  const change = new URL(await page.inputValue('#link')).searchParams.get('change');
  const [, at] = change.match(/^(\d+):load=1\.1$/) ?? assert.fail(`the link's change: ${change}`);
  // At the moment on screen when the knob moved, not back at 0 nor restarted.
  assert.ok(Number(at) >= before && Number(at) < horizon, `change at ${at}, the race was at ${before}`);
  assert.ok((await slot(page)) >= before, 'the slot did not go back');
  assert.equal(await page.locator('#restarted').count(), 0, 'no restart');
  assert.match(await page.textContent('#live-change'), /from slot .* on; the race goes on from there/);
  assert.equal(await page.getAttribute('#live-change', 'role'), 'status');
  // It keeps rising from where it was, to the horizon.
  await waitPastSlot(page, Number(at) + 1_000);
  await waitForSlot(page, horizon);
  const live = await rows(page);
  const link = new URL(await page.inputValue('#link'));
  // The timeline marks the change; its button (a click, or Enter) goes to its moment.
  const mark = page.locator('#timeline-changes button');
  assert.equal(await mark.count(), 1);
  assert.match(await mark.textContent(), new RegExp(`load = 1\\.1`));
  await mark.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction((t) => Number(document.querySelector('#timeline').dataset.now) === t, Number(at), { timeout: 30_000 });
  link.searchParams.set('speed', 'max');
  const fresh = await open(link.search.slice(1));
  await runToEnd(fresh, horizon);
  const replayed = await rows(fresh);
  assert.deepEqual(Object.keys(replayed), ['vqs', 'bf-js']);
  for (const policy of ['vqs', 'bf-js']) {
    assert.equal(replayed[policy].meanQueue, live[policy].meanQueue, `${policy} mean queue`);
    assert.equal(replayed[policy].queue, live[policy].queue, `${policy} queue`);
  }
});
