//! The gallery's markup: every preset as a card, grouped by paper, with its figure, its one
//! sentence and its thumbnail; the guided tours first. The page's gallery shows it
//! ([`crate::components::gallery`]), and the first picture shows it before the wasm runs.

use std::fmt::Write as _;

use packlab_core::models::all as all_models;
use packlab_core::scenario::{Preset, presets};
use packlab_core::tours::TOURS;

use super::{escape, thumbnail_path};

/// The gallery's `<main>`. `ids`: with the ids the page's skip link and focus go to (the
/// first picture leaves them out: it is on the page beside the app for a moment).
pub fn markup(ids: bool) -> String {
    let id = |name: &str| if ids { format!(" id=\"{name}\"") } else { String::new() };
    let mut out = String::new();
    let _ = write!(
        out,
        "<main class=\"gallery\"{} aria-labelledby=\"gallery-title\"><section class=\"gallery-intro\">\
         <h1{} tabindex=\"-1\">Every figure of the papers, live</h1>\
         <p>Pick a figure: its scenario opens in the lab, ready to play, with every control at hand. The \
         thumbnails are the first moments of each run, simulated by packlab's core.</p></section>",
        id("gallery"),
        if ids { " id=\"gallery-title\"".to_string() } else { String::new() },
    );
    out.push_str("<section class=\"paper tours\" aria-label=\"Guided tours\"><h2>Guided tours: predict, run, check</h2><ul class=\"cards\">");
    for tour in TOURS {
        let steps = tour.steps.len();
        let _ = write!(
            out,
            "<li class=\"card\" data-tour=\"{id}\"><a href=\"?tour={id}\"><span class=\"figure\">Tour · {paper}</span>\
             <span class=\"card-title\">{title}</span><span class=\"card-summary\">{steps} step{s}</span></a></li>",
            id = escape(tour.id),
            paper = escape(tour.paper),
            title = escape(tour.title),
            s = if steps == 1 { "" } else { "s" },
        );
    }
    out.push_str("</ul></section>");
    let all = presets();
    for model in all_models() {
        let cards: Vec<&Preset> = all.iter().filter(|p| p.scenario.info().id == model.id).collect();
        let _ = write!(
            out,
            "<section class=\"paper\" aria-label=\"{label}\" data-model=\"{id}\"><h2>{label}</h2><ul class=\"cards\">",
            label = escape(model.label),
            id = escape(model.id),
        );
        for preset in cards {
            card(&mut out, preset);
        }
        out.push_str("</ul></section>");
    }
    out.push_str("</main>");
    out
}

/// One preset's card: a link to its lab, with its thumbnail. A theory-only preset (nothing to
/// simulate) says so in place of a thumbnail.
fn card(out: &mut String, preset: &Preset) {
    let id = escape(preset.id);
    let title = escape(preset.title);
    let picture = if preset.scenario.any().theory_only() {
        "<span class=\"thumbnail bounds\">bounds only: computed, not simulated</span>".to_string()
    } else {
        // Lazy: the cards paint first, the pictures after (and below the fold, when scrolled to).
        format!(
            "<img class=\"thumbnail\" src=\"{src}\" width=\"240\" height=\"64\" loading=\"lazy\" decoding=\"async\" \
             alt=\"The first moments of {title}\">",
            src = thumbnail_path(preset.id),
        )
    };
    let _ = write!(
        out,
        "<li class=\"card\" data-preset=\"{id}\"><a href=\"?preset={id}\"><span class=\"figure\">{figure}</span>\
         <span class=\"card-title\">{title}</span>{picture}<span class=\"card-summary\">{summary}</span></a></li>",
        figure = escape(preset.figure),
        summary = escape(preset.summary),
    );
}

/// The header of the first picture: the page's own, with the controls that need the wasm
/// shown disabled until it runs (so nothing moves when it does). `preset`: the lab's picker,
/// showing this preset.
pub fn header(preset: Option<&str>) -> String {
    let picker = preset.map_or(String::new(), |label| {
        format!(
            "<label class=\"preset-pick\"><span>Preset</span><select disabled><option>{}</option></select></label>",
            escape(label)
        )
    });
    format!(
        "<header class=\"masthead\"><a class=\"brand\" href=\"?\" title=\"Every preset, by paper\">packlab</a>\
         <span class=\"tagline\">cluster job scheduling, simulated in your browser</span>{picker}\
         <span class=\"view-options\"><label><span>Colours</span><select disabled><option>{colours}</option></select></label>\
         <button type=\"button\" disabled>Present</button></span></header>",
        colours = crate::state::theme::ThemeChoice::Auto.label(),
    )
}

/// The gallery as the first picture: the header and the cards.
pub fn shell() -> String {
    format!("{}{}", header(None), markup(false))
}
