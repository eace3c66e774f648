//! The policies of PG-AS (Psychas & Ghaderi, "A theory of auto-scaling for resource
//! reservation in cloud services"; SPEC 4.3-4.4), one file each, on the loss model with slots:
//! DRA, DRA+Preemption, power-of-d choices, and the infinite-server upper bound.

mod reservation_factor;

pub use dra::Dra;
pub use po_d::{DEFAULT_D, PowerOfD};
pub use reservation_factor::ReservationFactor;
pub use upper_bound::UpperBound;

use super::Pgas;

crate::policy_list!(Pgas: dra, dra_preempt, po_d, upper_bound);

mod dra_servers;

#[cfg(test)]
mod tests;
