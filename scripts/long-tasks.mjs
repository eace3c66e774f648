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
//   node scripts/long-tasks.mjs --profile=8            # and each task's 8 costliest functions
//
// With --thread-time the CPU is not slowed: each task's length is the main thread's own CPU
// time in it (the trace's thread time, which leaves out the time other processes had the
// cores) times --slowdown, as Lighthouse's simulation scales what it observed. On a loaded
// machine that separates two builds where wall-clock lengths do not. --over=MS lists the
// tasks over MS (default 50; the blocking time still counts what each runs over 50 ms).
//
// With --profile=N a sampled CPU profile (V8's, every 100 µs) runs alongside the trace, and
// each long task lists the N functions that took most of its time, by self time and with what
// they called (`self/total` ms; a wasm function is named only if the build kept its names).
// Marks are listed with their time from the task's start (`name @ms`).
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
    profile: { type: 'string', default: '0' },
    'thread-time': { type: 'boolean', default: false },
    over: { type: 'string', default: '50' },
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
    if (!values['thread-time']) await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(values.slowdown) });
    const events = [];
    cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
    const done = new Promise((ok) => cdp.once('Tracing.tracingComplete', ok));
    const profiling = Number(values.profile) > 0;
    if (profiling) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
      await cdp.send('Profiler.start');
    }
    await cdp.send('Tracing.start', { traceConfig: { includedCategories: CATEGORIES }, transferMode: 'ReportEvents' });
    await page.goto(`${origin}${BASE}${values.query ? `?${values.query}` : ''}`);
    // Until the lab has drawn its last stage (main[data-drawing] goes), then the settle time.
    await page.waitForFunction(() => document.querySelector('main.lab, #gallery-title') && !document.querySelector('main[data-drawing]') && !document.documentElement.dataset.first, null, { timeout: 180_000 });
    await page.waitForTimeout(Number(values.settle));
    const profile = profiling ? (await cdp.send('Profiler.stop')).profile : null;
    await cdp.send('Tracing.end');
    await done;
    return longTasks(events, profile);
  } finally {
    await close();
  }
}

/** The renderer's main thread's tasks over 50 ms, each with its marks and what took its time. */
function longTasks(events, profile) {
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
  // A task's length: its wall-clock time slowed over CDP, or its thread time scaled.
  const length = (t) => (values['thread-time'] ? (t.tdur ?? t.dur) * Number(values.slowdown) : t.dur);
  return tasks.filter((t) => length(t) > Number(values.over) * 1000).map((task) => {
    const end = task.ts + task.dur;
    const inside = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts <= end);
    // The page's own marks (performance.mark) name the step; the rest is what the time went to.
    // (Marks are recorded on the renderer's own thread id or none: matched by time alone.)
    const marks = marksAll.filter((e) => e.ts >= task.ts && e.ts <= end).map((e) => `${e.name} @${Math.round((e.ts - task.ts) / 1000)}`);
    const spent = new Map();
    for (const e of inside) {
      if (e.ph !== 'X' || !e.dur || e.dur < 2_000 || /RunTask$/.test(e.name)) continue;
      let name = e.name;
      if (name === 'FunctionCall') name = `FunctionCall ${e.args?.data?.functionName || '(anonymous)'}`;
      if (name === 'EvaluateScript') name = `EvaluateScript ${String(e.args?.data?.url ?? '').split('/').pop()}`;
      spent.set(name, (spent.get(name) ?? 0) + e.dur);
    }
    const top = [...spent].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([name, us]) => `${name} ${Math.round(us / 1000)}`);
    const costliest = profile ? profiled(profile, task.ts, end) : [];
    return { at: Math.round((task.ts - nav) / 1000), ms: Math.round(length(task) / 1000), marks, top, costliest };
  });
}

/**
 * The functions of a sampled CPU profile that took most of the time between `from` and `to`
 * (trace microseconds; V8's profile counts on the same clock): self and total ms, costliest
 * self time first.
 */
function profiled(profile, from, to) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (n) => {
    const { functionName, url, lineNumber } = n.callFrame;
    const file = String(url ?? '').split('/').pop();
    return `${functionName || '(anonymous)'}${file ? ` ${file}:${lineNumber + 1}` : ''}`;
  };
  const self = new Map();
  const total = new Map();
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    if (t < from || t > to) continue;
    const next = profile.timeDeltas[i + 1] ?? 0;
    const node = byId.get(profile.samples[i]);
    if (!node || ['(idle)', '(program)', '(root)'].includes(node.callFrame.functionName)) continue;
    self.set(label(node), (self.get(label(node)) ?? 0) + next);
    const seen = new Set();
    for (let id = node.id; id !== undefined; id = parent.get(id)) {
      const name = label(byId.get(id));
      if (seen.has(name) || name === '(root)') continue;
      seen.add(name);
      total.set(name, (total.get(name) ?? 0) + next);
    }
  }
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(values.profile))
    .map(([name, us]) => `${name} ${(us / 1000).toFixed(1)}/${((total.get(name) ?? us) / 1000).toFixed(1)}`);
}

const { server, origin } = await serveDist(resolve(values.dist), BASE, { gzip: true });
const all = [];
try {
  for (let run = 0; run < runs; run++) {
    const load = loadavg()[0].toFixed(1);
    const tasks = await once(origin);
    // Lighthouse's total blocking time counts what each task runs over 50 ms.
    const blocking = tasks.reduce((sum, t) => sum + Math.max(0, t.ms - 50), 0);
    const long = tasks.filter((t) => t.ms > 50);
    all.push({ run, load, tasks: long, blocking });
    console.log(`run ${run + 1}: load ${load}, ${long.length} tasks over 50 ms, blocking ${blocking} ms (over 50 ms each, from the start)`);
    for (const t of tasks) {
      console.log(`  at ${t.at} ms: ${t.ms} ms  ${t.marks.join(', ') || '-'}  | ${t.top.join(' · ')}`);
      for (const f of t.costliest) console.log(`      ${f}`);
    }
  }
} finally {
  server.close();
}
const sorted = all.map((r) => r.blocking).sort((a, b) => a - b);
const counts = all.map((r) => r.tasks.length).sort((a, b) => a - b);
console.log(`median over ${runs}: ${counts[Math.floor(runs / 2)]} long tasks, blocking ${sorted[Math.floor(runs / 2)]} ms`);
if (values.json) await writeFile(values.json, JSON.stringify(all, null, 1));
