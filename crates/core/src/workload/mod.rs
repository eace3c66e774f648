//! Workload: arrival counts, job sizes, job classes and service times.

pub mod classes;
pub mod sample;
pub mod service;
pub mod size;

pub use classes::{JobClass, JobClasses, ServiceLaw};
pub use service::SlotService;
pub use size::{CAPACITY_UNITS, SizeDist};
