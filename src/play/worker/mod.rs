//! The race worker (`www/race-worker.js`): the race played off the main thread, the page only
//! drawing its snapshots.
//!
//! * [`host`]: the worker's own side, [`host::RaceHost`], a
//!   [`Player`](crate::play::player::Player) the worker steps in slices of wall time;
//! * [`client`]: the page's side, [`client::RaceWorker`] and the [`client::RemoteRace`]s it
//!   plays.
//!
//! One worker serves the page for as long as it is open: it loads the page's wasm once, and
//! each new race (a new scenario) replaces the one it played. Messages, as JSON strings to the
//! worker:
//!
//! * `{init: {js: URL, wasm: URL, module: WebAssembly.Module}}` (an object), once;
//! * `{trace: [{name, blob}, …]}` (an object): the files of a trace the page is reading, for
//!   the worker's own library;
//! * `{"race": N, "link": QUERY, "speed": SPEED}`: play race N from now on;
//! * `{"race": N, "do": COMMAND}`: a [`Command`](crate::play::player::Command) for race N;
//! * `{"race": N, "drawn": true}`: the page has taken race N's last snapshot;
//! * `{"race": N, "end": true}`: race N is no longer shown.
//!
//! and from it, as objects: `{race: N, snapshot: ArrayBuffer}` (transferred,
//! [`Snapshot`](crate::play::snapshot::Snapshot) bytes) or `{race: N, error: TEXT}` (`race` is -1
//! when the worker could not load at all).
//!
//! The worker sends a snapshot only once the page has taken the previous one, so however fast
//! the race runs, at most one is on its way, and the page decodes and draws at most one per
//! animation frame.

pub mod client;
pub mod host;
