//! Workload: arrival counts, job sizes, job classes, service times and task traces.

pub mod classes;
pub mod sample;
pub mod service;
pub mod size;
pub mod trace;
pub mod vms;

pub use classes::{JobClass, JobClasses, ServiceLaw};
pub use service::{ServiceSampler, SlotService};
pub use size::{CAPACITY_UNITS, SizeDist};
pub use trace::{Task, Trace, TraceType};
pub use vms::{Fleet, ServerKind, VmCatalog};

/// A probability written as a decimal or a fraction `a/b` (`0.25`, `1/3`); the message names
/// the text. Range checks are the caller's, which knows what the probability is of.
pub(crate) fn parse_probability(text: &str) -> Result<f64, String> {
    let t = text.trim();
    let bad = || format!("probability '{t}' is not a number or a fraction a/b");
    match t.split_once('/') {
        Some((a, b)) => {
            let a: f64 = a.trim().parse().map_err(|_| bad())?;
            let b: f64 = b.trim().parse().map_err(|_| bad())?;
            if b == 0.0 { Err(bad()) } else { Ok(a / b) }
        }
        None => t.parse().map_err(|_| bad()),
    }
}
