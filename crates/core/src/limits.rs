//! Limits and batch constants every model shares, in one place.
//!
//! The limits keep memory bounded whatever a link or a flag asks for: a run that would need
//! more stops with a message that names the key to change instead of exhausting memory.

/// Most jobs a run may hold waiting. An overloaded system grows its queue without bound; the
/// run stops with [`crate::EngineError::QueueLimit`] instead (about a gigabyte of state in the
/// model that keeps the most per job).
pub const MAX_WAITING: usize = 5_000_000;

/// Batches of a run's measured window for batch-means confidence intervals (SPEC 1.6): the
/// window `[warmup, horizon)` is cut into this many equal parts.
pub const BATCHES: usize = 20;

/// Points kept per series in batch runs (the CLI, the tests): the default grid of 1000 slots
/// gives 2000 points for 2·10^6 slots.
pub const BATCH_MAX_POINTS: usize = 4096;

/// Points kept per series in the page's runs: enough for a smooth curve, bounded however long
/// it runs. The page's verdicts (and the tours' checks, which read them) are on these.
pub const PAGE_MAX_POINTS: usize = 1024;

/// Most cores a multiserver-job machine may have (MSFQ's `cores`, and so a class's need). The
/// SWF reader refuses a log whose machine or job is wider, so that whatever `trace stats` fits
/// to a log runs.
pub const MAX_CORES: u32 = 65_536;
