// A real log dropped on a preset whose lanes include a policy that cannot replay it (issue 53):
// the refusal is one sentence in words, unticking the lane replays the log without loading it
// again, on the log's machine at its own pace, with the CLI's numbers; the log's fingerprint
// typed in the Trace field gives the same scenario (RES-90, RES-91).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ROOT, assertClose, cliCommand, cliReports, labTest, rows, runToEnd } from './harness.mjs';

labTest('a log MSFQ cannot replay: one sentence, untick it, the log plays on its machine as in the CLI', async (open) => {
  // A log of mixed needs on 16 processors, in a real format: not one-or-all, so MSFQ refuses it.
  const file = join(await mkdtemp(join(tmpdir(), 'packlab-refusal-')), 'mixed.swf');
  const [command, prefix] = cliCommand();
  execFileSync(command, [...prefix, 'trace', 'synth', '--format', 'swf', '--tasks', '400', '--procs', '16', '--out', file], {
    cwd: ROOT,
  });

  const page = await open('preset=msfq-d2&speed=max');
  assert.equal(await page.inputValue('#field-cores'), '32');
  await page.setInputFiles('#trace-file', file);
  await page.waitForSelector('#error-trace', { timeout: 20_000 });
  const refusal = (await page.textContent('#error-trace')).trim();
  assert.match(refusal, /MSFQ needs one-or-all classes, needs 1 and k = 16 only; this log has \d+ different needs: leave MSFQ out/);
  assert.ok(!refusal.includes('@'), `in words, not the class table: ${refusal}`);
  assert.equal(await page.locator('[id="error-trace"]').count(), 1, 'one element has the id');

  // Unticking MSFQ replays the waiting log: k = its processors, 1/β = 1, no stale message.
  await page.uncheck('input[name="policy"][value="msfq"]');
  await page.waitForFunction(() => document.querySelector('#field-cores')?.value === '16', null, { timeout: 10_000 });
  assert.equal(await page.inputValue('#field-load'), '1');
  assert.equal(await page.locator('#error-trace').count(), 0);
  const query = new URL(await page.inputValue('#link')).search.slice(1);
  const params = new URLSearchParams(query);
  assert.match(params.get('trace'), /^[0-9a-f]{16}$/);
  const horizon = Number(params.get('horizon'));

  const cli = cliReports(query, ['--trace', file]);
  await runToEnd(page, horizon);
  const pageRows = await rows(page);
  assert.deepEqual(Object.keys(pageRows).sort(), Object.keys(cli).sort());
  for (const [policy, row] of Object.entries(pageRows)) {
    assert.equal(cli[policy].servers, 16, `${policy}: the log's machine in the CLI`);
    assertClose(row.meanResponse, cli[policy].mean_response, `${policy} mean response`);
  }

  // The preset again, MSFQ unticked, and the fingerprint typed: the same scenario and link.
  await page.selectOption('#preset', 'msfq-d2');
  await page.waitForFunction(() => document.querySelector('#field-cores')?.value === '32', null, { timeout: 10_000 });
  await page.uncheck('input[name="policy"][value="msfq"]');
  const typed = page.locator('#field-trace');
  await typed.fill(params.get('trace'));
  await typed.press('Enter');
  await typed.blur();
  await page.waitForFunction(() => document.querySelector('#field-cores')?.value === '16', null, { timeout: 10_000 });
  const again = new URLSearchParams(new URL(await page.inputValue('#link')).search.slice(1));
  for (const key of ['trace', 'cores', 'load', 'horizon', 'warmup', 'policy']) {
    assert.equal(again.get(key), params.get(key), `${key} by fingerprint as by file`);
  }
});
