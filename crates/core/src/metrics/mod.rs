//! Measurement: time averages, bounded series, confidence intervals and the instability
//! verdict (SPEC 1.6).

mod level;
mod series;
mod stats;
mod verdict;

pub use level::Level;
pub use series::{Series, SeriesPoint};
pub use stats::{Interval, batch_means_ci, mean_ci, student_t_975};
pub use verdict::{TrendVerdict, trend_verdict};
