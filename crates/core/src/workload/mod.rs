//! Workload: arrival counts, job sizes and service lengths.

pub mod sample;
pub mod service;
pub mod size;

pub use service::SlotService;
pub use size::{CAPACITY_UNITS, SizeDist};
