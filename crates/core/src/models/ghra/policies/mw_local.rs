//! MaxWeight with local refresh (GH-RA §VII, SPEC 3.2.4): a server re-chooses its configuration
//! whenever it holds no job.

use super::maxweight::{MaxWeight, Refresh};
use crate::models::ghra::{Ghra, GhraScenario, boxed};
use crate::model::policy::Policy;

pub const POLICY: Policy<Ghra> = Policy::new(
    "mw-local",
    "MW-local",
    "JSQ to server queues; a server re-chooses its max-weight configuration whenever it is empty (GH-RA §VII)",
    |spec, s: &GhraScenario| boxed(MaxWeight::for_scenario(Refresh::Local, spec, s)?),
);
