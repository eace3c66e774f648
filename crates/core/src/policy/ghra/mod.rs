//! The policies of GH-RA (Ghaderi, "Randomized algorithms for scheduling VMs in the cloud";
//! SPEC 3.2): Algorithm 1 (central queues), Algorithm 2 (per-server queues, JSQ or
//! power-of-two routing), the MaxWeight baselines with global and local refresh, and the
//! LOSS system of Lemma 1 as a test model.

mod alg1;
mod alg2;
mod loss;
mod maxweight;
mod routing;
mod weight;

pub use alg1::Alg1;
pub use alg2::Alg2;
pub use loss::LossSystem;
pub use maxweight::{MaxWeight, Refresh};
pub use routing::{Router, Routing};
pub use weight::Weight;
