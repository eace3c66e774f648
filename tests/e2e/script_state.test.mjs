// Issue 56: a script that keeps state (`ctx.state`) goes back and forth on the timeline exactly,
// for each stateful starting point (Static Quickswap on MSFQ, VQS on PG-RR).
// The Static Quickswap starting point races beside the built-in policy it reproduces; the race
// plays to its end, jumps back to a moment between two checkpoints (so the replay starts from a
// checkpoint holding the script's state mid-run, which must be a copy, not the state the lane
// went on to change), and plays forward again. Each reading equals the built-in lane's and the
// first pass's.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';

import { ROOT, RUN_TIMEOUT_MS, labTest, playLabel } from './harness.mjs';

/** A starting point as the core ships it, in a link as the core writes it
 * (crates/core/src/script/source.rs). */
function scriptOf(file) {
  const source = readFileSync(join(ROOT, file), 'utf8');
  return `script:src=${deflateRawSync(Buffer.from(source), { level: 9 }).toString('base64url')}`;
}

const HORIZON = 20_000;
/** Each stateful starting point beside the built-in it reproduces. */
const CASES = [
  {
    name: 'Static Quickswap',
    builtin: 'static-qs',
    query: `preset=msfq-d5&policy=static-qs,${scriptOf('crates/core/src/models/msfq/scripts/static_qs.rhai')}&horizon=${HORIZON}&warmup=1000&seed=3`,
  },
  {
    // VQS keeps each server's configuration between renewals and its virtual queues' counts.
    name: 'VQS',
    builtin: 'vqs',
    query: `preset=pgrr-a3&policy=vqs,${scriptOf('crates/core/src/models/pgrr/scripts/vqs.rhai')}&horizon=${HORIZON}&warmup=1000&seed=3`,
  },
];

/** Every stats row's readings by lane, the lane's name left out: [built-in, script]. */
async function readings(page, name) {
  const lanes = await page.$$eval('#stats tr[data-policy]', (trs) =>
    trs.map((tr) => {
      const { policy, ...rest } = tr.dataset;
      return [policy, rest];
    }),
  );
  assert.equal(lanes.length, 2, 'two lanes');
  const builtin = lanes.find(([p]) => p === name);
  const script = lanes.find(([p]) => p.startsWith('script:'));
  assert.ok(builtin && script, `the built-in and the script: ${lanes.map(([p]) => p.slice(0, 20))}`);
  return [builtin[1], script[1]];
}

/** The readings at the timeline's moment, after asserting the two lanes agree there. */
async function agreeingAs(page, what, name) {
  const [builtin, script] = await readings(page, name);
  assert.ok(Number(builtin.time) > 0, `${what}: the lanes ran`);
  assert.deepEqual(script, builtin, `${what}: the stateful script reads as the built-in ${name}`);
  return builtin;
}

async function atMoment(page, t) {
  await page.waitForSelector(`#timeline[data-now="${t}"]`, { timeout: RUN_TIMEOUT_MS });
  await page.waitForFunction(
    (t) => [...document.querySelectorAll('#stats tr[data-policy]')].every((tr) => Number(tr.dataset.time) === t),
    t,
    { timeout: RUN_TIMEOUT_MS },
  );
}

for (const { name, builtin, query: QUERY } of CASES) {
  labTest(`issue 56: a stateful script lane (${name}) goes back and forth on the timeline exactly, beside its built-in`, async (open) => {
    const agreeing = (page, what) => agreeingAs(page, what, builtin);
    const page = await open(`${QUERY}&speed=max`);
    await page.click('#play');
    await page.waitForSelector('#play:has-text("Run again")', { timeout: RUN_TIMEOUT_MS });
    const T = Number(await page.getAttribute('#timeline', 'data-furthest'));
    assert.equal(T, HORIZON, 'the race ran to its horizon');
    const end = await agreeing(page, 'the end');
    const checkpoints = Number(await page.getAttribute('#timeline', 'data-checkpoints'));
    // More than the one at time 0: a jump back starts from a checkpoint taken mid-run.
    assert.ok(checkpoints >= 3, `checkpoints mid-run: ${checkpoints}`);

    // Back to a moment the replay reaches from a checkpoint after time 0.
    const middle = Math.round(HORIZON * 0.7);
    await page.locator('#scrubber').fill(String(middle));
    await atMoment(page, middle);
    const back = await agreeing(page, `back at ${middle}`);
    assert.notDeepEqual(back, end, 'the middle differs from the end');

    // The first pass's reading at that moment: a fresh page that runs straight there.
    const fresh = await open(`${QUERY}&speed=max&t=${middle}`);
    await atMoment(fresh, middle);
    await fresh.waitForSelector('#play[aria-pressed="false"]');
    assert.deepEqual(await agreeing(fresh, `opened at ${middle}`), back, `t=${middle}: as a run that never went back`);

    // Step, step, back (a step is one event): the first step's moment and readings again.
    const now = async () => Number(await page.getAttribute('#timeline', 'data-now'));
    await page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((t) => Number(document.querySelector('#timeline').dataset.now) > t, middle);
    const stepped = await now();
    const first = await agreeing(page, `one step on, at ${stepped}`);
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((t) => Number(document.querySelector('#timeline').dataset.now) > t, stepped);
    await agreeing(page, 'two steps on');
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction((t) => Number(document.querySelector('#timeline').dataset.now) === t, stepped);
    assert.deepEqual(await agreeing(page, `stepped back to ${stepped}`), first, 'a step back');

    // Play forward again to the end: the first pass's end, bit for bit.
    assert.match(await playLabel(page), /^(Play|Resume)$/, 'the race waits at the moment it was taken to');
    await page.click('#play');
    await page.waitForSelector('#play:has-text("Run again")', { timeout: RUN_TIMEOUT_MS });
    await atMoment(page, HORIZON);
    assert.deepEqual(await agreeing(page, 'the end again'), end, 'played forward again to the end');
  });
}
