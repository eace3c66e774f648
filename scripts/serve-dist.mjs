// dist/ served on 127.0.0.1 by `scripts/serve` (after Trunk builds it) and by the browser tests,
// the speed meters and the Lighthouse runner, so they all see what a user is served.
//
//   node scripts/serve-dist.mjs [PORT]      # dist/ on http://127.0.0.1:PORT/ (default 8080), gzip on

import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** Types worth compressing: text and wasm (images are compressed already). */
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.wasm', '.json', '.webmanifest', '.svg']);

/**
 * Serves `dist` below `base` (e.g. '/packlab/', as on a project page, which checks that asset
 * URLs are relative) on 127.0.0.1 and `port` (0: a free one). With `gzip`, answers a client
 * that accepts it gzip-compressed, as GitHub Pages and most static hosts do (`scripts/serve`,
 * `npm run lighthouse -- --gzip`); each file is compressed once per version of it. Returns the
 * server and its origin.
 */
export async function serveDist(dist, base = '/', { gzip = false, port = 0 } = {}) {
  const compressed = new Map();
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      if (!path.startsWith(base)) throw new Error('outside the base');
      let file = normalize(join(dist, path.slice(base.length)));
      if (file !== dist && !file.startsWith(dist + sep)) throw new Error('outside dist');
      let info = await stat(file);
      if (info.isDirectory()) {
        file = join(file, 'index.html');
        info = await stat(file);
      }
      const headers = { 'content-type': MIME[extname(file)] ?? 'application/octet-stream', vary: 'accept-encoding' };
      if (gzip && COMPRESSIBLE.has(extname(file)) && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
        const version = `${info.mtimeMs}:${info.size}`;
        let entry = compressed.get(file);
        if (entry?.version !== version) {
          entry = { version, body: gzipSync(await readFile(file)) };
          compressed.set(file, entry);
        }
        res.writeHead(200, { ...headers, 'content-encoding': 'gzip' });
        res.end(entry.body);
        return;
      }
      res.writeHead(200, headers);
      res.end(await readFile(file));
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', ok);
  });
  return { server, origin: `http://127.0.0.1:${server.address().port}` };
}

// Run as a program: serve the build, compressed, until interrupted.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const port = Number(process.argv[2] ?? process.env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    console.error(`serve-dist: the port must be an integer from 1 to 65535, not '${process.argv[2] ?? process.env.PORT}'`);
    process.exit(2);
  }
  const dist = resolve(fileURLToPath(new URL('../dist', import.meta.url)));
  try {
    const { origin } = await serveDist(dist, '/', { gzip: true, port });
    console.log(`serving ${dist} on ${origin}/ (gzip where the browser accepts it)`);
  } catch (err) {
    console.error(`serve-dist: cannot listen on 127.0.0.1:${port}: ${err.message}`);
    process.exit(1);
  }
}
