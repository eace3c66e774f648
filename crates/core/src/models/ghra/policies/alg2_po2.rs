//! Algorithm 2 with power-of-two routing (GH-RA Remark 1): an arriving job joins the shorter
//! of two randomly sampled server queues instead of the shortest of all.

use super::alg2::Alg2;
use super::routing::Routing;
use super::weight::{F, Weight};
use crate::models::ghra::{Ghra, boxed};
use crate::model::policy::Policy;

pub const POLICY: Policy<Ghra> = Policy::new(
    "alg2-po2",
    "Alg. 2 (Po2)",
    "Algorithm 2 with power-of-two routing: the shorter of two random queues (GH-RA Remark 1)",
    |spec, _| boxed(Alg2::new(Weight::of(spec), Routing::PowerOfTwo)),
)
.params(&[F]);
