// Changes while a run plays (issue 54, first step): a link's `change` key replays in the page as
// `packlab run --link` replays it, in every lane at once, also after going back.
//
//   trunk build --release && node --test --test-concurrency=1 tests/e2e/changes.test.mjs

import assert from 'node:assert/strict';

import { assertClose, cliReports, labTest, rows, runToEnd, seek, slot, waitForSlot, waitPastSlot } from './harness.mjs';

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
  // The load control shows the load in force at the moment on screen: the new one from the
  // change on, the old one before it, the new one again at the horizon.
  const load = async () => [await page.inputValue('#load-slider'), await page.inputValue('#field-load')];
  assert.deepEqual(await load(), ['1.1', '1.1'], 'at the change');
  await seek(page, Number(at) - 1_000);
  assert.deepEqual(await load(), ['0.5', '0.5'], 'before the change');
  // The queue chart marks the change, dotted, and shades each lane's band after it (in words
  // for a screen reader, as the canvas draws it).
  await seek(page, horizon);
  assert.deepEqual(await load(), ['1.1', '1.1'], 'at the horizon');
  const words = await page.textContent('#chart-queue-summary');
  assert.match(words, /Dotted: a change of the run, at slot \d/, words);
  assert.match(words, /Shaded: a queue's band until back in it/, words);
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

// A server lost and back while the race plays (RES-96): the servers field moved down, or back up
// to the count the race was built for, changes the race where it is; more servers than that are
// made at the moment too, but the race starts again to be built for them, and says so.
labTest('issue 54: the server count moved while the race plays: lost and back where it is, more starts again', async (open) => {
  const page = await open('preset=pgrr-a1&policy=vqs,bf-js&seed=1&servers=10&load=0.8&horizon=200000');
  await page.click('#play');
  await waitPastSlot(page, 2_000);
  const changeOf = async () => new URL(await page.inputValue('#link')).searchParams.get('change');
  // Typed and committed, as a person would; the link's `change` follows (not its `servers`,
  // which stays the count at 0).
  const setServers = async (value) => {
    const input = page.locator('#field-servers');
    await input.fill(value);
    await input.press('Enter');
    await input.blur();
  };
  // The text (the stats table) follows a playing race ten times a second, so the moment
  // the knob moved (the frame's) can be ahead of the slot the table shows: the slot read
  // before the move is what the race must not fall behind.
  const before = await slot(page);
  await setServers('8');
  await page.waitForFunction(() => /servers=8/.test(new URL(document.querySelector('#link').value).searchParams.get('change') ?? ''), null, {
    timeout: 5_000,
  });
  const [, lostAt] = (await changeOf()).match(/^(\d+):servers=8$/) ?? assert.fail(`the link's change: ${await changeOf()}`);
  assert.match(await page.textContent('#live-change'), /the race goes on from there/);
  assert.equal(await page.locator('#restarted').count(), 0, 'no restart');
  assert.ok(Number(lostAt) >= before, `lost at ${lostAt}, the race was at ${before}`);
  assert.ok((await slot(page)) >= before, 'the slot did not go back');
  await waitPastSlot(page, Number(lostAt) + 2_000);
  await setServers('10');
  await page.waitForFunction(() => /servers=10/.test(new URL(document.querySelector('#link').value).searchParams.get('change') ?? ''), null, {
    timeout: 5_000,
  });
  assert.match(await page.textContent('#live-change'), /the race goes on from there/);
  assert.equal(await page.locator('#restarted').count(), 0, 'still no restart');
  // Past the return: an edit in the same slot would replace it.
  const [, backAt] = (await changeOf()).match(/;(\d+):servers=10$/) ?? assert.fail(await changeOf());
  await waitPastSlot(page, Number(backAt));
  // One more server than built: made at its moment, and the race starts again from 0.
  await setServers('11');
  await page.waitForSelector('#restarted', { timeout: 10_000 });
  assert.match(await page.textContent('#live-change'), /built for at most 10, so it starts again from 0 with the change/);
  assert.match(await changeOf(), /servers=8;\d+:servers=10;\d+:servers=11$/);
  assert.equal(new URL(await page.inputValue('#link')).searchParams.get('servers'), '10', 'the count at 0 stays');
});

// GH-RA's fleet lost and back while the race plays (RES-97): the fleet field edited to the first
// servers of the fleet the race was built for changes the race where it is; a bigger fleet is made
// at its moment too, but the race starts again to be built for it, and the note says why.
labTest('issue 54: the GH-RA fleet edited while the race plays: lost and back where it is, a bigger one starts again', async (open) => {
  const page = await open('preset=ghra-b3&seed=1&horizon=200000');
  await page.click('#play');
  await waitPastSlot(page, 50);
  const changeOf = async () => new URL(await page.inputValue('#link')).searchParams.get('change') ?? '';
  // A text field committed on Enter, as a person would type it.
  const setFleet = async (value) => {
    const input = page.locator('#field-servers');
    await input.fill(value);
    await input.press('Enter');
    await input.blur();
  };
  const linked = (fleet) =>
    page.waitForFunction((f) => (new URL(document.querySelector('#link').value).searchParams.get('change') ?? '').endsWith(`:servers=${f}`), fleet, {
      timeout: 5_000,
    });
  const before = await slot(page);
  await setFleet('5xsmall,2xlarge');
  await linked('5xsmall,2xlarge');
  const [, lostAt] = (await changeOf()).match(/^(\d+):servers=5xsmall,2xlarge$/) ?? assert.fail(`the link's change: ${await changeOf()}`);
  // At the moment on screen when the field was committed (the first whole moment after it).
  assert.ok(Number(lostAt) >= before, `change at ${lostAt}, the race was at ${before}`);
  assert.match(await page.textContent('#live-change'), /the race goes on from there/);
  assert.equal(await page.locator('#restarted').count(), 0, 'no restart');
  assert.ok((await slot(page)) >= before, 'the time did not go back');
  // It keeps rising from where it was, past the change.
  await waitPastSlot(page, Number(lostAt) + 50);
  await setFleet('5xsmall,5xlarge');
  await linked('5xsmall,5xlarge');
  const [, backAt] = (await changeOf()).match(/^\d+:servers=5xsmall,2xlarge;(\d+):servers=5xsmall,5xlarge$/) ?? assert.fail(await changeOf());
  assert.match(await page.textContent('#live-change'), /the race goes on from there/);
  assert.equal(await page.locator('#restarted').count(), 0, 'still no restart');
  // Past the return (an edit at the same moment would replace it).
  await waitPastSlot(page, Number(backAt));
  // One more large server than built: made at its moment, and the race starts again from 0.
  await setFleet('5xsmall,6xlarge');
  await page.waitForSelector('#restarted', { timeout: 10_000 });
  assert.match(await page.textContent('#live-change'), /built for the fleet 5xsmall,5xlarge, so it starts again from 0 with the change/);
  assert.match(await changeOf(), /servers=5xsmall,2xlarge;\d+:servers=5xsmall,5xlarge;\d+:servers=5xsmall,6xlarge$/);
  assert.notEqual(new URL(await page.inputValue('#link')).searchParams.get('servers'), '5xsmall,6xlarge', 'the fleet at 0 stays');
});
