//! FCFS (MSFQ paper §2, SPEC 5.2.1): the oldest waiting job starts when it fits; while it
//! does not, everything behind it waits (head-of-line blocking).

use crate::EngineError;
use crate::models::msfq::{Msfq, MsfqContext, MsfqDecision, MsfqPolicy, boxed};
use crate::model::policy::Policy;

pub const POLICY: Policy<Msfq> = Policy::new(
    "fcfs",
    "FCFS",
    "the oldest job starts when it fits; everything behind it waits (MSFQ §2)",
    |_, _| boxed(Fcfs),
);

#[derive(Debug, Clone, Default)]
pub struct Fcfs;

impl MsfqPolicy for Fcfs {
    fn admit(&mut self, ctx: &mut MsfqContext<'_>) -> Result<(), EngineError> {
        while let Some(class) = ctx.state().oldest_where(|_| true) {
            if ctx.state().need(class) > ctx.state().free() {
                break;
            }
            ctx.apply(MsfqDecision::Start { class, why: "FCFS: the oldest waiting job fits" })?;
        }
        Ok(())
    }
}
