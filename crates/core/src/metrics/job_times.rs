//! Per-job times by one rule in every model (SPEC 1.6): the mean is over every job that arrived
//! in the measurement window. A job that has not reached the measured event by the time of the
//! reading (the start of service for a delay or a wait, the completion for a response time)
//! counts with its time so far, a lower bound of its own: dropping it would make a policy that
//! leaves a growing share of its jobs waiting look faster the worse it gets. Reports print how
//! many were so counted (`censored`). Running sums make this O(1) per event.

/// The times of a set of measured jobs: the finished ones as a sum, the open ones as a count
/// and a sum of arrival times (their times so far at `t` sum to `count·t − sum`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct JobTimes {
    finished: u64,
    sum: f64,
    open: u64,
    open_arrivals: f64,
}

impl JobTimes {
    /// A measured job arrived at `now`.
    pub fn arrived(&mut self, now: f64) {
        self.open += 1;
        self.open_arrivals += now;
    }

    /// The job that arrived at `arrival` reached the measured event at `now`.
    pub fn finished(&mut self, arrival: f64, now: f64) {
        self.open -= 1;
        self.open_arrivals -= arrival;
        self.finished += 1;
        self.sum += now - arrival;
    }

    /// Jobs that reached the event.
    pub fn finished_count(&self) -> u64 {
        self.finished
    }

    /// Jobs that have not yet (the censored ones, at the horizon).
    pub fn open_count(&self) -> u64 {
        self.open
    }

    /// The mean time at `now`; NaN without jobs.
    pub fn mean(&self, now: f64) -> f64 {
        let jobs = self.finished + self.open;
        if jobs == 0 {
            return f64::NAN;
        }
        // The times so far are non-negative; rounding in the running sum must not make them less.
        let so_far = (self.open as f64 * now - self.open_arrivals).max(0.0);
        (self.sum + so_far) / jobs as f64
    }

    /// Both sets together.
    pub fn plus(&self, other: &JobTimes) -> JobTimes {
        JobTimes {
            finished: self.finished + other.finished,
            sum: self.sum + other.sum,
            open: self.open + other.open,
            open_arrivals: self.open_arrivals + other.open_arrivals,
        }
    }

    /// The mean over the finished jobs only: what the estimate would be if the open ones were
    /// dropped (reports do not use it; the tests compare).
    pub fn mean_finished(&self) -> f64 {
        if self.finished == 0 { f64::NAN } else { self.sum / self.finished as f64 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_still_open_count_with_their_time_so_far() {
        let mut d = JobTimes::default();
        assert!(d.mean(0.0).is_nan());
        d.arrived(0.0);
        d.arrived(1.0);
        d.finished(0.0, 2.0);
        // One time of 2, one job open since 1: at t = 10 it has taken 9 so far.
        assert_eq!(d.mean(10.0), 5.5);
        assert_eq!(d.mean_finished(), 2.0);
        assert_eq!((d.finished_count(), d.open_count()), (1, 1));
        d.finished(1.0, 12.0);
        assert_eq!(d.mean(100.0), 6.5);
    }
}
