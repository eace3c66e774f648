//! JSON has no NaN or infinity: these serialise them as `null` and read `null` back.
//!
//! Each writes an `Option` and reads one, so that formats that are not self-describing (postcard,
//! which carries the page's snapshots to and from its workers) read back what was written.

/// Serialises NaN as `null` and reads `null` back as NaN.
pub(crate) mod nan_as_null {
    use serde::{Deserialize, Deserializer, Serializer};

    /// As an `Option`, the shape [`deserialize`] reads: in JSON `Some(x)` is `x`, but a binary
    /// format (postcard, the race worker's snapshots) writes the tag, and a bare `f64` there
    /// could not be read back.
    pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        if v.is_finite() { s.serialize_some(v) } else { s.serialize_none() }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NAN))
    }
}

/// Serialises a list of numbers with NaN as `null`, and reads `null` back as NaN.
pub(crate) mod nans_as_nulls {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(v: &[f64], s: S) -> Result<S::Ok, S::Error> {
        v.iter().map(|x| x.is_finite().then_some(*x)).collect::<Vec<_>>().serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f64>, D::Error> {
        Ok(Vec::<Option<f64>>::deserialize(d)?.into_iter().map(|x| x.unwrap_or(f64::NAN)).collect())
    }
}

/// Serialises an interval's infinite ends as `null`, read back as -inf and +inf.
pub(crate) mod interval_as_nulls {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &[f64; 2], s: S) -> Result<S::Ok, S::Error> {
        let end = |x: f64| x.is_finite().then_some(x);
        serde::Serialize::serialize(&[end(v[0]), end(v[1])], s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[f64; 2], D::Error> {
        let [lo, hi] = <[Option<f64>; 2]>::deserialize(d)?;
        Ok([lo.unwrap_or(f64::NEG_INFINITY), hi.unwrap_or(f64::INFINITY)])
    }
}
