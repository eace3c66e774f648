// The theory on the page's stability map carries its theorems' hypotheses: on pgrr-a2, whose
// service is fixed at 100 slots, the notes under the chart name the failed hypothesis for each
// policy exactly as `packlab stability` prints it for the same link, the table's Proven column
// says "not proven here" with the reason on hover, and no proven load is given. The notes are
// the scenario's theory, there before the first round is in.
//
//   trunk build --release && PACKLAB_CLI=target/release/packlab node --test tests/e2e/stability-theory.test.mjs

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ROOT, axeViolations, cliCommand, labTest } from './harness.mjs';

const MAP = 'preset=pgrr-a2&policy=bf-js,vqs&seed=1&horizon=20000';

/** What `packlab stability --link LINK` says is not proven, without running anything. */
function cliNotes(query) {
  const dir = mkdtempSync(join(tmpdir(), 'packlab-theory-'));
  const [command, prefix] = cliCommand();
  const all = [...prefix, 'stability', '--link', query, '--max-runs', '1', '--out', dir];
  try {
    const stdout = execFileSync(command, all, { cwd: ROOT, encoding: 'utf8', timeout: 30 * 60_000 });
    return stdout
      .split('\n')
      .filter((line) => line.startsWith('not proven here: '))
      .map((line) => line.slice('not proven here: '.length));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

labTest('the map names the hypothesis a theorem needs and the scenario breaks', async (open) => {
  const page = await open(`${MAP}&map=2`);
  await page.waitForSelector('#stability-map[open]');
  await page.waitForSelector('#map-not-proven li');
  const notes = await page.$$eval('#map-not-proven li', (lis) =>
    lis.map((li) => li.textContent.replace(/^Not proven here: /, '')),
  );
  assert.equal(notes.length, 2, notes.join('\n'));
  for (const note of notes) {
    assert.match(note, /assumes geometric service .*this scenario's is fixed \(100 slots\)$/, note);
  }
  assert.deepEqual(notes, cliNotes(`?${MAP}`), 'the page says what the CLI says');
  // The table: no proven load, the reason on hover.
  const proven = await page.$$eval('#map-table tr[data-policy] td.not-proven', (tds) =>
    tds.map((td) => ({ text: td.textContent, title: td.title })),
  );
  assert.equal(proven.length, 2);
  for (const { text, title } of proven) {
    assert.match(text, /not proven here$/);
    assert.match(title, /^Theorem \d assumes geometric service/);
  }
  assert.deepEqual(await axeViolations(page, undefined, '#stability-map'), [], 'the stability map');
});
