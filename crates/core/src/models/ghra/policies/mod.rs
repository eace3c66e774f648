//! The policies of GH-RA (Ghaderi, "Randomized algorithms for scheduling VMs in the cloud";
//! SPEC 3.2), one file each: Algorithm 1 (central queues), Algorithm 2 (per-server queues, JSQ
//! or power-of-two routing) and the MaxWeight baselines with global and local refresh; the
//! LOSS system of Lemma 1 is a test model.

mod loss;
mod maxweight;
mod routing;
mod weight;

pub use loss::LossSystem;
pub use maxweight::{MaxWeight, Refresh};
pub use routing::{Router, Routing};
pub use weight::Weight;

use super::Ghra;

crate::policy_list!(Ghra: alg1, alg2, alg2_po2, mw_global, mw_local, script);

#[cfg(test)]
mod script_tests;
