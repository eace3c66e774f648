//! FCFS (MSFQ paper §2, SPEC 5.2.1): the oldest waiting job starts when it fits; while it
//! does not, everything behind it waits (head-of-line blocking).

use crate::EngineError;
use crate::engine::msj::{MsjContext, MsjPolicy};

#[derive(Debug, Clone, Default)]
pub struct Fcfs;

impl MsjPolicy for Fcfs {
    fn admit(&mut self, ctx: &mut MsjContext<'_>) -> Result<(), EngineError> {
        while let Some(class) = ctx.state().oldest_where(|_| true) {
            if ctx.state().need(class) > ctx.state().free() {
                break;
            }
            ctx.start(class, "FCFS: the oldest waiting job fits")?;
        }
        Ok(())
    }
}
