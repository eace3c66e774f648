// Issue 34: an exercise. The tour step asks for best fit; a wrong script (first fit) is
// checked against BF-J on the same arrivals and its first different start is shown beside the
// reference's; the right one passes. axe finds nothing on the open exercise.
// Issue 52: the page's verdicts are the CLI's: `packlab exercise write-best-fit --check` prints
// the same sentence and the same two decisions for first fit, and passes the shipped best fit
// with the same count.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ROOT, cliCommand, copyLink, labTest } from './harness.mjs';

/**
 * `packlab exercise ID --check FILE --json` on `source`: its one JSON line (the command exits 1
 * when the script does not pass, which is not an error here).
 */
function cliVerdict(id, source) {
  const dir = mkdtempSync(join(tmpdir(), 'packlab-exercise-'));
  const file = join(dir, 'attempt.rhai');
  writeFileSync(file, source);
  const [command, prefix] = cliCommand();
  const args = [...prefix, 'exercise', id, '--check', file, '--json'];
  let stdout;
  try {
    stdout = execFileSync(command, args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 30 * 60_000 });
  } catch (err) {
    if (err.status !== 1 || !err.stdout) throw new Error(`${command} ${args.join(' ')} failed: ${err.message}\n${err.stderr ?? ''}`);
    stdout = err.stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return JSON.parse(stdout.trim());
}

// The shipped best fit: the editor's starting point for BF-J, which the exercise hides.
const SHIPPED_BEST_FIT = readFileSync(join(ROOT, 'crates/core/src/models/pgrr/scripts/best_fit.rhai'), 'utf8');

const AXE = readFileSync(join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');

/** axe's violations on the page (WCAG 2.1 A and AA). */
async function axeViolations(page) {
  await page.evaluate(AXE);
  const options = { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } };
  const found = await page.evaluate((o) => window.axe.run(document, o), options);
  return found.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length}) ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

// First fit, written by hand: the oldest job on the lowest-numbered server it fits; when it
// fits nowhere, everything behind it waits.
const FIRST_FIT = `fn schedule(ctx) {
    loop {
        let job = ctx.head();
        if job == () { break; }
        let server = ctx.first_fit(job);
        if server == () { break; }
        ctx.start(job, server);
    }
}
`;

// Best fit: each waiting job, oldest first, on the fullest server it fits.
const BEST_FIT = `fn schedule(ctx) {
    for job in ctx.waiting() {
        let server = ctx.best_fit(job);
        if server != () { ctx.start(job, server); }
    }
}
`;

const focused = (page) => page.evaluate(() => document.activeElement?.id);

/** Opens the editor, writes `source`, applies it; the focus comes back to "Write it". */
async function write(page, source) {
  await page.click('#exercise-write');
  await page.waitForSelector('#script-editor');
  assert.equal(await focused(page), 'script-source', 'the editor takes the focus');
  await page.fill('#script-source', source);
  await page.waitForSelector('#script-status.script-ok');
  await page.click('#script-apply');
  await page.waitForSelector('#script-editor', { state: 'detached' });
  assert.equal(await focused(page), 'exercise-write', 'the focus goes back to Write it');
}

/** Checks the script and waits for the verdict; the focus moves to it. */
async function check(page) {
  await page.click('#exercise-check');
  await page.waitForSelector('#exercise-result', { timeout: 60_000 });
  assert.equal(await focused(page), 'exercise-result', 'the verdict takes the focus');
  return page.getAttribute('#exercise-result', 'data-outcome');
}

labTest('issue 34, 52: an exercise checks a written best fit against BF-J: the first different start side by side, as the CLI prints it, then a pass', async (open) => {
  const page = await open('tour=write-best-fit', { waitFor: '#exercise' });
  assert.match(await page.textContent('#tour'), /Write best fit yourself/);

  // The editor opens on a skeleton, not the answer, and offers no starting points (they hold it).
  await page.click('#exercise-write');
  await page.waitForSelector('#script-editor');
  const skeleton = await page.inputValue('#script-source');
  assert.match(skeleton, /fn schedule\(ctx\)/);
  assert.doesNotMatch(skeleton, /best_fit\(/, 'the skeleton is not the answer');
  assert.equal(await page.locator('#script-start').count(), 0);
  assert.match(await page.textContent('#script-editor-title'), /Exercise: write BF-J/);
  assert.deepEqual(await axeViolations(page), [], 'the exercise with its editor open');
  // From the text area, the first Escape lets Tab leave it (as in code editors); the second closes.
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await page.waitForSelector('#script-editor', { state: 'detached' });

  // The skeleton as it stands starts nothing: the reference's first start is shown alone.
  assert.equal(await check(page), 'differs');
  assert.match(await page.textContent('#exercise-result [data-side="yours"]'), /no more decisions/);

  // First fit: the first start that differs, with both decisions and their reasons. On five
  // servers, job 3 (a 0.17) fits the empty server 1 and the fuller server 2: first fit takes
  // server 1, best fit server 2.
  await write(page, FIRST_FIT);
  assert.equal(await page.locator('#exercise-result').count(), 0, 'a new script clears the old verdict');
  assert.equal(await check(page), 'differs');
  assert.match(await page.textContent('#exercise-result h3'), /First difference: decision 4/);
  const yours = await page.textContent('#exercise-result [data-side="yours"]');
  const reference = await page.textContent('#exercise-result [data-side="reference"]');
  assert.match(yours, /slot 63.*job 3 \(size 0\.17.*→ server 1.*the script's choice/s, yours);
  assert.match(reference, /Reference: BF-J.*slot 63.*job 3 \(size 0\.17.*→ server 2.*best fit: the fullest server it fits/s, reference);
  assert.equal(await page.locator('#exercise-result [data-side="reference"] tr[data-fact="fullest server it fits"]').count(), 1);
  assert.match(await page.textContent('#exercise-status'), /Not yet: decision 4 differs from BF-J's, at slot 63/);
  assert.equal(await page.getAttribute('#exercise-status', 'role'), 'status', 'the verdict is announced');
  assert.deepEqual(await axeViolations(page), [], 'the exercise with its first difference');

  // The CLI grades the same script with the same words and the same two decisions.
  const cli = cliVerdict('write-best-fit', FIRST_FIT);
  assert.equal(cli.outcome, 'differs');
  assert.equal(await page.textContent('#exercise-status'), cli.verdict, 'the page announces what the CLI prints');
  assert.equal(cli.difference.decision, 4);
  for (const [side, decision] of [['yours', cli.difference.yours], ['reference', cli.difference.reference]]) {
    const shown = `#exercise-result [data-side="${side}"]`;
    assert.equal(await page.textContent(`${shown} .what`), decision.what, side);
    assert.equal(await page.textContent(`${shown} .when`), `slot ${decision.time}`, side);
    assert.equal(await page.textContent(`${shown} .why`), `why: ${decision.why}`, side);
  }

  // Best fit, written another way than the starting point: every start is BF-J's.
  await write(page, BEST_FIT);
  assert.equal(await check(page), 'pass');
  assert.match(await page.textContent('#exercise-status'), /^Pass: all \d+ decisions are the same as BF-J's/);
  assert.deepEqual(await axeViolations(page), [], 'the exercise passed');

  // The shipped best fit passes too, with the count the CLI prints.
  await write(page, SHIPPED_BEST_FIT);
  assert.equal(await check(page), 'pass');
  const shipped = cliVerdict('write-best-fit', SHIPPED_BEST_FIT);
  assert.equal(shipped.outcome, 'pass');
  assert.equal(await page.textContent('#exercise-status'), shipped.verdict);
  assert.match(shipped.verdict, /^Pass: all 1710 decisions are the same as BF-J's/);
});

// Join the shortest queue, the lowest-numbered server on ties, written by hand.
const JSQ_LOWEST = `fn schedule(ctx) {
    let best = ();
    let shortest = 0;
    for s in ctx.eligible() {
        if best == () || ctx.queue(s) < shortest {
            best = s;
            shortest = ctx.queue(s);
        }
    }
    ctx.route(best);
}
`;

labTest('issue 34: the GH-RA exercise checks routings: the skeleton parts from JSQ at a routing, JSQ written by hand passes, and the finished tour says it asked no predictions', async (open) => {
  const page = await open('tour=write-jsq', { waitFor: '#exercise' });
  assert.equal(await page.getAttribute('#exercise', 'data-exercise'), 'write-jsq');
  // The skeleton sends every job to the first eligible server: JSQ sends one elsewhere.
  assert.equal(await check(page), 'differs');
  assert.match(await page.textContent('#exercise-result [data-side="yours"] .what'), /joins server \d+'s queue/);
  assert.match(await page.textContent('#exercise-result [data-side="reference"] .what'), /joins server \d+'s queue/);
  assert.match(await page.textContent('#exercise-status'), /^Not yet: decision \d+ differs from Alg\. 2 \(JSQ\) \(ties=lowest\)'s, at t = /);

  await write(page, JSQ_LOWEST);
  assert.equal(await check(page), 'pass');
  assert.match(await page.textContent('#exercise-status'), /^Pass: all \d+ decisions are the same as Alg\. 2 \(JSQ\) \(ties=lowest\)'s/);
  assert.deepEqual(await axeViolations(page), [], 'the exercise passed');

  // The link carries the applied script: a fresh page opens the exercise with it, and its
  // Check passes without writing anything.
  const shared = await copyLink(page);
  assert.match(shared, /[?&]tour=write-jsq&step=1&attempt=[\w-]+/);
  const fresh = await open(shared, { waitFor: '#exercise' });
  assert.equal(await check(fresh), 'pass');
  await fresh.click('#exercise-write');
  await fresh.waitForSelector('#script-editor');
  assert.equal(await fresh.inputValue('#script-source'), JSQ_LOWEST, 'the editor opens on the shared script');
  await fresh.click('#script-cancel');
  await page.bringToFront();

  // The tour's one step is its last: finishing it says no prediction was asked, not "0 of 0".
  await page.click('#tour-leave');
  await page.waitForSelector('#tour-summary');
  assert.match(await page.textContent('#tour-summary [role="status"]'), /^This tour asked no predictions: its exercise was judged by Check/);
});
