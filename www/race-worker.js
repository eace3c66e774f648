// The race worker: plays the page's race off the main thread (src/play/worker/mod.rs documents
// the messages, client.rs there is the page's side). It loads the page's own wasm-bindgen
// module (whose `main` does nothing outside a window) and steps a `RaceHost` in slices of wall
// time; between slices it reads the page's messages, and sends a snapshot whenever the page has
// taken the previous one. A worker that plays one part of a race split over several workers
// (src/play/split.rs) sends one instead at each of the page's marks, and after each command.

/** Wall time of one slice of play, in ms: short enough that a command (Pause) or the page's
 * request for the next snapshot waits little, long enough that yielding costs nothing. */
const SLICE_MS = 4;
/** Pause between slices when a speed is set (the race then needs little time). */
const PACED_MS = 8;
/** How long the race plays on after the page stopped taking snapshots. A page in a hidden tab
 * gets no animation frames, so it takes none: the race then waits, as it did when it was
 * stepped in the page's own frames, instead of running a core in a tab nobody looks at, and
 * goes on where it was when the page takes the next one. */
const UNSEEN_MS = 500;

let module = null;
let host = null;
let race = -1;
/** Whether the page took the last snapshot, and whether there is something new to send. */
let taken = true;
let fresh = false;
/** When the last snapshot was sent. */
let sentAt = 0;
/** A part of a split race: the slots to stop and send a snapshot at while playing (else null). */
let marks = null;
/** Whether the part waited for a mark since its last snapshot, and the commands it carried out. */
let starved = false;
let answered = 0;
/** Whether a slice is scheduled. */
let scheduled = false;
const ready = new Promise((resolve) => (self.resolveReady = resolve));

// A message to oneself runs the next slice after any message from the page (setTimeout(0)
// would be held to 4 ms once nested).
const channel = new MessageChannel();
channel.port1.onmessage = () => {
  scheduled = false;
  pump();
};

function schedule(delay) {
  if (delay > 0) {
    setTimeout(() => schedule(0), delay);
  } else if (!scheduled) {
    scheduled = true;
    channel.port2.postMessage(null);
  }
}

function fail(err) {
  // A panic traps the wasm ("unreachable"); its own message was kept on the Rust side.
  let panic = null;
  try {
    panic = module?.race_worker_panic?.() ?? null;
  } catch {
    // The instance cannot answer after all: the trap's message must do.
  }
  self.postMessage({ race, error: panic ?? String(err?.message ?? err) });
  host?.free();
  host = null;
}

function send() {
  const bytes = host.frame();
  if (marks) {
    self.postMessage({ race, snapshot: bytes.buffer, starved, answered }, [bytes.buffer]);
    starved = false;
  } else {
    self.postMessage({ race, snapshot: bytes.buffer }, [bytes.buffer]);
  }
  fresh = false;
  taken = false;
  sentAt = performance.now();
}

/** A part of a split race plays to its next mark, sends its snapshot there, and waits for the
 * page's next mark when it has none (the page hands them out as it draws, so a hidden page
 * stops the race as it stops a whole one). */
function pumpPart() {
  if (!host.playing()) return;
  if (!marks.length) {
    starved = true;
    return;
  }
  host.work_until(SLICE_MS, marks[0]);
  if (!host.playing()) {
    // The horizon, a link's t=, a failure: news at once.
    send();
    return;
  }
  if (host.slot() >= marks[0]) {
    marks.shift();
    send();
  }
  // A part held at its mark falls behind a set pace: it plays on to the next mark at once
  // (waiting a slice each mark lost a third of the pace and more: issue 53).
  schedule(host.paced() && !host.behind() ? PACED_MS : 0);
}

function pump() {
  if (!host) return;
  if (marks) {
    try {
      pumpPart();
    } catch (err) {
      fail(err);
    }
    return;
  }
  try {
    // Sent first: the page asked for it and draws it with its next frame. A race that
    // stopped is sent whether or not the page took the last one: it answers a command (or
    // ends the run), and a page out of sight, which gets no animation frames to take
    // snapshots in, must still learn that it paused.
    if (fresh && (taken || !host.playing())) send();
    // Unseen: wait for the page to take the snapshot it has (its message schedules the next
    // slice).
    if (!taken && performance.now() - sentAt > UNSEEN_MS) return;
    if (host.playing()) {
      host.work(SLICE_MS);
      // The last slice may have ended the play (the horizon, a link's t=): that is news too.
      fresh = true;
    }
    if (host.playing() || (fresh && taken)) schedule(host.paced() ? PACED_MS : 0);
  } catch (err) {
    fail(err);
  }
}

// Messages are handled one after the other, each to its end: a trace's files are read before
// the race that replays them is built.
let handled = Promise.resolve();
self.onmessage = ({ data }) => {
  handled = handled.then(() => handle(data)).catch((err) => fail(err));
};

async function handle(data) {
  const message = typeof data === 'string' ? JSON.parse(data) : data;
  if (message.init) {
    try {
      module = await import(message.init.js);
      // The page's compiled module when it sent one: nothing to fetch or compile again.
      await module.default({ module_or_path: message.init.module ?? message.init.wasm });
      self.resolveReady();
    } catch (err) {
      self.postMessage({ race: -1, error: `cannot load the simulation: ${err}` });
    }
    return;
  }
  await ready;
  if (message.trace) {
    // A failure here is not reported: the race that needs the trace then fails to build,
    // and the page runs it itself.
    try {
      await module.load_trace_in_worker(message.trace);
    } catch (err) {
      console.warn(`packlab race worker: cannot read the trace: ${err}`);
    }
    return;
  }
  if (message.link !== undefined) {
    host?.free();
    host = null;
    race = message.race;
    marks = message.parts > 1 ? [] : null;
    // A part rebuilt with other lanes of the same race goes on counting where the page says.
    (starved = false), (answered = message.answered ?? 0);
    try {
      host = new module.RaceHost(message.link, message.speed, message.parts ?? 0);
    } catch (err) {
      fail(err);
      return;
    }
    (taken = true), (fresh = true);
    if (marks) send();
    else schedule(0);
    return;
  }
  if (message.race !== race || !host) return;
  if (message.end) {
    host.free();
    host = null;
  } else if (marks && message.marks) {
    marks = message.marks;
    schedule(0);
  } else if (marks && message.more) {
    marks.push(...message.more);
    schedule(0);
  } else if (marks && message.do !== undefined) {
    // A part answers every command with its snapshot: the page waits for every part's answer
    // before it shows the race or moves the parts to one moment.
    // Its marks go with it: the page sends the marks that follow (playing on from where the
    // command left the part) after the command.
    marks = [];
    try {
      host.command(message.do);
      answered += 1;
      send();
    } catch (err) {
      fail(err);
      return;
    }
    schedule(0);
  } else if (message.drawn) {
    taken = true;
    schedule(0);
  } else if (message.do !== undefined) {
    try {
      if (host.command(message.do)) fresh = true;
    } catch (err) {
      fail(err);
      return;
    }
    schedule(0);
  }
}
