// Issue 36 item 4, keyboard only: with nothing but Tab, Shift+Tab, Enter, Space and the arrow
// keys, a person plays and pauses the race, goes back on the timeline, opens a decision in the
// inspector and exports (the decisions, the series and a chart). After every key the focus is
// on something of the page, never lost to <body>.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { RACE, labTest, slot, waitPastSlot } from './harness.mjs';

/** The id, or else the tag and class, of the focused element ('body' when focus is lost). */
function focused(page) {
  return page.evaluate(() => {
    const a = document.activeElement;
    if (!a || a === document.body) return 'body';
    return a.id || `${a.tagName.toLowerCase()}.${a.className}`;
  });
}

/** Presses `key`, lets the page react, and checks the focus is still on something. */
async function press(page, key, trail) {
  await page.keyboard.press(key);
  await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
  const now = await focused(page);
  trail.push(`${key}→${now}`);
  assert.notEqual(now, 'body', `the focus was lost to <body> after ${trail.slice(-6).join(', ')}`);
  return now;
}

/** Presses `key` (Tab or Shift+Tab) until `wanted(focused element)` holds; at most `limit` times. */
async function tabTo(page, key, wanted, trail, limit = 120) {
  for (let i = 0; i < limit; i++) {
    await press(page, key, trail);
    if (await page.evaluate(wanted)) return;
  }
  throw new Error(`${key} never reached it: ${trail.slice(-10).join(', ')}`);
}

/** Presses Enter on the focused export button and returns the download's name and text. */
async function exportWithEnter(page, trail) {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 15_000 }), press(page, 'Enter', trail)]);
  return { name: download.suggestedFilename(), text: readFileSync(await download.path(), 'utf8') };
}

labTest('issue 36: keyboard only: play, pause, go back on the timeline, inspect a decision, export', async (open) => {
  const page = await open(`${RACE}&horizon=200000&speed=20000`);
  const trail = [];
  const id = (name) => `document.activeElement?.id === ${JSON.stringify(name)}`;
  await page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());

  // The skip link, then Play.
  await tabTo(page, 'Tab', () => document.activeElement?.classList.contains('skip'), trail, 3);
  assert.equal(await press(page, 'Enter', trail), 'play');
  assert.equal(await press(page, 'Space', trail), 'play');
  await page.waitForSelector('#play[aria-pressed="true"]');
  await waitPastSlot(page, 5000);
  await press(page, 'Enter', trail);
  await page.waitForSelector('#play[aria-pressed="false"]');
  await page.waitForFunction(() => /^Paused at/.test(document.querySelector('#announcer').textContent));
  const paused = await slot(page);
  assert.ok(paused > 5000, `played to ${paused}`);
  await page.waitForTimeout(300);
  assert.equal(await slot(page), paused, 'Enter on Pause stopped the run');

  // Back on the timeline: Home goes to the start, PageUp a tenth of the way on.
  await tabTo(page, 'Tab', id('scrubber'), trail, 12);
  await press(page, 'Home', trail);
  await page.waitForFunction(() => Number(document.querySelector('#timeline').dataset.now) === 0, null, { timeout: 60_000 });
  await page.waitForFunction(() => /^Went to /.test(document.querySelector('#announcer').textContent));
  await press(page, 'PageUp', trail);
  await page.waitForFunction(
    (p) => {
      const now = Number(document.querySelector('#timeline').dataset.now);
      return now > 0 && now < p;
    },
    paused,
    { timeout: 60_000 },
  );
  const rewound = Number(await page.getAttribute('#timeline', 'data-now'));
  await page.waitForFunction((t) => [...document.querySelectorAll('#stats tr[data-policy]')].every((tr) => Number(tr.dataset.time) === t), rewound, { timeout: 60_000 });
  assert.equal(await focused(page), 'scrubber', 'the focus stays on the timeline while it replays');

  // The event log is one Tab stop; ↓ moves to the next decision and shows it in the inspector.
  await tabTo(page, 'Tab', () => document.activeElement?.closest('#log') !== null, trail);
  // A decision is its lane and its number (numbers count per lane).
  const first = await page.evaluate(() => {
    const li = document.activeElement.closest('li.decision');
    return `${li.dataset.lane}#${li.dataset.seq}`;
  });
  await press(page, 'ArrowDown', trail);
  const row = await page.evaluate(() => {
    const li = document.activeElement.closest('li.decision');
    return { seq: li.dataset.seq, lane: li.dataset.lane, time: Number(li.dataset.time) };
  });
  assert.notEqual(`${row.lane}#${row.seq}`, first, '↓ moved to another decision');
  assert.ok(row.time <= rewound, 'the log shows the moment gone back to');
  await press(page, 'Enter', trail);
  await page.waitForFunction(
    ({ seq, lane }) => {
      const inspector = document.querySelector('#inspector');
      return inspector.dataset.seq === seq && inspector.dataset.lane === lane;
    },
    row,
  );
  assert.equal(await page.getAttribute(`#log li[data-seq="${row.seq}"][data-lane="${row.lane}"] > button`, 'aria-pressed'), 'true');
  assert.ok((await page.textContent('#inspector .why')).trim().length > 5, 'the inspector says why');
  assert.equal(await slot(page), rewound, 'the arrows in the log did not step the run');

  // Exports: the log's CSV is just before the list (Shift+Tab), the series and a chart's SVG
  // further on.
  await tabTo(page, 'Shift+Tab', id('log-export'), trail, 4);
  const decisions = await exportWithEnter(page, trail);
  assert.match(decisions.name, /-decisions\.csv$/);
  assert.match(decisions.text, /^# packlab .* decisions/);
  assert.ok(decisions.text.split('\n').length > 3, 'the decisions CSV has rows');
  await tabTo(page, 'Tab', id('export-csv'), trail);
  const series = await exportWithEnter(page, trail);
  assert.match(series.name, /\.csv$/);
  assert.ok(series.text.split('\n').filter((l) => l && !l.startsWith('#')).length > 3, 'the series CSV has rows');
  await tabTo(page, 'Tab', id('export-chart-queue-svg'), trail, 6);
  const svg = await exportWithEnter(page, trail);
  assert.match(svg.name, /queue\.svg$/);
  assert.match(svg.text, /<svg[\s>]/);
  // The exports leave the focus where it was.
  assert.equal(await focused(page), 'export-chart-queue-svg');
});
