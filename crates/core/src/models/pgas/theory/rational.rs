//! Exact rationals for the PG-AS bounds: conversions from `f64` and serde as text.
//!
//! SPEC 4.2 asks for exact rationals: the greedy's ties (three types reaching 1/6 at once in
//! the C2 instance at α = 1) decide which configuration comes next, and a float a few ulps off
//! breaks the tie the other way. Big integers keep every denominator exact whatever the input.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// An exact rational number.
pub type Rational = BigRational;

/// The integer `n` as a rational.
pub fn int(n: i64) -> Rational {
    Rational::from_integer(BigInt::from(n))
}

/// `n / d` as a rational (`d` ≠ 0).
pub fn ratio(n: i64, d: i64) -> Rational {
    Rational::new(BigInt::from(n), BigInt::from(d))
}

/// The nearest `f64` (correctly rounded for the magnitudes met here).
pub fn to_f64(q: &Rational) -> f64 {
    q.to_f64().unwrap_or(f64::NAN)
}

/// The exact value of a finite `f64` (a dyadic rational), or `None` for NaN and infinities.
pub fn from_f64_exact(x: f64) -> Option<Rational> {
    Rational::from_float(x)
}

/// The simplest rational (smallest denominator, then smallest numerator in absolute value)
/// within `tolerance` of `x`, or `None` for a non-finite `x`.
///
/// This is how a user's decimal becomes the fraction the user meant: `0.1` is 1/10, not the
/// dyadic 3602879701896397/2^55, and `α·(4/3)` computed in floating point comes back as the
/// exact fraction, so a tie of the exact instance stays a tie (SPEC 4.2).
pub fn simplest_within(x: f64, tolerance: f64) -> Option<Rational> {
    let center = from_f64_exact(x)?;
    let tol = from_f64_exact(tolerance.abs())?;
    if center.is_negative() {
        let lo = (-&center - &tol).max(Rational::zero());
        return Some(-simplest_in(&lo, &(-&center + &tol)));
    }
    let lo = (&center - &tol).max(Rational::zero());
    Some(simplest_in(&lo, &(&center + &tol)))
}

/// The simplest rational within a relative tolerance of 1e-12 of `x` (see
/// [`simplest_within`]); `None` for a non-finite `x`. Used for every `f64` workload input.
pub fn from_f64(x: f64) -> Option<Rational> {
    simplest_within(x, x.abs() * 1e-12)
}

/// The simplest rational in the closed interval [lo, hi], 0 ≤ lo ≤ hi, by the continued
/// fraction walk of the Stern–Brocot tree.
fn simplest_in(lo: &Rational, hi: &Rational) -> Rational {
    let up = lo.ceil();
    if &up <= hi {
        return up;
    }
    // No integer in [lo, hi]: both share the floor f, and lo > f.
    let f = lo.floor();
    let inner = simplest_in(&(hi - &f).recip(), &(lo - &f).recip());
    f + inner.recip()
}

/// Serde as text ("3196/3", "0"), readable in JSON and exact.
pub mod text {
    use super::Rational;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(q: &Rational, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(q)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Rational, D::Error> {
        let t = String::deserialize(d)?;
        t.trim().parse().map_err(|_| serde::de::Error::custom(format!("not a fraction: {t:?}")))
    }
}

/// Serde of a vector of rationals as a list of texts.
pub mod text_vec {
    use super::Rational;
    use serde::{Deserialize, Deserializer, Serializer, ser::SerializeSeq};

    pub fn serialize<S: Serializer>(v: &[Rational], s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(v.len()))?;
        for q in v {
            seq.serialize_element(&q.to_string())?;
        }
        seq.end()
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Rational>, D::Error> {
        Vec::<String>::deserialize(d)?
            .iter()
            .map(|t| t.trim().parse().map_err(|_| serde::de::Error::custom(format!("not a fraction: {t:?}"))))
            .collect()
    }
}

/// Serde of an optional rational as text or null.
pub mod text_opt {
    use super::Rational;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(q: &Option<Rational>, s: S) -> Result<S::Ok, S::Error> {
        match q {
            Some(q) => s.collect_str(q),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Rational>, D::Error> {
        Option::<String>::deserialize(d)?
            .map(|t| t.trim().parse().map_err(|_| serde::de::Error::custom(format!("not a fraction: {t:?}"))))
            .transpose()
    }
}

/// Whether `q` is an integer.
pub fn is_integer(q: &Rational) -> bool {
    q.denom().is_one()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simplest_fractions_of_decimals() {
        assert_eq!(from_f64(0.1).unwrap(), ratio(1, 10));
        assert_eq!(from_f64(4.0 / 3.0).unwrap(), ratio(4, 3));
        assert_eq!(from_f64(0.99 * (4.0 / 3.0)).unwrap(), ratio(33, 25));
        assert_eq!(from_f64(6.0 / 7.0).unwrap(), ratio(6, 7));
        assert_eq!(from_f64(-2.5).unwrap(), ratio(-5, 2));
        assert_eq!(from_f64(0.0).unwrap(), int(0));
        assert_eq!(from_f64(1272.0).unwrap(), int(1272));
        assert!(from_f64(f64::NAN).is_none());
        // A tolerance of zero gives the float's exact dyadic value.
        assert_eq!(simplest_within(0.1, 0.0).unwrap(), from_f64_exact(0.1).unwrap());
        assert!((to_f64(&ratio(3196, 3)) - 1_065.333_333_333_333_3).abs() < 1e-12);
    }

    #[test]
    fn text_round_trip() {
        #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
        struct T {
            #[serde(with = "text")]
            a: Rational,
            #[serde(with = "text_vec")]
            b: Vec<Rational>,
            #[serde(with = "text_opt")]
            c: Option<Rational>,
        }
        let t = T { a: ratio(3196, 3), b: vec![int(0), ratio(5, 6)], c: None };
        let json = serde_json::to_string(&t).unwrap();
        assert_eq!(json, r#"{"a":"3196/3","b":["0","5/6"],"c":null}"#);
        assert_eq!(serde_json::from_str::<T>(&json).unwrap(), t);
    }
}
