//! The race worker (`www/race-worker.js`): the race played off the main thread, the page only
//! drawing its snapshots.
//!
//! * [`host`]: the worker's own side, [`host::RaceHost`], a
//!   [`Player`](crate::play::player::Player) the worker steps in slices of wall time;
//! * [`client`]: the page's side, [`client::RaceWorker`] and the [`client::RemoteRace`]s it
//!   plays.
//!
//! The race workers serve the page for as long as it is open: each loads the page's wasm once,
//! and each new race (a new scenario) replaces the one it played. A race of several lanes is
//! split over up to one worker per core, each playing one part of its lanes
//! ([`crate::play::split`]); a race of one lane, or on one core, plays whole in the first worker.
//! Messages, as JSON strings to a worker:
//!
//! * `{init: {js: URL, wasm: URL, module: WebAssembly.Module}}` (an object), once;
//! * `{trace: [{name, blob}, …]}` (an object): the files of a trace the page is reading, for
//!   the worker's own library (every worker gets them);
//! * `{"race": N, "link": QUERY, "speed": SPEED, "parts": K}`: play race N from now on (with
//!   K above 1, one of K parts of a split race: QUERY names that part's policies; with
//!   `"answered": A`, the same race's part rebuilt with other lanes, whose count of commands
//!   carried out goes on from A);
//! * `{"race": N, "do": COMMAND}`: a [`Command`](crate::play::player::Command) for race N;
//! * `{"race": N, "drawn": true}`: the page has taken race N's last snapshot;
//! * `{"race": N, "marks": [SLOT, …]}`, `{"race": N, "more": [SLOT, …]}`: a part's marks, the
//!   slots it stops at while playing (replaced, or more after those it has);
//! * `{"race": N, "end": true}`: race N is no longer shown.
//!
//! and from it, as objects: `{race: N, snapshot: ArrayBuffer}` (transferred,
//! [`Snapshot`](crate::play::snapshot::Snapshot) bytes; a part adds `starved`, whether it waited
//! for a mark, and `answered`, the commands it carried out) or `{race: N, error: TEXT}` (`race`
//! is -1 when the worker could not load at all).
//!
//! A whole race's worker sends a snapshot only once the page has taken the previous one, so
//! however fast the race runs, at most one is on its way, and the page decodes and draws at
//! most one per animation frame. A part sends one at each mark and after each command; the page
//! hands out marks about 6 ms of play apart, a few ahead and several to a message, and stops handing them out when it
//! stops drawing.

pub mod client;
pub mod host;
