//! DRA across a change of the server count (RES-98): a removed server leaves its
//! configuration (it counts in no X_k, has no rank and is in no group) and, while it holds
//! jobs, is a migration source ahead of the reject group, kept per type by (jobs held, id) so
//! that the one holding the fewest jobs, then the lowest id, gives its job first (RES-29's
//! order among servers of equal rank). An added empty server joins with the empty
//! configuration (CRA's first choice to reassign, RES-26); a draining one brought back rejoins
//! its configuration as its newest server, with the jobs it holds.

use super::dra::{Dra, NONE};
use crate::EngineError;
use crate::models::pgas::{PgasContext, PgasDecision, PgasState};

impl Dra {
    /// Whether `server` drains: it takes no job and is in no configuration.
    pub(super) fn is_draining(&self, server: u32) -> bool {
        self.conf_of[server as usize] == NONE && server as usize >= self.active
    }

    /// A type-j job left the draining `server`: its place among the sources moves, O(J log L).
    pub(super) fn drained_one(&mut self, server: u32, job_type: usize, st: &PgasState) {
        let n = st.jobs_on(server as usize);
        for t in 0..self.types {
            let now = st.placed(server as usize, t);
            if now + u32::from(t == job_type) > 0 {
                self.draining[t].remove(&(n + 1, server));
                if now > 0 {
                    self.draining[t].insert((n, server));
                }
            }
        }
    }

    /// Servers `0..servers` take jobs from now on (the engine has made the others drain or
    /// leave). O(servers moved · (J log L + X_k)); the caller runs CRA with the new N.
    pub(super) fn change_servers(&mut self, servers: usize, ctx: &mut PgasContext<'_>) -> Result<(), EngineError> {
        let old = self.active;
        self.active = servers;
        for server in servers..old {
            let server = server as u32;
            if self.conf_of[server as usize] != NONE {
                self.leave(server);
                self.conf_of[server as usize] = NONE;
            }
            let n = ctx.state().jobs_on(server as usize);
            for t in 0..self.types {
                if ctx.state().placed(server as usize, t) > 0 {
                    self.draining[t].insert((n, server));
                }
            }
        }
        for server in old..servers {
            let server = server as u32;
            let n = ctx.state().jobs_on(server as usize);
            if n > 0 {
                for set in &mut self.draining {
                    set.remove(&(n, server));
                }
                let c = ctx.state().configuration(server as usize).expect("a DRA server holding jobs is configured");
                self.join(server, c, ctx.state());
            } else {
                ctx.apply(PgasDecision::Reconfigure { server, configuration: self.zero })?;
                self.join(server, self.zero, ctx.state());
            }
        }
        Ok(())
    }
}
