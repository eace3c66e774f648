//! Policies of the multiserver-job model (MSFQ paper, SPEC 5.2), one file each.
//!
//! Every policy runs its admission routine after each arrival and each completion (RES-55)
//! and starts jobs through [`MsfqContext::apply`], which always takes the oldest waiting job of
//! the chosen class (RES-37) and refuses a job that does not fit. Decisions cost O(number of classes): policies look at the class queue
//! heads, never at every waiting job.

mod phases;

pub use nmsr::{MAX_SCHEDULES, Nmsr, Schedule, SchedulePlan};
pub use phases::{Admission, PhaseMachine};

use super::{Msfq, MsfqContext, MsfqDecision};
use crate::EngineError;

crate::policy_list!(Msfq: fcfs, first_fit, msf, msfq, static_qs, adaptive_qs, nmsr, script);

/// Most Servers First fill: classes by descending need, each admitting its oldest jobs while
/// they fit. One pass suffices: free cores only shrink, so a class passed over never fits
/// later in the same routine.
pub(crate) fn fill_most_servers_first(ctx: &mut MsfqContext<'_>, why: &'static str) -> Result<(), EngineError> {
    for class in (0..ctx.state().classes()).rev() {
        if ctx.state().free() == 0 {
            break;
        }
        while ctx.state().waiting(class) > 0 && ctx.state().need(class) <= ctx.state().free() {
            ctx.apply(MsfqDecision::Start { class, why })?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod script_tests;
