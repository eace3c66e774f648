//! The universal partition I of PG-RR (SPEC 2.2.4) and the reduced configuration set
//! K_RED^(J) (SPEC 2.2.5).
//!
//! Sizes are integers `r` out of a capacity `C`, so every boundary (1/2, 2/3, 2^-m) is
//! compared exactly.

use num_traits::PrimInt;
use serde::{Deserialize, Serialize};

/// Smallest and largest partition depth J accepted (RES-5; the upper bound keeps 2^-J a whole
/// number of [`crate::models::pgrr::CAPACITY_UNITS`]).
pub const MIN_J: u8 = 2;
pub const MAX_J: u8 = 20;

/// The partition of (0, 1] into 2J intervals, for a server capacity `C` in units.
///
/// * I_{2m} = ((2/3)·2^-m, 2^-m] and I_{2m+1} = ((1/2)·2^-m, (2/3)·2^-m] for m = 0..J−1;
/// * sizes at most 2^-J join VQ_{2J−1} and are rounded up to 2^-J (RES-6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Partition {
    j: u8,
    capacity: u64,
}

impl Partition {
    /// Panics if `j` is outside `MIN_J..=MAX_J` or `capacity` is not divisible by 2^J;
    /// scenario validation reports both as errors before this point.
    pub fn new(j: u8, capacity: u64) -> Self {
        assert!((MIN_J..=MAX_J).contains(&j), "J = {j} outside {MIN_J}..={MAX_J}");
        assert!(capacity.is_multiple_of(1u64 << j), "capacity {capacity} not divisible by 2^{j}");
        Self { j, capacity }
    }

    pub fn j(&self) -> u8 {
        self.j
    }

    pub fn capacity(&self) -> u64 {
        self.capacity
    }

    /// Number of types (virtual queues): 2J.
    pub fn types(&self) -> usize {
        2 * self.j as usize
    }

    /// 2^-J of the capacity, the size every job of VQ_{2J−1} is rounded up to.
    pub fn smallest(&self) -> u64 {
        self.capacity >> self.j
    }

    /// The type (virtual queue index) of a job of size `r`, 0 < r ≤ C.
    pub fn type_of(&self, r: u64) -> usize {
        // Every engine asks this for every job. r·2^J and 3·(r·2^m) stay below 2^64 while
        // C < 2^42 (J ≤ 20), the case of every scenario (C = 1.6·10^10): 64 bits then give the
        // same answer without the 128-bit library calls WebAssembly makes for shifts and
        // products (a twentieth of VQS's time there).
        if self.capacity < 1 << 42 {
            type_of_in(self.capacity, r, self.j)
        } else {
            type_of_in(u128::from(self.capacity), u128::from(r), self.j)
        }
    }

    /// The space a job of size `r` takes under VQS/VQS-BF: `r`, or 2^-J if `r ≤ 2^-J`.
    pub fn rounded(&self, r: u64) -> u64 {
        r.max(self.smallest())
    }

    /// The right end of interval `t` in units: the size every type-t job is rounded up to in
    /// the analysis. For odd types that is (2/3)·2^-m, not always a whole unit, so it is
    /// returned as a numerator over 3.
    pub fn upper_end_thirds(&self, t: usize) -> u128 {
        let m = (t / 2) as u32;
        let top = (self.capacity as u128) >> m;
        if t.is_multiple_of(2) { 3 * top } else { 2 * top }
    }

    /// The largest size of type `t` in units: 2^-m of the capacity for even t = 2m, and
    /// (2/3)·2^-m rounded down for odd t = 2m + 1 (the top of the interval, or the last whole
    /// unit below it).
    pub fn largest_of(&self, t: usize) -> u64 {
        // ⌊upper_end_thirds / 3⌋ in 64 bits: 2·top may not fit in them, and WebAssembly divides
        // 128-bit numbers by a library call (VQS-BF asks this for every job it places).
        let top = self.capacity >> (t / 2);
        if t.is_multiple_of(2) { top } else { top / 3 * 2 + top % 3 * 2 / 3 }
    }

    /// Human-readable interval of type `t`, e.g. "(1/3, 1/2]".
    pub fn interval_label(&self, t: usize) -> String {
        let m = (t / 2) as u32;
        let den = 1u64 << m;
        if t == self.types() - 1 {
            return format!("(0, {}]", frac(2, 3 * den));
        }
        if t.is_multiple_of(2) {
            format!("({}, {}]", frac(2, 3 * den), frac(1, den))
        } else {
            format!("({}, {}]", frac(1, 2 * den), frac(2, 3 * den))
        }
    }
}

fn frac(num: u64, den: u64) -> String {
    fn gcd(a: u64, b: u64) -> u64 {
        if b == 0 { a } else { gcd(b, a % b) }
    }
    let g = gcd(num, den);
    if den / g == 1 { format!("{}", num / g) } else { format!("{}/{}", num / g, den / g) }
}

/// One configuration of K_RED: at most one type-1 job plus `count` jobs of one other type.
///
/// Every vector of K_RED has at most one nonzero entry besides entry 1 (SPEC 2.2.5), so this
/// is the whole vector.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    /// k_1 ∈ {0, 1}.
    pub type1: bool,
    /// The other type with k_j > 0 and its count k_j.
    pub other: Option<(usize, u32)>,
}

impl Config {
    /// ⟨k, Q⟩.
    pub fn weight(&self, queues: &[u64]) -> u64 {
        let one = if self.type1 { queues[1] } else { 0 };
        one + self.other.map_or(0, |(t, c)| c as u64 * queues[t])
    }

    /// k_t.
    pub fn count(&self, t: usize) -> u32 {
        match self.other {
            Some((o, c)) if o == t => c,
            _ if t == 1 && self.type1 => 1,
            _ => 0,
        }
    }

    /// Text such as "e1+2e5".
    pub fn label(&self) -> String {
        let other = self.other.map(|(t, c)| if c == 1 { format!("e{t}") } else { format!("{c}e{t}") });
        match (self.type1, other) {
            (true, Some(o)) => format!("e1+{o}"),
            (true, None) => "e1".into(),
            (false, Some(o)) => o,
            (false, None) => "0".into(),
        }
    }
}

/// K_RED^(J) in canonical order (RES-8): families A, B, C, D.
pub fn reduced_configs(j: u8) -> Vec<Config> {
    let j = j as usize;
    let mut out = Vec::with_capacity(4 * j - 4);
    // A: 2^m e_{2m}, m = 0..J−1.
    out.extend((0..j).map(|m| Config { type1: false, other: Some((2 * m, 1 << m)) }));
    // B: 3·2^{m−1} e_{2m+1}, m = 1..J−1.
    out.extend((1..j).map(|m| Config { type1: false, other: Some((2 * m + 1, 3 << (m - 1))) }));
    // C: e_1 + ⌊2^m/3⌋ e_{2m}, m = 2..J−1.
    out.extend((2..j).map(|m| Config { type1: true, other: Some((2 * m, (1 << m) / 3)) }));
    // D: e_1 + 2^{m−1} e_{2m+1}, m = 1..J−1.
    out.extend((1..j).map(|m| Config { type1: true, other: Some((2 * m + 1, 1 << (m - 1))) }));
    out
}

/// argmax over `configs` of ⟨k, Q⟩ for `weights` (Q, per type): the first maximiser in
/// canonical order (RES-8's default), as its index. VQS's renewal and a script's
/// `ctx.heaviest(counts)` both choose this way.
pub fn heaviest(configs: &[Config], weights: &[u64]) -> usize {
    let mut best = (0, 0);
    for (i, k) in configs.iter().enumerate() {
        let w = k.weight(weights);
        if w > best.1 || i == 0 {
            best = (i, w);
        }
    }
    best.0
}

/// [`Partition::type_of`] in the integer type `T`, which must hold 3·C·2^J.
fn type_of_in<T: PrimInt>(c: T, r: T, j: u8) -> usize {
    let j = usize::from(j);
    if r << j <= c {
        return 2 * j - 1;
    }
    // The largest m with r·2^m ≤ C (at most J−1 here, since r·2^J > C): shifting r to the
    // bit length of C gives m or m + 1.
    let mut m = (r.leading_zeros() - c.leading_zeros()) as usize;
    if r << m > c {
        m -= 1;
    }
    let x = r << m;
    if x + x + x > c + c { 2 * m } else { 2 * m + 1 }
}

/// The name of virtual queue (or size class) `t` wherever people read it: PG-RR's VQ_t, which
/// holds the jobs of type t (sizes in I_t), counted from 0 as the paper counts them: `VQ0` …
/// `VQ{2J−1}`, so that `VQ1` is the queue of sizes (1/2, 2/3] for which VQS keeps 2/3 of a
/// server, and a configuration's e_t counts jobs of `VQ{t}`.
pub fn bin_name(t: usize) -> String {
    format!("VQ{t}")
}

/// The inspector's label for the queue counts a renewal weighs, naming the queues as
/// [`bin_name`] does.
pub const QUEUES_NOTE: &str = "waiting per virtual queue Q_j (VQj holds type j, counted from 0 as in the paper)";

/// What the page's bins are, under a policy that keeps virtual queues (`queues`) or one queue,
/// with the paper's naming of the virtual queues said once.
pub fn bins_legend(queues: bool) -> &'static str {
    if queues {
        "Bins: VQj holds the waiting jobs of type j, counted from 0 as in PG-RR; its sizes are the interval shown \
         under it."
    } else {
        "Bins: the waiting jobs of the one queue by size class, named as PG-RR's virtual queues (counted from 0): VQj \
         counts those of type j, sizes in the interval shown under it."
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SPEC 6.1 item 1, with C = 48 so that 1/3, 2/3, 1/6 and 1/8 are exact.
    #[test]
    fn partition_mapping_with_exact_boundaries() {
        let c = 48;
        let p = Partition::new(3, c);
        let cases = [
            (48, 0), // 1
            (34, 0), // ≈ 0.7
            (32, 1), // 2/3, right end of I_1 is closed
            (29, 1), // ≈ 0.6
            (24, 2), // 1/2
            (19, 2), // ≈ 0.4
            (16, 3), // 1/3
            (14, 3), // ≈ 0.3
            (12, 4), // 1/4
            (10, 4), // ≈ 0.2
            (8, 5),  // 1/6
            (7, 5),  // ≈ 0.15
            (6, 5),  // 1/8
            (1, 5),  // ≈ 0.01
        ];
        for (r, t) in cases {
            assert_eq!(p.type_of(r), t, "size {r}/{c}");
        }
        assert_eq!(p.rounded(6), 6);
        assert_eq!(p.rounded(1), 6);
        // The same decimal cases on the PG-RR grid.
        let big = crate::models::pgrr::CAPACITY_UNITS;
        let p = Partition::new(3, big);
        let f = |s: &str| crate::models::pgrr::sizes::parse_fraction(s).unwrap();
        for (s, t) in [
            ("1", 0),
            ("0.7", 0),
            ("0.6", 1),
            ("0.5", 2),
            ("0.4", 2),
            ("0.3", 3),
            ("0.25", 4),
            ("0.2", 4),
            ("0.15", 5),
            ("0.125", 5),
            ("0.01", 5),
        ] {
            assert_eq!(p.type_of(f(s)), t, "size {s}");
        }
        assert_eq!(p.rounded(f("0.01")), f("0.125"));
    }

    /// A job's virtual queue is named as PG-RR indexes it: a size in I_j waits in VQ_j, j from
    /// 0, so 0.6 ∈ I_1 = (1/2, 2/3] waits in "VQ1" (the queue VQS keeps 2/3 of a server for), 0.4
    /// in "VQ2" (the jobs of the configuration 2e2), and with J = 3 a size at most 1/8 in the
    /// last queue, VQ_{2J−1} = "VQ5". The page's bins carry the same names with their intervals.
    #[test]
    fn virtual_queues_are_named_by_the_papers_index() {
        let p = Partition::new(3, crate::models::pgrr::CAPACITY_UNITS);
        let f = |s: &str| crate::models::pgrr::sizes::parse_fraction(s).unwrap();
        for (size, name, interval) in [
            ("1", "VQ0", "(2/3, 1]"),
            ("0.6", "VQ1", "(1/2, 2/3]"),
            ("0.4", "VQ2", "(1/3, 1/2]"),
            ("0.3", "VQ3", "(1/4, 1/3]"),
            ("0.2", "VQ4", "(1/6, 1/4]"),
            ("0.15", "VQ5", "(0, 1/6]"),
            ("0.01", "VQ5", "(0, 1/6]"),
        ] {
            let t = p.type_of(f(size));
            assert_eq!(bin_name(t), name, "size {size}");
            assert_eq!(p.interval_label(t), interval, "size {size}");
        }
        // e_j of a configuration counts jobs of VQ_j: 2e2 is two jobs of VQ2.
        let two_e2 = reduced_configs(3).into_iter().find(|k| k.label() == "2e2").unwrap();
        assert_eq!(two_e2.count(p.type_of(f("0.4"))), 2);
    }

    /// `type_of` against the definition (the largest m ≤ J−1 with r·2^m ≤ C, found by trying
    /// every m), over several J and capacities, at and around every boundary.
    #[test]
    fn type_of_matches_the_definition() {
        let reference = |p: &Partition, r: u64| {
            let (c, r, j) = (p.capacity() as u128, r as u128, p.j() as u32);
            if r << j <= c {
                return 2 * j as usize - 1;
            }
            let m = (0..j).rev().find(|m| r << m <= c).unwrap();
            if 3 * (r << m) > 2 * c { 2 * m as usize } else { 2 * m as usize + 1 }
        };
        // The last three take the 128-bit path.
        let big = [(1 << 42) - (1 << 20), 1 << 42, 3 << 50, u64::MAX >> 20 << 20];
        for j in MIN_J..=MAX_J {
            for c in [3 << 20, 1 << 20, 5 << 22, crate::models::pgrr::CAPACITY_UNITS].into_iter().chain(big) {
                let p = Partition::new(j, c);
                let mut sizes = vec![1, c];
                for m in 0..=j {
                    let (half, two_thirds) = (c >> m, ((2 * u128::from(c) / 3) as u64) >> m);
                    for b in [half, two_thirds] {
                        sizes.extend([b.saturating_sub(1), b, b + 1].into_iter().filter(|&r| r >= 1 && r <= c));
                    }
                }
                for r in sizes {
                    assert_eq!(p.type_of(r), reference(&p, r), "J = {j}, C = {c}, r = {r}");
                }
            }
        }
    }

    /// `largest_of` in 64 bits is ⌊(thirds of the interval's top) / 3⌋ as 128 bits give it,
    /// up to the largest capacity a partition can have.
    #[test]
    fn largest_of_in_64_bits_is_the_thirds_divided() {
        for j in MIN_J..=MAX_J {
            let step = 1u64 << j;
            let tops = [step, 3 * step, 7 * step, 1 << 40, crate::models::pgrr::CAPACITY_UNITS, u64::MAX / step * step];
            for c in tops.into_iter().chain((1..50).map(|k| k * step)) {
                let p = Partition::new(j, c);
                for t in 0..p.types() {
                    assert_eq!(u128::from(p.largest_of(t)), p.upper_end_thirds(t) / 3, "J = {j}, C = {c}, t = {t}");
                }
            }
        }
    }

    /// Types are intervals of sizes: no size above `largest_of(t)` is of type t or smaller
    /// (VQS-BF's per-type queries rely on it).
    #[test]
    fn largest_of_is_the_top_of_each_interval() {
        for j in MIN_J..=MAX_J {
            for c in [3 << 20, 1 << 20, 5 << 22, crate::models::pgrr::CAPACITY_UNITS] {
                let p = Partition::new(j, c);
                assert_eq!(p.largest_of(0), c);
                for t in 0..p.types() {
                    // A type may hold no whole unit when C is small (then the top belongs to
                    // the next smaller type), but never with the engine's capacity.
                    let top = p.type_of(p.largest_of(t));
                    assert!(
                        top == t || (top > t && c != crate::models::pgrr::CAPACITY_UNITS),
                        "J = {j}, C = {c}, t = {t}"
                    );
                    if t > 0 {
                        assert!(p.type_of(p.largest_of(t) + 1) < t, "J = {j}, C = {c}, t = {t}");
                    }
                }
            }
        }
    }

    #[test]
    fn reduced_configuration_fixtures() {
        let labels = |j| reduced_configs(j).iter().map(Config::label).collect::<Vec<_>>();
        assert_eq!(labels(2), ["e0", "2e2", "3e3", "e1+e3"]);
        assert_eq!(labels(3), ["e0", "2e2", "4e4", "3e3", "6e5", "e1+e4", "e1+e3", "e1+2e5"]);
        for j in MIN_J..=12 {
            assert_eq!(reduced_configs(j).len(), 4 * j as usize - 4);
        }
    }

    /// SPEC 6.1 item 2: each vector fits one server when every job is rounded up to the top
    /// of its interval.
    #[test]
    fn reduced_configurations_fit_when_rounded_up() {
        for j in MIN_J..=MAX_J {
            let p = Partition::new(j, crate::models::pgrr::CAPACITY_UNITS);
            for k in reduced_configs(j) {
                let mut thirds = 0u128;
                if k.type1 {
                    thirds += p.upper_end_thirds(1);
                }
                if let Some((t, c)) = k.other {
                    thirds += c as u128 * p.upper_end_thirds(t);
                }
                assert!(thirds <= 3 * p.capacity() as u128, "J={j} {}", k.label());
            }
        }
    }

    #[test]
    fn interval_labels() {
        let p = Partition::new(3, 48);
        assert_eq!(p.interval_label(0), "(2/3, 1]");
        assert_eq!(p.interval_label(1), "(1/2, 2/3]");
        assert_eq!(p.interval_label(3), "(1/4, 1/3]");
        assert_eq!(p.interval_label(5), "(0, 1/6]");
    }
}
