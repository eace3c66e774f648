//! What a script may spend, whatever it does: a deterministic budget of operations per call
//! and per run, with the costly work weighted, and a wall-clock safety net behind it.
//!
//! **The budget is deterministic.** It counts rhai's own operations (a statement, an
//! expression, a loop turn; one each, closures called by built-ins included) plus what the
//! engine's operation count does not see: reading a variable costs one operation per
//! [`BYTES_PER_OPERATION`] of its value (a read may copy it), the built-ins whose work grows
//! with a list (`contains`, `index_of`, `==` on lists and maps, `dedup`, `sort`, `pad`,
//! `split`, …) cost one or more operations per element they touch
//! ([`crate::script::sandbox`]), and a model's functions that hand over lists (`waiting()`,
//! `eligible()`) one per element. The same script, scenario and seed therefore stop at the
//! same operation on every machine, natively and in the page, however fast it is.
//!
//! **The clock is a safety net.** Where a clock is available (natively always; in the page once
//! the page lends one with [`set_clock`]), a call that runs for more than
//! [`WALL_MS_PER_CALL`] milliseconds stops too. Only work the budget does not weigh can get
//! there (a budget of 10^6 operations takes about 0.1 s natively), so it depends on the
//! machine only for a script that would otherwise hold it.

use std::cell::Cell;
use std::sync::OnceLock;

use rhai::{Dynamic, EvalAltResult, NativeCallContext, Position};

/// Operations one call of `fn schedule` may spend (top-level code has the same budget).
pub const MAX_CALL_COST: u64 = 1_000_000;
/// What a run may spend in all: this, plus [`RUN_COST_PER_CALL`] per call made so far.
pub const RUN_BASE_COST: u64 = 3_000_000;
/// What a run may spend per call on average, past [`RUN_BASE_COST`].
pub const RUN_COST_PER_CALL: u64 = 100_000;
/// Bytes of a value per operation its read costs: an element of a list counts 16 bytes, an
/// entry of a map 64, a string its bytes. Every value a call makes comes from a read, a
/// literal, a built-in or a closure, each paid for, so a call makes at most
/// [`MAX_CALL_COST`] × this many bytes of values (128 MB).
pub const BYTES_PER_OPERATION: u64 = 128;
/// The wall-clock safety net: a call running longer than this stops (where a clock exists).
pub const WALL_MS_PER_CALL: f64 = 2_000.0;

/// Operations between two looks at the clock (a look costs about as much as an operation).
const CLOCK_EVERY: u64 = 1 << 10;

/// The clock the page lends (milliseconds); natively the process's own.
static CLOCK: OnceLock<fn() -> f64> = OnceLock::new();

/// Lends the budget a clock in milliseconds (the page's `performance.now()` or `Date.now()`;
/// `std::time::Instant` does not exist in the browser). The first clock lent stays.
pub fn set_clock(now_ms: fn() -> f64) {
    let _ = CLOCK.set(now_ms);
}

fn now_ms() -> Option<f64> {
    if let Some(clock) = CLOCK.get() {
        return Some(clock());
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        static START: OnceLock<std::time::Instant> = OnceLock::new();
        Some(START.get_or_init(std::time::Instant::now).elapsed().as_secs_f64() * 1e3)
    }
    #[cfg(target_arch = "wasm32")]
    None
}

/// Which budget a script exceeded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exceeded {
    /// [`MAX_CALL_COST`] in one call.
    Call,
    /// The run's: `spent` operations over `calls` calls, this one included.
    Run { spent: u64, calls: u64 },
    /// [`WALL_MS_PER_CALL`] of the machine's time in one call.
    Wall,
}

impl Exceeded {
    /// What the message says.
    pub fn describe(self) -> String {
        match self {
            Self::Call => format!("exceeded {MAX_CALL_COST} operations in one call (an endless loop?)"),
            Self::Run { spent, calls } => format!(
                "exceeded the run's budget of {RUN_BASE_COST} operations plus {RUN_COST_PER_CALL} per call \
                 ({spent} operations in {calls} calls)"
            ),
            Self::Wall => format!(
                "ran for more than {} s of this machine's time in one call (a safety net for work the \
                 operation budget does not weigh)",
                WALL_MS_PER_CALL / 1e3
            ),
        }
    }

    /// The error that stops the script: uncatchable, so `try … catch` cannot swallow it.
    pub fn error(self) -> Box<EvalAltResult> {
        Box::new(EvalAltResult::ErrorTerminated(Dynamic::from(self), Position::NONE))
    }
}

/// What a run has spent, kept by the policy (so a run's clone, a timeline checkpoint, carries
/// it, and a run replayed from one stops where it stopped).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RunBudget {
    pub spent: u64,
    pub calls: u64,
}

impl RunBudget {
    /// What the next call may spend: the call's budget, or less when the run's is nearly
    /// used up (then exceeding it is the run's).
    fn allowance(&self) -> (u64, bool) {
        let run = RUN_BASE_COST.saturating_add(RUN_COST_PER_CALL.saturating_mul(self.calls + 1));
        let left = run.saturating_sub(self.spent);
        if left < MAX_CALL_COST { (left, true) } else { (MAX_CALL_COST, false) }
    }
}

/// The meter of one engine: what the current call has spent and may spend.
#[derive(Debug, Default)]
pub struct Meter {
    spent: Cell<u64>,
    limit: Cell<u64>,
    /// The run at the start of this call, when the run's budget is the one that binds.
    run: Cell<Option<RunBudget>>,
    deadline: Cell<f64>,
    next_clock: Cell<u64>,
}

impl Meter {
    /// Starts a call: top-level code (`run` is `None`) or a call of a run that has spent `run`.
    pub fn start(&self, run: Option<RunBudget>) {
        let (limit, binds) = run.map_or((MAX_CALL_COST, false), |r| r.allowance());
        self.spent.set(0);
        self.limit.set(limit);
        self.run.set(run.filter(|_| binds));
        self.deadline.set(now_ms().map_or(f64::INFINITY, |t| t + WALL_MS_PER_CALL));
        self.next_clock.set(CLOCK_EVERY);
    }

    /// What this call has spent.
    pub fn spent(&self) -> u64 {
        self.spent.get()
    }

    /// Spends `units`; the budget exceeded, if one is.
    pub fn charge(&self, units: u64) -> Result<(), Exceeded> {
        let spent = self.spent.get().saturating_add(units);
        self.spent.set(spent);
        if spent > self.limit.get() {
            return Err(match self.run.get() {
                Some(run) => Exceeded::Run { spent: run.spent.saturating_add(spent), calls: run.calls + 1 },
                None => Exceeded::Call,
            });
        }
        if spent >= self.next_clock.get() {
            self.next_clock.set(spent.saturating_add(CLOCK_EVERY));
            if now_ms().is_some_and(|t| t > self.deadline.get()) {
                return Err(Exceeded::Wall);
            }
        }
        Ok(())
    }
}

/// Spends `units` of the budget of the script calling `at` (a model's function handing over a
/// list): an uncatchable error once a budget is exceeded.
pub fn charge(at: &NativeCallContext, units: u64) -> Result<(), Box<EvalAltResult>> {
    match at.tag().and_then(|t| t.read_lock::<std::rc::Rc<Meter>>()) {
        Some(meter) => meter.charge(units).map_err(Exceeded::error),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_stops_at_its_budget_and_a_run_at_its_average() {
        let meter = Meter::default();
        meter.start(None);
        assert_eq!(meter.charge(MAX_CALL_COST), Ok(()));
        assert_eq!(meter.charge(1), Err(Exceeded::Call));
        // A run that spent nearly all of its allowance: the next call gets what is left.
        let run = RunBudget { spent: RUN_BASE_COST + RUN_COST_PER_CALL * 9, calls: 9 };
        meter.start(Some(run));
        assert_eq!(meter.charge(RUN_COST_PER_CALL), Ok(()));
        let spent = RUN_BASE_COST + RUN_COST_PER_CALL * 10 + 1;
        assert_eq!(meter.charge(1), Err(Exceeded::Run { spent, calls: 10 }));
        assert!(Exceeded::Run { spent, calls: 10 }.describe().contains("3000000 operations plus 100000 per call"));
    }
}
