//! The stability map as the page's link holds it (`map=R`, `map_axis=KEY:V1,V2,…`): the
//! replications and the second axis, parsed once here for the page and its link, and the
//! finder and the `packlab stability` command they stand for.

use crate::ConfigError;
use crate::scenario::Setup;

use super::finder::{Finder, Options};

/// The page key that opens the stability map, with its replications per load.
pub const MAP: &str = "map";
/// The page key of the map's second axis: `KEY:V1,V2,…` (or `KEY=V1,V2,…`, as `--axis`).
pub const MAP_AXIS: &str = "map_axis";
/// Most replications per load the page runs (the CLI has no such bound).
pub const MAP_MAX_REPS: u64 = 50;

/// A stability map: replications per load and the second axis, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapSpec {
    pub reps: u64,
    /// The scenario key and its values (comma-separated text, checked by the finder).
    pub axis: Option<(String, String)>,
}

impl Default for MapSpec {
    /// `packlab stability`'s defaults: 8 replications, at the scenario alone.
    fn default() -> Self {
        Self { reps: Options::default().reps, axis: None }
    }
}

impl MapSpec {
    /// Replications per load from their text: an integer in 2..=[`MAP_MAX_REPS`]; `field`
    /// names them in the message (the link's key or the page's field).
    pub fn parse_reps(text: &str, field: &str) -> Result<u64, ConfigError> {
        let text = text.trim();
        text.parse::<u64>().ok().filter(|r| (2..=MAP_MAX_REPS).contains(r)).ok_or_else(|| {
            ConfigError::new(
                field,
                format!(
                    "must be the replications per load, an integer in 2..={MAP_MAX_REPS} (the test's interval is \
                     over them; got '{text}')"
                ),
            )
        })
    }

    /// The second axis from `KEY:V1,V2,…` or `KEY=V1,V2,…`; empty text: none. Whether the key
    /// and values fit the scenario is the finder's to say ([`MapSpec::finder`]).
    pub fn parse_axis(text: &str, field: &str) -> Result<Option<(String, String)>, ConfigError> {
        let text = text.trim();
        if text.is_empty() {
            return Ok(None);
        }
        let (key, values) = text.split_once([':', '=']).ok_or_else(|| {
            ConfigError::new(field, format!("must be KEY:V1,V2,… such as servers:1,2,4, or empty (got '{text}')"))
        })?;
        let (key, values) = (key.trim(), values.trim());
        if key.is_empty() || values.is_empty() {
            return Err(ConfigError::new(field, format!("needs a key and its values, such as j:2,3,4 (got '{text}')")));
        }
        Ok(Some((key.to_string(), values.to_string())))
    }

    /// The link's keys of this map.
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = vec![(MAP, self.reps.to_string())];
        if let Some((key, values)) = &self.axis {
            pairs.push((MAP_AXIS, format!("{key}:{values}")));
        }
        pairs
    }

    /// The finder of this map on `setup`, with `packlab stability`'s other defaults; a bad
    /// axis is named by [`MAP_AXIS`] with the scenario's message.
    pub fn finder(&self, setup: &Setup) -> Result<Finder, ConfigError> {
        let options = Options { reps: self.reps, ..Options::default() };
        let axis = self.axis.as_ref().map(|(k, v)| (k.as_str(), v.as_str()));
        Finder::new(setup, axis, options).map_err(|e| match e.key.as_str() {
            "stability" => e,
            "reps" => ConfigError::new(MAP, e.message),
            "axis" => ConfigError::new(MAP_AXIS, e.message),
            key => ConfigError::new(MAP_AXIS, format!("{key}: {}", e.message)),
        })
    }

    /// The command that makes the same map: `packlab stability --link '…' --reps R [--axis …]`,
    /// `link` the scenario's full link (address and query).
    pub fn command(&self, link: &str) -> String {
        let axis = self.axis.as_ref().map_or(String::new(), |(k, v)| format!(" --axis {k}={v}"));
        format!("packlab stability --link '{link}' --reps {}{axis}", self.reps)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_map_reads_and_writes_its_keys_and_names_bad_ones() {
        assert_eq!(MapSpec::parse_reps(" 4 ", MAP).unwrap(), 4);
        for bad in ["1", "0", "51", "x", "-2", ""] {
            let e = MapSpec::parse_reps(bad, MAP).unwrap_err();
            assert!(e.key == MAP && e.message.contains("2..=50"), "{bad}: {e}");
        }
        let axis = MapSpec::parse_axis("j=2,3", MAP_AXIS).unwrap();
        assert_eq!(axis, MapSpec::parse_axis("j:2,3", MAP_AXIS).unwrap());
        assert_eq!(MapSpec::parse_axis(" ", MAP_AXIS).unwrap(), None);
        for bad in ["j", ":2,3", "j:"] {
            assert_eq!(MapSpec::parse_axis(bad, MAP_AXIS).unwrap_err().key, MAP_AXIS, "{bad}");
        }
        let spec = MapSpec { reps: 4, axis };
        assert_eq!(spec.pairs(), [(MAP, "4".to_string()), (MAP_AXIS, "j:2,3".to_string())]);
        assert_eq!(
            spec.command("http://x/?preset=pgrr-a1"),
            "packlab stability --link 'http://x/?preset=pgrr-a1' --reps 4 --axis j=2,3"
        );
    }

    #[test]
    fn the_finder_names_the_maps_keys() {
        let setup = Setup::from_preset("pgrr-a1").unwrap();
        let spec = |axis: &str| MapSpec { reps: 4, axis: MapSpec::parse_axis(axis, MAP_AXIS).unwrap() };
        assert_eq!(spec("").finder(&setup).unwrap().options.reps, 4);
        assert_eq!(spec("nope:1,2").finder(&setup).unwrap_err().key, MAP_AXIS);
        let e = spec("servers:0").finder(&setup).unwrap_err();
        assert!(e.key == MAP_AXIS && e.message.starts_with("servers"), "{e}");
        assert_eq!(spec("servers:1,2").finder(&setup).unwrap().values, [1.0, 2.0]);
        assert_eq!(spec("").finder(&Setup::from_preset("pgas-c3").unwrap()).unwrap_err().key, "stability");
    }
}
