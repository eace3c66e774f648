//! Job classes of the multiserver-job model (SPEC 5.1): each class has a server need, a
//! probability (its share of the arrivals) and a mean service time.

use rand::{Rng, RngExt};
use serde::{Deserialize, Serialize};

use crate::ConfigError;
use crate::workload::parse_probability;

/// One class of jobs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct JobClass {
    /// Servers (cores) a job of this class holds for its whole run.
    pub need: u32,
    /// p_i = λ_i / λ.
    pub probability: f64,
    /// E\[S_i\] = 1/μ_i.
    pub mean_size: f64,
}

/// The classes of a scenario, sorted by need (ascending, each need once).
///
/// Text form, used by presets, `--set classes=…` and links: `NEED@P[@MEAN],…`, e.g.
/// `1@0.9,32@0.1` (mean size 1 when omitted). Class tables such as the Borg one (SPEC D6,
/// RES-46) also load from CSV with [`JobClasses::from_csv`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct JobClasses {
    classes: Vec<JobClass>,
    cdf: Vec<f64>,
    /// Each class's probability as written, before rescaling: the text form shows these, so
    /// that it reads back to the same table (rescaling rescaled values can move their last
    /// bits).
    written: Vec<f64>,
}

/// Largest server need (and core count) accepted; the SWF reader holds logs to it too.
pub use crate::limits::MAX_CORES;
/// Most classes in a table.
pub const MAX_CLASSES: usize = 1_024;
/// How far the probabilities may sum from 1 before they are refused. Tables copied from
/// papers are rounded; within this tolerance they are rescaled to sum to exactly 1.
const SUM_TOLERANCE: f64 = 0.01;

impl JobClasses {
    pub const KEY: &'static str = "classes";
    pub const RANGE: &'static str = "NEED@P[@MEAN],... with distinct integer needs in 1..=cores, probabilities \
                                     (decimals or a/b) summing to 1 within 0.01 (then rescaled), mean sizes in \
                                     [1e-6, 1e6] (default 1)";

    /// Checks and sorts a class table. `origin(i)` names entry `i` in messages (e.g.
    /// "line 3").
    pub fn new(mut classes: Vec<JobClass>, origin: impl Fn(usize) -> String) -> Result<Self, ConfigError> {
        let err = |m: String| ConfigError::new(Self::KEY, m);
        if classes.is_empty() {
            return Err(err("at least one class is needed".into()));
        }
        if classes.len() > MAX_CLASSES {
            return Err(err(format!("{} classes; at most {MAX_CLASSES}", classes.len())));
        }
        for (i, c) in classes.iter().enumerate() {
            if !(1..=MAX_CORES).contains(&c.need) {
                return Err(err(format!("{}: need {} must be in 1..={MAX_CORES}", origin(i), c.need)));
            }
            if !(c.probability.is_finite() && c.probability > 0.0 && c.probability <= 1.0) {
                return Err(err(format!("{}: probability {} must be in (0, 1]", origin(i), c.probability)));
            }
            // Below 1e-6 the service rates reach 1e6 and more, where nMSR's schedule LP loses
            // its accuracy (and at 5e-324 they are infinite and the solver panics).
            if !(c.mean_size.is_finite() && (1e-6..=1e6).contains(&c.mean_size)) {
                return Err(err(format!("{}: mean size {} must be in [1e-6, 1e6]", origin(i), c.mean_size)));
            }
            if let Some(j) = classes[..i].iter().position(|d| d.need == c.need) {
                return Err(err(format!("{}: need {} repeats {}", origin(i), c.need, origin(j))));
            }
        }
        // Sorted before summing: a sum of floats depends on its order, and a table must rescale
        // to the same bits whatever order its rows came in (a CSV's, the text form's, which is
        // by need).
        classes.sort_by_key(|c| c.need);
        let sum: f64 = classes.iter().map(|c| c.probability).sum();
        if (sum - 1.0).abs() > SUM_TOLERANCE {
            return Err(err(format!("probabilities sum to {sum}; they must sum to 1 (within {SUM_TOLERANCE})")));
        }
        let written = classes.iter().map(|c| c.probability).collect();
        for c in &mut classes {
            c.probability /= sum;
        }
        let mut acc = 0.0;
        let mut cdf: Vec<f64> = classes
            .iter()
            .map(|c| {
                acc += c.probability;
                acc
            })
            .collect();
        *cdf.last_mut().expect("at least one class") = 1.0;
        Ok(Self { classes, cdf, written })
    }

    pub fn parse(text: &str) -> Result<Self, ConfigError> {
        let err = |m: String| ConfigError::new(Self::KEY, m);
        let mut classes = Vec::new();
        for entry in text.split(',').map(str::trim) {
            let parts: Vec<&str> = entry.split('@').map(str::trim).collect();
            if !(2..=3).contains(&parts.len()) {
                return Err(err(format!("'{entry}' is not NEED@P or NEED@P@MEAN; use {}", Self::RANGE)));
            }
            let need = parts[0].parse().map_err(|_| err(format!("need '{}' is not an integer", parts[0])))?;
            let probability = parse_probability(parts[1]).map_err(err)?;
            let mean_size = match parts.get(2) {
                Some(m) => m.parse().map_err(|_| err(format!("mean size '{m}' is not a number")))?,
                None => 1.0,
            };
            classes.push(JobClass { need, probability, mean_size });
        }
        let entries: Vec<&str> = text.split(',').map(str::trim).collect();
        Self::new(classes, |i| format!("class '{}'", entries[i]))
    }

    /// Reads a CSV class table: columns `need,probability,mean_size`, an optional header
    /// line, `#` comments. Errors name the line.
    pub fn from_csv(text: &str) -> Result<Self, ConfigError> {
        let err = |m: String| ConfigError::new(Self::KEY, m);
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .comment(Some(b'#'))
            .trim(csv::Trim::All)
            .flexible(true)
            .from_reader(text.as_bytes());
        let mut classes = Vec::new();
        let mut lines = Vec::new();
        // Only the first line that is not blank or a comment may be the header.
        let mut first = true;
        for record in reader.records() {
            let record = record.map_err(|e| err(format!("CSV: {e}")))?;
            let line = record.position().map_or(0, |p| p.line());
            if record.iter().all(str::is_empty) {
                continue;
            }
            if record.len() == 1 && record[0].contains(';') {
                return Err(err(format!("line {line}: fields are separated by ';'; separate them by commas")));
            }
            if std::mem::take(&mut first) && record.get(0).is_some_and(|f| f.parse::<f64>().is_err()) {
                let names: Vec<String> = record.iter().map(str::to_ascii_lowercase).collect();
                if names != ["need", "probability", "mean_size"] {
                    return Err(err(format!(
                        "line {line}: '{}' is neither the header need,probability,mean_size nor a class line",
                        record.iter().collect::<Vec<_>>().join(",")
                    )));
                }
                continue;
            }
            if record.len() != 3 {
                return Err(err(format!(
                    "line {line}: {} fields; expected 3 (need, probability, mean_size)",
                    record.len()
                )));
            }
            let need = record[0]
                .parse()
                .map_err(|_| err(format!("line {line}: need '{}' is not a positive integer", &record[0])))?;
            let probability = parse_probability(&record[1]).map_err(|m| err(format!("line {line}: {m}")))?;
            let mean_size = record[2]
                .parse()
                .map_err(|_| err(format!("line {line}: mean size '{}' is not a number", &record[2])))?;
            classes.push(JobClass { need, probability, mean_size });
            lines.push(line);
        }
        if classes.is_empty() {
            return Err(err("the CSV holds no class lines (need, probability, mean_size)".into()));
        }
        Self::new(classes, |i| format!("line {}", lines[i]))
    }

    pub fn as_slice(&self) -> &[JobClass] {
        &self.classes
    }

    pub fn len(&self) -> usize {
        self.classes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.classes.is_empty()
    }

    pub fn max_need(&self) -> u32 {
        self.classes.last().expect("at least one class").need
    }

    /// Whether these are the one-or-all classes {1, k} of SPEC 5.1 (either may be absent).
    pub fn is_one_or_all(&self, cores: u32) -> bool {
        self.classes.iter().all(|c| c.need == 1 || c.need == cores)
    }

    /// Draws a class index from one uniform draw.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> usize {
        let u: f64 = rng.random();
        self.cdf.partition_point(|&c| c <= u).min(self.classes.len() - 1)
    }

    /// The offered load in servers, Σ_j λ_j·j·E\[S_j\] per unit of λ.
    pub fn work_per_arrival(&self) -> f64 {
        self.classes.iter().map(|c| c.probability * c.need as f64 * c.mean_size).sum()
    }
}

/// A probability as a decimal or a fraction `a/b`.
impl std::fmt::Display for JobClasses {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, (c, written)) in self.classes.iter().zip(&self.written).enumerate() {
            if i > 0 {
                write!(f, ",")?;
            }
            write!(f, "{}@{}", c.need, written)?;
            if c.mean_size != 1.0 {
                write!(f, "@{}", c.mean_size)?;
            }
        }
        Ok(())
    }
}

impl TryFrom<String> for JobClasses {
    type Error = ConfigError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        Self::parse(&s)
    }
}

impl From<JobClasses> for String {
    fn from(c: JobClasses) -> Self {
        c.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{Stream, stream};

    #[test]
    fn text_round_trip_and_order() {
        let c = JobClasses::parse("32@0.1, 1@0.9").unwrap();
        assert_eq!(c.to_string(), "1@0.9,32@0.1");
        assert!(c.is_one_or_all(32));
        assert!(!c.is_one_or_all(16));
        let c = JobClasses::parse("1@1/2,3@1/4,5@0.2,15@0.05@2").unwrap();
        assert_eq!(c.len(), 4);
        assert_eq!(c.as_slice()[3].mean_size, 2.0);
        assert_eq!(JobClasses::parse(&c.to_string()).unwrap(), c);
    }

    #[test]
    fn bad_tables_are_named() {
        for (text, needle) in [
            ("1@0.5,1@0.5", "repeats"),
            ("0@1", "need 0"),
            ("1@0.5,2@0.2", "sum to 0.7"),
            ("1@-1,2@2", "probability -1"),
            ("1@1@0", "mean size 0"),
            ("x@1", "not an integer"),
            ("1", "not NEED@P"),
        ] {
            let e = JobClasses::parse(text).unwrap_err();
            assert_eq!(e.key, "classes");
            assert!(e.message.contains(needle), "{text}: {e}");
        }
    }

    #[test]
    fn csv_names_the_line() {
        let ok = JobClasses::from_csv("need,probability,mean_size\n# Borg-like\n1,0.9,1\n\n32,0.1,2\n").unwrap();
        assert_eq!(ok.to_string(), "1@0.9,32@0.1@2");
        for (text, needle) in [
            ("need,probability,mean_size\n1,0.9,1\n32,x,1\n", "line 3: probability 'x'"),
            ("1,0.5,1\n2,0.5\n", "line 2: 2 fields"),
            ("1,0.5,1\n1,0.5,1\n", "line 2: need 1 repeats line 1"),
            ("1,0.5,1\n4,0.5,-2\n", "line 2: mean size -2"),
            ("# nothing\n", "no class lines"),
        ] {
            let e = JobClasses::from_csv(text).unwrap_err();
            assert!(e.message.contains(needle), "{text:?}: {e}");
        }
    }

    #[test]
    fn an_unsorted_csv_sums_as_its_text_form_does() {
        // In row order 0.4 + 0.3 + 0.2 + 0.1 = 0.9999999999999999, in need order exactly 1:
        // rescaled by the first sum, every probability would be one bit high.
        let csv = JobClasses::from_csv("need,probability,mean_size\n4,0.4,1\n3,0.3,1\n2,0.2,1\n1,0.1,1\n").unwrap();
        let text = JobClasses::parse("1@0.1,2@0.2,3@0.3,4@0.4").unwrap();
        let bits = |c: &JobClasses| -> Vec<u64> { c.as_slice().iter().map(|c| c.probability.to_bits()).collect() };
        assert_eq!(bits(&csv), bits(&text));
        assert_eq!(bits(&csv), [0.1f64, 0.2, 0.3, 0.4].map(f64::to_bits));
        // The text form in any order, and the CSV's own text form read back, are the same table.
        for other in
            [JobClasses::parse("4@0.4,3@0.3,2@0.2,1@0.1").unwrap(), JobClasses::parse(&csv.to_string()).unwrap()]
        {
            assert_eq!(bits(&other), bits(&csv));
            assert_eq!(other, csv);
        }
    }

    #[test]
    fn sampling_follows_the_probabilities() {
        let c = JobClasses::parse("1@0.9,32@0.1").unwrap();
        let mut rng = stream(1, Stream::Sizes);
        let n = 100_000;
        let large = (0..n).filter(|_| c.sample(&mut rng) == 1).count() as f64 / n as f64;
        assert!((large - 0.1).abs() < 0.005, "{large}");
    }
}
