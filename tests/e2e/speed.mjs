// Measures the page's pace at speed "as fast as possible" against the native engine, at one
// sitting (docs/speed.md; docs/web.md). Not a test: speed lives in measurements, and a
// loaded machine gives lower numbers.
//
//   trunk build --release && cargo build --release -p packlab-cli && npm run speed -- [SECONDS] [QUERY ...]
//
//   npm run speed -- --lanes [SECONDS] [ROUNDS]
//   npm run speed -- --lanes --blank-canvases [SECONDS] [ROUNDS]
//
// (DIST=dir for another build, PACKLAB=path for another CLI.) Serves dist/ on 127.0.0.1, opens each
// query in headless Chromium (1280×720, software rendering, the flags of lab.test.mjs), presses
// Play, scrolls the lanes into view (below the fold at that size), lets it settle for 2 s, then
// reads the page once a second for SECONDS (default 10): its meter (frames/s, slots/s) and the jobs
// arrived in the first lane (every lane sees the same arrivals). Then it times the same stretch of
// the same run natively, `packlab bench --warmup FROM --jobs N` with FROM the slot the window began
// at and N the jobs that arrived in it, and prints both per lane and their ratio. A race of several
// lanes simulates every job once per lane, so the native figure for it is the rate of running them
// all one after the other, 1 / (1/r₁ + 1/r₂ + …), per lane: the work the page does.
//
// `--lanes` measures races of one, two and four lanes (LANE_ROWS) instead, each race first in
// one worker (the page told `navigator.hardwareConcurrency` is 1) and then on the machine's
// cores (its lanes split over one worker per core), ROUNDS times in turn (default 3), and prints
// each race's jobs/s per lane against a race of one lane and against the same race in one worker.
//
// `--blank-canvases` makes every canvas of the page ignore its drawing calls: the page
// computes its frames as always and shows blank lanes and charts. What that gains is the most any
// cheaper drawing could give back (docs/speed.md, "What the target rests on").

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { launchChromium, serveDist } from './browser.mjs';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const DIST = resolve(process.env.DIST ?? join(ROOT, 'dist'));
const CLI = resolve(process.env.PACKLAB ?? join(ROOT, 'target/release/packlab'));
/** The rows of the table in docs/speed.md: its PG-RR rows, then one case of each other model. */
// Horizons are raised so that no race ends within the measurement.
const LINKS = [
  'preset=pgrr-a1&servers=1000&policy=bf-js&horizon=100000000',
  'preset=pgrr-a1&servers=1000&policy=vqs,bf-js&horizon=100000000',
  'preset=pgrr-a3&servers=1000&policy=bf-js&horizon=100000000',
  'preset=pgrr-a1&servers=100&policy=vqs,bf-js&horizon=100000000',
  'preset=msfq-d1&load=7&policy=msfq:l=31&horizon=100000000',
  'preset=ghra-b4&load=0.9&policy=alg2-jsq&horizon=1000000',
  'preset=pgas-c3&servers=1000&horizon=100000&policy=dra',
];
/** The races of `--lanes`: one, two and four lanes of 1 000 servers (docs/speed.md). */
const LANE_ROWS = [
  'preset=pgrr-a1&servers=1000&policy=bf-js&horizon=100000000',
  'preset=pgrr-a1&servers=1000&policy=bf-js,bf-j&horizon=100000000',
  'preset=pgrr-a1&servers=1000&policy=vqs,bf-js&horizon=100000000',
  'preset=pgrr-a1&servers=1000&policy=bf-js,bf-j,bf-s,vqs-bf&horizon=100000000',
];

const blankCanvases = process.argv.includes('--blank-canvases');
const args = process.argv.slice(2).filter((arg) => arg !== '--blank-canvases');
const lanesMode = args[0] === '--lanes';
if (lanesMode) args.shift();
const seconds = /^\d+$/.test(args[0] ?? '') ? Number(args.shift()) : 10;
const rounds = lanesMode && /^\d+$/.test(args[0] ?? '') ? Number(args.shift()) : 3;
const links = args.length ? args : LINKS;
const unknown = args.find((arg) => arg.startsWith('-')) ?? (lanesMode ? args[0] : undefined);
if (unknown !== undefined) {
  console.error(
    `${JSON.stringify(unknown)}: not understood here. Usage: npm run speed -- [--blank-canvases] [SECONDS] [QUERY ...], ` +
      'or npm run speed -- --lanes [--blank-canvases] [SECONDS] [ROUNDS] (SECONDS and ROUNDS whole numbers)',
  );
  process.exit(2);
}
if (!existsSync(CLI)) {
  console.error(`no ${CLI}: run \`cargo build --release -p packlab-cli\` first (or set PACKLAB)`);
  process.exit(2);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const range = (xs) => `${Math.round(Math.min(...xs)).toLocaleString('en')}-${Math.round(Math.max(...xs)).toLocaleString('en')}`;
const millions = (x) => `${(x / 1e6).toFixed(2)} M`;
/** The slot and the horizon the progress label shows ("slot 12 345 of 2 000 000"). */
const progress = (page) =>
  page.$eval('.progress .slots', (e) => e.textContent.split(' of ').map((part) => Number(part.replace(/\D/g, ''))));
const arrivals = (page) => page.$eval('#stats tr[data-policy]', (row) => Number(row.dataset.arrivals));

/**
 * `packlab bench` on the link's scenario over the stretch the page was measured on (from
 * `from`, untimed before, for `jobs` arrivals): jobs/s per lane when every lane runs in turn.
 * The same stretch matters for a policy whose queue grows (VQS on pgrr-a1): its cost per job
 * grows with the queue, so another stretch would be another workload.
 */
function native(query, from, jobs) {
  const params = new URLSearchParams(query);
  const cli = ['bench', '--warmup', String(from), '--jobs', String(jobs), '--json'];
  for (const [key, value] of params) {
    if (key === 'preset') cli.push('--preset', value);
    else if (key === 'policy') cli.push('--policy', value);
    else if (key !== 'speed') cli.push('--set', `${key}=${value}`);
  }
  const runs = execFileSync(CLI, cli, { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  const perLane = 1 / runs.reduce((sum, run) => sum + 1 / run.jobs_per_s, 0);
  const growing = runs.filter((run) => run.growing).map((run) => run.policy);
  return { perLane, runs, growing };
}

const { server, origin } = await serveDist(DIST);
const { context, close } = await launchChromium('packlab-speed-');

/**
 * Plays `query` at full speed: after 2 s, reads the page once a second for SECONDS. With
 * `cores`, the page is told `navigator.hardwareConcurrency` is that (1: the race in one worker).
 */
async function measure(query, cores) {
  const page = await context.newPage();
  if (blankCanvases) {
    await page.addInitScript(() => {
      const prototype = CanvasRenderingContext2D.prototype;
      const drawing = ['putImageData', 'drawImage', 'fillRect', 'strokeRect', 'clearRect', 'fillText', 'strokeText', 'fill', 'stroke'];
      for (const name of drawing) prototype[name] = () => {};
    });
  }
  if (cores) {
    await page.addInitScript((n) => Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => n }), cores);
  }
  await page.goto(`${origin}/?${query}&speed=max`);
  await page.waitForSelector('#stats tr[data-policy]');
  await page.click('#play');
  // The lanes in view, as for a person watching them (at 1280×720 they start below the fold).
  await page.locator('.lanes').evaluate((lanes) => lanes.scrollIntoView({ block: 'start' }));
  await page.waitForTimeout(2000);
  const fps = [];
  const rate = [];
  const simulating = [];
  let workers = 0;
  const slot0 = (await progress(page))[0];
  const jobs0 = await arrivals(page);
  const t0 = Date.now();
  for (let i = 0; i < seconds; i++) {
    await page.waitForTimeout(1000);
    const text = await page.textContent('#rate');
    const m = /([\d.]+) frames\/s · ([\d\s,]+) (?:slots|time units)\/s/.exec(text);
    if (m) {
      fps.push(Number(m[1]));
      rate.push(Number(m[2].replace(/\D/g, '')));
      simulating.push(Number(await page.getAttribute('#rate', 'data-simulating-ms')));
      workers = Number(await page.getAttribute('#rate', 'data-workers'));
    }
  }
  const [slot1, horizon] = await progress(page);
  const jobs1 = await arrivals(page);
  const span = (Date.now() - t0) / 1000;
  await page.close();
  return {
    fps,
    rate,
    simulating,
    workers,
    slot0,
    slot1,
    horizon,
    jobs: jobs1 - jobs0,
    overall: (slot1 - slot0) / span,
    pageJobs: (jobs1 - jobs0) / span,
  };
}

try {
  if (lanesMode) {
    const rows = [];
    for (const query of LANE_ROWS) {
      const lanes = new URLSearchParams(query).get('policy').split(',').length;
      const one = [];
      const many = [];
      for (let r = 0; r < rounds; r++) {
        one.push(await measure(query, 1));
        if (lanes > 1) many.push(await measure(query, null));
      }
      const show = (runs) =>
        `frames/s ${runs.map((m) => median(m.fps)).join(', ')}; jobs/s per lane ${runs.map((m) => millions(m.pageJobs)).join(', ')}`;
      console.log(`${query}&speed=max (${lanes} lanes)\n  one worker: ${show(one)}`);
      const row = { query, lanes, one, many };
      if (many.length) {
        const ratios = many.map((m, i) => m.pageJobs / one[i].pageJobs);
        row.ratios = ratios;
        console.log(`  ${many[0].workers} workers: ${show(many)}\n  against one worker, round by round: ${ratios.map((x) => x.toFixed(2)).join(', ')}`);
      }
      rows.push(row);
    }
    const fmt = (runs, f) => runs.map(f).join(', ');
    // Per lane against a race of one lane (the first row), round by round.
    const single = rows.find((r) => r.lanes === 1)?.one ?? [];
    const perOne = (runs) => fmt(runs, (m, i) => (single[i] ? (m.pageJobs / single[i].pageJobs).toFixed(2) : '-'));
    console.log('\n| race (`policy=`) | workers | frames/s | page: jobs/s per lane | against one lane | against one worker |');
    console.log('|---|---|---|---|---|---|');
    for (const r of rows) {
      const policy = new URLSearchParams(r.query).get('policy');
      console.log(
        `| ${r.lanes} (\`${policy}\`) | 1 | ${fmt(r.one, (m) => median(m.fps))} | ${fmt(r.one, (m) => millions(m.pageJobs))} | ${perOne(r.one)} | 1 |`,
      );
      if (r.many.length) {
        console.log(
          `| ${r.lanes} (\`${policy}\`) | ${r.many[0].workers} | ${fmt(r.many, (m) => median(m.fps))} | ${fmt(r.many, (m) => millions(m.pageJobs))} | ${perOne(r.many)} | ${fmt(r.ratios, (x) => x.toFixed(2))} |`,
        );
      }
    }
  } else {
    const rows = [];
    for (const query of links) {
      const m = await measure(query, process.env.CORES ? Number(process.env.CORES) : null);
      // At the horizon the meter stops (its figures cover the part that ran), the progress does not.
      const finished = m.slot1 >= m.horizon ? ' (reached the horizon: raise it)' : '';
      if (!m.fps.length) {
        console.log(`${query}&speed=max\n  reached the horizon before the first reading`);
        continue;
      }
      const bench = native(query, m.slot0, m.jobs);
      const ratio = m.pageJobs / bench.perLane;
      const lanes = bench.runs.map((run) => `${run.policy} ${millions(run.jobs_per_s)}${run.growing ? ' ↑' : ''}`).join(', ');
      console.log(
        `${query}&speed=max\n  frames/s ${median(m.fps)} (${range(m.fps)})   slots/s ${Math.round(median(m.rate)).toLocaleString('en')} ` +
          `(${range(m.rate)})   progress ${Math.round(m.overall).toLocaleString('en')} slots/s${finished}   ` +
          `simulating ${median(m.simulating)} ms/frame   workers ${m.workers}\n` +
          `  jobs/s per lane: page ${millions(m.pageJobs)}, native ${millions(bench.perLane)} (${lanes}); page/native ${ratio.toFixed(2)}`,
      );
      rows.push({ query, fps: median(m.fps), pageJobs: m.pageJobs, native: bench.perLane, ratio });
    }
    console.log('\n| link (`&speed=max`) | frames/s | page jobs/s per lane | native jobs/s per lane | page / native |');
    console.log('|---|---|---|---|---|');
    for (const r of rows) {
      console.log(`| \`?${r.query}\` | ${r.fps} | ${millions(r.pageJobs)} | ${millions(r.native)} | ${r.ratio.toFixed(2)} |`);
    }
  }
} finally {
  await close();
  await new Promise((ok) => server.close(ok));
}
