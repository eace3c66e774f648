// The service worker's versioning, without a browser: scripts/service-worker.mjs gives each
// build a cache name hashed from its files, so a build whose hashed assets (or worker scripts)
// changed gets a new sw.js and a new cache, and an identical build keeps both.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { buildManifest, fillTemplate, listFiles, writeServiceWorker } from '../../scripts/service-worker.mjs';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const TEMPLATE = await readFile(join(ROOT, 'www', 'sw.js'), 'utf8');

/** A build as Trunk leaves it, with the wasm and glue named by `hash`. */
function build(hash, worker = 'self.onmessage = () => {};') {
  return {
    'index.html': `<script src="./boot.js" data-js="./packlab-web-${hash}.js" data-wasm="./packlab-web-${hash}_bg.wasm"></script>`,
    [`packlab-web-${hash}.js`]: `export default function init() {} // ${hash}`,
    [`packlab-web-${hash}_bg.wasm`]: Buffer.from([0, 0x61, 0x73, 0x6d, hash.length]),
    'boot.js': 'import("./x.js");',
    'race-worker.js': worker,
    'samples/trace one.csv.gz': 'x',
  };
}

test('a new build (new asset hashes) gets a new cache name; the same build keeps its name', () => {
  const first = buildManifest(build('1a2b3c'));
  const again = buildManifest(build('1a2b3c'));
  const next = buildManifest(build('4d5e6f'));
  assert.equal(first.version, again.version);
  assert.notEqual(first.version, next.version);
  assert.match(first.version, /^[0-9a-f]{16}$/);
  // An unhashed file (a worker script) that changes also changes the version.
  assert.notEqual(first.version, buildManifest(build('1a2b3c', 'self.onmessage = null;')).version);
});

test('the cached URLs are the build files relative to sw.js, the page as ./', () => {
  const { assets } = buildManifest(build('1a2b3c'));
  assert.deepEqual([...assets].sort(), [
    './',
    './boot.js',
    './packlab-web-1a2b3c.js',
    './packlab-web-1a2b3c_bg.wasm',
    './race-worker.js',
    './samples/trace%20one.csv.gz',
  ]);
});

test('www/sw.js is filled in with the build, and a template without the BUILD line is refused', () => {
  const filled = fillTemplate(TEMPLATE, { version: 'abc', assets: ['./'] });
  assert.match(filled, /^const BUILD = \{"version":"abc","assets":\["\.\/"\]\};$/m);
  assert.doesNotMatch(filled, /unbuilt/);
  assert.throws(() => fillTemplate('self.x = 1;', { version: 'abc', assets: [] }), /BUILD/);
});

test('a directory rebuilt with new hashes gets a new sw.js whose cache name differs', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'packlab-sw-'));
  try {
    const write = async (files) => {
      await rm(dir, { recursive: true, force: true });
      for (const [path, body] of Object.entries(files)) {
        await mkdir(join(dir, path, '..'), { recursive: true });
        await writeFile(join(dir, path), body);
      }
      await writeServiceWorker(dir, TEMPLATE);
      const sw = await readFile(join(dir, 'sw.js'), 'utf8');
      return JSON.parse(sw.match(/^const BUILD = (.*);$/m)[1]);
    };
    const old = await write(build('1a2b3c'));
    const now = await write(build('4d5e6f'));
    assert.notEqual(old.version, now.version);
    assert.ok(now.assets.includes('./packlab-web-4d5e6f_bg.wasm'));
    assert.ok(!now.assets.includes('./packlab-web-1a2b3c_bg.wasm'));
    // sw.js itself is never cached (the browser fetches it to look for a new build).
    assert.ok(!(await listFiles(dir)).includes('sw.js'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the built dist/sw.js lists exactly the files of dist/ and its version is theirs', { skip: !existsSync(join(ROOT, 'dist', 'sw.js')) && 'no dist/: run `trunk build --release`' }, async () => {
  const dist = join(ROOT, 'dist');
  const sw = await readFile(join(dist, 'sw.js'), 'utf8');
  const shipped = JSON.parse(sw.match(/^const BUILD = (.*);$/m)[1]);
  const paths = await listFiles(dist);
  const files = Object.fromEntries(await Promise.all(paths.map(async (p) => [p, await readFile(join(dist, p))])));
  assert.deepEqual(shipped, buildManifest(files));
  for (const name of ['boot.js', 'race-worker.js', 'sweep-worker.js', 'manifest.webmanifest']) {
    assert.ok(shipped.assets.includes(`./${name}`), `${name} is not cached`);
  }
  assert.ok(shipped.assets.some((a) => /\.wasm$/.test(a)) && shipped.assets.some((a) => /\.css$/.test(a)));
});
