// A Web Worker that runs the runs of a sweep or a stability map for the page (src/sweep/). It
// loads the page's own wasm-bindgen module (whose `main` does nothing outside a window) and
// answers each task, a JSON string, with the JSON of its kind's function (`run_sweep_task`,
// `run_stability_task`), or with the error.
//
// Messages in:  {init: {js: URL, wasm: URL, module: WebAssembly.Module}} (an object), then for
//               a scenario that replays a trace file {trace: [{name, blob}, …]} (an object: the
//               files, read into the worker's own library with `load_trace_in_worker`, as the
//               race worker does), then {"id": N, "task": "<task JSON>", "kind": "sweep" |
//               "stability"} (a string).
// Messages out: {"id": N, "run": "<answer JSON>"} or {"id": N, "error": "..."}, as strings; a
//               worker that cannot load the simulation or read the trace answers with id -1.

const KINDS = { sweep: 'run_sweep_task', stability: 'run_stability_task' };

let module = null;

// Messages are handled one after the other, each to its end: a trace's files are read before
// the tasks that replay them run.
let handled = Promise.resolve();
self.onmessage = ({ data }) => {
  handled = handled.then(() => handle(data));
};

async function handle(data) {
  // The first message is an object carrying the page's compiled module; the tasks are JSON.
  const message = typeof data === 'string' ? JSON.parse(data) : data;
  if (message.init) {
    try {
      const loaded = await import(message.init.js);
      await loaded.default({ module_or_path: message.init.module ?? message.init.wasm });
      module = loaded;
    } catch (err) {
      self.postMessage(JSON.stringify({ id: -1, error: `cannot load the simulation: ${err}` }));
    }
    return;
  }
  if (!module) return;
  if (message.trace) {
    try {
      await module.load_trace_in_worker(message.trace);
    } catch (err) {
      self.postMessage(JSON.stringify({ id: -1, error: `cannot read the trace: ${err?.message ?? err}` }));
    }
    return;
  }
  try {
    const run = module[KINDS[message.kind ?? 'sweep']];
    if (!run) throw new Error(`no task of kind '${message.kind}'`);
    self.postMessage(JSON.stringify({ id: message.id, run: run(message.task) }));
  } catch (err) {
    self.postMessage(JSON.stringify({ id: message.id, error: String(err?.message ?? err) }));
  }
}
