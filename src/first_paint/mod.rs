//! The page's first picture, drawn before the wasm runs: HTML and SVG written by this crate
//! from the core, when the page is built, and shown by `www/first-paint.js` while the wasm
//! loads (docs/web.md, "The first picture"). The gallery is its cards with their thumbnails;
//! a lab link is its scenario in words and its lanes at time 0, as the lab first shows them.
//!
//! `scripts/first-paint.mjs` (run after each Trunk build) loads the page's wasm in node and
//! calls [`first_paint`]; the gallery's markup is also what the page's own gallery shows
//! ([`gallery::markup`]), so the two cannot drift apart.

pub mod gallery;
mod lab;
mod thumbnail;

use packlab_core::scenario::presets;
use packlab_core::tours::TOURS;
use serde_json::{Map, json};
use wasm_bindgen::prelude::*;

use crate::state::Lab;

pub use crate::cluster::pen::escape;

/// Everything the first picture needs, as JSON: the gallery (`gallery`, the whole view with its
/// header), each preset's lab (`labs`, by preset id) and each tour step's (`tours`, by
/// `ID-STEP`, steps from 1), each preset's thumbnail (`thumbnails`, SVG), and what
/// `www/first-paint.js` decides with (`data`: the preset a link without one opens, the tours'
/// step counts, and what needs the script engine).
#[wasm_bindgen]
pub fn first_paint() -> String {
    let mut labs = Map::new();
    let mut thumbnails = Map::new();
    for preset in presets() {
        let lab = Lab::from_link(&format!("preset={}", preset.id));
        labs.insert(preset.id.into(), lab::shell(&lab).into());
        if let Some(svg) = thumbnail::svg(preset.id) {
            thumbnails.insert(preset.id.into(), svg.into());
        }
    }
    let mut tours = Map::new();
    let mut steps = Map::new();
    let mut scripted = Vec::new();
    for tour in TOURS {
        steps.insert(tour.id.into(), tour.steps.len().into());
        for k in 1..=tour.steps.len() {
            let lab = Lab::from_link(&format!("tour={}&step={k}", tour.id));
            if lab.needs_scripts() {
                scripted.push(format!("{}-{k}", tour.id));
            }
            tours.insert(format!("{}-{k}", tour.id), lab::shell(&lab).into());
        }
    }
    let default = Lab::from_link("seed=1").setup.preset.id;
    json!({
        "gallery": gallery::shell(),
        "labs": labs,
        "tours": tours,
        "thumbnails": thumbnails,
        "data": {
            "default": default,
            "presets": presets().iter().map(|p| p.id).collect::<Vec<_>>(),
            "tours": steps,
            "scriptPolicy": packlab_core::script::NAME,
            "scriptSteps": scripted,
            "themes": crate::state::theme::ThemeChoice::ALL.iter().map(|t| t.name()).collect::<Vec<_>>(),
        },
    })
    .to_string()
}

/// The file a preset's thumbnail is served as, next to the page.
pub fn thumbnail_path(id: &str) -> String {
    format!("first-paint/{id}.svg")
}

#[cfg(test)]
mod tests;
