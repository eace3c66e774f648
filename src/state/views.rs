//! The embedded page (`embed=1`): the views it can show ([`View`]) and the ones chosen
//! ([`Embed`]), with their link keys.

use packlab_core::ConfigError;

use crate::charts::kind::ChartKind;

/// The link key that shows the page embedded (`embed=1`): chosen views only, for an iframe.
pub const EMBED_KEY: &str = "embed";
/// The views an embedded page shows (`views=lanes,queue`).
pub const VIEWS_KEY: &str = "views";

/// A part of the page an embedded page can show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// The statistics table.
    Stats,
    /// Each policy's cluster.
    Lanes,
    Chart(ChartKind),
}

impl View {
    /// Every view, in the order of the page.
    pub fn all() -> Vec<View> {
        let mut views = vec![View::Stats, View::Lanes];
        views.extend(ChartKind::ALL.iter().map(|&k| View::Chart(k)));
        views
    }

    pub fn name(self) -> &'static str {
        match self {
            View::Stats => "stats",
            View::Lanes => "lanes",
            View::Chart(kind) => kind.name(),
        }
    }

    /// A comma-separated list of view names, each once.
    pub fn parse_list(text: &str) -> Result<Vec<View>, ConfigError> {
        let all = View::all();
        let mut views = Vec::new();
        for name in text.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let Some(view) = all.iter().find(|v| v.name() == name) else {
                let names: Vec<&str> = all.iter().map(|v| v.name()).collect();
                return Err(ConfigError::new(
                    VIEWS_KEY,
                    format!("'{name}' is not a view; views are {} (comma-separated)", names.join(", ")),
                ));
            };
            if !views.contains(view) {
                views.push(*view);
            }
        }
        Ok(views)
    }
}

/// How an embedded page shows the lab: the views chosen (empty: the lanes and the model's
/// first chart).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Embed {
    pub views: Vec<View>,
}
