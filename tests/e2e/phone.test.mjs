// Issue 55, the lab on a phone: at 390 × 844, 360 × 780 and 320 × 568 with touch (a phone's Chromium:
// `isMobile`, `hasTouch`), on its side (844 × 390, 667 × 375) and on a tablet (768 × 1024,
// 1024 × 768), the gallery, a lab link, a tour step and the stability map scroll
// only up and down, show Play and the preset picker within the first screen, give every
// control at least 44 × 44 CSS px and no text under 12 px, and axe finds nothing. Screenshots
// of a phone and a tablet, upright and on their side, go to test-results/phone-*.png.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';

import { launchChromium, serveDist } from './browser.mjs';
import { BASE, DIST, RESULTS, RACE, axeViolations } from './harness.mjs';

let server;
let origin;

before(async () => {
  ({ server, origin } = await serveDist(DIST, BASE));
});

after(async () => {
  await new Promise((ok) => (server ? server.close(ok) : ok()));
});

/** A phone's browser at `viewport`, one tab at `query`, with what went wrong in it. */
async function phone(viewport, query, waitFor) {
  const { context, close } = await launchChromium('packlab-phone-', { viewport, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
  const page = context.pages()[0] ?? (await context.newPage());
  const problems = [];
  page.on('console', (msg) => msg.type() === 'error' && problems.push(msg.text()));
  page.on('pageerror', (err) => problems.push(err.message));
  page.on('response', (res) => res.status() >= 400 && problems.push(`HTTP ${res.status()} ${res.url()}`));
  await page.goto(`${origin}${BASE}${query ? `?${query}` : ''}`);
  await page.waitForSelector(waitFor, { timeout: 120_000 });
  // The lab draws the parts below its first screen in the tasks after it (data-drawing).
  await page.waitForFunction(() => !document.querySelector('main[data-drawing]'));
  return { page, problems, close };
}

/** What on the page breaks the phone rules: sideways scroll, and visible controls under 44 px. */
async function checks(page) {
  return page.evaluate(() => {
    const found = [];
    const doc = document.documentElement;
    // What a phone lays out only near the screen (content-visibility: auto, www/phone.css) is
    // checked as it will be drawn: every part laid out for the checks (a constructed sheet:
    // the page's CSP refuses a <style> element).
    const all = new CSSStyleSheet();
    all.replaceSync('* { content-visibility: visible !important; }');
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, all];
    if (doc.scrollWidth > doc.clientWidth) found.push(`the page is ${doc.scrollWidth} px wide for ${doc.clientWidth}`);
    // No text below 12 px: every element that holds text of its own, as drawn.
    for (const el of document.querySelectorAll('body *')) {
      const own = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
      if (!own || !el.checkVisibility({ visibilityProperty: true })) continue;
      const size = parseFloat(getComputedStyle(el).fontSize);
      if (size < 11.95) found.push(`${el.tagName.toLowerCase()}.${String(el.className).split(' ')[0]} "${el.textContent.trim().slice(0, 24)}" is set in ${size} px`);
    }
    const controls = document.querySelectorAll('button, select, input:not([type=hidden]), summary, a[href], textarea');
    for (const c of controls) {
      const box = c.getBoundingClientRect();
      // Out of sight: in a closed fold, or a skip link above the page until focused.
      if (box.width === 0 || box.height === 0 || !c.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true })) continue;
      if (box.bottom + window.scrollY <= 0) continue;
      // An inline link in a sentence is exempt (WCAG 2.5.5), as are checkboxes whose label
      // around them is the target.
      if (c.tagName === 'A' && getComputedStyle(c).display === 'inline') continue;
      let w = box.width;
      let h = box.height;
      const label = c.closest('label');
      if (label && (c.type === 'checkbox' || c.type === 'radio')) ({ width: w, height: h } = label.getBoundingClientRect());
      if (w < 43.5 || h < 43.5) {
        found.push(`${c.tagName.toLowerCase()}${c.id ? `#${c.id}` : ''}${c.className ? `.${String(c.className).split(' ')[0]}` : ''} "${(c.textContent || c.value || '').trim().slice(0, 24)}" is ${Math.round(w)}×${Math.round(h)}`);
      }
    }
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== all);
    return found;
  });
}

/** Where an element's top is, in px from the top of the page. */
const top = (page, selector) => page.$eval(selector, (e) => e.getBoundingClientRect().top + window.scrollY);

const VIEWS = [
  { name: 'gallery', query: '', waitFor: '#gallery-title' },
  { name: 'lab', query: 'preset=pgrr-a1', waitFor: '#stats tr[data-policy]', lab: true },
  { name: 'tour', query: 'tour=vqs-vs-best-fit&step=2', waitFor: '#tour', lab: true },
  { name: 'map', query: 'preset=pgrr-a1&policy=vqs&seed=3&horizon=20000&map=2&map_axis=servers:1,2', waitFor: '#stability-map', lab: true, map: true },
];

// Phones upright, then a phone on its side and a tablet both ways (`layout`: what each is drawn
// as, www/phone.css): the run beside the intro on a phone or a tablet on its side, two lanes
// side by side on a tablet upright.
for (const viewport of [
  { width: 390, height: 844 },
  { width: 360, height: 780 },
  { width: 320, height: 568 },
  { width: 844, height: 390, layout: 'beside' },
  { width: 667, height: 375, layout: 'beside' },
  { width: 768, height: 1024, layout: 'two lanes' },
  { width: 1024, height: 768, layout: 'beside' },
]) {
  for (const view of VIEWS) {
    test(`issue 55: the ${view.name} at ${viewport.width}×${viewport.height} with touch`, async () => {
      const { page, problems, close } = await phone(viewport, view.query, view.waitFor);
      try {
        if (view.name === 'lab' && viewport.width < 400) {
          // A chart below a phone's first screen is drawn once it is on screen, not as the lab
          // opens (hooks/use_canvas_size.rs): its canvas keeps the default 300 × 150 until then.
          const drawn = () => page.$eval('#chart-queue', (c) => c.width !== 300 || c.height !== 150);
          assert.equal(await drawn(), false, 'the waiting-jobs chart is not drawn off screen');
          await page.locator('#chart-queue').scrollIntoViewIfNeeded();
          await page.waitForFunction(() => document.querySelector('#chart-queue').width !== 300, null, { timeout: 20_000 });
          await page.evaluate(() => window.scrollTo(0, 0));
        }
        if (view.map) {
          // The map is a fold of its own: open, as the link asks.
          if (!(await page.$eval('#stability-map', (d) => d.open))) await page.locator('#stability-map > summary').tap();
          await page.waitForFunction(() => document.querySelector('#stability-map').open, null, { timeout: 5_000 });
          // The checks read the finished map, its table whole. While its runs still took both
          // cores, the scenario sheet's summary did not open within 5 s of its tap in two of
          // fourteen map rounds of full runs of this file (2026-11-30; never in isolation).
          await page.waitForSelector('#map-body[data-done="true"]', { timeout: 120_000 });
        }
        assert.deepEqual(await checks(page), [], 'no sideways scroll, every control at least 44 px');
        if (view.lab) {
          assert.ok((await top(page, '#preset')) < viewport.height, 'the preset picker is on the first screen');
          // A tour's step comes first, its own Play ("Play this step") under its question:
          // the step starts on the first screen (on a 320 × 568 phone its text runs on below).
          const first = view.name === 'tour' ? '#tour' : '#play';
          assert.ok((await top(page, first)) < viewport.height, `${first} is on the first screen`);
          if (viewport.layout === 'beside') {
            // The run at the right of the intro, from the top: Play beside the preset's words.
            const [intro, run] = await Promise.all(['.intro', '.run'].map((sel) => page.$eval(sel, (e) => e.getBoundingClientRect().toJSON())));
            assert.ok(run.left >= intro.right, `the run (x ${run.left}) is right of the intro (ends at x ${intro.right})`);
            assert.ok(Math.abs(run.top - intro.top) < 2, `the run starts level with the intro (${run.top}, ${intro.top})`);
          }
          if (viewport.layout === 'two lanes' && view.name === 'lab') {
            const lanes = await page.$$eval('.lane', (ls) => ls.map((l) => l.getBoundingClientRect().toJSON()));
            assert.ok(lanes.length >= 2 && Math.abs(lanes[0].top - lanes[1].top) < 2 && lanes[1].left > lanes[0].right, 'two lanes side by side');
          }
          // The scenario's controls open on a tap where they are folded (a phone, upright or on
          // its side); a tablet on its side shows them open.
          const folded = await page.$eval('.scenario-sheet > summary', (s) => s.checkVisibility());
          if (folded) await page.locator('.scenario-sheet > summary').tap();
          // The click a tap makes comes after the touch events tap() waits for (CI, once).
          await page.waitForFunction(() => document.querySelector('.scenario-sheet').open, null, { timeout: 5_000 });
          assert.equal(folded, viewport.width <= 832 || viewport.height <= 512, 'folded on a phone, open on a tablet on its side');
          assert.deepEqual(await checks(page), [], 'the scenario sheet too');
        }
        assert.deepEqual(await axeViolations(page), [], 'axe');
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: join(RESULTS, `phone-${view.name}-${viewport.width}x${viewport.height}.png`) });
        assert.deepEqual(problems, []);
      } finally {
        await close();
      }
    });
  }
}

test('issue 55: screenshots of a phone and a tablet, upright and on their side', async () => {
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 844, height: 390 },
    { width: 820, height: 1180 },
    { width: 1180, height: 820 },
    { width: 768, height: 1024 },
    { width: 1024, height: 768 },
  ]) {
    const { page, problems, close } = await phone(viewport, RACE, '#stats tr[data-policy]');
    try {
      await page.locator('#play').tap();
      await page.waitForFunction(() => Number(document.querySelector('.slots')?.dataset.slot ?? 0) > 2000 || document.querySelector('.slots')?.textContent.match(/\d/), null, { timeout: 60_000 });
      await page.waitForTimeout(1500);
      await page.locator('#play').tap();
      await page.evaluate(() => window.scrollTo(0, 0));
      assert.deepEqual(await checks(page), [], `${viewport.width}×${viewport.height}`);
      await page.screenshot({ path: join(RESULTS, `phone-lab-${viewport.width}x${viewport.height}.png`) });
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  }
});
