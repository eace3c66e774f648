//! A stability map's rounds as the worker pool's jobs: each run of a round is the core's
//! [`RunTask`] (the probe's scenario as a link, the load, the seed), which a worker makes
//! with [`run_stability_task`] exactly as `packlab stability` makes it. The finder (the
//! rounds, the verdicts, the brackets) stays on the page, in the core's [`Round`]s.

use packlab_core::link::RunTask;
use packlab_core::stability::{Growth, Round};
use wasm_bindgen::prelude::*;

use crate::sweep::pool::Jobs;

/// One round of a map, for the workers.
pub struct MapRound(pub Round);

impl Jobs for MapRound {
    type Out = Growth;
    const KIND: &'static str = "stability";

    fn len(&self) -> usize {
        self.0.len()
    }

    fn task(&self, i: usize) -> String {
        serde_json::to_string(&self.0.run_task(i)).unwrap_or_default()
    }

    fn describe(&self, i: usize) -> String {
        let task = self.0.run_task(i);
        format!("round {} at load {}, seed {}: ", self.0.index + 1, task.load, task.seed)
    }
}

/// [`RunTask::run`] for the worker: a task as JSON in, its [`Growth`] as JSON out.
#[wasm_bindgen]
pub fn run_stability_task(task: &str) -> Result<String, JsValue> {
    let task: RunTask = serde_json::from_str(task).map_err(|e| JsValue::from_str(&format!("bad task: {e}")))?;
    let growth = task.run().map_err(|e| JsValue::from_str(&e))?;
    serde_json::to_string(&growth).map_err(|e| JsValue::from_str(&e.to_string()))
}
