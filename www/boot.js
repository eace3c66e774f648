// Starts the wasm app, in place of the inline <script> Trunk would write (the page's
// Content-Security-Policy forbids inline scripts). Trunk.toml's `pattern_script` loads this
// file and passes the hashed file names as data attributes.

// plotters (the chart library) measures text by giving a detached <span> a `style` attribute
// and putting it in the page. A style attribute is an inline style, which the CSP refuses (and
// the measurement would then be wrong); the same declarations set through CSSOM are allowed.
// Only that case is redirected: detached spans, attribute `style`.
const setAttribute = Element.prototype.setAttribute;
Element.prototype.setAttribute = function (name, value) {
  if (name === 'style' && this instanceof HTMLSpanElement && !this.isConnected) {
    this.style.cssText = value;
    return;
  }
  return setAttribute.call(this, name, value);
};

// The page's first download is the app without the script engine (packlab-web, whose tag
// Trunk writes); the app with it (packlab-scripts: Trunk builds it beside, under a fixed name)
// is loaded only for a lab that runs a script (docs/web.md, "Less to download").
const tag = document.querySelector('script[data-wasm]');
const SCRIPTS = { js: './packlab-scripts.js', wasm: './packlab-scripts_bg.wasm' };
const url = (path) => new URL(path, document.baseURI);

/** Loads one build's glue and wasm; resolves to the glue's exports once instantiated. */
async function load(js, wasm) {
  const glue = await import(url(js).href);
  await glue.default({ module_or_path: url(wasm) });
  return glue;
}

/** Lets the browser paint and take input between two long tasks (instantiating, mounting). */
const yieldToPage = () => new Promise((resolve) => setTimeout(resolve, 0));

// What the app asks of this file (src/dom/boot.rs).
const packlab = (window.packlab = {});
// The first picture first (first-paint.js, written by scripts/first-paint.mjs): the wasm is
// fetched once it is on screen.
await window.packlabFirstPicture;
let app = await load(tag.dataset.js, tag.dataset.wasm);
/** The build with the script engine, once asked for (one load, whoever asks). */
let scripts = null;
packlab.loadScripts = (focus) => {
  scripts ??= (async () => {
    const next = await load(SCRIPTS.js, SCRIPTS.wasm);
    // Workers that run the page's wasm must get this build's glue (src/dom/workers.rs reads
    // the tag).
    tag.dataset.js = SCRIPTS.js;
    tag.dataset.wasm = SCRIPTS.wasm;
    packlab.resumeFocus = Array.from(focus ?? []);
    app.stop_page();
    app = next;
    app.mount_page();
  })().catch((err) => {
    scripts = null;
    throw String(err?.message ?? err);
  });
  return scripts;
};
await yieldToPage();
app.mount_page();

// Offline after one visit (docs/web.md): the service worker that Trunk's post_build hook wrote
// for this build. Browsers allow one only in a secure context (https, or http on 127.0.0.1 /
// localhost); a page opened from file:// or a plain-http host runs as before, online only.
if ('serviceWorker' in navigator && window.isSecureContext && /^https?:$/.test(location.protocol)) {
  // After the page's own load, so fetching the build for the cache never delays the lab.
  const register = () =>
    navigator.serviceWorker.register(new URL('sw.js', document.baseURI)).catch((err) => {
      // Not an error of the lab: it runs, just not offline.
      console.warn(`packlab will not work offline: the service worker did not register (${err?.message ?? err})`);
    });
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
