//! A lab link's first picture: its scenario in words (the preset's figure, title, summary and
//! explanation, or the tour's step) and its lanes at time 0, drawn by the lanes' own painter
//! ([`crate::cluster::paint::paint`]) as SVG: what the lab shows before Play, without the wasm.

use std::fmt::Write as _;

use packlab_core::model::Drawing;

use super::escape;
use super::gallery::header;
use crate::cluster::layout::ServerStyle;
use crate::cluster::paint::{HEIGHT, describe, paint};
use crate::cluster::pen::Svg;
use crate::play::race::Race;
use crate::play::snapshot::{Phase, Snapshot};
use crate::state::Lab;

/// How wide the lanes are drawn, in CSS pixels: a phone's lane. A wider lane shows the
/// drawing at this size (a canvas lays bars out the same up to 200 px a server), a narrower
/// one scales it down a little.
const STILL_WIDTH: f64 = 340.0;

/// The lab `lab` opens, as the first picture: header, intro, playback (waiting for the wasm)
/// and the lanes at time 0.
pub fn shell(lab: &Lab) -> String {
    let setup = &lab.setup;
    let preset = &setup.preset;
    // While a tour's step asks its question, the preset's name would answer it.
    let asking = lab.tour.filter(|at| at.step().question.is_some());
    let picked =
        if asking.is_some() { preset.figure.to_string() } else { format!("{} · {}", preset.figure, preset.title) };
    let mut out = header(Some(&picked));
    out.push_str("<main class=\"lab first-paint\" aria-busy=\"true\"><section class=\"intro\">");
    match asking {
        Some(at) => {
            let _ = write!(
                out,
                "<p class=\"figure\">Tour · {}</p><h1>{}</h1><p class=\"summary\">The preset's name and summary show \
                 once the run has answered the question.</p>",
                escape(at.tour.paper),
                escape(at.tour.title)
            );
        }
        None => {
            let _ = write!(
                out,
                "<p class=\"figure\">{}</p><h1>{}</h1><p class=\"summary\">{}</p><details class=\"explain\">\
                 <summary>What am I looking at?</summary><p>{}</p><p>{}</p></details>",
                escape(preset.figure),
                escape(preset.title),
                escape(preset.summary),
                escape(preset.explanation),
                escape(setup.scenario.any().how_to_read())
            );
        }
    }
    out.push_str("</section><section class=\"run\" aria-label=\"Live simulation\">");
    if let Some(at) = lab.tour {
        let _ = write!(
            out,
            "<section class=\"tour\" aria-label=\"Guided tour\"><p class=\"tour-head\"><span class=\"figure\">Tour · {}</span>\
             <strong>{}</strong><span class=\"hint\">step {} of {}</span></p><p>{}</p></section>",
            escape(at.tour.paper),
            escape(at.tour.title),
            at.step + 1,
            at.tour.steps.len(),
            escape(at.step().text)
        );
    }
    if setup.scenario.any().theory_only() {
        out.push_str("<p class=\"hint starting\">Computing the theory's figures…</p>");
    } else {
        out.push_str(
            "<div class=\"playback\"><button type=\"button\" class=\"primary\" disabled>Play</button>\
             <span class=\"hint starting\" role=\"status\">Starting the simulation…</span></div>",
        );
        lanes(&mut out, &Race::new(setup, 96).snapshot(Phase::Ready, 0));
    }
    out.push_str(
        "</section><aside class=\"controls\" aria-label=\"Scenario\"><p class=\"hint\">The scenario's controls \
         come with the simulation.</p></aside></main>",
    );
    out
}

/// Each lane at the snapshot's moment, as the lanes view draws it.
fn lanes(out: &mut String, snapshot: &Snapshot) {
    let style = match snapshot.model.drawing {
        Drawing::Slots => ServerStyle::Slots,
        Drawing::Bars => ServerStyle::Bars,
    };
    out.push_str("<div class=\"lanes\">");
    for lane in &snapshot.lanes {
        let pen = Svg::new();
        let drawn = paint(&pen, STILL_WIDTH, &lane.view, &snapshot.bin_labels, snapshot.detail, style, 1.0);
        let picture = match drawn {
            Ok(()) => format!(
                "<svg class=\"cluster still\" width=\"100%\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
                 preserveAspectRatio=\"xMinYMin meet\" role=\"img\" aria-label=\"{label}\" font-family=\"system-ui, sans-serif\">{}</svg>",
                pen.into_inner(),
                w = STILL_WIDTH,
                h = HEIGHT,
                label = escape(&describe(&lane.view, &snapshot.bin_labels)),
            ),
            Err(_) => String::new(),
        };
        let _ = write!(
            out,
            "<article class=\"lane policy-{color}\"><h2>{swatch}{label}</h2>{picture}<p class=\"why\">No job placed yet.</p></article>",
            color = lane.color % 7,
            swatch = swatch(lane.color),
            label = escape(&lane.label),
        );
    }
    out.push_str("</div>");
}

/// A lane's legend entry, as [`crate::components::swatch::Swatch`] draws it with markers.
fn swatch(color: usize) -> String {
    let c = packlab_plot::css_color(color);
    let marker = match color % 4 {
        0 => format!("<circle cx=\"9\" cy=\"6\" r=\"3.5\" fill=\"{c}\"/>"),
        1 => format!("<polygon points=\"9,1.5 13.5,9.5 4.5,9.5\" fill=\"{c}\"/>"),
        2 => format!("<rect x=\"6\" y=\"3\" width=\"6\" height=\"6\" fill=\"{c}\"/>"),
        _ => format!("<path d=\"M5.5,2.5 L12.5,9.5 M12.5,2.5 L5.5,9.5\" stroke=\"{c}\" stroke-width=\"2\"/>"),
    };
    format!(
        "<svg class=\"swatch\" width=\"18\" height=\"12\" viewBox=\"0 0 18 12\" aria-hidden=\"true\">\
         <line x1=\"0\" y1=\"6\" x2=\"18\" y2=\"6\" stroke=\"{c}\" stroke-width=\"2.5\"/>{marker}</svg>"
    )
}
