// Issue 34: a policy written in the page's editor races beside BF-J/S, travels in the link,
// and replays with the same numbers in a fresh page and in `packlab run --link`.

import assert from 'node:assert/strict';

import { assertClose, cliReports, labTest, rows, runToEnd } from './harness.mjs';

const HORIZON = 20_000;
const LAB = `preset=pgrr-a1&policy=bf-js&seed=3&horizon=${HORIZON}&speed=max`;

// First fit, written by hand: each waiting job, oldest first, on the lowest-numbered server
// it fits.
const FIRST_FIT = `// name: my first fit
fn schedule(ctx) {
    let from = 0;
    loop {
        let job = ctx.first_fitting(from, ctx.max_residual);
        if job == () { break; }
        let server = ctx.first_fit(job);
        if server != () { ctx.start(job, server); }
        from = job.id + 1;
    }
}
`;

labTest('issue 34: a script written in the editor races beside BF-J/S, and its link replays it in a fresh page and in the CLI', async (open) => {
  const page = await open(LAB);
  await page.check('#policies input[value="script"]');
  await page.waitForSelector('.lane-setup .edit-script');
  await page.click('.lane-setup .edit-script');
  await page.waitForSelector('#script-editor');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'script-source', 'the editor takes the focus');

  // A syntax error is named at its line as it is typed, and Apply waits for a script that compiles.
  await page.fill('#script-source', 'fn schedule(ctx) {\n    let x = ;\n}\n');
  await page.waitForSelector('#script-status.script-error');
  assert.match(await page.textContent('#script-status'), /script line 2: syntax error/);
  assert.equal(await page.isDisabled('#script-apply'), true);
  await page.click('#script-status .goto-line');
  const selected = await page.$eval('#script-source', (a) => a.value.slice(a.selectionStart, a.selectionEnd));
  assert.equal(selected, '    let x = ;', 'Go to line selects the line');

  await page.fill('#script-source', FIRST_FIT);
  await page.waitForSelector('#script-status.script-ok');
  await page.click('#script-apply');
  await page.waitForSelector('#script-editor', { state: 'detached' });
  assert.equal(await page.evaluate(() => document.activeElement?.className), 'edit-script', 'the focus goes back to the button');
  await page.waitForFunction(() => [...document.querySelectorAll('.lane-name')].some((l) => l.textContent.includes('Script (my first fit)')));

  await runToEnd(page, HORIZON);
  const shown = await rows(page);
  const link = await page.inputValue('#link');
  const policies = new URL(link).searchParams.get('policy').split(',');
  assert.equal(policies.length, 2, link);
  assert.ok(policies.some((p) => p.startsWith('script:src=')), `the link carries the script: ${link}`);
  assert.deepEqual(Object.keys(shown).sort(), [...policies].sort());

  // The same numbers from the CLI on the link...
  const cli = cliReports(new URL(link).search);
  for (const [policy, row] of Object.entries(shown)) {
    assert.ok(cli[policy], `the CLI ran ${policy}`);
    assert.equal(cli[policy].final_queue, row.queue, `${policy}: waiting at the end`);
    assertClose(row.meanQueue, cli[policy].mean_queue, `${policy}: mean waiting`);
  }
  // ... and from a fresh page opened on it.
  const fresh = await open(link);
  await runToEnd(fresh, HORIZON);
  assert.deepEqual(await rows(fresh), shown);
});

labTest('issue 34: a link whose script is not a script names the policy key, and the page runs', async (open) => {
  const page = await open('preset=pgrr-a1&policy=bf-js,script:src=notdeflate&seed=1&horizon=200');
  const notices = page.locator('#notices');
  await notices.waitFor({ state: 'visible' });
  const text = await notices.textContent();
  assert.match(text, /policy/, `#notices should name the policy key: ${text}`);
  assert.equal(await page.locator('#crash').count(), 0, 'the page crashed');
  assert.deepEqual(Object.keys(await rows(page)), ['bf-js'], 'the lab keeps the good lane');
  await runToEnd(page, 200);
});
