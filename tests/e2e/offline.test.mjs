// Issue 36 item 5, offline and installable: after one visit the lab opens and plays with the
// network off (its page, wasm, glue, CSS and worker scripts come from the service worker's
// cache), a lab with a script lane too, and a new build's service worker replaces the old
// build's cache.
//
// The test serves its own copy of dist/ so that it can take the files away: "offline" here is
// both Chromium's offline mode and a server that has nothing any more (every request would be a
// 404, which the harness reports), so a file the cache lacks cannot slip through.

import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { serveDist } from './browser.mjs';
import { BASE, DIST, RACE, ROOT, context, labTest, pause, slot, waitPastSlot } from './harness.mjs';
import { writeServiceWorker } from '../../scripts/service-worker.mjs';

/** The build version the served sw.js carries. */
async function servedVersion(dir) {
  const sw = await readFile(join(dir, 'sw.js'), 'utf8');
  return JSON.parse(sw.match(/^const BUILD = (.*);$/m)[1]).version;
}

/** Waits until a service worker controls `page`, and returns the page's cache names. */
async function controlled(page) {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 60_000 });
  return page.evaluate(() => caches.keys());
}

labTest('issue 36: after one visit the lab opens and plays offline; a new build replaces the cache', async (open) => {
  const home = await mkdtemp(join(tmpdir(), 'packlab-offline-'));
  const served = join(home, 'dist');
  const away = join(home, 'away');
  await cp(DIST, served, { recursive: true });
  const { server, origin } = await serveDist(served, BASE);
  try {
    const url = `${origin}${BASE}?${RACE}&horizon=5000000`;
    const first = await open(url);
    assert.equal(await first.evaluate(() => window.isSecureContext), true, 'http://127.0.0.1 is a secure context');
    const version = await servedVersion(served);
    assert.deepEqual(await controlled(first), [`packlab-${version}`]);
    // The install finished: every file of the build is in the cache.
    const cached = await first.evaluate(async (name) => (await (await caches.open(name)).keys()).map((r) => r.url), `packlab-${version}`);
    for (const file of ['', 'boot.js', 'race-worker.js', 'sweep-worker.js', 'manifest.webmanifest']) {
      assert.ok(cached.includes(`${origin}${BASE}${file}`), `${file || 'the page'} is cached: ${cached.join(' ')}`);
    }
    assert.ok(cached.some((u) => u.endsWith('.wasm')) && cached.some((u) => u.endsWith('.css')), 'wasm and CSS are cached');
    // The manifest is linked and names the app, its icons and colours.
    const manifest = await first.evaluate(async () => (await fetch(document.querySelector('link[rel=manifest]').href)).json());
    assert.equal(manifest.short_name, 'packlab');
    assert.ok(manifest.icons.some((i) => i.sizes === '512x512' && i.type === 'image/png'));
    assert.match(manifest.theme_color, /^#[0-9a-f]{6}$/);

    // Offline: Chromium's network off, and the server's files gone.
    await context.setOffline(true);
    await rename(served, away);
    await first.reload();
    await first.waitForSelector('#stats tr[data-policy]');
    assert.equal(await slot(first), 0);
    await first.click('#play');
    await waitPastSlot(first, 1000);
    await pause(first);
    assert.ok((await slot(first)) > 1000, 'the run advanced with the network off');
    // The race ran in its Web Worker, whose script came from the cache too.
    assert.equal(await first.getAttribute('main', 'data-race-thread'), 'worker');
    // A lab with a script lane (the editor's starting script) plays offline too: the build with
    // the script engine (issue 55's second build) is in the cache as well.
    assert.ok(cached.some((u) => u.endsWith('/packlab-scripts_bg.wasm')), 'the script engine build is cached');
    await first.goto(`${origin}${BASE}?preset=pgrr-a1&policy=bf-js,script&seed=1&horizon=5000000`);
    await first.waitForFunction(() => document.querySelectorAll('#stats tr[data-policy]').length === 2, null, { timeout: 60_000 });
    await first.click('#play');
    await waitPastSlot(first, 1000);
    await pause(first);
    assert.ok((await slot(first)) > 1000, 'the scripted race advanced with the network off');
    await first.close();

    // A new build: the worker script changed, so sw.js and its cache name change. Once no tab
    // runs the old build, the new one takes over and the old cache is gone.
    await rename(away, served);
    await context.setOffline(false);
    const template = await readFile(join(ROOT, 'www', 'sw.js'), 'utf8');
    await writeFile(join(served, 'race-worker.js'), `${await readFile(join(served, 'race-worker.js'), 'utf8')}\n// build 2\n`);
    const next = (await writeServiceWorker(served, template)).version;
    assert.notEqual(next, version);
    const second = await open(url);
    await second.evaluate(async () => (await navigator.serviceWorker.getRegistration()).update());
    // The new build installs next to the old one and waits while this tab runs the old build.
    await second.waitForFunction(() => navigator.serviceWorker.getRegistration().then((r) => r.waiting !== null), null, { timeout: 60_000 });
    assert.deepEqual((await second.evaluate(() => caches.keys())).sort(), [`packlab-${next}`, `packlab-${version}`].sort());
    await second.close();
    // With no tab left on the old build the new one activates; the next visit gets it.
    let third;
    for (let attempt = 0; attempt < 10; attempt++) {
      third = await open(url);
      const keys = await third.evaluate(() => caches.keys());
      if (keys.length === 1 && keys[0] === `packlab-${next}`) break;
      await third.close();
      third = null;
      await new Promise((ok) => setTimeout(ok, 500));
    }
    assert.ok(third, 'the new build never replaced the old cache');
    assert.match(await third.evaluate(() => fetch('race-worker.js').then((r) => r.text())), /build 2/);
  } finally {
    await context.setOffline(false);
    await new Promise((ok) => server.close(ok));
    await rm(home, { recursive: true, force: true });
  }
});
