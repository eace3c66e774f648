//! FIFO-FF-skip: first fit in arrival order without head-of-line blocking.
//!
//! The variant of FIFO-FF (PG-RR §6, SPEC 2.2.8, RES-11) that skips a job fitting nowhere
//! and places every later job that fits.

use super::fifo_ff::FifoFf;
use crate::models::pgrr::{Pgrr, boxed};
use crate::model::policy::Policy;

pub const POLICY: Policy<Pgrr> = Policy::new(
    "fifo-ff-skip",
    "FIFO-FF-skip",
    "first fit in arrival order, skipping jobs that fit nowhere (FIFO-FF without blocking)",
    |_, _| boxed(FifoFf { blocking: false, blocked: None }),
);
