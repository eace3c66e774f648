// How each queue recovers from each change (issue 54, item 4): the page's recovery table, under
// the stats table, says per change and lane what `packlab run --json` reports (band, peak, drain
// time), in slotted and continuous time; a race without changes shows no such table.
//
//   trunk build --release && node --test --test-concurrency=1 tests/e2e/recovery.test.mjs

import assert from 'node:assert/strict';
import { join } from 'node:path';

import { RESULTS, axeViolations, cliReports, labTest, runToEnd } from './harness.mjs';

/** The table's rows as the page shows them: change, lane label, peak and drain as written. */
async function recoveryRows(page) {
  return page.$$eval('#recovery tbody tr', (trs) =>
    trs.map((tr) => ({
      change: Number(tr.dataset.change),
      label: tr.dataset.policyLabel,
      peak: tr.dataset.peak,
      drain: tr.dataset.drain,
    })),
  );
}

/** Whether a number the table wrote to six significant digits is `value`. */
function sameNumber(written, value, what) {
  const x = Number(written);
  assert.ok(Number.isFinite(x), `${what}: "${written}" is a number`);
  assert.ok(Math.abs(x - value) <= 1e-5 * Math.max(1, Math.abs(value)), `${what}: page ${written}, CLI ${value}`);
}

async function checkAgainstCli(open, query, horizon) {
  const cli = cliReports(query);
  const page = await open(`${query}&speed=max`);
  await runToEnd(page, horizon);
  const shown = await recoveryRows(page);
  const policies = Object.keys(cli);
  const changes = cli[policies[0]].recovery.map((r) => r.at);
  assert.ok(changes.length >= 2, JSON.stringify(cli[policies[0]].recovery));
  assert.equal(shown.length, changes.length * policies.length, JSON.stringify(shown));
  shown.forEach((row, i) => {
    const r = cli[policies[i % policies.length]].recovery[Math.floor(i / policies.length)];
    assert.equal(row.change, r.at);
    sameNumber(row.peak, r.peak, `${row.label} peak after ${r.at}`);
    if (r.drain === null) {
      assert.match(row.drain, /not drained/, `${row.label} after ${r.at}`);
    } else {
      sameNumber(row.drain, r.drain, `${row.label} drain after ${r.at}`);
    }
  });
  // The band the drain is measured against is stated in the table's notes.
  assert.match(await page.textContent('#recovery'), /band before: the lowest and highest queue/);
  assert.deepEqual(await axeViolations(page, undefined, '#recovery'), []);
  return page;
}

labTest('issue 54: the page states each change\'s recovery per lane as the CLI does (PG-RR, slotted)', async (open) => {
  const horizon = 40_000;
  const query = `preset=pgrr-a1&policy=vqs,bf-js&seed=1&load=0.5&horizon=${horizon}&change=${encodeURIComponent('5000:load=1.3;12000:load=0.5')}`;
  const page = await checkAgainstCli(open, query, horizon);
  await page.locator('#recovery').screenshot({ path: join(RESULTS, 'recovery-table.png') });
});

labTest('issue 54: the page states each change\'s recovery per lane as the CLI does (MSFQ, n(t))', async (open) => {
  const horizon = 20_000;
  const query = `preset=msfq-d1&policy=msf,msfq&seed=1&load=6&horizon=${horizon}&change=${encodeURIComponent('5000:load=9;10000:load=6')}`;
  await checkAgainstCli(open, query, horizon);
});

labTest('issue 54: a race without changes shows no recovery table', async (open) => {
  const page = await open('preset=pgrr-a1&policy=bf-js&seed=1&horizon=2000&speed=max');
  await runToEnd(page, 2000);
  assert.equal(await page.$('#recovery'), null);
});
