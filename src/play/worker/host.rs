//! The race worker's own side: a [`Player`] that `www/race-worker.js` steps off the main thread.
//!
//! The page ([`crate::play::session`], through [`crate::play::worker::client`]) sends the worker
//! its scenario as a link, then commands; the worker plays the race in slices of wall time and
//! sends back a [`Snapshot`](crate::play::snapshot::Snapshot) (postcard bytes, transferred, not
//! copied) whenever the page has drawn the previous one. No message is sent
//! per job or per slot, and the page draws only the latest snapshot.

use std::rc::Rc;

use wasm_bindgen::prelude::*;

use packlab_core::link::decode_link;
use packlab_core::scenario::Setup;

use crate::dom::workers::now_ms;
use crate::play::player::{Command, Player};
use crate::state::Speed;

thread_local! {
    /// What the last panic in this worker said, for the page: a panic traps the wasm, and the
    /// trap's own message ("unreachable") says nothing.
    static PANIC: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Keeps every panic's message for [`race_worker_panic`] (once per worker).
fn keep_panic_messages() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(|info| PANIC.with(|p| *p.borrow_mut() = Some(info.to_string()))));
    });
}

/// The message of the panic that stopped the worker's race, if one did.
#[wasm_bindgen]
pub fn race_worker_panic() -> Option<String> {
    PANIC.with(|p| p.borrow_mut().take())
}

/// A race played in the worker.
#[wasm_bindgen]
pub struct RaceHost {
    player: Player,
}

#[wasm_bindgen]
impl RaceHost {
    /// The race of `link` (a query as [`link_of`] writes it), at `speed` (JSON of [`Speed`]);
    /// with `parts` above 0, one of that many parts of a race split over several workers
    /// ([`crate::play::split`]).
    #[wasm_bindgen(constructor)]
    pub fn new(link: &str, speed: &str, parts: u32) -> Result<RaceHost, JsValue> {
        keep_panic_messages();
        let setup = Rc::new(setup_of(link).map_err(|e| JsValue::from_str(&e))?);
        let speed: Speed = serde_json::from_str(speed).map_err(|e| JsValue::from_str(&format!("bad speed: {e}")))?;
        let player = if parts > 0 { Player::part(setup, speed, u64::from(parts)) } else { Player::new(setup, speed) };
        Ok(Self { player })
    }

    /// Carries out a command (JSON of [`Command`]). Returns whether the page has something
    /// new to show.
    pub fn command(&mut self, command: &str) -> Result<bool, JsValue> {
        let command: Command =
            serde_json::from_str(command).map_err(|e| JsValue::from_str(&format!("bad command: {e}")))?;
        Ok(self.player.apply(command))
    }

    /// Whether the race is playing (the worker keeps calling [`RaceHost::work`]).
    pub fn playing(&self) -> bool {
        self.player.playing()
    }

    /// Whether playing follows a set speed, so the worker may wait between slices.
    pub fn paced(&self) -> bool {
        self.player.paced()
    }

    /// Whether playing at a set speed is behind it (the worker plays on at once).
    pub fn behind(&self) -> bool {
        self.player.behind()
    }

    /// Plays for up to `budget_ms` of wall time.
    pub fn work(&mut self, budget_ms: f64) {
        self.player.set_limit(None);
        self.player.slice(now_ms(), budget_ms, now_ms);
    }

    /// Plays for up to `budget_ms` of wall time, not past slot `mark` (a part of a split race
    /// stops at the page's marks).
    pub fn work_until(&mut self, budget_ms: f64, mark: f64) {
        self.player.set_limit(Some(mark as u64));
        self.player.slice(now_ms(), budget_ms, now_ms);
    }

    /// Slots every lane has run.
    pub fn slot(&self) -> f64 {
        self.player.slot() as f64
    }

    /// The race now, as bytes for [`crate::play::snapshot::Snapshot::from_bytes`].
    pub fn frame(&self) -> Result<Vec<u8>, JsValue> {
        self.player.snapshot().to_bytes().map_err(|e| JsValue::from_str(&e))
    }
}

/// The link the page sends the worker for `setup`: every key that differs from the preset.
pub fn link_of(setup: &Setup) -> String {
    packlab_core::link::encode_link(&setup.preset, &setup.policies, &setup.scenario, &Default::default())
}

/// The setup of a link from [`link_of`]; any key the link decoder refused is an error.
pub fn setup_of(link: &str) -> Result<Setup, String> {
    let (link, errors) = decode_link(link);
    if let Some(e) = errors.first() {
        return Err(e.to_string());
    }
    Ok(Setup { preset: link.preset, scenario: link.scenario, policies: link.policies })
}

#[cfg(test)]
mod tests {
    use super::*;
    use packlab_core::scenario::presets;

    /// The worker rebuilds the page's setup from its link, so the two must be the same
    /// setup: otherwise the page would show another race than the one it was asked for.
    #[test]
    fn every_preset_comes_back_from_its_link() {
        for preset in presets() {
            let mut setup = Setup::from_preset(preset.id).unwrap();
            assert_eq!(setup_of(&link_of(&setup)).unwrap(), setup, "{}", preset.id);
            // And with keys changed from the preset's.
            setup.scenario.set("seed", "77").unwrap();
            assert_eq!(setup_of(&link_of(&setup)).unwrap(), setup, "{} with a new seed", preset.id);
        }
    }

    /// What the page draws is what the worker had: every preset's snapshot, paused with its
    /// decision log, comes back from its bytes equal, words and all.
    #[test]
    fn a_snapshot_crosses_to_the_page_unchanged() {
        for preset in presets() {
            let setup = Rc::new(Setup::from_preset(preset.id).unwrap());
            let mut player = Player::new(setup, Speed::Max);
            player.apply(Command::Seek(40.0));
            player.apply(Command::Step);
            let snapshot = player.snapshot();
            let bytes = snapshot.to_bytes().unwrap();
            // Compared as text: a mean before the warm-up ends is NaN, which equals nothing.
            let back = crate::play::snapshot::Snapshot::from_bytes(&bytes).unwrap();
            assert_eq!(format!("{back:?}"), format!("{snapshot:?}"), "{}", preset.id);
            assert_eq!(back.model.id, snapshot.model.id);
        }
        assert!(
            crate::play::snapshot::Snapshot::from_bytes(&[1, 2, 3]).is_err(),
            "bad bytes are an error, not a panic"
        );
    }
}
