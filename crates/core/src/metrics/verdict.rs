//! The verdict on a queue: **stable**, **not stable** or **not yet decided**, with the error
//! rate it promises. One test for everything that judges a queue: the page's lanes while they
//! play, a run's report, replications, sweeps, tours and the stability map.
//!
//! # What is measured
//!
//! A finite run cannot prove stability; it can measure whether the queue still grows. The
//! *growth* is the slope of a least-squares line through [`BATCHES`] batch means of the queue
//! (the jobs in the system where the model's figures plot n(t), the waiting jobs otherwise)
//! over the second half of the run so far, divided by the arrival rate: the fraction of the
//! arriving jobs that stays behind. A policy whose throughput saturates at its boundary ρ_b
//! keeps (ρ − ρ_b)/ρ of the arrivals at a load ρ above it; a stable one, once its queue has
//! reached its level, none. The first half's growth is measured the same way: a queue whose
//! growth slows down between the halves may still be filling towards a level.
//!
//! # The test
//!
//! At a *look* the growth gets a two-sided Student-t interval at confidence 1 − α_look: from
//! the batches' residuals for one run (df = batches − 2), or over independent replications
//! (df = replications − 1). Then ([`judge`]):
//!
//! * **stable** when the interval lies below [`RESOLUTION`] (half a percent of the arrivals);
//! * **not stable** when it lies above 0, the growth is at least [`RESOLUTION`], and the queue
//!   is not still filling: its growth does not slow down (the second half's is at least
//!   [`SLOWING`] times the first half's) and accounts for its level (at least [`LINEAR`] times
//!   the level over the second half, per arrival: a queue grown linearly from empty reads 2/3);
//! * **not yet decided** otherwise, saying what it waits for ([`Reason`]).
//!
//! "Stable" therefore means "keeps less than half a percent of the arrivals": a load less than
//! about 0.5% past a boundary may be judged stable, and nothing closer to a boundary than that
//! is claimed.
//!
//! # Many looks, one error budget
//!
//! A verdict is looked at many times: the page re-reads it every frame, a map judges a load on
//! more replications and longer horizons until it decides. Each look spends part of one budget
//! [`ERROR_BUDGET`] (α = 5%), so that, under the test's model (normal batch or replication
//! means around a line), the chance that *any* look of a run (or of a load) decides wrongly is
//! at most α, half of it on each side. A run is looked at only at fixed moments
//! ([`super::LOOKS`]: 4 looks, at 35%, 50%, 70% and 100% of its horizon, the last ones
//! spending the most), so the verdict does not depend on how often anyone reads it, and the
//! page and the CLI see the same verdict at the same moment. A run's answer stands only when two
//! looks in a row give it ([`Reason::Unconfirmed`] until then), so a verdict never goes from
//! stable to not stable (or back) at one look: it reads *not yet decided* in between.
//!
//! The batch-means model is exact for replications (they are independent) and approximate
//! within a run, where batches of a queue near its boundary are correlated. The rates
//! measured on boundaries known exactly are in docs/stability.md ("False verdicts").

use serde::{Deserialize, Serialize};

use super::SeriesPoint;

/// Growth a stable verdict must rule out, as a fraction of the arrivals: a queue that keeps
/// 0.5% of them. A load 1% past a boundary where the policy's throughput saturates keeps
/// about 1% of them, twice this, so the stability map's 2% intervals are not narrower than
/// what the test resolves.
pub const RESOLUTION: f64 = 0.005;
/// A growth in the second half below this share of the first half's is slowing down: the
/// queue may still be filling towards a level, and a longer run must tell. A queue filling
/// like √t, as a reflected random walk without drift does, reads about 0.51 (least-squares
/// slopes over each half); a queue growing linearly from empty about 1.
pub const SLOWING: f64 = 0.6;
/// A growth below this share of the queue's level over the second half (both per arrival,
/// [`Growth::level`]) does not account for the level: the queue filled faster before, as a
/// queue filling towards a level does. Linear growth from empty reads 2/3, a queue filling
/// like √t about 1/3.
pub const LINEAR: f64 = 0.5;
/// Batches each half of a run is cut into for its regression line.
pub const BATCHES: usize = 10;
/// The chance, under the test's model, that a run's verdict (or a load's, on a map) is ever
/// decided the wrong way over all its looks.
pub const ERROR_BUDGET: f64 = 0.05;

/// The test in a sentence, for tables, captions and tooltips.
pub const VERDICT_RULE: &str = "stable: the queue keeps less than 0.5% of the arrivals (its growth over the second half of \
     the run so far, with confidence); not stable: it keeps more and does not slow down; a decided verdict is wrong \
     with probability at most 5% over the whole run under the test's model. It speaks of this run: a queue that \
     settles only after its horizon is judged on the growth it showed (docs/stability.md, False verdicts)";

/// The three answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Stable,
    /// Not stable: the queue grows.
    Unstable,
    /// Not yet decided: see the judgement's [`Reason`].
    Undecided,
}

impl Verdict {
    /// As reports and the page word it.
    pub fn word(self) -> &'static str {
        match self {
            Self::Stable => "stable",
            Self::Unstable => "not stable",
            Self::Undecided => "undecided",
        }
    }

    pub fn is_decided(self) -> bool {
        self != Self::Undecided
    }
}

/// Why a verdict is what it is: for an undecided one, what it waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// The interval decided.
    Decided,
    /// No look yet (or too few batches to fit a line).
    TooEarly,
    /// The interval spans both sides: it is neither below the resolution nor above 0.
    Wide,
    /// The growth is clearly above 0 but slows down between the halves, or does not account
    /// for the queue's level: still filling?
    Slowing,
    /// Clearly above 0 but under the resolution: neither claim can be made.
    Small,
    /// This look contradicts the last decided one; the next look must confirm.
    Conflict,
    /// The test decided at this look but not at the one before: the next must confirm.
    Unconfirmed,
}

/// What one run says of its queue's growth at one look: each half's growth per arrival, and
/// the second half's standard error from its batches.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct Growth {
    #[serde(with = "super::nulls::nan_as_null")]
    pub first: f64,
    #[serde(with = "super::nulls::nan_as_null")]
    pub second: f64,
    /// Standard error of `second` from the residuals of its batch means (NaN with too few).
    #[serde(with = "super::nulls::nan_as_null")]
    pub se: f64,
    /// Degrees of freedom of `se`: batches − 2.
    pub df: u32,
    /// The queue's mean over the second half, per arrival of that half: a queue that has grown
    /// at `second` since it started empty stands at 1.5 × `second`, one still filling towards
    /// its level higher.
    #[serde(default = "nan", with = "super::nulls::nan_as_null")]
    pub level: f64,
}

fn nan() -> f64 {
    f64::NAN
}

impl Growth {
    /// No measurement (a run too short to fit lines).
    pub const NONE: Self = Self { first: f64::NAN, second: f64::NAN, se: f64::NAN, df: 0, level: f64::NAN };

    /// The growth of points covering `[0, end)` (interval means, in order), per arrival at
    /// `rate` arrivals per time unit.
    pub fn of(points: &[SeriesPoint], end: f64, rate: f64) -> Self {
        let half = end / 2.0;
        let split = points.partition_point(|p| p.start < half);
        let per_arrival = |x: f64| if rate > 0.0 { x / rate } else { f64::NAN };
        let first = BatchFit::of(&points[..split], BATCHES);
        let Some(second) = BatchFit::of(&points[split..], BATCHES) else { return Self::NONE };
        Self {
            first: per_arrival(first.map_or(f64::NAN, |f| f.slope)),
            second: per_arrival(second.slope),
            se: per_arrival(second.slope_se()),
            df: (second.xs.len() - 2) as u32,
            level: per_arrival(second.mean_y / half),
        }
    }
}

/// A least-squares line through the means of `batches` consecutive batches of `points` (each
/// batch's mean weighted by its points' lengths, placed at the batch's middle). `None` with
/// fewer than five batches.
#[derive(Debug, Clone, PartialEq)]
pub struct BatchFit {
    pub slope: f64,
    /// The batches' middles and means, and their averages.
    pub xs: Vec<f64>,
    pub ys: Vec<f64>,
    pub mean_x: f64,
    pub mean_y: f64,
    /// Σ (x − mean_x)².
    pub sxx: f64,
}

impl BatchFit {
    pub fn of(points: &[SeriesPoint], batches: usize) -> Option<Self> {
        let batches = batches.min(points.len());
        if batches < 5 {
            return None;
        }
        let (xs, ys): (Vec<f64>, Vec<f64>) = (0..batches)
            .map(|b| {
                let group = &points[b * points.len() / batches..(b + 1) * points.len() / batches];
                let len: f64 = group.iter().map(|p| p.end - p.start).sum();
                let mean = group.iter().map(|p| p.mean * (p.end - p.start)).sum::<f64>() / len;
                ((group[0].start + group[group.len() - 1].end) / 2.0, mean)
            })
            .unzip();
        let n = batches as f64;
        let mean_x = xs.iter().sum::<f64>() / n;
        let mean_y = ys.iter().sum::<f64>() / n;
        let sxx: f64 = xs.iter().map(|x| (x - mean_x) * (x - mean_x)).sum();
        let sxy: f64 = xs.iter().zip(&ys).map(|(x, y)| (x - mean_x) * (y - mean_y)).sum();
        Some(Self { slope: sxy / sxx, xs, ys, mean_x, mean_y, sxx })
    }

    /// The slope's standard error from the residuals (n − 2 degrees of freedom), widened for
    /// their correlation. A queue's level wanders, most near a boundary, so neighbouring batch
    /// means are alike and independent residuals would understate the noise several times: the
    /// error is multiplied by √((1 + r)/(1 − r)), r the residuals' lag-1 autocorrelation (the
    /// variance factor of a mean of AR(1) noise), r taken in [0, 0.9].
    pub fn slope_se(&self) -> f64 {
        let n = self.xs.len() as f64;
        let residuals: Vec<f64> =
            self.xs.iter().zip(&self.ys).map(|(x, y)| y - self.mean_y - self.slope * (x - self.mean_x)).collect();
        let squares: f64 = residuals.iter().map(|e| e * e).sum();
        let lagged: f64 = residuals.windows(2).map(|w| w[0] * w[1]).sum();
        let r = if squares > 0.0 { (lagged / squares).clamp(0.0, 0.9) } else { 0.0 };
        (squares / (n - 2.0) / self.sxx).sqrt() * ((1.0 + r) / (1.0 - r)).sqrt()
    }
}

/// The test's answer at one look, with what it rests on.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct Judgement {
    pub verdict: Verdict,
    pub reason: Reason,
    /// The growth tested (a run's second half, or the replications' mean), a fraction of the
    /// arrivals, and its interval at this look's confidence 1 − `alpha`.
    #[serde(with = "super::nulls::nan_as_null")]
    pub growth: f64,
    #[serde(with = "super::nulls::interval_as_nulls")]
    pub ci: [f64; 2],
    /// The first half's growth (the replications' mean).
    #[serde(with = "super::nulls::nan_as_null")]
    pub first: f64,
    /// Runs behind it: 1, or the replications.
    pub runs: usize,
    /// The error budget this look spends, both sides together.
    pub alpha: f64,
    /// This look's number (from 1) and how many there are; 0 before the first.
    pub look: u32,
    pub looks: u32,
    /// The moment of the look (time units; 0 before the first), and of the next (NaN after
    /// the last, or where looks are not timed).
    pub at: f64,
    #[serde(with = "super::nulls::nan_as_null")]
    pub next: f64,
}

impl Judgement {
    /// Before any look: undecided, waiting for the first at `next`.
    pub fn before(looks: u32, next: f64) -> Self {
        Self {
            verdict: Verdict::Undecided,
            reason: Reason::TooEarly,
            growth: f64::NAN,
            ci: [f64::NEG_INFINITY, f64::INFINITY],
            first: f64::NAN,
            runs: 0,
            alpha: 0.0,
            look: 0,
            looks,
            at: 0.0,
            next,
        }
    }

    pub fn unstable(&self) -> bool {
        self.verdict == Verdict::Unstable
    }

    /// What the verdict rests on, or what it waits for, in a sentence (`time` names the
    /// model's time unit: "slot", "time").
    pub fn explain(&self, time: &str) -> String {
        let growth = || format!("growth {} of the arrivals", interval_text(self.growth, self.ci));
        let level = format!("{:.1}% confidence", 100.0 * (1.0 - self.alpha));
        let next = if self.next.is_finite() {
            format!("; next look at {time} {}", crate::format::moment(self.next))
        } else if self.looks > 0 && self.look == self.looks {
            "; this was the last look: a longer run may decide".to_string()
        } else {
            String::new()
        };
        match self.reason {
            Reason::TooEarly => format!("not yet decided: too early{next}"),
            Reason::Decided => match self.verdict {
                Verdict::Stable => format!("stable: {}, below 0.5% at {level}", growth()),
                _ => format!("not stable: {}, above 0 at {level}, not slowing down", growth()),
            },
            Reason::Wide => format!("not yet decided: {}, neither below 0.5% nor above 0 at {level}{next}", growth()),
            Reason::Slowing => format!(
                "not yet decided: {}, but slowing down (first half {}) or short of its level: the queue may still be \
                 filling{next}",
                growth(),
                percent(self.first)
            ),
            Reason::Small => {
                format!("not yet decided: {}, above 0 but not clearly above 0.5% at {level}{next}", growth())
            }
            Reason::Conflict => {
                format!("not yet decided: this look contradicts the last decided one ({}){next}", growth())
            }
            Reason::Unconfirmed => format!(
                "not yet decided: this look says {} ({}), the next must confirm it{next}",
                if self.growth.is_finite() && self.ci[1] < RESOLUTION { "stable" } else { "not stable" },
                growth()
            ),
        }
    }
}

/// Equal when bit for bit the same: what determinism asks, and NaN (a measurement not yet
/// made) then equals itself.
impl PartialEq for Growth {
    fn eq(&self, other: &Self) -> bool {
        same_bits(&[self.first, self.second, self.se, self.level], &[other.first, other.second, other.se, other.level])
            && self.df == other.df
    }
}

/// Equal when bit for bit the same, as [`Growth`].
impl PartialEq for Judgement {
    fn eq(&self, other: &Self) -> bool {
        let floats = |j: &Self| [j.growth, j.ci[0], j.ci[1], j.first, j.alpha, j.at, j.next];
        same_bits(&floats(self), &floats(other))
            && (self.verdict, self.reason, self.runs, self.look, self.looks)
                == (other.verdict, other.reason, other.runs, other.look, other.looks)
    }
}

fn same_bits(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

/// A share as a percentage, to two significant figures.
fn percent(x: f64) -> String {
    if x.is_finite() { format!("{}%", crate::format::significant(100.0 * x, 2)) } else { "unknown".to_string() }
}

/// "0.8% (0.2% to 1.4%)".
fn interval_text(mean: f64, ci: [f64; 2]) -> String {
    if ci.iter().all(|c| c.is_finite()) {
        format!("{} ({} to {})", percent(mean), percent(ci[0]), percent(ci[1]))
    } else {
        percent(mean)
    }
}

/// The quantile `p` of Student's t with `df` degrees of freedom (normal for `df` = ∞). Rounded
/// to 9 significant digits: the distribution's code uses the platform's `ln` and `exp`, whose
/// last bits may differ between native code and WebAssembly, and a verdict must not.
pub fn t_quantile(p: f64, df: f64) -> f64 {
    use statrs::distribution::{ContinuousCDF, Normal, StudentsT};
    let q = if df.is_finite() {
        StudentsT::new(0.0, 1.0, df).map_or(f64::NAN, |t| t.inverse_cdf(p))
    } else {
        Normal::standard().inverse_cdf(p)
    };
    round_significant(q, 9)
}

fn round_significant(x: f64, digits: i32) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    let scale = libm::pow(10.0, f64::from(digits) - libm::ceil(libm::log10(x.abs())));
    libm::round(x * scale) / scale
}

/// The candidate verdict on `runs` (one run, or independent replications) at a look spending
/// `alpha`: the test of the module's docs, without the memory of earlier looks (a run's
/// [`super::VerdictWatch`] adds that).
pub fn judge(runs: &[Growth], alpha: f64) -> Judgement {
    let mut measured: Vec<&Growth> = runs.iter().filter(|g| g.second.is_finite()).collect();
    // Replications identical to the bit (a replayed log runs the same whatever the seed) are
    // one run, not many: their spread of zero would give an interval of no width. They are
    // judged as that one run is, on its own batches.
    let identical = measured.len() > 1 && measured.windows(2).all(|w| w[0] == w[1]);
    if identical {
        measured.truncate(1);
    }
    let mut judgement = Judgement::before(0, f64::NAN);
    judgement.runs = if identical { 1 } else { runs.len() };
    judgement.alpha = alpha;
    let (mean, se, df, first, level) = match measured.as_slice() {
        [] => return judgement,
        [one] => (one.second, one.se, f64::from(one.df), one.first, one.level),
        many => {
            let n = many.len() as f64;
            let mean = many.iter().map(|g| g.second).sum::<f64>() / n;
            let var = many.iter().map(|g| (g.second - mean).powi(2)).sum::<f64>() / (n - 1.0);
            // NaN where some run lacks it: nothing then says the growth slows.
            let average = |f: fn(&Growth) -> f64| many.iter().map(|g| f(g)).sum::<f64>() / n;
            (mean, (var / n).sqrt(), n - 1.0, average(|g| g.first), average(|g| g.level))
        }
    };
    judgement.growth = mean;
    judgement.first = first;
    if !(se.is_finite() && df >= 1.0) {
        return judgement;
    }
    let half = t_quantile(1.0 - alpha / 2.0, df) * se;
    judgement.ci = [mean - half, mean + half];
    // Without a first half or a level to compare with, nothing says the queue is filling.
    let slowing = (first.is_finite() && mean < SLOWING * first) || (level.is_finite() && mean < LINEAR * level);
    (judgement.verdict, judgement.reason) = if mean + half < RESOLUTION {
        (Verdict::Stable, Reason::Decided)
    } else if mean - half <= 0.0 {
        (Verdict::Undecided, Reason::Wide)
    } else if mean < RESOLUTION {
        (Verdict::Undecided, Reason::Small)
    } else if slowing {
        (Verdict::Undecided, Reason::Slowing)
    } else {
        (Verdict::Unstable, Reason::Decided)
    };
    judgement
}

/// The verdict on runs of one scenario and policy, each with its own last judgement and its
/// growth there: a single run's own verdict, or the replications judged together on their
/// growths (one look, the whole budget); `None` without a queue to judge.
pub fn judge_runs(runs: &[(Option<Judgement>, Option<Growth>)]) -> Option<Judgement> {
    match runs {
        [(own, _)] => *own,
        many => {
            let growths: Vec<Growth> = many.iter().filter_map(|r| r.1).collect();
            (!growths.is_empty()).then(|| judge(&growths, ERROR_BUDGET))
        }
    }
}

#[cfg(test)]
#[path = "verdict_tests.rs"]
mod tests;
