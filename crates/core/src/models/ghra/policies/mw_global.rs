//! MaxWeight with global refresh (GH-RA §VII, SPEC 3.2.4): configurations are re-chosen only when
//! every server is empty at once.

use super::maxweight::{MaxWeight, Refresh};
use crate::models::ghra::{Ghra, GhraScenario, boxed};
use crate::model::policy::Policy;

pub const POLICY: Policy<Ghra> = Policy::new(
    "mw-global",
    "MW-global",
    "JSQ to server queues; max-weight configurations re-chosen only when every server is empty (GH-RA §VII)",
    |spec, s: &GhraScenario| boxed(MaxWeight::for_scenario(Refresh::Global, spec, s)?),
);
