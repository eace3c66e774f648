//! Painting one policy's cluster on a canvas with the 2D context directly: each server as a bar
//! filled by its jobs (blocks sized by job size, coloured by queue bin, the last placement
//! outlined, the VQS configuration above), a grid of slots (PG-AS), or, from
//! [`crate::play::race::DETAIL_LIMIT`] servers on, a heat strip of fills written as one image;
//! below, the waiting jobs as bins.

use packlab_core::view::ClusterView;
use web_sys::HtmlCanvasElement;

use crate::cluster::layout::{BINS_HEIGHT, BarGeometry, GAP, Layout, SERVERS_HEIGHT, ServerStyle, SlotGrid};
use crate::cluster::pen::Pen;

/// The one size of text: a label that does not fit in it is shortened or left out, never
/// shrunk below 12 px (a phone's screen is read at arm's length).
const FONT: &str = "12px system-ui, sans-serif";
const INK: &str = "#1f2933";
const MUTED: &str = "#616e7c";
const EMPTY: &str = "#eef1f4";

/// The colour of queue bin (size class, VM type) `bin`: the class palette, so a block, its bin
/// and its curve match, and none looks like a policy's colour.
pub fn bin_color(bin: usize) -> String {
    packlab_plot::Ink::Class(bin).css()
}

/// The dark grey outlining class-coloured blocks (the class colours are light).
fn casing() -> String {
    packlab_plot::casing_css()
}

/// A fill in [0, 1] on a light-to-dark blue ramp (one hue: readable for every colour vision).
pub fn heat_color(fill: f32) -> String {
    css_rgb(heat_rgb(fill))
}

fn css_rgb(rgb: u32) -> String {
    format!("rgb({},{},{})", rgb >> 16, (rgb >> 8) & 0xff, rgb & 0xff)
}

/// [`heat_color`] as `0xRRGGBB`.
fn heat_rgb(fill: f32) -> u32 {
    let f = f64::from(fill.clamp(0.0, 1.0));
    let mix = |empty: f64, full: f64| u32::from((empty + (full - empty) * f).round() as u8);
    (mix(238.0, 8.0) << 16) | (mix(243.0, 48.0) << 8) | mix(248.0, 107.0)
}

/// Draws `view` on `canvas`, sized to its CSS box (`size`, as
/// [`css_size`](crate::hooks::use_canvas_size::css_size) gives it), over `backdrop`: the canvas
/// is opaque, so the compositor copies it rather than blending it over the page in every frame
/// ([`crate::hooks::use_backdrop`]).
pub fn draw(
    canvas: &HtmlCanvasElement,
    size: (f64, f64),
    view: &ClusterView,
    bin_labels: &[String],
    detail: bool,
    style: ServerStyle,
    backdrop: &str,
) -> Result<(), String> {
    let width = size.0.max(1.0);
    let height = HEIGHT;
    let ratio = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio()).max(1.0);
    let (pw, ph) = ((width * ratio) as u32, (height * ratio) as u32);
    if canvas.width() != pw || canvas.height() != ph {
        canvas.set_width(pw);
        canvas.set_height(ph);
    }
    let ctx = crate::dom::page::opaque_2d(canvas).ok_or("the canvas has no 2D context")?;
    ctx.set_transform(ratio, 0.0, 0.0, ratio, 0.0, 0.0).map_err(|_| "cannot scale the canvas")?;
    ctx.set_fill_style_str(backdrop);
    ctx.fill_rect(0.0, 0.0, width, height);
    paint(&ctx, width, view, bin_labels, detail, style, ratio)
}

/// The height [`paint`] draws, in CSS pixels.
pub const HEIGHT: f64 = SERVERS_HEIGHT + GAP + BINS_HEIGHT;

/// Paints `view` `width` CSS pixels wide with `pen` (`ratio` device pixels to the CSS pixel):
/// the servers, the latest migration and the bins.
pub fn paint(
    pen: &impl Pen,
    width: f64,
    view: &ClusterView,
    bin_labels: &[String],
    detail: bool,
    style: ServerStyle,
    ratio: f64,
) -> Result<(), String> {
    let ctx = pen;
    ctx.set_font(FONT);
    let layout = Layout::new(view.servers.len(), width, detail);
    match (detail, style) {
        (true, ServerStyle::Bars) => draw_bars(ctx, view, &layout),
        (true, ServerStyle::Slots) => draw_slots(ctx, view, &layout),
        (false, _) => draw_heat(ctx, view, &layout, ratio)?,
    }
    if detail {
        draw_migration(ctx, view, &layout);
    }
    draw_bins(ctx, view, bin_labels, width, SERVERS_HEIGHT + GAP);
    Ok(())
}

/// Bars, bottom-up in placement order; configuration above, number below when there is room.
/// With several resources (GH-RA) each server is a group of thin bars, one per resource,
/// named by their initials, and dummy jobs are hatched.
fn draw_bars(ctx: &impl Pen, view: &ClusterView, layout: &Layout) {
    let BarGeometry { top: bar_top, height: bar_height, pad, bars, bar_gap, bar_width } =
        BarGeometry::new(view, layout);
    let group_width = layout.cell_width - pad;
    let labelled = layout.cell_width >= 30.0;
    let outline = casing();
    ctx.set_text_align("center");
    for (i, server) in view.servers.iter().enumerate() {
        let group_x = i as f64 * layout.cell_width + pad / 2.0;
        for resource in 0..bars {
            let x = group_x + resource as f64 * (bar_width + bar_gap);
            ctx.set_fill_style_str(EMPTY);
            ctx.fill_rect(x, bar_top, bar_width, bar_height);
            let mut y = bar_top + bar_height;
            let mut last = None;
            for block in &server.blocks {
                let h = f64::from(block.shares[resource]) * bar_height;
                y -= h;
                ctx.set_fill_style_str(&bin_color(usize::from(block.bin)));
                ctx.fill_rect(x, y, bar_width, h);
                if block.dummy {
                    hatch(ctx, x, y, bar_width, h);
                }
                // A dark outline: it separates neighbouring jobs and holds a light colour
                // against the empty bar.
                if h >= 2.0 {
                    ctx.set_stroke_style_str(&outline);
                    ctx.set_line_width(1.0);
                    ctx.stroke_rect(x + 0.5, y + 0.5, bar_width - 1.0, h - 1.0);
                }
                if block.last {
                    last = Some((y, h));
                }
            }
            if let Some((y, h)) = last {
                ctx.set_stroke_style_str(INK);
                ctx.set_line_width(2.5);
                ctx.stroke_rect(x + 1.25, y + 1.25, bar_width - 2.5, (h - 2.5).max(1.0));
            }
            ctx.set_stroke_style_str(MUTED);
            ctx.set_line_width(1.0);
            ctx.stroke_rect(x + 0.5, bar_top + 0.5, bar_width - 1.0, bar_height - 1.0);
            // The resource's initial inside the foot of its bar.
            if bars > 1 && bar_width >= 8.0 {
                ctx.set_fill_style_str(MUTED);
                let initial: String = view.resources[resource].chars().take(1).collect();
                let _ = ctx.fill_text(&initial.to_uppercase(), x + bar_width / 2.0, bar_top + bar_height - 3.0);
            }
        }
        if labelled {
            let centre = group_x + group_width / 2.0;
            // Server number and the jobs waiting at it (per-server queues), as long as fits.
            let n = i + 1;
            let number = match server.waiting {
                Some(w) => vec![format!("{n} · {w} waiting"), format!("{n} · {w}"), format!("{w}")],
                None => vec![n.to_string()],
            };
            ctx.set_fill_style_str(MUTED);
            fit_text(ctx, &number, centre, SERVERS_HEIGHT - 3.0, layout.cell_width - 2.0);
            if let Some(label) = &server.label {
                // "k = (2,0,0)" or, where that is too wide, "(2,0,0)".
                let short = label.rsplit("= ").next().unwrap_or(label).to_string();
                ctx.set_fill_style_str(INK);
                fit_text(ctx, &[label.clone(), short], centre, 12.0, layout.cell_width - 2.0);
            }
        }
    }
    ctx.set_font(FONT);
}

/// Draws the first of `candidates` that fits in `max_width`; nothing if none fits
/// (neighbouring labels must not run into each other, and none is shrunk below 12 px).
fn fit_text(ctx: &impl Pen, candidates: &[String], x: f64, y: f64, max_width: f64) {
    ctx.set_font(FONT);
    if let Some(text) = candidates.iter().find(|text| ctx.text_width(text).is_some_and(|w| w <= max_width)) {
        let _ = ctx.fill_text(text, x, y);
    }
}

/// Each server as a grid of its deployed slots, bottom-up in type order: a filled square per
/// job, a hollow square (outlined in the type's colour) per reserved empty slot; the
/// configuration and group above, the number below.
fn draw_slots(ctx: &impl Pen, view: &ClusterView, layout: &Layout) {
    let SlotGrid { top, height, pad, group_width, side, columns } = SlotGrid::new(view, layout);
    let inset = if side >= 6.0 { 1.0 } else { 0.0 };
    let outline = casing();
    ctx.set_text_align("center");
    for (i, server) in view.servers.iter().enumerate() {
        let x0 = i as f64 * layout.cell_width + pad / 2.0;
        ctx.set_stroke_style_str(EMPTY);
        ctx.set_line_width(1.0);
        ctx.stroke_rect(x0 + 0.5, top + 0.5, group_width - 1.0, height - 1.0);
        for (k, block) in server.blocks.iter().enumerate() {
            let (row, col) = (k / columns, k % columns);
            let x = x0 + col as f64 * side + inset;
            let y = top + height - (row + 1) as f64 * side + inset;
            let s = side - 2.0 * inset;
            let color = bin_color(usize::from(block.bin));
            if block.reserved {
                ctx.set_fill_style_str("#ffffff");
                ctx.fill_rect(x, y, s, s);
                ctx.set_stroke_style_str(&color);
                ctx.set_line_width(if side >= 8.0 { 2.0 } else { 1.0 });
                ctx.stroke_rect(x + 1.0, y + 1.0, (s - 2.0).max(0.5), (s - 2.0).max(0.5));
            } else {
                ctx.set_fill_style_str(&color);
                ctx.fill_rect(x, y, s, s);
            }
            // Outlined in dark grey, full or reserved: the class colours are light.
            if s >= 4.0 {
                ctx.set_stroke_style_str(&outline);
                ctx.set_line_width(1.0);
                ctx.stroke_rect(x + 0.5, y + 0.5, s - 1.0, s - 1.0);
            }
            if block.last {
                ctx.set_stroke_style_str(INK);
                ctx.set_line_width(2.0);
                ctx.stroke_rect(x - 0.5, y - 0.5, s + 1.0, s + 1.0);
            }
        }
        if layout.cell_width >= 24.0 {
            let centre = x0 + group_width / 2.0;
            ctx.set_fill_style_str(MUTED);
            fit_text(ctx, &[(i + 1).to_string()], centre, SERVERS_HEIGHT - 3.0, layout.cell_width - 2.0);
            if let Some(label) = &server.label {
                // "k = (…) · rank 2 · index 1 · AG", or just its group where that is too wide.
                let short = label.rsplit(" · ").next().unwrap_or(label).to_string();
                ctx.set_fill_style_str(INK);
                fit_text(ctx, &[label.clone(), short], centre, 12.0, layout.cell_width - 2.0);
            }
        }
    }
    ctx.set_font(FONT);
}

/// An arrow from the server a job was just moved from to the one it moved into (PG-AS's
/// migrations), over the servers.
fn draw_migration(ctx: &impl Pen, view: &ClusterView, layout: &Layout) {
    let Some((from, to)) = view.last.as_ref().and_then(|w| Some((w.from?, w.server))) else { return };
    if from == to || from as usize >= view.servers.len() || to as usize >= view.servers.len() {
        return;
    }
    let centre = |s: u32| (s as f64 + 0.5) * layout.cell_width;
    let (x1, x2, y) = (centre(from), centre(to), 15.0);
    let lift = (x2 - x1).abs().min(40.0) * 0.35 + 4.0;
    ctx.set_stroke_style_str(INK);
    ctx.set_line_width(1.5);
    ctx.begin_path();
    ctx.move_to(x1, y);
    ctx.quadratic_curve_to((x1 + x2) / 2.0, y - lift, x2, y);
    ctx.stroke();
    // The head points down into the receiving server.
    let dir = if x2 > x1 { -1.0 } else { 1.0 };
    ctx.set_fill_style_str(INK);
    ctx.begin_path();
    ctx.move_to(x2, y + 1.0);
    ctx.line_to(x2 + dir * 6.0, y - 4.0);
    ctx.line_to(x2 + dir * 1.0, y - 6.0);
    ctx.close_path();
    ctx.fill();
}

/// Diagonal grey lines over a dummy job's block: it holds the space, but is not a job.
fn hatch(ctx: &impl Pen, x: f64, y: f64, w: f64, h: f64) {
    if h < 1.0 || w < 1.0 {
        return;
    }
    ctx.save();
    ctx.begin_path();
    ctx.rect(x, y, w, h);
    ctx.clip();
    ctx.set_stroke_style_str("rgba(68,68,68,0.55)");
    ctx.set_line_width(2.0);
    ctx.begin_path();
    let step = 6.0;
    let mut offset = -h;
    while offset < w {
        ctx.move_to(x + offset, y + h);
        ctx.line_to(x + offset + h, y);
        offset += step;
    }
    ctx.stroke();
    ctx.restore();
}

/// One square per server, darker when fuller, drawn in one go ([`Pen::cells`]: on a canvas,
/// one image rather than a thousand rectangles a frame).
fn draw_heat(ctx: &impl Pen, view: &ClusterView, layout: &Layout, ratio: f64) -> Result<(), String> {
    let gap = if layout.cell_width >= 6.0 { 1.0 } else { 0.0 };
    let cells: Vec<(f64, f64, f64, u32)> = view
        .servers
        .iter()
        .enumerate()
        .map(|(i, server)| {
            let (row, col) = (i / layout.columns, i % layout.columns);
            (
                col as f64 * layout.cell_width,
                row as f64 * layout.cell_height,
                layout.cell_width - gap,
                heat_rgb(server.fill),
            )
        })
        .collect();
    let width = layout.columns as f64 * layout.cell_width;
    ctx.cells(&cells, width, layout.rows as f64 * layout.cell_height, ratio)
}

/// The waiting jobs per bin as columns, each with its count above and its name below.
fn draw_bins(ctx: &impl Pen, view: &ClusterView, labels: &[String], width: f64, top: f64) {
    let n = view.bins.len().max(1);
    let cell = (width / n as f64).min(90.0);
    let most = view.bins.iter().copied().max().unwrap_or(0).max(1) as f64;
    // A second line under the names when the bins carry notes.
    let notes = view.bin_notes.iter().any(|n| !n.is_empty());
    let (count_room, name_room) = (14.0, if notes { 30.0 } else { 16.0 });
    let column_height = BINS_HEIGHT - count_room - name_room;
    let base = top + count_room + column_height;
    ctx.set_stroke_style_str(MUTED);
    ctx.set_line_width(1.0);
    ctx.begin_path();
    ctx.move_to(0.0, base + 0.5);
    ctx.line_to(cell * n as f64, base + 0.5);
    ctx.stroke();
    ctx.set_text_align("center");
    for (bin, &count) in view.bins.iter().enumerate() {
        let x = bin as f64 * cell;
        let h = count as f64 / most * column_height;
        ctx.set_fill_style_str(&bin_color(bin));
        ctx.fill_rect(x + cell * 0.15, base - h, cell * 0.7, h);
        if h >= 2.0 {
            ctx.set_stroke_style_str(&casing());
            ctx.stroke_rect(x + cell * 0.15 + 0.5, base - h + 0.5, cell * 0.7 - 1.0, h - 1.0);
        }
        if cell >= 22.0 {
            ctx.set_fill_style_str(INK);
            let _ = ctx.fill_text(&count.to_string(), x + cell / 2.0, base - h - 3.0);
            ctx.set_fill_style_str(MUTED);
            // The whole name ("size 2") where it fits, else its first word ("High-Memory").
            let name = labels.get(bin).map_or("", String::as_str);
            let first = name.split(' ').next().unwrap_or("").to_string();
            fit_text(ctx, &[name.to_string(), first], x + cell / 2.0, base + 13.0, cell - 2.0);
            if let Some(note) = view.bin_notes.get(bin).filter(|n| !n.is_empty()) {
                ctx.set_fill_style_str(INK);
                fit_text(ctx, std::slice::from_ref(note), x + cell / 2.0, base + 26.0, cell - 2.0);
            }
        }
    }
}

/// A sentence for screen readers and for the title of the canvas.
pub fn describe(view: &ClusterView, bin_labels: &[String]) -> String {
    let servers = view.servers.len();
    let mean_fill = view.servers.iter().map(|s| f64::from(s.fill)).sum::<f64>() / servers.max(1) as f64;
    let what = view.bins_kind.words();
    let bins: Vec<String> =
        view.bins.iter().zip(bin_labels).filter(|(c, _)| **c > 0).map(|(c, label)| format!("{label}: {c}")).collect();
    let bins = if bins.is_empty() { "none waiting".to_string() } else { bins.join(", ") };
    format!("{servers} servers, {:.0}% full on average; {what}: {bins}", mean_fill * 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stylesheet's lane edges are the policy palette (no inline styles: the colours are
    /// written out in the CSS, and this keeps them equal).
    #[test]
    fn the_lane_edges_in_the_stylesheet_are_the_policy_colours() {
        let css = include_str!("../../www/style.css");
        for i in 0..packlab_plot::PALETTE.len() {
            let rule = format!(".policy-{i} {{ --policy: {}; }}", packlab_plot::css_color(i));
            assert!(css.contains(&rule), "missing {rule}");
        }
        // Blocks take the class palette, which shares no colour with the policies'.
        assert_eq!(bin_color(0), "#eedd88");
        assert!((0..8).all(|b| (0..7).all(|p| bin_color(b) != packlab_plot::css_color(p))));
    }

    #[test]
    fn heat_goes_from_light_to_dark() {
        assert_eq!(heat_color(0.0), "rgb(238,243,248)");
        assert_eq!(heat_color(1.0), "rgb(8,48,107)");
        assert_eq!(heat_color(7.0), heat_color(1.0));
    }
}
