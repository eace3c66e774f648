// The page's sweep and stability map of a dropped SWF log (issue 53 item 2): the sweep workers
// are handed the log's files as the race worker is, the sweep runs the grid of 1/β the core
// chooses around the log's own offered load (RES-92), one run per point, and the map's first
// round is placed by the log's capacity scaling; both give the numbers `packlab sweep --trace`
// and `packlab stability --trace` give for the command the page prints.
//
//   trunk build --release && PACKLAB_CLI=target/release/packlab node --test tests/e2e/trace-sweep.test.mjs

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { MAP_TIMEOUT_MS, ROOT, assertClose, cliCommand, labTest } from './harness.mjs';

/** `packlab SUBCOMMAND ARGS --out DIR`: the rows of its CSV ending in `suffix`, and what it
 * printed. */
function cliCsv(subcommand, args, suffix) {
  const dir = mkdtempSync(join(tmpdir(), 'packlab-trace-sweep-'));
  const [command, prefix] = cliCommand();
  const all = [...prefix, subcommand, ...args, '--out', dir];
  try {
    const stdout = execFileSync(command, all, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 30 * 60_000 });
    const file = readdirSync(dir).find((f) => f.endsWith(suffix));
    assert.ok(file, `${subcommand} wrote no *${suffix} in ${readdirSync(dir)}`);
    const [header, ...lines] = readFileSync(join(dir, file), 'utf8').trim().split('\n');
    const keys = header.split(',');
    // No field holds a comma (policy names and labels such as "First-Fit" do not).
    return { rows: lines.map((line) => Object.fromEntries(line.split(',').map((v, i) => [keys[i], v]))), stdout };
  } catch (err) {
    throw new Error(`${command} ${all.join(' ')} failed: ${err.message}\n${err.stderr ?? ''}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** An interval's end as both print it: a number, or nothing where one run has no interval. */
function sameEnd(page, cli, what) {
  if (Number.isFinite(page) && cli !== '' && Number.isFinite(Number(cli))) assertClose(page, Number(cli), what);
  else assert.ok(!Number.isFinite(page) && !Number.isFinite(Number(cli || 'NaN')), `${what}: page ${page}, CLI '${cli}'`);
}

labTest('a dropped SWF log: the page sweeps and maps it as packlab sweep and stability --trace do', async (open) => {
  // A small log of mixed needs on 8 processors, in a real format (First-Fit and MSF replay it).
  const dir = mkdtempSync(join(tmpdir(), 'packlab-trace-sweep-'));
  const file = join(dir, 'mixed.swf');
  const [command, prefix] = cliCommand();
  execFileSync(command, [...prefix, 'trace', 'synth', '--format', 'swf', '--tasks', '400', '--procs', '8', '--out', file], {
    cwd: ROOT,
  });

  const page = await open('preset=msfq-d2&policy=msf,first-fit&speed=max');
  await page.setInputFiles('#trace-file', file);
  await page.waitForFunction(() => document.querySelector('#field-cores')?.value === '8', null, { timeout: 20_000 });
  assert.match(new URL(await page.inputValue('#link')).searchParams.get('trace'), /^[0-9a-f]{16}$/);

  // The sweep: no refusal; the core's grid of 1/β around the log's load, said; one run a point.
  await page.click('#sweep > summary');
  assert.equal(await page.locator('#sweep-trace').count(), 0, 'no refusal');
  assert.match(await page.textContent('#sweep-grid-note'), /the trace's sweep: 1\/β from [\d.]+ to [\d.]+ \(9 points\)/);
  assert.equal(await page.inputValue('#sweep-reps'), '1');
  const grid = await page.inputValue('#sweep-loads');
  assert.equal(grid.split(',').length, 9, grid);
  await page.click('#sweep-run');
  // Done, or stopped by a worker that could not run the log (then at once, with the reason).
  await page.waitForSelector('#sweep[data-done="true"], #sweep .error, #sweep-error', { timeout: MAP_TIMEOUT_MS });
  const stopped = await page.locator('#sweep .error, #sweep-error').allTextContents();
  assert.deepEqual(stopped, [], 'the sweep stopped');
  const points = await page.$$eval('#sweep-table tr[data-policy]', (trs) =>
    trs.map((tr) => ({
      policy: tr.dataset.policy,
      load: Number(tr.dataset.valueX),
      value: Number(tr.dataset.value),
      lo: Number(tr.dataset.ciLo),
      hi: Number(tr.dataset.ciHi),
    })),
  );
  assert.equal(points.length, 2 * 9, 'two policies at the nine scalings');
  // The command the page prints names the log's file; the CLI chooses its own grid and
  // replications (none given), which must be the page's.
  const sweepCommand = await page.textContent('#sweep-command');
  assert.match(sweepCommand, / --reps 1 --trace mixed\.swf$/);
  const link = sweepCommand.match(/--link '([^']+)'/)[1];
  const { rows: cli } = cliCsv('sweep', ['--link', link, '--trace', file], '-summary.csv');
  assert.equal(cli.length, points.length, 'the CLI sweeps the same grid');
  for (const row of cli) {
    const at = `${row.policy} at 1/β = ${row.load}`;
    const point = points.find((p) => p.policy === row.policy && p.load === Number(row.load));
    assert.ok(point, `no point in the page for ${at}`);
    assertClose(point.value, Number(row.value), `${at}: mean response`);
    sameEnd(point.lo, row.ci_lo, `${at}: interval`);
    sameEnd(point.hi, row.ci_hi, `${at}: interval`);
  }
  // E[T] does not fall as the log is pressed harder (the RES-92 grid ends just past capacity).
  for (const policy of ['msf', 'first-fit']) {
    const mine = points.filter((p) => p.policy === policy).sort((a, b) => a.load - b.load);
    assert.ok(mine.at(-1).value >= mine[0].value, `${policy}: ${JSON.stringify(mine)}`);
  }

  // The map: three replications per load. They replay the log identically: the CLI makes two and
  // copies the third (run_replay), the page makes all three, and the numbers are the same.
  await page.click('#stability-map > summary');
  await page.fill('#map-reps', '3');
  await page.press('#map-reps', 'Tab');
  await page.click('#map-run');
  await page.waitForSelector('#map-body[data-done="true"], #map-stopped.field-error, #map-error', {
    timeout: MAP_TIMEOUT_MS,
  });
  const failed = await page.locator('#map-stopped.field-error, #map-error').allTextContents();
  assert.deepEqual(failed, [], 'the map failed');
  const mine = await page.$$eval('#map-table tr[data-policy]', (trs) =>
    trs.map((tr) => ({ label: tr.dataset.label, lo: tr.dataset.lo, hi: tr.dataset.hi, status: tr.dataset.status })),
  );
  const mapCommand = await page.textContent('#map-command');
  const printed = mapCommand.match(/^packlab stability --link '([^']+)' --reps 3 --trace mixed\.swf$/);
  assert.ok(printed, mapCommand);
  const { rows, stdout } = cliCsv('stability', ['--link', printed[1], '--reps', '3', '--trace', file], '-stability.csv');
  assert.equal(mine.length, rows.length, 'one interval per policy');
  rows.forEach((row, i) => {
    assert.equal(mine[i].label, row.policy);
    // Both print the same f64 in Rust's shortest round-trip form.
    assert.equal(mine[i].lo, row.lo, `${row.policy}: lo`);
    assert.equal(mine[i].hi, row.hi, `${row.policy}: hi`);
    assert.equal(mine[i].status, row.status, `${row.policy}: how the search ended`);
  });
  assert.ok(mine.some((m) => m.lo !== '' || m.hi !== ''), `the map found something: ${JSON.stringify(mine)}`);
  rmSync(dir, { recursive: true, force: true });
});
