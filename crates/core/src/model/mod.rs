//! The entities of every model: resource vectors, jobs and servers (SPEC 1.2), and the
//! PG-RR size partition.

pub mod configurations;
mod job;
pub mod partition;
mod resources;
mod server;

pub use configurations::{Configurations, TooManyConfigurations};
pub use job::{JobId, RunningJob, WaitingJob};
pub use partition::{Config, Partition};
pub use resources::{MAX_RESOURCES, Resources};
pub use server::{Server, ServerId};
