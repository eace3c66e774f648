//! What a model's theory says about stability, on its load knob: the capacity (the largest
//! load any policy can sustain) where it is known in closed form or by the model's LP, and
//! the fraction of it a paper proves a policy keeps, with the hypotheses of the theorem that
//! proves it checked against the scenario. The stability map ([`crate::stability`]) draws
//! both next to what it measures: a proven load where every hypothesis holds, and the same
//! load drawn apart, with the hypotheses that fail named, where one does not.

use serde::Serialize;

use super::table::sig;

/// The largest load any policy can keep stable, on the scenario's load knob.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Capacity {
    pub load: f64,
    /// How it is known, for a legend: "LP over the server configurations".
    pub source: &'static str,
}

impl Capacity {
    /// "1.05263 = 20/19 (LP over the fleet's configurations along V)": the load, as a small
    /// fraction too where it is one.
    pub fn describe(&self) -> String {
        let exact = fraction(self.load).filter(|(_, d)| *d > 1).map_or(String::new(), |(n, d)| format!(" = {n}/{d}"));
        format!("{}{exact} ({})", sig(self.load), self.source)
    }
}

/// `x` as n/d with d ≤ 1000, where one is within 1e-9 of it (relative): the continued
/// fraction's convergents, the first close enough.
pub fn fraction(x: f64) -> Option<(u64, u64)> {
    if !(x.is_finite() && x > 0.0) {
        return None;
    }
    let (mut h, mut h1, mut k, mut k1) = (1u64, 0u64, 0u64, 1u64);
    let mut rest = x;
    for _ in 0..20 {
        let a = rest.floor();
        if a > 1e12 {
            return None;
        }
        let a = a as u64;
        (h, h1) = (a.checked_mul(h)?.checked_add(h1)?, h);
        (k, k1) = (a.checked_mul(k)?.checked_add(k1)?, k);
        if k > 1000 {
            return None;
        }
        if (h as f64 / k as f64 - x).abs() <= 1e-9 * x {
            return Some((h, k));
        }
        let frac = rest - a as f64;
        if frac <= 0.0 {
            return None;
        }
        rest = 1.0 / frac;
    }
    None
}

/// One assumption of a theorem, checked against a scenario and a policy.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Hypothesis {
    /// What the theorem assumes, short, as the object of "Theorem 3 assumes …": "geometric
    /// service".
    pub text: String,
    /// Where the paper says so, and what it adds: "§II; §VIII: other laws need servers
    /// stalled until they empty".
    pub source: String,
    /// Whether this scenario and policy satisfy it.
    pub holds: bool,
    /// What this scenario or policy has, in words, whether it holds or not: "this scenario's
    /// is fixed (100 slots)".
    pub why: String,
}

impl Hypothesis {
    pub fn new(text: impl Into<String>, source: impl Into<String>, holds: bool, why: impl Into<String>) -> Self {
        Self { text: text.into(), source: source.into(), holds, why: why.into() }
    }

    /// "geometric service (§II); this scenario's is fixed (100 slots)".
    pub fn describe(&self) -> String {
        format!("{} ({}); {}", self.text, self.source, self.why)
    }
}

/// A policy's stability region as a fraction of the capacity, as a paper states it, with the
/// hypotheses its proof needs. It is proven for a scenario only where all of them hold
/// ([`Guarantee::holds`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Guarantee {
    /// Stable at every load below `fraction` × the capacity.
    pub fraction: f64,
    /// The result that states it, to start a sentence: "Theorem 3".
    pub theorem: &'static str,
    /// What it says: "VQS is stable below 2/3 of the capacity".
    pub claim: &'static str,
    /// What the proof assumes, each checked against the scenario and the policy.
    pub hypotheses: Vec<Hypothesis>,
}

impl Guarantee {
    /// Whether every hypothesis holds, so the fraction is proven for this scenario.
    pub fn holds(&self) -> bool {
        self.hypotheses.iter().all(|h| h.holds)
    }

    /// The hypotheses that fail.
    pub fn failed(&self) -> impl Iterator<Item = &Hypothesis> {
        self.hypotheses.iter().filter(|h| !h.holds)
    }

    /// Why the fraction is not proven here, naming each hypothesis that fails: "Theorem 3
    /// assumes geometric service (§II); this scenario's is fixed (100 slots)". `None` where
    /// every hypothesis holds.
    pub fn why_not(&self) -> Option<String> {
        let failed: Vec<String> = self.failed().map(Hypothesis::describe).collect();
        (!failed.is_empty()).then(|| format!("{} assumes {}", self.theorem, failed.join(". It also assumes ")))
    }

    /// The hypotheses that fail, short, for a legend: "assumes geometric service".
    pub fn assumes(&self) -> Option<String> {
        let failed: Vec<&str> = self.failed().map(|h| h.text.as_str()).collect();
        (!failed.is_empty()).then(|| format!("assumes {}", failed.join(" and ")))
    }
}

/// What the theory says of one policy's stability on one scenario.
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
pub struct StabilityTheory {
    pub capacity: Option<Capacity>,
    pub guarantee: Option<Guarantee>,
}

impl StabilityTheory {
    /// The proven load: the guarantee's fraction of the capacity, where both are known and
    /// every hypothesis of the guarantee holds.
    pub fn proven_load(&self) -> Option<f64> {
        self.guarantee.as_ref().filter(|g| g.holds())?;
        self.stated_load()
    }

    /// The load the guarantee states, whether its hypotheses hold here or not: what a chart
    /// draws apart as "not proven here" where they do not.
    pub fn stated_load(&self) -> Option<f64> {
        Some(self.capacity.as_ref()?.load * self.guarantee.as_ref()?.fraction)
    }

    /// Where a guarantee's hypotheses fail: its stated load and why it is not proven here.
    pub fn not_proven(&self) -> Option<(f64, String)> {
        Some((self.stated_load()?, self.guarantee.as_ref()?.why_not()?))
    }

    /// What the theory says of the policy, for people; `None` without a guarantee: "0.667 is
    /// proven (Theorem 3: VQS is stable below 2/3 of the capacity)", or "0.5 (Theorem 2:
    /// BF-J/S is stable below half the capacity) is not proven here: Theorem 2 assumes …".
    /// The fraction of the capacity stands for the load where the capacity is unknown.
    pub fn describe(&self) -> Option<String> {
        let g = self.guarantee.as_ref()?;
        let load = self.stated_load().map_or_else(|| format!("{} of the capacity", sig(g.fraction)), sig);
        Some(match g.why_not() {
            None => format!("{load} is proven ({}: {})", g.theorem, g.claim),
            Some(why) => format!("{load} ({}: {}) is not proven here: {why}", g.theorem, g.claim),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn theory(hypotheses: Vec<Hypothesis>) -> StabilityTheory {
        StabilityTheory {
            capacity: Some(Capacity { load: 0.9, source: "test" }),
            guarantee: Some(Guarantee {
                fraction: 2.0 / 3.0,
                theorem: "Theorem 3",
                claim: "VQS is stable below 2/3 of the capacity",
                hypotheses,
            }),
        }
    }

    #[test]
    fn a_guarantee_is_proven_only_where_every_hypothesis_holds() {
        let service =
            |holds| Hypothesis::new("geometric service", "§II", holds, "this scenario's is fixed (100 slots)");
        let sizes =
            |holds| Hypothesis::new("every size at least 1/2^J = 0.25", "Theorem 3", holds, "the smallest is 0.2");
        let proven = theory(vec![service(true), sizes(true)]);
        assert_eq!(proven.proven_load(), Some(0.6));
        assert_eq!(proven.not_proven(), None);
        let one = theory(vec![service(false), sizes(true)]);
        assert_eq!(one.proven_load(), None);
        assert_eq!(one.stated_load(), Some(0.6));
        let (load, why) = one.not_proven().unwrap();
        assert_eq!(load, 0.6);
        assert_eq!(why, "Theorem 3 assumes geometric service (§II); this scenario's is fixed (100 slots)");
        let (_, both) = theory(vec![service(false), sizes(false)]).not_proven().unwrap();
        assert_eq!(
            both,
            "Theorem 3 assumes geometric service (§II); this scenario's is fixed (100 slots). It also assumes every \
             size at least 1/2^J = 0.25 (Theorem 3); the smallest is 0.2"
        );
        assert_eq!(
            theory(vec![service(false), sizes(false)]).guarantee.unwrap().assumes().unwrap(),
            "assumes geometric service and every size at least 1/2^J = 0.25"
        );
        assert_eq!(proven.describe().unwrap(), "0.6 is proven (Theorem 3: VQS is stable below 2/3 of the capacity)");
        assert!(one.describe().unwrap().starts_with(
            "0.6 (Theorem 3: VQS is stable below 2/3 of the capacity) is not \
                                                      proven here: Theorem 3 assumes geometric service"
        ));
        // Without a capacity nothing is stated, proven or not.
        let none = StabilityTheory { capacity: None, ..one };
        assert_eq!((none.proven_load(), none.stated_load(), none.not_proven()), (None, None, None));
        assert!(none.describe().unwrap().starts_with("0.666667 of the capacity (Theorem 3"), "{:?}", none.describe());
    }

    #[test]
    fn small_fractions_are_found_and_others_are_not() {
        assert_eq!(fraction(20.0 / 19.0), Some((20, 19)));
        assert_eq!(fraction(1.0), Some((1, 1)));
        assert_eq!(fraction(2.0 / 3.0), Some((2, 3)));
        assert_eq!(fraction(32.0 / 4.1), Some((320, 41)));
        assert_eq!(fraction(std::f64::consts::PI), None);
        assert_eq!(fraction(0.0), None);
        let c = Capacity { load: 20.0 / 19.0, source: "LP" };
        assert_eq!(c.describe(), "1.05263 = 20/19 (LP)");
        assert_eq!(Capacity { load: 1.0, source: "LP" }.describe(), "1 (LP)");
    }
}
