// Issue 34: a policy written in the page's editor races beside BF-J/S, travels in the link,
// and replays with the same numbers in a fresh page and in `packlab run --link`.

import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';

import { assertClose, axeViolations, cliReports, labTest, rows, runToEnd } from './harness.mjs';

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
  // The picker offers the scripted policy as what it is to a user.
  const offer = page.locator('#policies label.check', { has: page.locator('input[value="script"]') });
  assert.match(await offer.textContent(), /Write your own/);
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
  // The focus goes back to the lane's button (its row is drawn anew for the new script).
  await page.waitForFunction(() => document.activeElement?.className === 'edit-script', null, { timeout: 5_000 });
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

// A script in a link as the core writes it (crates/core/src/script/source.rs): raw deflate,
// then base64url without padding.
const scriptSpec = (source) => `script:src=${deflateRawSync(Buffer.from(source), { level: 9 }).toString('base64url')}`;

// Hostile scripts, each with the message its lane must stop with: the line and the limit. A
// limit exceeded directly in `fn schedule` is named at the line `fn schedule` starts on; one
// exceeded deeper, at the line of the call that led to it.
const HOSTILE = [
  ['// name: endless loop\nfn schedule(ctx) {\n    loop { }\n}\n', /script line 2: exceeded 1000000 operations/],
  [
    '// name: endless recursion\nfn down(n) {\n    down(n + 1)\n}\nfn schedule(ctx) {\n    down(0);\n}\n',
    /script line \d+: exceeded 32 nested function calls/,
  ],
  [
    '// name: growing array\nfn schedule(ctx) {\n    let a = [];\n    a.pad(9990, 0);\n    loop { a.push(a.len()); }\n}\n',
    /script line 2: .*exceeded 10000 array elements/,
  ],
];

labTest('issue 34: hostile scripts stop their own lanes with the line and the limit; the built-in lane and the page run on', async (open) => {
  // Long enough (about 15 s of the worker's time at 100 servers, where the scripts stop within
  // half a second) that the built-in lane is still running when the test pauses it, on a
  // machine several times faster too.
  const horizon = 20_000_000;
  const policies = ['bf-js', ...HOSTILE.map(([source]) => scriptSpec(source))].join(',');
  const page = await open(`preset=pgrr-a1&servers=100&policy=${policies}&seed=2&horizon=${horizon}&speed=max`);
  await page.click('#play');
  await page.waitForFunction(() => document.querySelectorAll('#stats tr[data-stopped]').length === 3, null, {
    timeout: 30_000,
  });
  const stopped = await page.$$eval('#stats tr[data-stopped]', (trs) => trs.map((tr) => tr.dataset.stopped));
  for (const [, pattern] of HOSTILE) {
    assert.ok(stopped.some((m) => pattern.test(m)), `a lane stopped with ${pattern}: ${stopped.join(' | ')}`);
  }
  const shown = await page.locator('#stats .lane-stopped').allTextContents();
  assert.equal(shown.length, 3, 'each stopped lane says why in the table');
  assert.ok(shown.every((t) => /^stopped: script line \d+: /.test(t)), shown.join(' | '));

  // The page answers while the built-in lane runs on: pausing and playing take effect.
  const builtin = '#stats tr[data-policy="bf-js"]';
  const timeOf = () => page.$eval(builtin, (tr) => Number(tr.dataset.time));
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'true', 'the built-in lane plays on');
  await page.click('#play');
  await page.waitForFunction(() => document.querySelector('#play')?.textContent.trim() === 'Resume', null, { timeout: 5_000 });
  const paused = await timeOf();
  assert.ok(paused < horizon, `paused before the horizon: ${paused}`);
  await page.waitForTimeout(300);
  assert.equal(await timeOf(), paused, 'a paused race stays where it is');
  await page.click('#play');
  await page.waitForFunction(
    ([sel, end]) => Number(document.querySelector(sel)?.dataset.time) === end,
    [builtin, horizon],
    { timeout: 120_000 },
  );
  await page.waitForFunction(() => document.querySelector('#play')?.textContent.trim() === 'Run again', null, {
    timeout: 5_000,
  });
  assert.equal(await page.$eval(builtin, (tr) => tr.dataset.stopped), undefined, 'the built-in lane did not stop');
  assert.ok((await timeOf()) === horizon);
  // The scripted lanes stay stopped where they failed, and going back on the timeline works.
  assert.equal((await page.$$('#stats tr[data-stopped]')).length, 3);
  await page.click('#back');
  await page.waitForFunction(
    ([sel, end]) => Number(document.querySelector(sel)?.dataset.time) < end,
    [builtin, horizon],
    { timeout: 30_000 },
  );
  assert.equal(await page.locator('#crash').count(), 0, 'the page crashed');
});

// Issue 58: scripts that cannot hurt. Each is one of the issue's hostile scripts, with what its
// lane must say: code outside `fn schedule` that loops on a costly built-in (it ran while the
// link was decoded, and hung the page before it opened), and inside `fn schedule` the same
// loop, `sleep`, and a map grown by index.
const COSTLY_TOP = '// name: costly top\nfn schedule(ctx) {}\nlet a = [];\na.pad(9999, 1);\nloop { a.contains(2); }\n';
const ISSUE_58 = [
  [
    '// name: costly\nfn schedule(ctx) {\n    let a = [];\n    a.pad(9999, 1);\n    loop { a.contains(2); }\n}\n',
    /script line 2: exceeded 1000000 operations in one call/,
  ],
  ['// name: sleepy\nfn schedule(ctx) {\n    sleep(1e300);\n}\n', /script line 3: sleep is not available/],
  [
    '// name: map\nfn schedule(ctx) {\n    let m = #{};\n    let i = 0;\n    loop { m[`k${i}`] = i; i += 1; }\n}\n',
    /script line \d+: size of object map exceeded 1000 map entries/,
  ],
];

labTest('issue 58: hostile scripts in a link: the page opens, names each problem with its line and budget, and keeps drawing frames', async (open) => {
  const horizon = 2_000_000;
  const policies = ['bf-js', scriptSpec(COSTLY_TOP), ...ISSUE_58.map(([source]) => scriptSpec(source))].join(',');
  const page = await open(`preset=pgrr-a1&servers=100&policy=${policies}&seed=2&horizon=${horizon}&speed=max`);
  const notices = page.locator('#notices');
  await notices.waitFor({ state: 'visible' });
  assert.match(await notices.textContent(), /policy: script line 5: exceeded 1000000 operations in one call/);
  // From here on, the longest wait between two animation frames.
  await page.evaluate(() => {
    window.longestFrameGap = 0;
    let last = performance.now();
    const tick = (now) => {
      window.longestFrameGap = Math.max(window.longestFrameGap, now - last);
      last = now;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await page.click('#play');
  await page.waitForFunction((n) => document.querySelectorAll('#stats tr[data-stopped]').length === n, ISSUE_58.length, {
    timeout: 30_000,
  });
  const stopped = await page.$$eval('#stats tr[data-stopped]', (trs) => trs.map((tr) => tr.dataset.stopped));
  for (const [, pattern] of ISSUE_58) {
    assert.ok(stopped.some((m) => pattern.test(m)), `a lane stopped with ${pattern}: ${stopped.join(' | ')}`);
  }
  // The built-in lane plays on, and the page answers: Pause takes effect.
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'true', 'the built-in lane plays on');
  await page.click('#play');
  await page.waitForFunction(() => document.querySelector('#play')?.textContent.trim() === 'Resume', null, { timeout: 5_000 });
  // The editor checks top-level code as it is typed, under the same budget, and shows what a
  // script wrote escaped (a right-to-left override would reverse the rest of the line).
  await page.locator('.lane-setup .edit-script').first().click();
  await page.waitForSelector('#script-editor');
  await page.fill('#script-source', COSTLY_TOP);
  await page.waitForFunction(
    () => /script line 5: exceeded 1000000 operations in one call/.test(document.querySelector('#script-status')?.textContent ?? ''),
    null,
    { timeout: 5_000 },
  );
  assert.equal(await page.isDisabled('#script-apply'), true);
  await page.fill('#script-source', 'fn schedule(ctx) {}\nthrow "evil\u202eeman";\n');
  await page.waitForFunction(() => /threw: evil\\u\{202e\}eman/.test(document.querySelector('#script-status')?.textContent ?? ''), null, {
    timeout: 5_000,
  });
  await page.click('#script-cancel');
  const gap = await page.evaluate(() => window.longestFrameGap);
  console.log(`issue 58: the longest wait between two frames was ${Math.round(gap)} ms`);
  assert.ok(gap < 2_000, `the page drew no frame for ${Math.round(gap)} ms`);
  assert.equal(await page.locator('#crash').count(), 0, 'the page crashed');
});

labTest('issue 55: the first download leaves the script engine out; ticking the scripted lane by keyboard loads it and gives the focus back to the lane', async (open) => {
  const page = await open(LAB);
  const fetched = () => page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
  const engine = (names) => names.filter((n) => n.endsWith('/packlab-scripts_bg.wasm'));
  assert.deepEqual(engine(await fetched()), [], 'a lab without a script does not download the script engine');
  // A keyboard user ticks "Write your own": the build with the engine takes over the same
  // address, and the focus comes back to the new lane's editor button, not to the top.
  await page.focus('#policies input[value="script"]');
  await page.keyboard.press('Space');
  await page.waitForFunction(() => document.activeElement?.classList.contains('edit-script'), null, { timeout: 30_000 });
  assert.equal(engine(await fetched()).length, 1, 'the script engine was loaded once');
  assert.match(await page.evaluate(() => document.activeElement.getAttribute('aria-label')), /^Edit script of lane 2 /);
  assert.match(new URL(page.url()).searchParams.get('policy'), /^bf-js,script/);
  await page.keyboard.press('Enter');
  await page.waitForSelector('#script-editor');
  // On a phone the scenario's controls fold away in a sheet, closed as a page opens: the
  // focus still comes back to the new lane's button, the sheet opened around it.
  const phone = await open(LAB, { viewport: { width: 390, height: 844 } });
  await phone.click('.scenario-sheet > summary');
  await phone.click('#policies label.check:has(input[value="script"])');
  await phone.waitForFunction(() => document.activeElement?.classList.contains('edit-script'), null, { timeout: 30_000 });
  assert.equal(await phone.evaluate(() => document.querySelector('.scenario-sheet').open), true);
  assert.deepEqual(await axeViolations(phone), []);
  // A host program's policy (the Python package's) never runs in a page: the first download
  // refuses it as the build with the engine would, and loads no engine for it.
  const host = await open('preset=pgrr-a1&policy=bf-js,script:host=7&seed=1');
  await host.locator('#notices').waitFor({ state: 'visible' });
  assert.match(await host.textContent('#notices'), /policy: script: host: no host policy 7 here \(a Python policy races only in the packlab\.run that was given it\)/);
  assert.deepEqual(engine(await host.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name))), []);
});

labTest('issue 53: the script editor indents with Tab, lets Tab out after Escape, numbers its lines, names a missing ; on its line, and says why a control is greyed', async (open) => {
  const page = await open(LAB);
  await page.check('#policies input[value="script"]');
  const edit = page.locator('.lane-setup .edit-script');
  // WCAG 2.5.3: the accessible name begins with the visible text.
  assert.match(await edit.getAttribute('aria-label'), /^Edit script of lane 2 /);
  await edit.click();
  await page.waitForSelector('#script-editor');
  await page.fill('#script-source', 'fn schedule(ctx) {\n}');
  // Tab indents at the caret (and stays in the text area); Shift+Tab takes the indent back.
  await page.$eval('#script-source', (a) => a.setSelectionRange(19, 19));
  await page.keyboard.press('Tab');
  assert.equal(await page.inputValue('#script-source'), 'fn schedule(ctx) {\n    }');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'script-source');
  await page.keyboard.press('Shift+Tab');
  assert.equal(await page.inputValue('#script-source'), 'fn schedule(ctx) {\n}');
  // The gutter numbers every line.
  await page.fill('#script-source', 'fn schedule(ctx) {\n    let a = 3\n\n    let b = 4;\n}');
  assert.equal((await page.textContent('.script-gutter')).trim(), '1\n2\n3\n4\n5');
  // A missing ; is the line that lacks it, not the next token's.
  await page.waitForSelector('#script-status.script-error');
  assert.match(await page.textContent('#script-status'), /script line 2: syntax error/);
  assert.match(await page.textContent('#script-status .goto-line'), /Go to line 2/);
  // Apply is greyed, and the status it is described by says why.
  assert.equal(await page.isDisabled('#script-apply'), true);
  assert.equal(await page.getAttribute('#script-apply', 'aria-describedby'), 'script-status');
  assert.deepEqual(await axeViolations(page), [], 'axe, with the editor open');
  // Escape, then Tab leaves the text area (said in the live region); the dialog stays open.
  await page.focus('#script-source');
  await page.keyboard.press('Escape');
  await page.waitForSelector('#script-tab-mode');
  assert.match(await page.textContent('#script-tab-mode'), /Tab now moves the focus out of the script/);
  await page.keyboard.press('Tab');
  assert.notEqual(await page.evaluate(() => document.activeElement?.id), 'script-source');
  assert.equal(await page.locator('#script-editor').count(), 1);
  // Escape twice from the text area closes the editor.
  await page.focus('#script-source');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await page.waitForSelector('#script-editor', { state: 'detached' });

  // Four lanes: "Write your own…" is greyed, and says why.
  const lab = await open(`preset=pgrr-a1&policy=bf-js,bf-j,bf-s,vqs&seed=3&horizon=${HORIZON}`);
  const own = lab.locator('#policies input[value="script"]');
  assert.equal(await own.isDisabled(), true);
  const reason = await own.getAttribute('aria-describedby');
  assert.match(await lab.textContent(`#${reason}`), /4 lanes race, the most the page runs side by side: remove one/);
  assert.deepEqual(await axeViolations(lab), [], 'axe, with four lanes');
});
