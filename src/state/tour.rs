//! Where a guided tour is ([`TourAt`]), and its link keys.

use packlab_core::tours::{Step as TourStep, Tour};

/// The link keys of a guided tour and its step (`tour=msf-swings&step=2`, steps from 1).
pub const TOUR_KEY: &str = "tour";
pub const STEP_KEY: &str = "step";

/// Where a guided tour is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TourAt {
    pub tour: &'static Tour,
    /// From 0.
    pub step: usize,
}

impl TourAt {
    pub fn step(&self) -> &'static TourStep {
        &self.tour.steps[self.step]
    }
}
