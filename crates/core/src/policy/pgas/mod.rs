//! The policies of PG-AS (Psychas & Ghaderi, "A theory of auto-scaling for resource
//! reservation in cloud services"; SPEC 4.3-4.4) on the loss model with slots
//! ([`crate::engine::reservation`]): DRA, DRA+Preemption, power-of-d choices, and the
//! infinite-server upper bound.

mod dra;
mod dra_preempt;
mod power_of_d;
mod reservation_factor;
mod upper_bound;

pub use dra::Dra;
pub use power_of_d::{DEFAULT_D, PowerOfD};
pub use reservation_factor::ReservationFactor;
pub use upper_bound::UpperBound;

#[cfg(test)]
mod tests;
