//! The embedded page (`embed=1`): the views it can show ([`View`]) and the ones chosen
//! ([`Embed`]). Their names are the core's page key rows ([`packlab_core::page::VIEW_NAMES`]).

use crate::charts::kind::ChartKind;

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

    /// The view called `name` (one of [`packlab_core::page::VIEW_NAMES`]).
    pub fn named(name: &str) -> Option<View> {
        View::all().into_iter().find(|v| v.name() == name)
    }
}

/// How an embedded page shows the lab: the views chosen (empty: the lanes and the model's
/// first chart).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Embed {
    pub views: Vec<View>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page's views are the core's page key rows, in the same order.
    #[test]
    fn the_views_are_the_cores() {
        let names: Vec<&str> = View::all().into_iter().map(View::name).collect();
        assert_eq!(names, packlab_core::page::VIEW_NAMES);
    }
}
