//! A change of GH-RA's fleet while a run plays (RES-97): the servers that take jobs move, the
//! removed ones drain. Cold paths of [`GhraSim`], run at a change and when a draining server's
//! job leaves; a run without a change of its fleet never enters them.

use super::engine::GhraSim;
use super::state::{GhraEvent, GhraJob, QueueRef};
use crate::EngineError;
use crate::decisions::Decision;
use crate::resources::Resources;

impl GhraSim {
    /// Servers `0..servers` take jobs from now on. Removed servers (the highest-numbered)
    /// keep their running jobs and get no room; the jobs waiting in their own queues are routed
    /// again, in arrival order, as if they arrived now (keeping their arrival time). Added
    /// servers are empty and take jobs at once. No draw but the routing's own.
    pub(super) fn set_servers(&mut self, servers: usize) -> Result<(), EngineError> {
        let old = self.state.active;
        self.state.active = servers;
        let mut moved: Vec<(GhraJob, usize)> = Vec::new();
        for l in servers..old {
            let st = &mut self.state;
            st.capacities[l] = st.used[l];
            for j in 0..st.types() {
                let i = st.index(QueueRef::Local { server: l as u32, job_type: j as u16 });
                let n = st.queues[i].len();
                moved.extend(st.queues[i].drain(..).map(|job| (job, j)));
                st.waiting_by_type[j] -= n;
                st.waiting_total -= n;
            }
            st.waiting_at[l] = 0;
            self.ticks.server_changed(l, &self.state);
        }
        for l in old..servers {
            // A server still draining takes jobs again beside those it holds.
            self.state.capacities[l] = self.config.capacities[l];
            self.ticks.server_changed(l, &self.state);
        }
        self.ticks.set_active(servers, &self.state);
        let present = self.present();
        self.stats.set_capacity(self.now, &present);
        self.log.drop_notes();
        let (mut ctx, policy) = self.context();
        policy.on_servers(old, &mut ctx)?;
        moved.sort_unstable_by_key(|(job, _)| job.id);
        for (job, j) in moved {
            self.requeue(job, j)?;
        }
        self.ticks.settle(self.now);
        Ok(())
    }

    /// The capacities present: the servers that take jobs and those still draining.
    fn present(&self) -> Vec<Resources> {
        let st = &self.state;
        let present = |l: &usize| *l < st.active || st.jobs[*l] > 0;
        (0..st.servers()).filter(present).map(|l| self.config.capacities[l]).collect()
    }

    /// A job of `job_type` left draining `server`: its room goes with it, and once the server
    /// is empty it has left (the capacity present shrinks).
    pub(super) fn drained(&mut self, server: usize, job_type: usize) {
        let st = &mut self.state;
        st.capacities[server] = st.capacities[server].minus(&st.demands[job_type]);
        if st.jobs[server] == 0 {
            let present = self.present();
            self.stats.set_capacity(self.now, &present);
        }
    }

    /// A waiting job of a removed server joins the queue the policy routes it to now.
    fn requeue(&mut self, job: GhraJob, j: usize) -> Result<(), EngineError> {
        self.log.drop_notes();
        let (mut ctx, policy) = self.context();
        let server = policy.route(j, &mut ctx)?;
        let l = server as usize;
        if l >= self.state.active {
            return Err(self.state.refused(server, job.id, j));
        }
        let queue = QueueRef::Local { server, job_type: j as u16 };
        let st = &mut self.state;
        let i = st.index(queue);
        st.queues[i].push_back(job);
        st.waiting_by_type[j] += 1;
        st.waiting_total += 1;
        st.waiting_at[l] += 1;
        let now = self.now;
        self.log.record(|| {
            Decision::new(
                now,
                "route",
                format!("job {} ({}) joins server {}'s queue", job.id, self.config.type_names[j], server + 1),
                "its server was removed: routed again",
            )
            .job(job.id)
            .server(server)
            .bin(j)
        });
        self.dispatch(GhraEvent::Arrival { queue })
    }
}
