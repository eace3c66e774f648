// Tours keep their secret (issue 53): walked step by step as a learner walks them, no step shows
// a word of its answer (the preset's title and summary, the verdicts, the map's intervals)
// anywhere in the page or its title before the step's run has answered; and every value a
// step's text states is what the form shows. The tours, their questions and the values each
// step states come from `packlab tours`, the core's list.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';

import { MAP_TIMEOUT_MS, ROOT, axeViolations, cliCommand, labTest } from './harness.mjs';

/** `packlab tours`, read: each tour's id, title and steps (question, stated values, map). */
function tours() {
  const [command, prefix] = cliCommand();
  const text = execFileSync(command, [...prefix, 'tours'], { cwd: ROOT, encoding: 'utf8' });
  const list = [];
  for (const line of text.split('\n')) {
    let m;
    if ((m = /^(\S+) \(([^)]+)\): (.+)$/.exec(line))) list.push({ id: m[1], title: m[3], steps: [] });
    else if ((m = /^ {2}step \d+: .*[?&]preset=([^&']+)/.exec(line))) {
      list.at(-1).steps.push({ preset: m[1], asks: null, states: [], map: false });
    } else if ((m = /^ {2}step \d+: /.exec(line))) list.at(-1).steps.push({ preset: null, asks: null, states: [], map: false });
    else if ((m = /^ {4}asks: (.+)$/.exec(line))) list.at(-1).steps.at(-1).asks = m[1];
    else if (/^ {4}map: /.test(line)) list.at(-1).steps.at(-1).map = true;
    else if ((m = /^ {4}states: (.+)$/.exec(line))) {
      for (const [, key, value, said] of m[1].matchAll(/(\S+) = (\S+) \("([^"]*)"\)/g)) {
        list.at(-1).steps.at(-1).states.push({ key, value, said });
      }
    }
  }
  assert.ok(list.length >= 4 && list.every((t) => t.steps.length), text);
  return list;
}

/** Everything the page says, to eyes or to a screen reader: the tab's title, the rendered text,
 * every menu's and list's options, and the rendered elements' titles and labels. */
async function everything(page) {
  return page.evaluate(() => {
    const said = [document.title, document.body.innerText];
    for (const option of document.querySelectorAll('option')) said.push(option.textContent, option.label);
    for (const el of document.querySelectorAll('body *')) {
      if (!el.checkVisibility()) continue;
      for (const name of ['title', 'aria-label', 'aria-description', 'alt', 'placeholder']) {
        const value = el.getAttribute(name);
        if (value) said.push(value);
      }
    }
    return said.join('\n');
  });
}

/** The value a stated key has in the form: its field, the size editor's rows, or the lanes. */
async function shown(page, key) {
  return page.evaluate((key) => {
    if (key === 'lanes') return [...document.querySelectorAll('#stats tr[data-policy]')].map((r) => r.dataset.policy).join(',');
    const field = document.getElementById(`field-${key}`);
    if (field) return field.value;
    if (key === 'size') {
      const value = (label) => [...document.querySelectorAll(`input[aria-label^="${label} "]`)].map((i) => i.value);
      const [sizes, probabilities] = [value('size'), value('probability')];
      return `discrete:${sizes.map((s, i) => `${s}@${probabilities[i]}`).join(',')}`;
    }
    return `no field for ${key}`;
  }, key);
}

/** The phrases of an answer: the preset's title and the outcome its summary states (after its
 * last colon), cut at commas and semicolons, less those the tour's own words already hold (the
 * tour's title, the step's text and question are written to be shown). */
function answerPhrases({ title, summary }, ownWords) {
  const outcome = summary.includes(':') ? summary.slice(summary.lastIndexOf(':') + 1) : summary;
  const own = ownWords.toLowerCase();
  return [title, outcome, ...`${title},${outcome}`.split(/[,;]/)]
    .map((p) => p.trim())
    .filter((p) => p.split(/\s+/).length >= 2 && !own.includes(p.toLowerCase()));
}

for (const tour of tours()) {
  labTest(`issue 53: the tour ${tour.id} keeps each step's answer until its run answers, and states the form's values`, async (open) => {
    const page = await open(`tour=${tour.id}`, { waitFor: '#tour' });
    /** The answers of the presets this walk has run, by preset id. */
    const answered = new Map();
    for (const [k, step] of tour.steps.entries()) {
      if (k > 0) await page.click('#tour-next');
      await page.waitForFunction((n) => document.querySelector('#tour')?.dataset.step === String(n), k + 1);
      const where = `${tour.id} step ${k + 1}`;
      for (const { key, value, said } of step.states) {
        assert.equal(await shown(page, key), value, `${where} says "${said}": the form's ${key}`);
      }
      if (!step.asks) continue;
      // The page before the run, then with the prediction made.
      await page.waitForTimeout(500);
      const before = await everything(page);
      await page.locator('#tour-question input').first().check();
      const predicted = await everything(page);
      // No lane's verdict is decided before its run: each reads undecided (or – where nothing waits).
      const cells = await page.locator('#stats tbody td').allTextContents();
      assert.ok(!cells.some((c) => /^(not )?stable/.test(c.trim())), `${where}: a verdict before the run: ${cells}`);
      assert.deepEqual(await axeViolations(page), [], `${where}: axe, with the question open`);
      if (step.map) {
        assert.equal(await page.locator('#stability-map .map-loads a').count(), 0, `${where}: the map waits`);
        const map = (await page.locator('#stability-map').allTextContents()).join('\n');
        assert.ok(!/\[[^\]]*\d[^\]]*,[^\]]*\d[^\]]*\]/.test(map), `${where}: an interval before the map ran: ${map}`);
      }
      // A map step on a preset an earlier step answered holds the same answer: it is checked
      // against that one, without running the map (msf-swings' takes minutes in wasm, and the
      // lab test's walk of every tour runs each map to its end already).
      let answer = step.map && step.preset ? answered.get(step.preset) : undefined;
      if (!answer) {
        await page.selectOption('#speed', 'max');
        await page.click('#tour-play');
        await page.locator('#tour-check').waitFor({ timeout: MAP_TIMEOUT_MS });
        // Answered: the preset shows, and with it what the step kept.
        answer = {
          title: (await page.textContent('#preset-title')).trim(),
          summary: (await page.textContent('.intro .summary')).trim(),
        };
        if (step.preset) answered.set(step.preset, answer);
      }
      const own = `${tour.title}\n${await page.textContent('#tour')}`;
      const phrases = answerPhrases(answer, own.slice(0, own.indexOf('You predicted') >>> 0));
      assert.ok(phrases.length > 0, `${where}: ${JSON.stringify(answer)}`);
      for (const text of [before, predicted]) {
        for (const phrase of phrases) {
          assert.ok(!text.toLowerCase().includes(phrase.toLowerCase()), `${where} shows "${phrase}" before its run answered`);
        }
      }
      assert.notEqual(answer.title, tour.title, `${where}: the preset's title once answered`);
    }
  });
}
