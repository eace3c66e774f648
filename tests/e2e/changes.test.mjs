// Changes while a run plays (issue 54, first step): a link's `change` key replays in the page as
// `packlab run --link` replays it, in every lane at once, also after going back.
//
//   trunk build --release && node --test --test-concurrency=1 tests/e2e/changes.test.mjs

import assert from 'node:assert/strict';

import { assertClose, cliReports, labTest, rows, runToEnd } from './harness.mjs';

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
