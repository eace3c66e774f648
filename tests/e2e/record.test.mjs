// Issue 36 item 6, recording a run for slides: the Record control (reached and pressed with the
// keyboard) records the lanes and charts while the race plays, and stopping saves a WebM file
// named after the link that Chromium itself can play.

import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { RACE, RESULTS, context, labTest, waitPastSlot } from './harness.mjs';

labTest('issue 36: Record saves a playable WebM of the lanes and charts, named after the link', async (open) => {
  const page = await open(`${RACE}&horizon=2000000&speed=2000`);
  await page.focus('#record');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#record[aria-pressed="true"]');
  await page.waitForFunction(() => /^Recording/.test(document.querySelector('#announcer').textContent));
  await page.click('#play');
  // Played for a while (counted from its first slot: the worker answers when it can).
  await waitPastSlot(page, 0);
  await page.waitForTimeout(2000);
  await page.focus('#record');
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.keyboard.press('Enter')]);
  const name = download.suggestedFilename();
  assert.match(name, /^packlab-[-.\w]*\.webm$/);
  for (const part of ['preset-pgrr-a1', 'vqs-bf-js', 'seed-1']) assert.ok(name.includes(part), `${part} in ${name}`);
  assert.ok(name.length <= 'packlab-.webm'.length + 80, `the file name is short: ${name}`);
  const bytes = readFileSync(await download.path());
  assert.ok(bytes.length > 10_000, `a two-second video is more than ${bytes.length} bytes`);
  assert.equal(bytes.subarray(0, 4).toString('hex'), '1a45dfa3', 'an EBML (Matroska/WebM) header');
  assert.ok(bytes.includes(Buffer.from('webm')), 'the EBML doc type is webm');
  await page.waitForFunction(() => /^Saved packlab-.*\.webm/.test(document.querySelector('#announcer').textContent));
  assert.equal(await page.getAttribute('#record', 'aria-pressed'), 'false');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'record', 'the focus stays on Record');

  // Chromium plays it: it has frames of the recording's size and lasts about as long as recorded
  // (the two seconds, plus the last frame with the link).
  const player = await context.newPage();
  try {
    const video = await player.evaluate(async (base64) => {
      const blob = new Blob([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], { type: 'video/webm' });
      const v = document.createElement('video');
      v.muted = true;
      v.src = URL.createObjectURL(blob);
      await new Promise((ok, fail) => {
        v.onloadedmetadata = ok;
        v.onerror = () => fail(new Error(`the video does not load: ${v.error?.message}`));
      });
      // MediaRecorder's WebM has no duration in its header: seeking far finds the end.
      if (!Number.isFinite(v.duration)) {
        await new Promise((ok) => {
          v.ondurationchange = () => Number.isFinite(v.duration) && ok();
          v.currentTime = 1e6;
        });
      }
      // Two frames of the run (early, and just before the last frame with the link): drawn,
      // and different, as the run moved on; the later one is kept as a PNG to look at.
      const frameAt = async (t) => {
        await new Promise((ok) => {
          v.onseeked = ok;
          v.currentTime = t;
        });
        const c = document.createElement('canvas');
        [c.width, c.height] = [v.videoWidth, v.videoHeight];
        const ctx = c.getContext('2d');
        ctx.drawImage(v, 0, 0);
        return { pixels: ctx.getImageData(0, 0, c.width, c.height).data, url: c.toDataURL() };
      };
      const early = await frameAt(0.1);
      const late = await frameAt(Math.max(0.2, v.duration - 2));
      let inked = 0;
      let changed = 0;
      for (let i = 0; i < late.pixels.length; i += 4) {
        if (late.pixels[i] + late.pixels[i + 1] + late.pixels[i + 2] < 600) inked++;
        if (Math.abs(late.pixels[i] - early.pixels[i]) + Math.abs(late.pixels[i + 1] - early.pixels[i + 1]) > 60) changed++;
      }
      const n = late.pixels.length / 4;
      const frame = late.url;
      return { width: v.videoWidth, height: v.videoHeight, duration: v.duration, inked: inked / n, changed: changed / n, frame };
    }, bytes.toString('base64'));
    assert.equal(video.width, 1280);
    assert.ok(video.height > 100, `height ${video.height}`);
    assert.ok(video.duration > 2.5 && video.duration < 30, `duration ${video.duration} s`);
    writeFileSync(join(RESULTS, 'record-frame.png'), Buffer.from(video.frame.split(',')[1], 'base64'));
    assert.ok(video.inked > 0.01, `a frame shows the lanes and charts (${(video.inked * 100).toFixed(1)}% drawn)`);
    assert.ok(video.changed > 0.001, `the video moves: ${(video.changed * 100).toFixed(2)}% of the pixels changed`);
  } finally {
    await player.close();
  }
});
