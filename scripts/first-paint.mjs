// Writes the page's first picture (docs/web.md, "The first picture"): what the gallery or a lab
// link shows before the wasm has loaded. Trunk runs it after every build (a post_build hook in
// Trunk.toml, before the service worker's list is made) on its staging directory:
//
//   TRUNK_STAGING_DIR=dist node scripts/first-paint.mjs   # by hand, on a built dist/
//
// It loads the build's own wasm in node and asks it (src/first_paint: the markup comes from the
// app's code and the core, so the picture and the app cannot disagree), then writes
//   index.html                 the gallery, in #first-paint: the bare address paints it with
//                              the page's HTML and CSS alone;
//   first-paint.js             a small classic script in the head: for a lab link it hides the
//                              gallery and fetches the lab's picture;
//   first-paint/ID.html        each preset's lab (`lab-ID`) and tour step's (`tour-ID-STEP`);
//   first-paint/ID.svg         each preset's gallery thumbnail, loaded after the cards.

import { readFile, readdir, mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The build's glue with the whole app (the script engine included: a tour's exercise step
 * has a scripted lane to draw). */
const GLUE = 'packlab-scripts.js';

/** The keys a first picture can stand for: any other changes what the lab shows. */
const KEYS = ['preset', 'tour', 'step', 'seed', 'theme', 'speed'];

/** first-paint.js: which picture the address opens. Runs in the head, before the body is
 * drawn: the gallery in index.html shows only for the bare address (data-first="gallery"),
 * a lab's picture is fetched and put in its place. */
export function script(data) {
  return `// Written by scripts/first-paint.mjs for this build: the page's first picture, before the wasm.
(() => {
  const data = ${JSON.stringify({ default: data.default, presets: data.presets, tours: data.tours })};
  const keys = ${JSON.stringify(KEYS)};
  const query = new URLSearchParams(location.search);
  const root = document.documentElement;
  const given = [...query.keys()];
  // boot.js waits for this before it fetches the wasm: the picture is on screen first, and a
  // slow network gives its first round trips to it rather than to 1 MB of wasm.
  let shown = () => {};
  window.packlabFirstPicture = new Promise((resolve) => (shown = resolve));
  const painted = () => requestAnimationFrame(() => setTimeout(shown, 0));
  if (given.length === 0) {
    root.dataset.first = 'gallery';
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', painted, { once: true });
    else painted();
    return;
  }
  // An embedded lab, or a link that changes the scenario: the app draws it.
  if (!given.every((k) => keys.includes(k))) return shown();
  let name;
  if (query.has('tour')) {
    const steps = data.tours[query.get('tour')];
    if (!steps) return shown();
    const step = Math.min(Math.max(parseInt(query.get('step') ?? '1', 10) || 1, 1), steps);
    name = \`tour-\${query.get('tour')}-\${step}\`;
  } else {
    const preset = query.get('preset') ?? data.default;
    if (!data.presets.includes(preset)) return shown();
    name = \`lab-\${preset}\`;
  }
  root.dataset.first = 'lab';
  const picture = fetch(new URL(\`first-paint/\${name}.html\`, document.baseURI), { priority: 'high' })
    .then((r) => (r.ok ? r.text() : ''))
    .catch(() => '');
  const show = async () => {
    const html = await picture;
    const here = document.getElementById('first-paint');
    // Gone: the app already runs.
    if (here && html) here.innerHTML = html;
    painted();
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', show, { once: true });
  else show();
})();
`;
}

/** index.html's empty #first-paint, which the gallery fills. */
const SLOT = '<div id="first-paint"></div>';

/** Writes the first picture of the build in `dir`. */
export async function writeFirstPaint(dir) {
  const glue = await import(pathToFileURL(join(dir, GLUE)).href);
  glue.initSync({ module: await readFile(join(dir, GLUE.replace(/\.js$/, '_bg.wasm'))) });
  const all = JSON.parse(glue.first_paint());
  const out = join(dir, 'first-paint');
  await mkdir(out, { recursive: true });
  for (const [id, svg] of Object.entries(all.thumbnails)) await writeFile(join(out, `${id}.svg`), svg);
  for (const [id, html] of Object.entries(all.labs)) await writeFile(join(out, `lab-${id}.html`), html);
  for (const [id, html] of Object.entries(all.tours)) await writeFile(join(out, `tour-${id}.html`), html);
  const js = script(all.data);
  await writeFile(join(dir, 'first-paint.js'), js);
  const page = await readFile(join(dir, 'index.html'), 'utf8');
  if (!page.includes(SLOT)) throw new Error(`index.html has no ${SLOT} to put the gallery in`);
  await writeFile(join(dir, 'index.html'), page.replace(SLOT, `<div id="first-paint"><div class="first-gallery">${all.gallery}</div></div>`));
  return { thumbnails: Object.keys(all.thumbnails).length, pictures: Object.keys(all.labs).length + Object.keys(all.tours).length, gallery: all.gallery.length };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.env.TRUNK_STAGING_DIR;
  if (!dir) {
    console.error('first-paint.mjs: set TRUNK_STAGING_DIR to the built directory (Trunk does, in its post_build hook)');
    process.exit(2);
  }
  if (!(await readdir(dir)).includes(GLUE)) {
    console.error(`first-paint.mjs: ${dir} has no ${GLUE}: is it a Trunk build of index.html?`);
    process.exit(2);
  }
  const { thumbnails, pictures, gallery } = await writeFirstPaint(dir);
  console.log(`first picture: gallery ${gallery} bytes in index.html, ${pictures} labs, ${thumbnails} thumbnails`);
}
