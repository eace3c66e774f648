//! The stability map: where each policy stops being stable, as a bracket of the load, per
//! value of a second scenario key, next to the capacity and the fraction of it the papers
//! prove. `packlab stability` and the page follow the same [`Finder`], so they make the same
//! runs and find the same brackets.
//!
//! # The test behind "stable"
//!
//! A finite run cannot prove stability; what it can measure is whether the queue still grows
//! and how fast. For each replication the test fits a least-squares line to the batch means of
//! the queue (n(t), the jobs in the system, where the model's verdict judges it) over each half
//! of the run, and divides its slope by the arrival rate: the *growth*, the fraction of the
//! arrivals that stays in the queue. An unstable policy whose throughput saturates at its
//! boundary ρ_b keeps (ρ − ρ_b)/ρ of them at load ρ; a stable one, once at its level, none.
//! Over the replications (common random numbers: replication r has seed + r at every load and
//! for every policy) the second halves' mean growth gets a Student-t 95% interval, and
//! ([`judge`]):
//!
//! * **stable** when the interval lies below 0.5% ([`RESOLUTION`]);
//! * **unstable** when it lies above 0, its mean is at least 0.5%, and the growth does not slow
//!   down from the first half to the second (at least half the first half's);
//! * **undecided** otherwise: the load is judged again on all the replications (it is judged
//!   first on half of them, which decides most loads away from a boundary). Near a boundary a stable queue fills slowly (its relaxation
//!   time grows like 1/(1 − ρ/ρ_b)²), and an unstable queue's stable part fills before it
//!   grows linearly: both show growth that slows down. The load is then run again with the
//!   horizon doubled, up to [`Options::max_doublings`] times; still undecided, it is a point
//!   of the cell's undecided band, which the search narrows around from both sides.
//!
//! # The finder
//!
//! Per (axis value, policy) cell the first round tests [`FIRST_ROUND`]'s fractions of the
//! capacity ([`crate::model::Model::capacity`]; the scenario's load where it is unknown); then
//! each round bisects the bracket [lo, hi] (lo the largest load judged stable, hi the smallest
//! not), stepping down by halves or up by a quarter while an end is missing, until
//! hi − lo ≤ 2% of hi ([`Options::tolerance`]) or the run budget cannot pay for the next
//! round. The boundary is then reported as the interval [lo × (1 − 0.5%), hi × (1 + 1%)]
//! ([`Cell::boundary`]): a load judged stable may lie up to the resolution past its boundary
//! ([`boundary_floor`]), and one judged not stable may lie just below it when its queue was
//! still filling at the end of the runs ([`boundary_ceiling`], a margin measured on boundaries
//! known exactly). Each round is a list of sweep plans (one policy, one load, its replications), whose
//! runs are independent: they run in parallel, in workers or in shards, and only the round's
//! verdicts decide the next.

mod finder;
mod map;
mod spec;
mod test;

pub use crate::metrics::{Growth, RESOLUTION, SLOWING, judge};
pub use finder::{Cell, FIRST_ROUND, Finder, Options, Probe, Round, Status, Tested};
pub use map::{COLUMNS, COVERAGE_RULE, Probed, below_proven, boundaries, csv_rows, graph, not_proven, probed};
pub use spec::{MAP, MAP_AXIS, MAP_MAX_REPS, MapSpec};
pub use test::{
    Judgement, TEST_RULE, UNMIXED_MARGIN, Verdict, boundary_ceiling, boundary_floor, growth, look_budget, looks,
    measure,
};
