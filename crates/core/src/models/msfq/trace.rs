//! An SWF log as the multiserver-job model's arrivals.
//!
//! Each job of the log arrives at its submit time and holds `need` = its processors (capped at
//! the k cores; the caps are counted) for its run time. Times are in units of the log's mean run
//! time, so the class table fitted to the log ([`crate::trace::stats::fit_classes`]: one class
//! per need, or per power of two beyond 64 needs) has mean size 1 over the jobs, as the
//! model's tables do. The load knob is the traffic scaling 1/β: submit times are divided by it,
//! run times kept.

use super::classes::{JobClass, JobClasses};
use crate::ConfigError;
use crate::trace::stats::{fit_classes, mean_run, need_rule};
use crate::trace::swf::SwfLog;

/// The jobs of a log, classed by need.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassJobs {
    /// Arrival times after the first, in mean run times (before scaling).
    times: Vec<f64>,
    classes: Vec<u32>,
    services: Vec<f64>,
    /// The fitted class table: class i of `classes` is its entry i.
    pub table: JobClasses,
    /// Jobs that asked for more than k processors and were given k.
    pub capped: u64,
    /// Σ need × service, core-time units.
    work: f64,
}

/// Shortest service, in mean run times: a job that ran 0 s still takes an instant.
const MIN_SERVICE: f64 = 1e-9;

impl ClassJobs {
    pub fn from_swf(log: &SwfLog, cores: u32) -> Result<Self, ConfigError> {
        let fitted = fit_classes(log, cores);
        let table = JobClasses::new(
            fitted
                .iter()
                .map(|c| JobClass { need: c.need, probability: c.probability, mean_size: c.mean_size })
                .collect(),
            |i| format!("the class of need {} fitted to the log", fitted[i].need),
        )
        .map_err(|e| ConfigError::new("trace", e.message))?;
        let need = need_rule(log, cores);
        let unit = match mean_run(log) {
            m if m > 0.0 => m,
            _ => 1.0,
        };
        let first = log.jobs.first().map_or(0.0, |j| j.submit);
        let mut jobs =
            Self { times: Vec::new(), classes: Vec::new(), services: Vec::new(), table, capped: 0, work: 0.0 };
        for job in &log.jobs {
            let n = need(job.processors);
            let class = jobs.table.as_slice().iter().position(|c| c.need == n).expect("every need has its class");
            let service = (job.run_time / unit).max(MIN_SERVICE);
            jobs.capped += u64::from(job.processors > cores);
            jobs.times.push((job.submit - first) / unit);
            jobs.classes.push(class as u32);
            jobs.services.push(service);
            jobs.work += f64::from(n) * service;
        }
        Ok(jobs)
    }

    pub fn len(&self) -> usize {
        self.times.len()
    }

    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }

    /// Arrival time of job `i` under traffic scaling `scaling` = 1/β.
    pub fn time(&self, i: usize, scaling: f64) -> f64 {
        self.times[i] / scaling
    }

    pub fn class(&self, i: usize) -> usize {
        self.classes[i] as usize
    }

    pub fn service(&self, i: usize) -> f64 {
        self.services[i]
    }

    /// From the first arrival to the last under `scaling`.
    pub fn span(&self, scaling: f64) -> f64 {
        self.times.last().map_or(0.0, |t| t / scaling)
    }

    /// Arrivals per time unit under `scaling`.
    pub fn rate(&self, scaling: f64) -> f64 {
        let span = self.span(scaling);
        if span > 0.0 { self.len() as f64 / span } else { 0.0 }
    }

    /// Offered core-time per time unit over `cores` while the log lasts.
    pub fn offered_load(&self, cores: u32, scaling: f64) -> f64 {
        let span = self.span(scaling);
        if span > 0.0 { self.work / (span * f64::from(cores)) } else { 0.0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::Report;
    use crate::trace::swf::SwfJob;

    #[test]
    fn jobs_take_the_class_of_their_need() {
        let job = |submit, run_time, processors| SwfJob { submit, run_time, processors };
        let log = SwfLog {
            jobs: vec![job(100.0, 10.0, 1), job(110.0, 30.0, 4), job(120.0, 20.0, 64), job(130.0, 0.0, 1)],
            max_procs: Some(64),
            report: Report::default(),
        };
        let jobs = ClassJobs::from_swf(&log, 8).unwrap();
        let needs: Vec<u32> = jobs.table.as_slice().iter().map(|c| c.need).collect();
        assert_eq!(needs, [1, 4, 8]);
        assert_eq!((0..4).map(|i| jobs.class(i)).collect::<Vec<_>>(), [0, 1, 2, 0]);
        assert_eq!(jobs.capped, 1);
        // Mean run 15 s is the time unit.
        assert_eq!(jobs.time(1, 1.0), 10.0 / 15.0);
        assert_eq!(jobs.time(1, 2.0), 5.0 / 15.0);
        assert_eq!(jobs.service(1), 2.0);
        assert_eq!(jobs.service(3), MIN_SERVICE);
        assert_eq!(jobs.span(1.0), 2.0);
    }
}
