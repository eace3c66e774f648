// The main thread's long tasks (over 50 ms) while a page opens in a phone's Chromium with the
// CPU slowed 4x (Lighthouse's mobile factor), from a Chromium performance trace, each with what
// ran in it: the wasm's instantiation, the app's marks (`packlab …`: the first render's stages,
// the race made, the charts' first draws), layout and paint. It says which tasks make the total
// blocking time; Lighthouse's own number (`npm run lighthouse`) is the one the issue quotes.
// Build first (`trunk build --release`), then:
//
//   node scripts/long-tasks.mjs                       # ?preset=pgrr-a1, three runs
//   node scripts/long-tasks.mjs --query='' --runs=5   # the gallery
//   node scripts/long-tasks.mjs --json=out.json       # every run's tasks, for comparison
//   node scripts/long-tasks.mjs --dist=../other/dist  # another build
//
// Durations move with the machine's load (it is the CPU time of a shared machine, slowed):
// compare builds within the same half hour, and note the load with the numbers.

import { writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { launchChromium, serveDist } from '../tests/e2e/browser.mjs';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const BASE = '/packlab/';
const { values } = parseArgs({
  options: {
    query: { type: 'string', default: 'preset=pgrr-a1' },
    runs: { type: 'string', default: '3' },
    slowdown: { type: 'string', default: '4' },
    settle: { type: 'string', default: '3000' },
    json: { type: 'string' },
    dist: { type: 'string', default: join(ROOT, 'dist') },
  },
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1 || runs > 20) throw new Error(`--runs must be 1 to 20, not ${values.runs}`);

// What the trace must hold: the tasks, what ran in them, and the page's own marks.
const CATEGORIES = [
  'toplevel',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'blink.user_timing',
  'v8',
  'v8.execute',
  'v8.wasm',
  'loading',
];

/** One page load under a trace: the main thread's tasks over 50 ms, with what they held. */
async function once(origin) {
  const { context, close } = await launchChromium('packlab-trace-', {
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(values.slowdown) });
    const events = [];
    cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
    const done = new Promise((ok) => cdp.once('Tracing.tracingComplete', ok));
    await cdp.send('Tracing.start', { traceConfig: { includedCategories: CATEGORIES }, transferMode: 'ReportEvents' });
    await page.goto(`${origin}${BASE}${values.query ? `?${values.query}` : ''}`);
    // Until the lab has drawn its last stage (main[data-drawing] goes), then the settle time.
    await page.waitForFunction(() => document.querySelector('main.lab, #gallery-title') && !document.querySelector('main[data-drawing]') && !document.documentElement.dataset.first, null, { timeout: 180_000 });
    await page.waitForTimeout(Number(values.settle));
    await cdp.send('Tracing.end');
    await done;
    return longTasks(events);
  } finally {
    await close();
  }
}

/** The renderer's main thread's tasks over 50 ms, each with its marks and what took its time. */
function longTasks(events) {
  const names = new Map();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args.name);
  // The page's main thread: the renderer thread that saw the navigation's first commit.
  const main = events.find((e) => e.name === 'TracingStartedInBrowser')?.args?.data?.frames?.find((f) => !f.parent);
  const mainKey = [...names].find(([key, name]) => name === 'CrRendererMain' && (!main || key.startsWith(`${main.processId}:`)))?.[0];
  const onMain = events.filter((e) => `${e.pid}:${e.tid}` === mainKey);
  const nav = onMain.find((e) => e.name === 'navigationStart' || e.name === 'markAsMainFrame')?.ts ?? Math.min(...onMain.filter((e) => e.ts).map((e) => e.ts));
  // The outermost task events only (Chromium nests a RunTask in a ThreadControllerImpl::RunTask).
  const tasks = [];
  const all = onMain.filter((e) => e.ph === 'X' && (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask')).sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  for (const t of all) {
    const outer = tasks.at(-1);
    if (outer && t.ts < outer.ts + outer.dur) continue;
    tasks.push(t);
  }
  const marksAll = events.filter((e) => e.cat?.includes('blink.user_timing') && e.name.startsWith('packlab'));
  return tasks.filter((t) => t.dur > 50_000).map((task) => {
    const end = task.ts + task.dur;
    const inside = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts <= end);
    // The page's own marks (performance.mark) name the step; the rest is what the time went to.
    // (Marks are recorded on the renderer's own thread id or none: matched by time alone.)
    const marks = marksAll.filter((e) => e.ts >= task.ts && e.ts <= end).map((e) => e.name);
    const spent = new Map();
    for (const e of inside) {
      if (e.ph !== 'X' || !e.dur || e.dur < 2_000 || /RunTask$/.test(e.name)) continue;
      let name = e.name;
      if (name === 'FunctionCall') name = `FunctionCall ${e.args?.data?.functionName || '(anonymous)'}`;
      if (name === 'EvaluateScript') name = `EvaluateScript ${String(e.args?.data?.url ?? '').split('/').pop()}`;
      spent.set(name, (spent.get(name) ?? 0) + e.dur);
    }
    const top = [...spent].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([name, us]) => `${name} ${Math.round(us / 1000)}`);
    return { at: Math.round((task.ts - nav) / 1000), ms: Math.round(task.dur / 1000), marks, top };
  });
}

const { server, origin } = await serveDist(resolve(values.dist), BASE, { gzip: true });
const all = [];
try {
  for (let run = 0; run < runs; run++) {
    const load = loadavg()[0].toFixed(1);
    const tasks = await once(origin);
    // Lighthouse's total blocking time counts what each task runs over 50 ms.
    const blocking = tasks.reduce((sum, t) => sum + Math.max(0, t.ms - 50), 0);
    all.push({ run, load, tasks, blocking });
    console.log(`run ${run + 1}: load ${load}, ${tasks.length} tasks over 50 ms, blocking ${blocking} ms (over 50 ms each, from the start)`);
    for (const t of tasks) console.log(`  at ${t.at} ms: ${t.ms} ms  ${t.marks.join(', ') || '-'}  | ${t.top.join(' · ')}`);
  }
} finally {
  server.close();
}
const sorted = all.map((r) => r.blocking).sort((a, b) => a - b);
const counts = all.map((r) => r.tasks.length).sort((a, b) => a - b);
console.log(`median over ${runs}: ${counts[Math.floor(runs / 2)]} long tasks, blocking ${sorted[Math.floor(runs / 2)]} ms`);
if (values.json) await writeFile(values.json, JSON.stringify(all, null, 1));
