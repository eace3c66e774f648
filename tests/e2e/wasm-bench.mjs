// Times the engines in WebAssembly and natively, case by case, and prints their ratio (README,
// "wasm and native"). Not a test: speed lives in measurements, and a loaded machine gives
// other numbers.
//
//   trunk build --release && cargo build --release -p packlab-cli && npm run bench:wasm [JOBS]
//
// For each case it runs `packlab bench --preset … --policy … --jobs JOBS --json` natively, then
// the same measurement in headless Chromium through the page's own wasm (`bench_case`, the
// core's `bench::time_run` with performance.now() as the clock), in a Web Worker as the page's
// sweeps run, and prints ns per job of each and wasm / native. Same scenario, same seed, same
// jobs: the timed runs are identical event for event, which the script checks.

import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { launchChromium, serveDist } from './browser.mjs';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const DIST = resolve(process.env.DIST ?? join(ROOT, 'dist'));
const PACKLAB = resolve(process.env.PACKLAB ?? join(ROOT, 'target/release/packlab'));
const jobs = Number(process.argv[2] ?? 1_000_000);

/** One case per model, and the speed rows of docs/speed.md: [preset, keys as `--set`, policy]. */
const CASES = [
  ['pgrr-a1', { servers: '1000' }, 'bf-js'],
  ['pgrr-a1', { servers: '1000' }, 'vqs'],
  ['pgrr-a3', { servers: '1000' }, 'bf-js'],
  ['pgrr-a1', { servers: '100' }, 'bf-js'],
  ['msfq-d1', {}, 'msf'],
  ['msfq-d1', {}, 'msfq'],
  ['ghra-b4', { load: '0.9' }, 'alg2-jsq'],
  ['ghra-b4', { load: '0.9' }, 'mw-local'],
  ['pgas-c3', { servers: '1000' }, 'dra'],
  ['pgas-c3', { servers: '1000' }, 'po-d'],
];

// The horizon is lifted far past the timed jobs on both sides (the bench stops at the jobs),
// and the warm-up set explicitly: a link scales the preset's warm-up with the horizon, a bare
// `--set horizon` keeps it, and the two runs must be the same run.
const HORIZON = { horizon: '1000000000', warmup: '1000' };

function native(preset, keys, policy) {
  const sets = Object.entries({ ...keys, ...HORIZON }).flatMap(([k, v]) => ['--set', `${k}=${v}`]);
  const out = execFileSync(PACKLAB, ['bench', '--preset', preset, ...sets, '--policy', policy, '--jobs', String(jobs), '--json'], {
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').pop());
}

const glue = readdirSync(DIST).find((f) => /^packlab-web-.*\.js$/.test(f));
const wasm = readdirSync(DIST).find((f) => /^packlab-web-.*_bg\.wasm$/.test(f));
if (!glue || !wasm) throw new Error(`no packlab-web build in ${DIST}: run trunk build --release`);

const { server, origin } = await serveDist(DIST);
const { context, close } = await launchChromium('packlab-wasm-bench-');
try {
  const page = await context.newPage();
  // A page of the origin that does not start the app: the worker needs the origin, not the page.
  await page.goto(`${origin}/sweep-worker.js`);
  const wasmBench = (request) =>
    page.evaluate(
      async ({ request, js, wasm }) => {
        const source = `
          self.onmessage = async ({ data }) => {
            try {
              const module = await import(data.js);
              await module.default({ module_or_path: data.wasm });
              self.postMessage({ timing: module.bench_case(data.request) });
            } catch (err) {
              self.postMessage({ error: String(err?.message ?? err) });
            }
          };`;
        const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })), { type: 'module' });
        const answer = await new Promise((resolve) => {
          worker.onmessage = ({ data }) => resolve(data);
          worker.postMessage({ request, js: new URL(js, location.origin).href, wasm: new URL(wasm, location.origin).href });
        });
        worker.terminate();
        if (answer.error) throw new Error(answer.error);
        return JSON.parse(answer.timing);
      },
      { request: JSON.stringify(request), js: `/${glue}`, wasm: `/${wasm}` },
    );

  console.log(`${jobs.toLocaleString('en')} jobs per timed run; ns per job, wasm in Chromium (a Web Worker) and native\n`);
  console.log('case'.padEnd(44), 'native'.padStart(8), 'wasm'.padStart(8), 'wasm/native'.padStart(12));
  for (const [preset, keys, policy] of CASES) {
    const n = native(preset, keys, policy);
    const query = new URLSearchParams({ preset, ...keys, ...HORIZON }).toString();
    const w = await wasmBench({ link: `?${query}`, policy, jobs });
    if (w.jobs !== n.jobs || w.events !== n.events || w.final_queue !== n.final_queue) {
      throw new Error(`${preset} ${policy}: the wasm run differs from the native one: ${JSON.stringify({ w, n })}`);
    }
    const name = `${preset} ${Object.entries(keys).map(([k, v]) => `${k}=${v}`).join(' ')} ${policy}${n.growing ? ' ↑' : ''}`;
    console.log(name.padEnd(44), n.ns_per_job.toFixed(0).padStart(8), w.ns_per_job.toFixed(0).padStart(8), (w.ns_per_job / n.ns_per_job).toFixed(2).padStart(12));
  }
} finally {
  await close();
  server.close();
}
