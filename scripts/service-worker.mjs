// Writes the service worker of one build: www/sw.js with its BUILD line replaced by the list of
// the build's files and a version hashed from their names and contents. Trunk runs it after
// every build (a post_build hook in Trunk.toml) on its staging directory, before that becomes
// dist/:
//
//   TRUNK_STAGING_DIR=dist node scripts/service-worker.mjs   # by hand, on a built dist/
//
// The version changes whenever any file changes (Trunk's hashed wasm, glue and CSS names, and
// the unhashed worker scripts' contents), so a new build gets a new sw.js and a new cache.

import { createHash } from 'node:crypto';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
/** The line of the template that this script replaces. */
const BUILD_LINE = /^const BUILD = .*$/m;
/** Files that are not cached: the worker itself (the browser fetches it to look for updates). */
const SKIP = new Set(['sw.js']);

/** Every file under `dir`, as paths relative to it with `/` separators, sorted. */
export async function listFiles(dir) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath ?? e.path, e.name)).split(sep).join('/'))
    .filter((path) => !SKIP.has(path))
    .sort();
}

/**
 * The build's version and the URLs to cache, relative to sw.js: `files` maps each path to its
 * contents. The page's own URL `./` stands for index.html (navigations are answered with it).
 */
export function buildManifest(files) {
  const hash = createHash('sha256');
  const paths = Object.keys(files).sort();
  for (const path of paths) {
    hash.update(path).update('\0').update(createHash('sha256').update(files[path]).digest()).update('\0');
  }
  const version = hash.digest('hex').slice(0, 16);
  const assets = paths.map((path) => (path === 'index.html' ? './' : `./${path.split('/').map(encodeURIComponent).join('/')}`));
  return { version, assets };
}

/** The template with its BUILD line filled in. */
export function fillTemplate(template, build) {
  if (!BUILD_LINE.test(template)) throw new Error('www/sw.js has no `const BUILD = ...` line to fill in');
  return template.replace(BUILD_LINE, () => `const BUILD = ${JSON.stringify(build)};`);
}

/** Reads the build in `dir` and writes its sw.js there. Returns the build's manifest. */
export async function writeServiceWorker(dir, template) {
  const paths = await listFiles(dir);
  if (!paths.includes('index.html')) throw new Error(`${dir} has no index.html: is it a Trunk build?`);
  const files = Object.fromEntries(await Promise.all(paths.map(async (p) => [p, await readFile(join(dir, p))])));
  const build = buildManifest(files);
  await writeFile(join(dir, 'sw.js'), fillTemplate(template, build));
  return build;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.env.TRUNK_STAGING_DIR;
  if (!dir) {
    console.error('service-worker.mjs: set TRUNK_STAGING_DIR to the built directory (Trunk does, in its post_build hook)');
    process.exit(2);
  }
  const template = await readFile(join(ROOT, 'www', 'sw.js'), 'utf8');
  // A debug build (`trunk serve` while developing) gets a worker that caches nothing, so a
  // developer never sees a stale page; it still deletes what a release build had cached.
  const build =
    process.env.TRUNK_PROFILE === 'debug'
      ? await writeFile(join(dir, 'sw.js'), fillTemplate(template, { version: 'debug', assets: [] })).then(() => ({ version: 'debug', assets: [] }))
      : await writeServiceWorker(dir, template);
  console.log(`service worker: ${build.assets.length} files, cache packlab-${build.version}`);
}
