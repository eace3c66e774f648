// The service worker: keeps one build of the page (its HTML, wasm, JS glue, CSS, the worker
// scripts, the manifest, icons and sample traces) in the Cache Storage, so the lab opens and
// runs with the network off after one visit.
//
// This file is a template: after every Trunk build, scripts/service-worker.mjs (a post_build
// hook in Trunk.toml) writes dist/sw.js with BUILD filled in: the build's files and a version
// hashed from their contents. A new build therefore has a new sw.js, which the browser installs
// next to the old one; it takes over when no tab runs the old build any more, and then deletes
// the old build's cache. Until then the open tabs keep a consistent set of files.

const BUILD = { version: 'unbuilt', assets: [] }; // filled in by scripts/service-worker.mjs
const CACHE = `packlab-${BUILD.version}`;
/** Where the page itself is cached: any navigation inside the scope gets it (the scenario is in
 * the query, which the page reads). */
const PAGE = new URL('./', self.location).href;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      // `cache: 'reload'` skips the HTTP cache, which may still hold an older build's files.
      cache.addAll(BUILD.assets.map((path) => new Request(new URL(path, self.location), { cache: 'reload' }))),
    ),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(names.filter((name) => name.startsWith('packlab-') && name !== CACHE).map((name) => caches.delete(name)));
      // The first visit's page was loaded before this worker existed: take it over now, so it
      // works offline without a second load.
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  // A debug build (`trunk serve`) caches nothing: the developer's next build must show.
  if (!BUILD.assets.length) return;
  if (request.method !== 'GET' || !request.url.startsWith(PAGE)) return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      const key = request.mode === 'navigate' ? PAGE : request;
      // Cache first: every cached file belongs to this build, and the hashed ones never change.
      const cached = await cache.match(key, { ignoreSearch: request.mode === 'navigate' });
      return cached ?? fetch(request);
    })(),
  );
});
