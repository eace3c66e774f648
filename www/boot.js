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

const tag = document.querySelector('script[data-wasm]');
const { default: init } = await import(new URL(tag.dataset.js, document.baseURI).href);
await init({ module_or_path: new URL(tag.dataset.wasm, document.baseURI) });

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
