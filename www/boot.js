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
