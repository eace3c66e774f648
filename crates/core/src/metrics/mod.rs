//! Measurement: time averages, per-job times, bounded series, confidence intervals and the
//! instability verdict (SPEC 1.6).

mod job_times;
mod level;
pub(crate) mod nulls;
pub mod recovery;
mod series;
mod stats;
pub mod stretch;
mod verdict;
mod watch;

pub use job_times::JobTimes;
pub use level::Level;
pub use recovery::{Recovery, RecoveryWatch};
pub use series::{Series, SeriesPoint};
pub use stats::{Interval, batch_means_ci, mean_ci, student_t_975};
pub use stretch::{SoFar, Stretch, StretchWatch};
pub use verdict::{
    BATCHES, BatchFit, ERROR_BUDGET, Growth, Judgement, RESOLUTION, Reason, SLOWING, VERDICT_RULE, Verdict, judge,
    judge_runs, t_quantile,
};
pub use watch::{BLOCKS, LOOKS, VerdictWatch};

/// The later of two times. `f64::max` is a call to `fmax` in WebAssembly (Rust's NaN rule is not
/// wasm's `f64.max`), and the levels and series ask on every event: with `fmin` below, 3 % of
/// MaxWeight's time in the page. Times are never NaN, so a comparison gives the same value.
#[inline]
fn later(a: f64, b: f64) -> f64 {
    if a >= b { a } else { b }
}

/// The earlier of two times (see [`later`]).
#[inline]
fn earlier(a: f64, b: f64) -> f64 {
    if a <= b { a } else { b }
}
