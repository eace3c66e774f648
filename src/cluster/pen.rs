//! What [`paint`](crate::cluster::paint) draws with: a canvas's 2D context on the page, or an
//! SVG document for the page's first picture, drawn before the wasm runs (the lanes at time 0:
//! the first_paint module). Both take the same calls, so the first picture is the first frame.

use std::cell::RefCell;
use std::fmt::Write as _;

use wasm_bindgen::JsValue;
use web_sys::CanvasRenderingContext2d;

/// The drawing calls the painter makes, named as the canvas names them.
pub trait Pen {
    fn set_fill_style_str(&self, color: &str);
    fn set_stroke_style_str(&self, color: &str);
    fn set_line_width(&self, width: f64);
    /// A CSS font: `12px system-ui, sans-serif`.
    fn set_font(&self, font: &str);
    fn set_text_align(&self, align: &str);
    fn fill_rect(&self, x: f64, y: f64, w: f64, h: f64);
    fn stroke_rect(&self, x: f64, y: f64, w: f64, h: f64);
    fn fill_text(&self, text: &str, x: f64, y: f64) -> Result<(), JsValue>;
    /// How wide `text` is in the current font, if it can be told.
    fn text_width(&self, text: &str) -> Option<f64>;
    fn begin_path(&self);
    fn move_to(&self, x: f64, y: f64);
    fn line_to(&self, x: f64, y: f64);
    fn quadratic_curve_to(&self, cx: f64, cy: f64, x: f64, y: f64);
    fn close_path(&self);
    fn rect(&self, x: f64, y: f64, w: f64, h: f64);
    fn fill(&self);
    fn stroke(&self);
    /// Clips what follows to the current path, until [`Pen::restore`].
    fn clip(&self);
    fn save(&self);
    fn restore(&self);
    /// Square cells, each `(left, top, side without its gap, 0xRRGGBB)`, in CSS pixels, over
    /// `width` × `height`; `ratio` device pixels to the CSS pixel.
    fn cells(&self, cells: &[(f64, f64, f64, u32)], width: f64, height: f64, ratio: f64) -> Result<(), String>;
}

impl Pen for CanvasRenderingContext2d {
    fn set_fill_style_str(&self, color: &str) {
        CanvasRenderingContext2d::set_fill_style_str(self, color);
    }
    fn set_stroke_style_str(&self, color: &str) {
        CanvasRenderingContext2d::set_stroke_style_str(self, color);
    }
    fn set_line_width(&self, width: f64) {
        CanvasRenderingContext2d::set_line_width(self, width);
    }
    fn set_font(&self, font: &str) {
        CanvasRenderingContext2d::set_font(self, font);
    }
    fn set_text_align(&self, align: &str) {
        CanvasRenderingContext2d::set_text_align(self, align);
    }
    fn fill_rect(&self, x: f64, y: f64, w: f64, h: f64) {
        CanvasRenderingContext2d::fill_rect(self, x, y, w, h);
    }
    fn stroke_rect(&self, x: f64, y: f64, w: f64, h: f64) {
        CanvasRenderingContext2d::stroke_rect(self, x, y, w, h);
    }
    fn fill_text(&self, text: &str, x: f64, y: f64) -> Result<(), JsValue> {
        CanvasRenderingContext2d::fill_text(self, text, x, y)
    }
    fn text_width(&self, text: &str) -> Option<f64> {
        self.measure_text(text).ok().map(|m| m.width())
    }
    fn begin_path(&self) {
        CanvasRenderingContext2d::begin_path(self);
    }
    fn move_to(&self, x: f64, y: f64) {
        CanvasRenderingContext2d::move_to(self, x, y);
    }
    fn line_to(&self, x: f64, y: f64) {
        CanvasRenderingContext2d::line_to(self, x, y);
    }
    fn quadratic_curve_to(&self, cx: f64, cy: f64, x: f64, y: f64) {
        CanvasRenderingContext2d::quadratic_curve_to(self, cx, cy, x, y);
    }
    fn close_path(&self) {
        CanvasRenderingContext2d::close_path(self);
    }
    fn rect(&self, x: f64, y: f64, w: f64, h: f64) {
        CanvasRenderingContext2d::rect(self, x, y, w, h);
    }
    fn fill(&self) {
        CanvasRenderingContext2d::fill(self);
    }
    fn stroke(&self) {
        CanvasRenderingContext2d::stroke(self);
    }
    fn clip(&self) {
        CanvasRenderingContext2d::clip(self);
    }
    fn save(&self) {
        CanvasRenderingContext2d::save(self);
    }
    fn restore(&self) {
        CanvasRenderingContext2d::restore(self);
    }
    /// One image: a thousand `fillRect`s a frame per lane were a fifth of the page's main thread
    /// in a race (each call crosses from wasm to JS, and a canvas without a GPU rasterises each
    /// rectangle on that thread). Cells with whole CSS pixel sides equal the rectangles pixel
    /// for pixel at a device pixel ratio of 1; at other ratios their edges round to device pixels.
    fn cells(&self, cells: &[(f64, f64, f64, u32)], width: f64, height: f64, ratio: f64) -> Result<(), String> {
        let device = |css: f64| (css * ratio).round() as usize;
        let (width, height) = (device(width), device(height));
        if width == 0 || height == 0 {
            return Ok(());
        }
        let mut pixels = vec![0u8; width * height * 4];
        for &(left, top, side, rgb) in cells {
            let (x0, x1) = (device(left), device(left + side).min(width));
            let (y0, y1) = (device(top), device(top + side).min(height));
            let rgba = [(rgb >> 16) as u8, (rgb >> 8) as u8, rgb as u8, 255];
            for y in y0..y1 {
                for pixel in pixels[(y * width + x0) * 4..(y * width + x1) * 4].chunks_exact_mut(4) {
                    pixel.copy_from_slice(&rgba);
                }
            }
        }
        let image = web_sys::ImageData::new_with_u8_clamped_array_and_sh(
            wasm_bindgen::Clamped(&pixels),
            width as u32,
            height as u32,
        )
        .map_err(|_| "cannot make the heat image")?;
        self.put_image_data(&image, 0.0, 0.0).map_err(|_| "cannot draw the heat image".to_string())
    }
}

/// An SVG drawing: the calls written out as elements (no inline styles: colours are
/// attributes, which the page's Content-Security-Policy allows).
#[derive(Default)]
pub struct Svg {
    state: RefCell<SvgState>,
}

#[derive(Default)]
struct SvgState {
    out: String,
    fill: String,
    stroke: String,
    line_width: f64,
    font_size: f64,
    anchor: &'static str,
    path: String,
    /// Clips made so far (their ids), and the one in force.
    clips: usize,
    clip: Option<usize>,
    saved: Vec<Option<usize>>,
}

impl Svg {
    pub fn new() -> Self {
        let state = SvgState { line_width: 1.0, font_size: 12.0, anchor: "start", ..SvgState::default() };
        Self { state: RefCell::new(state) }
    }

    /// The elements drawn, to go inside an `<svg>`.
    pub fn into_inner(self) -> String {
        self.state.into_inner().out
    }

    fn shape(&self, element: &str, fill: bool) {
        let mut s = self.state.borrow_mut();
        let clip = s.clip.map_or(String::new(), |c| format!(" clip-path=\"url(#c{c})\""));
        let paint = if fill {
            format!(" fill=\"{}\"", s.fill)
        } else {
            format!(" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\"", s.stroke, s.line_width)
        };
        let _ = write!(s.out, "<{element}{paint}{clip}/>");
    }
}

/// A number as short as SVG needs it.
fn n(x: f64) -> String {
    let rounded = (x * 100.0).round() / 100.0;
    if rounded == rounded.trunc() { format!("{}", rounded as i64) } else { format!("{rounded}") }
}

impl Pen for Svg {
    fn set_fill_style_str(&self, color: &str) {
        self.state.borrow_mut().fill = escape(color);
    }
    fn set_stroke_style_str(&self, color: &str) {
        self.state.borrow_mut().stroke = escape(color);
    }
    fn set_line_width(&self, width: f64) {
        self.state.borrow_mut().line_width = width;
    }
    fn set_font(&self, font: &str) {
        let size = font.split("px").next().and_then(|s| s.trim().parse().ok()).unwrap_or(12.0);
        self.state.borrow_mut().font_size = size;
    }
    fn set_text_align(&self, align: &str) {
        self.state.borrow_mut().anchor = match align {
            "center" => "middle",
            "right" | "end" => "end",
            _ => "start",
        };
    }
    fn fill_rect(&self, x: f64, y: f64, w: f64, h: f64) {
        self.shape(&format!("rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"", n(x), n(y), n(w), n(h)), true);
    }
    fn stroke_rect(&self, x: f64, y: f64, w: f64, h: f64) {
        self.shape(&format!("rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"", n(x), n(y), n(w), n(h)), false);
    }
    fn fill_text(&self, text: &str, x: f64, y: f64) -> Result<(), JsValue> {
        let mut s = self.state.borrow_mut();
        let (fill, size, anchor) = (s.fill.clone(), s.font_size, s.anchor);
        let _ = write!(
            s.out,
            "<text x=\"{}\" y=\"{}\" fill=\"{fill}\" font-size=\"{}\" text-anchor=\"{anchor}\">{}</text>",
            n(x),
            n(y),
            n(size),
            escape(text)
        );
        Ok(())
    }
    /// An estimate: SVG text is measured where it is shown, and a still needs only to keep
    /// neighbouring labels apart (system-ui's digits and letters average about 0.58 em).
    fn text_width(&self, text: &str) -> Option<f64> {
        Some(text.chars().count() as f64 * self.state.borrow().font_size * 0.58)
    }
    fn begin_path(&self) {
        self.state.borrow_mut().path.clear();
    }
    fn move_to(&self, x: f64, y: f64) {
        let _ = write!(self.state.borrow_mut().path, "M{} {}", n(x), n(y));
    }
    fn line_to(&self, x: f64, y: f64) {
        let _ = write!(self.state.borrow_mut().path, "L{} {}", n(x), n(y));
    }
    fn quadratic_curve_to(&self, cx: f64, cy: f64, x: f64, y: f64) {
        let _ = write!(self.state.borrow_mut().path, "Q{} {} {} {}", n(cx), n(cy), n(x), n(y));
    }
    fn close_path(&self) {
        self.state.borrow_mut().path.push('Z');
    }
    fn rect(&self, x: f64, y: f64, w: f64, h: f64) {
        let _ = write!(self.state.borrow_mut().path, "M{} {}h{}v{}h{}Z", n(x), n(y), n(w), n(h), n(-w));
    }
    fn fill(&self) {
        let path = self.state.borrow().path.clone();
        self.shape(&format!("path d=\"{path}\""), true);
    }
    fn stroke(&self) {
        let path = self.state.borrow().path.clone();
        self.shape(&format!("path d=\"{path}\""), false);
    }
    fn clip(&self) {
        let mut s = self.state.borrow_mut();
        let id = s.clips;
        s.clips += 1;
        let path = s.path.clone();
        let _ = write!(s.out, "<clipPath id=\"c{id}\"><path d=\"{path}\"/></clipPath>");
        s.clip = Some(id);
    }
    fn save(&self) {
        let mut s = self.state.borrow_mut();
        let clip = s.clip;
        s.saved.push(clip);
    }
    fn restore(&self) {
        let mut s = self.state.borrow_mut();
        s.clip = s.saved.pop().flatten();
    }
    fn cells(&self, cells: &[(f64, f64, f64, u32)], _: f64, _: f64, _: f64) -> Result<(), String> {
        let mut s = self.state.borrow_mut();
        for &(x, y, side, rgb) in cells {
            let _ = write!(
                s.out,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#{rgb:06x}\"/>",
                n(x),
                n(y),
                n(side),
                n(side)
            );
        }
        Ok(())
    }
}

/// `text` for HTML text and attribute values (the SVG pen's text, and the first picture's).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}
