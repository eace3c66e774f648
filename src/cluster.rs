//! One policy's cluster, drawn on a canvas: each server as a bar filled by its jobs (blocks
//! sized by job size, coloured by queue bin, the last placement outlined, the VQS
//! configuration above), or, from [`crate::race::DETAIL_LIMIT`] servers on, a heat strip of
//! fills; below, the waiting jobs as bins. Drawn with the 2D context directly: thousands of
//! rectangles per frame is what it is fast at.

use std::rc::Rc;

use packlab_core::view::{BinsKind, ClusterView};

use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};
use yew::prelude::*;

use crate::canvas_size::{css_size, use_canvas_size};

/// Height of the server area and of the bins area, in CSS pixels.
const SERVERS_HEIGHT: f64 = 150.0;
const BINS_HEIGHT: f64 = 96.0;
const GAP: f64 = 18.0;
const FONT: &str = "12px system-ui, sans-serif";
const INK: &str = "#1f2933";
const MUTED: &str = "#616e7c";
const EMPTY: &str = "#eef1f4";

/// The colour of queue bin `bin`: the chart palette, so a block, its bin and its curve match.
pub fn bin_color(bin: usize) -> String {
    packlab_plot::css_color(bin)
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

/// How the servers are laid out in a canvas `width` wide.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Layout {
    /// Servers per row.
    pub columns: usize,
    pub rows: usize,
    /// Cell width and height (a cell holds a bar or a heat square, with its gap).
    pub cell_width: f64,
    pub cell_height: f64,
}

impl Layout {
    /// Bars side by side in one row when there are few servers; else as square a grid as
    /// fits in the server area. A lone machine (one server, or the k cores of the
    /// multiserver model) gets a wide bar, so its label and thin jobs stay readable.
    pub fn new(servers: usize, width: f64, detail: bool) -> Self {
        let servers = servers.max(1);
        if detail {
            let widest = if servers == 1 { 200.0 } else { 72.0 };
            let cell_width = (width / servers as f64).min(widest);
            return Layout { columns: servers, rows: 1, cell_width, cell_height: SERVERS_HEIGHT };
        }
        // The largest square cell with which `servers` cells fit in width × SERVERS_HEIGHT.
        let mut side = (width * SERVERS_HEIGHT / servers as f64).sqrt().floor().max(2.0);
        while side > 2.0 && (width / side).floor() * (SERVERS_HEIGHT / side).floor() < servers as f64 {
            side -= 1.0;
        }
        let columns = ((width / side).floor() as usize).max(1);
        Layout { columns, rows: servers.div_ceil(columns), cell_width: side, cell_height: side }
    }
}

/// Draws `view` on `canvas`, sized to its CSS box (`size`, as [`css_size`] gives it).
pub fn draw(
    canvas: &HtmlCanvasElement,
    size: (f64, f64),
    view: &ClusterView,
    bin_labels: &[String],
    detail: bool,
) -> Result<(), String> {
    let width = size.0.max(1.0);
    let height = SERVERS_HEIGHT + GAP + BINS_HEIGHT;
    let ratio = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio()).max(1.0);
    let (pw, ph) = ((width * ratio) as u32, (height * ratio) as u32);
    if canvas.width() != pw || canvas.height() != ph {
        canvas.set_width(pw);
        canvas.set_height(ph);
    }
    let ctx: CanvasRenderingContext2d = canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into().ok())
        .ok_or("the canvas has no 2D context")?;
    ctx.set_transform(ratio, 0.0, 0.0, ratio, 0.0, 0.0).map_err(|_| "cannot scale the canvas")?;
    ctx.clear_rect(0.0, 0.0, width, height);
    ctx.set_font(FONT);
    let layout = Layout::new(view.servers.len(), width, detail);
    if detail {
        draw_bars(&ctx, view, &layout);
    } else {
        draw_heat(&ctx, view, &layout);
    }
    draw_bins(&ctx, view, bin_labels, width, SERVERS_HEIGHT + GAP);
    Ok(())
}

/// Bars, bottom-up in placement order; configuration above, number below when there is room.
/// With several resources (GH-RA) each server is a group of thin bars, one per resource,
/// named by their initials, and dummy jobs are hatched.
fn draw_bars(ctx: &CanvasRenderingContext2d, view: &ClusterView, layout: &Layout) {
    let label_room = 16.0;
    let bar_top = label_room;
    let bar_height = SERVERS_HEIGHT - 2.0 * label_room;
    let pad = (layout.cell_width * 0.15).clamp(1.0, 10.0);
    let group_width = layout.cell_width - pad;
    let bars = view.resources.len().max(1);
    let bar_gap = if bars > 1 { 2.0 } else { 0.0 };
    let bar_width = (group_width - bar_gap * (bars - 1) as f64) / bars as f64;
    let labelled = layout.cell_width >= 30.0;
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
                // A white seam between neighbouring jobs.
                ctx.set_fill_style_str("#ffffff");
                ctx.fill_rect(x, y, bar_width, h.min(1.0));
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
            ctx.set_fill_style_str(MUTED);
            let number = match server.waiting {
                Some(w) => format!("{} · {w} waiting", i + 1),
                None => format!("{}", i + 1),
            };
            let _ = ctx.fill_text(&number, group_x + group_width / 2.0, SERVERS_HEIGHT - 3.0);
            if let Some(label) = &server.label {
                ctx.set_fill_style_str(INK);
                let _ = ctx.fill_text(label, group_x + group_width / 2.0, 12.0);
            }
        }
    }
}

/// Diagonal white lines over a dummy job's block: it holds the space, but is not a job.
fn hatch(ctx: &CanvasRenderingContext2d, x: f64, y: f64, w: f64, h: f64) {
    if h < 1.0 || w < 1.0 {
        return;
    }
    ctx.save();
    ctx.begin_path();
    ctx.rect(x, y, w, h);
    ctx.clip();
    ctx.set_stroke_style_str("rgba(255,255,255,0.85)");
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

/// One square per server, darker when fuller. Squares are drawn grouped by colour, so the
/// fill style is set once per shade rather than once per server (a thousand servers hold a
/// handful of distinct fills).
fn draw_heat(ctx: &CanvasRenderingContext2d, view: &ClusterView, layout: &Layout) {
    let gap = if layout.cell_width >= 6.0 { 1.0 } else { 0.0 };
    let mut order: Vec<(u32, usize)> =
        view.servers.iter().enumerate().map(|(i, server)| (heat_rgb(server.fill), i)).collect();
    order.sort_unstable();
    let mut shade = None;
    for (rgb, i) in order {
        if shade != Some(rgb) {
            shade = Some(rgb);
            ctx.set_fill_style_str(&css_rgb(rgb));
        }
        let (row, col) = (i / layout.columns, i % layout.columns);
        ctx.fill_rect(
            col as f64 * layout.cell_width,
            row as f64 * layout.cell_height,
            layout.cell_width - gap,
            layout.cell_height - gap,
        );
    }
}

/// The waiting jobs per bin as columns, each with its count above and its name below.
fn draw_bins(ctx: &CanvasRenderingContext2d, view: &ClusterView, labels: &[String], width: f64, top: f64) {
    let n = view.bins.len().max(1);
    let cell = (width / n as f64).min(90.0);
    let most = view.bins.iter().copied().max().unwrap_or(0).max(1) as f64;
    let (count_room, name_room) = (14.0, 16.0);
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
        if cell >= 22.0 {
            ctx.set_fill_style_str(INK);
            let _ = ctx.fill_text(&count.to_string(), x + cell / 2.0, base - h - 3.0);
            ctx.set_fill_style_str(MUTED);
            let name = labels.get(bin).and_then(|l| l.split(' ').next()).unwrap_or("");
            let _ = ctx.fill_text(name, x + cell / 2.0, base + 13.0);
        }
    }
}

/// A sentence for screen readers and for the title of the canvas.
pub fn describe(view: &ClusterView, bin_labels: &[String]) -> String {
    let servers = view.servers.len();
    let mean_fill = view.servers.iter().map(|s| f64::from(s.fill)).sum::<f64>() / servers.max(1) as f64;
    let what = match view.bins_kind {
        BinsKind::Queues => "virtual queues",
        BinsKind::Sizes => "waiting jobs by size class",
    };
    let bins: Vec<String> =
        view.bins.iter().zip(bin_labels).filter(|(c, _)| **c > 0).map(|(c, label)| format!("{label}: {c}")).collect();
    let bins = if bins.is_empty() { "none waiting".to_string() } else { bins.join(", ") };
    format!("{servers} servers, {:.0}% full on average; {what}: {bins}", mean_fill * 100.0)
}

#[derive(Properties, PartialEq)]
pub struct ClusterCanvasProps {
    pub view: Rc<ClusterView>,
    pub bin_labels: Rc<[String]>,
    pub detail: bool,
    /// Skip redraws closer together than this (for `prefers-reduced-motion`), in ms.
    #[prop_or_default]
    pub min_interval_ms: f64,
}

/// The canvas of one lane, redrawn when a new view arrives and when its size changes.
#[component]
pub fn ClusterCanvas(props: &ClusterCanvasProps) -> Html {
    let canvas = use_node_ref();
    let last_draw = use_mut_ref(|| f64::NEG_INFINITY);
    let latest = use_mut_ref(|| (props.view.clone(), props.bin_labels.clone(), props.detail));
    *latest.borrow_mut() = (props.view.clone(), props.bin_labels.clone(), props.detail);
    let redraw = {
        let (canvas, latest) = (canvas.clone(), latest.clone());
        move |size: (f64, f64)| {
            if let Some(canvas) = canvas.cast::<HtmlCanvasElement>() {
                let (view, labels, detail) = &*latest.borrow();
                if let Err(e) = draw(&canvas, size, view, labels, *detail) {
                    web_sys::console::warn_1(&e.into());
                }
            }
        }
    };
    let size = use_canvas_size(canvas.clone(), Callback::from(redraw.clone()));
    {
        let (canvas, min_interval) = (canvas.clone(), props.min_interval_ms);
        use_effect_with(props.view.clone(), move |_| {
            let now = web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now());
            if now - *last_draw.borrow() >= min_interval
                && let Some(element) = canvas.cast::<HtmlCanvasElement>()
            {
                *last_draw.borrow_mut() = now;
                redraw(css_size(&element, &size));
            }
        });
    }
    let title = describe(&props.view, &props.bin_labels);
    html! {
        <canvas ref={canvas} class="cluster" role="img" aria-label={title} />
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn few_servers_are_bars_many_are_a_grid() {
        let bars = Layout::new(5, 600.0, true);
        assert_eq!((bars.columns, bars.rows), (5, 1));
        assert_eq!(bars.cell_width, 72.0);
        for servers in [100, 1000, 5000, 100_000] {
            let grid = Layout::new(servers, 600.0, false);
            assert!(grid.columns * grid.rows >= servers);
            if grid.cell_width > 2.0 {
                assert!(grid.rows as f64 * grid.cell_height <= SERVERS_HEIGHT, "{servers}: {grid:?}");
            }
        }
    }

    #[test]
    fn heat_goes_from_light_to_dark() {
        assert_eq!(heat_color(0.0), "rgb(238,243,248)");
        assert_eq!(heat_color(1.0), "rgb(8,48,107)");
        assert_eq!(heat_color(7.0), heat_color(1.0));
    }
}
