// A Web Worker that runs the runs of a sweep or a stability map for the page (src/sweep/). It
// loads the page's own wasm-bindgen module (whose `main` does nothing outside a window) and
// answers each task, a JSON string, with the JSON of its kind's function (`run_sweep_task`,
// `run_stability_task`), or with the error.
//
// Messages in:  {init: {js: URL, wasm: URL, module: WebAssembly.Module}} (an object), then
//               {"id": N, "task": "<task JSON>", "kind": "sweep" | "stability"} (a string).
// Messages out: {"id": N, "run": "<answer JSON>"} or {"id": N, "error": "..."}, as strings.

const KINDS = { sweep: 'run_sweep_task', stability: 'run_stability_task' };

let resolveBindings;
const bindings = new Promise((resolve) => (resolveBindings = resolve));

self.onmessage = async ({ data }) => {
  // The first message is an object carrying the page's compiled module; the tasks are JSON.
  const message = typeof data === 'string' ? JSON.parse(data) : data;
  if (message.init) {
    try {
      const module = await import(message.init.js);
      await module.default({ module_or_path: message.init.module ?? message.init.wasm });
      resolveBindings(module);
    } catch (err) {
      self.postMessage(JSON.stringify({ id: -1, error: `cannot load the simulation: ${err}` }));
    }
    return;
  }
  const module = await bindings;
  try {
    const run = module[KINDS[message.kind ?? 'sweep']];
    if (!run) throw new Error(`no task of kind '${message.kind}'`);
    self.postMessage(JSON.stringify({ id: message.id, run: run(message.task) }));
  } catch (err) {
    self.postMessage(JSON.stringify({ id: message.id, error: String(err?.message ?? err) }));
  }
};
