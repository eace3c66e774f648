// Where the cores go while a race plays at full speed: every thread of the browser's processes,
// its share of a core over a few seconds (from /proc, so without a trace's own cost), the
// machine's idle time, and the race's pace. Issue 57's question was why two workers on two
// cores read 1.5 times one worker and not 2: this says how much of the cores each worker got
// and what took the rest (the page's main thread, the compositors, the raster pool).
// Linux only. Build first (`trunk build --release`), then:
//
//   node scripts/cpu-shares.mjs                                     # vqs,bf-js of 1 000 servers
//   node scripts/cpu-shares.mjs 'preset=pgrr-a1&servers=1000&policy=bf-js,bf-j,bf-s,vqs-bf'
//   node scripts/cpu-shares.mjs --cores=1 …                         # the race in one worker
//   node scripts/cpu-shares.mjs --no-lane-drawing …                 # the lanes' canvases left blank
//   node scripts/cpu-shares.mjs --seconds=10 --dist=../other/dist …
//
// With --no-lane-drawing the lanes' canvases take no drawing calls (the page computes them, the
// canvas ignores them): what drawing the lanes costs the main thread and the compositor is the
// difference to a run without it. The page is 1280×720 with the lanes scrolled into view, as
// `tests/e2e/speed.mjs` measures it; the pace moves with the machine, so compare runs taken in
// turn, several each.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { launchChromium, serveDist } from '../tests/e2e/browser.mjs';

const options = Object.fromEntries(
  process.argv
    .slice(2)
    .filter((a) => a.startsWith('--'))
    .map((a) => {
      const [key, value] = a.slice(2).split('=');
      return [key, value ?? true];
    }),
);
const known = ['seconds', 'cores', 'no-lane-drawing', 'dist'];
for (const key of Object.keys(options).filter((k) => !known.includes(k))) {
  console.error(`--${key}: not an option here (--seconds=N, --cores=N, --no-lane-drawing, --dist=DIR)`);
  process.exit(2);
}
const query = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 'preset=pgrr-a1&servers=1000&policy=vqs,bf-js&horizon=100000000';
/** A whole number from 1 to 64 given as `--name=N`, or `fallback`. */
function count(name, fallback) {
  const text = options[name];
  if (text === undefined) return fallback;
  const value = text === true ? NaN : Number(text);
  if (!Number.isInteger(value) || value < 1 || value > 64) {
    console.error(`--${name}: a whole number from 1 to 64, not ${text === true ? 'nothing' : JSON.stringify(text)}`);
    process.exit(2);
  }
  return value;
}
const seconds = count('seconds', 6);
const cores = count('cores', null);
if (options.dist === true) {
  console.error('--dist: the directory of a build (--dist=DIR), not nothing');
  process.exit(2);
}
const dist = resolve(options.dist ?? 'dist');
if (!existsSync(join(dist, 'index.html'))) {
  console.error(`--dist: no build in ${dist} (no index.html): run \`trunk build --release\` first`);
  process.exit(2);
}

/** CPU ticks (user + system) of every thread of every Chromium process, by `type/thread/tid`. */
function threadTicks() {
  const ticks = new Map();
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    let command;
    let tids;
    try {
      command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!/chrom/i.test(command)) continue;
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue; // gone meanwhile
    }
    const type = command.match(/--type=([a-z-]+)/)?.[1] ?? 'browser';
    for (const tid of tids) {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        ticks.set(`${type}/${name}/${tid}`, Number(fields[11]) + Number(fields[12]));
      } catch {
        // gone meanwhile
      }
    }
  }
  return ticks;
}

/** The machine's CPU time so far: [user, nice, system, idle, iowait, irq, softirq, steal, …]. */
const machine = () => readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);

const { server, origin } = await serveDist(dist);
const { context, close } = await launchChromium('packlab-cpu-');
try {
  await measure();
} finally {
  await close();
  server.close();
}

/** Opens the race, plays it, and prints where the cores went. */
async function measure() {
  const page = await context.newPage();
  await page.setViewportSize({ width: 1280, height: 720 });
  if (cores) {
    await page.addInitScript((n) => Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => n }), cores);
  }
  if (options['no-lane-drawing']) {
    await page.addInitScript(() => {
      const context = CanvasRenderingContext2D.prototype;
      for (const call of ['putImageData', 'fillText', 'fillRect', 'strokeRect', 'stroke', 'fill', 'clearRect']) {
        const draw = context[call];
        context[call] = function (...args) {
          return this.canvas.classList.contains('cluster') ? undefined : draw.apply(this, args);
        };
      }
    });
  }
  await page.goto(`${origin}/?${query}&speed=max`);
  await page.waitForSelector('#stats tr[data-policy]');
  // A link the page refuses in part would measure another race: say what it said instead.
  const notices = (await page.textContent('#notices').catch(() => ''))?.trim();
  if (notices) {
    console.error(`the page refused part of the link: ${notices}`);
    process.exitCode = 2;
    return;
  }
  await page.click('#play');
  await page.locator('.lanes').evaluate((lanes) => lanes.scrollIntoView({ block: 'start' }));
  await page.waitForTimeout(2500);
  const slot = () => page.$eval('#stats tr[data-policy]', (row) => Number(row.dataset.time));
  const [slot0, machine0, ticks0, t0] = [await slot(), machine(), threadTicks(), Date.now()];
  await page.waitForTimeout(seconds * 1000);
  const [machine1, ticks1, t1, slot1] = [machine(), threadTicks(), Date.now(), await slot()];
  const span = (t1 - t0) / 1000;
  const hz = 100; // USER_HZ: /proc counts in hundredths of a second
  // Each worker on its own line (they are what the race runs on); other threads by name.
  const shares = new Map();
  for (const [key, ticks] of ticks1) {
    const used = ticks - (ticks0.get(key) ?? 0);
    if (used <= 0) continue;
    const name = key.includes('DedicatedWorker') ? key : key.replace(/\/\d+$/, '');
    shares.set(name, (shares.get(name) ?? 0) + (used / hz / span) * 100);
  }
  const workers = [...shares].filter(([name]) => name.includes('DedicatedWorker')).sort((a, b) => b[1] - a[1]);
  const others = [...shares].filter(([name]) => !name.includes('DedicatedWorker')).sort((a, b) => b[1] - a[1]);
  console.log(`${query}&speed=max${cores ? `, ${cores} worker${cores === 1 ? '' : 's'} asked` : ''}${options['no-lane-drawing'] ? ', lanes not drawn' : ''}`);
  console.log(`  over ${span.toFixed(1)} s: ${Math.round((slot1 - slot0) / span).toLocaleString('en')} slots/s; ${(await page.textContent('#rate')).trim()}`);
  workers.forEach(([, share], k) => console.log(`  ${share.toFixed(1).padStart(5)} %  worker ${k + 1}`));
  for (const [name, share] of others.filter(([, share]) => share >= 0.5)) console.log(`  ${share.toFixed(1).padStart(5)} %  ${name}`);
  const spent = machine1.map((v, i) => v - machine0[i]);
  const all = spent.reduce((a, b) => a + b, 0);
  const cpus = Number(readFileSync('/proc/cpuinfo', 'utf8').match(/^processor/gm)?.length ?? 1);
  const pct = (i) => ((spent[i] / all) * 100 * cpus).toFixed(1);
  console.log(`  machine (100 % a core, ${cpus} cores): user ${pct(0)}, system ${pct(2)}, idle ${pct(3)}, steal ${pct(7)}`);
}
