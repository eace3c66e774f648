//! Workload samplers every model shares: arrival counts and times, uniform and exponential
//! draws, and the shapes of continuous service times. Each model's own workload (PG-RR's job
//! sizes, MSFQ's classes, GH-RA's fleets, PG-AS's traces) lives in its folder.

pub mod sample;
pub mod service_law;

pub use service_law::ServiceLaw;

/// A probability written as a decimal or a fraction `a/b` (`0.25`, `1/3`); the message names
/// the text. Range checks are the caller's, which knows what the probability is of.
pub fn parse_probability(text: &str) -> Result<f64, String> {
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
