//! What stands in for the script engine in a build without it (the page's first download,
//! which leaves rhai out: docs/web.md, "Less to download"). A link or a lane with a script
//! still parses, keeps its label and goes back into a link; only compiling or running one
//! refuses, saying why. The page loads the build with the engine before it gets here.

use super::{ScriptError, source};
use crate::ConfigError;
use crate::model::policy::PolicySpec;

/// Why a script cannot run in this build.
const ABSENT: &str = "this build of packlab leaves the script engine out: open the page again to load it";

/// A compiled script: none can be made without the engine.
#[derive(Debug)]
pub enum Program {}

/// What the editor would say of `source`: that it cannot check it here.
pub fn check(source: &str) -> Vec<ScriptError> {
    match source::check_length(source.len()) {
        Err(message) => vec![ScriptError::new(None, message)],
        Ok(()) => vec![ScriptError::new(None, ABSENT)],
    }
}

/// The error of building `spec`'s scripted lane.
pub fn refused(spec: &PolicySpec) -> ConfigError {
    spec.error(ABSENT)
}

/// The wall clock of scripts' safety net: no script runs here, so nothing keeps it.
pub fn set_clock(_now_ms: fn() -> f64) {}

/// Whether the scripted lane `spec` may wait for the engine: a rhai script may (its source's
/// encoding and length are the parameters' checks, its compiling waits for the build that has
/// the engine); a host program's policy (`host=`, the Python package's) is refused as the build
/// with the engine refuses it, since no build has one here.
pub fn unbuilt(spec: &PolicySpec) -> Result<(), ConfigError> {
    match spec.param("host") {
        Some(id) => Err(spec.error(super::no_host_policy(id))),
        None => Ok(()),
    }
}
