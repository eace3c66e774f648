// A pace that holds (issue 53): a race split over workers plays its whole run in the chosen
// time whenever the machine could play it in less than half that time, and the playback bar
// says when the machine cannot keep the pace.
//
//   trunk build --release && node --test --test-concurrency=1 tests/e2e/pace.test.mjs

import assert from 'node:assert/strict';

import { labTest } from './harness.mjs';

/** The race of the issue: pgrr-a1's two lanes, on two workers. */
const RACE = 'preset=pgrr-a1&policy=vqs,bf-js&seed=1';

/** Plays the race in `page` from its start to its horizon: the wall time it took, in s. */
async function playToTheEnd(page) {
  await page.waitForSelector('main.lab[data-race-thread="worker"]', { timeout: 10_000 });
  const started = Date.now();
  await page.click('#play');
  await page.waitForFunction(() => document.querySelector('#play')?.textContent === 'Run again', null, {
    timeout: 120_000,
    polling: 20,
  });
  return (Date.now() - started) / 1000;
}

/** Attempts at the pace: a pacing that loses time misses every one, a machine busy with something
 * else for a few seconds misses one (a shared machine: CI's, or a developer's building). */
const ATTEMPTS = 3;

labTest('issue 53: a race split over workers plays its whole run in 10 s, within 10 %, when the machine plays it in under 5 s', async (open) => {
  const missed = [];
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const fastest = await open(`${RACE}&speed=max`, { cores: 2 });
    const max = await playToTheEnd(fastest);
    await fastest.close();
    const paced = await open(`${RACE}&speed=10s`, { cores: 2 });
    // The race is split: its meter says so while it plays.
    await paced.waitForSelector('main.lab[data-race-thread="worker"]', { timeout: 10_000 });
    const took = playToTheEnd(paced);
    await paced.waitForSelector('#rate[data-workers="2"]', { timeout: 10_000 });
    const seconds = await took;
    await paced.close();
    const said = `as fast as possible ${max.toFixed(2)} s; whole run in 10 s: ${seconds.toFixed(2)} s`;
    console.log(`attempt ${attempt}: ${said}`);
    if (max >= 5) {
      console.log('the machine needs 5 s or more at full speed: the pace is not required to hold');
      continue;
    }
    if (Math.abs(seconds - 10) <= 1) return;
    missed.push(said);
  }
  assert.equal(missed.length, 0, `the pace missed at every attempt the machine could keep it: ${missed.join('; ')}`);
});

labTest('issue 53: the playback bar says when the machine cannot keep the pace', async (open) => {
  // Ten million slots a second of a thousand servers: no machine plays that.
  const page = await open('preset=pgrr-a1&servers=1000&policy=vqs,bf-js&horizon=100000000&speed=10000000', { cores: 2 });
  await page.waitForSelector('main.lab[data-race-thread="worker"]', { timeout: 10_000 });
  assert.equal(await page.locator('#pace-lag').count(), 0, 'nothing said before it plays');
  await page.click('#play');
  await page.waitForSelector('#pace-lag', { timeout: 10_000 });
  assert.match(await page.textContent('#pace-lag'), /^This machine cannot keep this pace: [\d\s]+ of 10\s000\s000 slots\/s$/);
  await page.click('#play');
  await page.waitForFunction(() => !document.querySelector('#pace-lag'), null, { timeout: 10_000 });
});
