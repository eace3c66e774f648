//! Charts drawn on a `<canvas>` (plotters-canvas, sharp at any pixel ratio, with the text sizes
//! remembered) and as SVG documents (plotters' SVG backend): the same chart code as the CLI.

use packlab_plot::{Chart, Frame};
use plotters::prelude::*;
use plotters_backend::{BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind, FontTransform};
use plotters_canvas::CanvasBackend;
use web_sys::HtmlCanvasElement;

/// Draws `chart` on `canvas`, first matching the canvas's pixel size to its CSS size (`size`,
/// as [`css_size`](crate::hooks::use_canvas_size::css_size) gives it) times the device pixel ratio, so lines and text are sharp on
/// phones and at 150 % zoom.
pub fn draw(canvas: &HtmlCanvasElement, size: (f64, f64), chart: &Chart<'_>) -> Result<(), String> {
    draw_framed(canvas, size, chart).map(|_| ())
}

/// [`draw`], saying where the plot landed in the canvas's CSS pixels: what a click on the
/// chart is hit-tested against.
pub fn draw_framed(canvas: &HtmlCanvasElement, size: (f64, f64), chart: &Chart<'_>) -> Result<Frame, String> {
    let ratio = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio());
    draw_scaled(canvas, size, ratio, chart)
}

/// Draws `chart` laid out for `size` CSS pixels on a canvas of `scale` device pixels per CSS
/// pixel (at least 1).
pub fn draw_scaled(
    canvas: &HtmlCanvasElement,
    size: (f64, f64),
    scale: f64,
    chart: &Chart<'_>,
) -> Result<Frame, String> {
    let scale = if scale.is_finite() { scale.clamp(1.0, 4.0) } else { 1.0 };
    let (width, height) = (size.0.max(1.0).round(), size.1.max(1.0).round());
    let (pixels_wide, pixels_high) = ((width * scale).round() as u32, (height * scale).round() as u32);
    if canvas.width() != pixels_wide || canvas.height() != pixels_high {
        canvas.set_width(pixels_wide);
        canvas.set_height(pixels_high);
    }
    // Opaque: every chart fills its background first (packlab_plot::draw_framed); plotters'
    // own `getContext("2d")` below gets this context.
    let context = crate::dom::page::opaque_2d(canvas).ok_or("the canvas has no 2D context")?;
    // plotters draws in CSS pixels (what its backend reports as the size); the context's
    // transform maps them to device pixels, text and line widths included.
    context.set_transform(scale, 0.0, 0.0, scale, 0.0, 0.0).map_err(|_| "cannot scale the canvas")?;
    let backend = CanvasBackend::with_canvas_object(canvas.clone()).ok_or("the canvas has no 2D context")?;
    let area = MeasuredText { canvas: backend, size: (width as u32, height as u32) }.into_drawing_area();
    let frame = packlab_plot::draw_framed(&area, chart).map_err(|e| format!("cannot draw the chart: {e}"))?;
    area.present().map_err(|e| format!("cannot draw the chart: {e}"))?;
    Ok(frame)
}

/// `chart` as an SVG document of `size` CSS pixels: plotters' SVG backend and the same chart
/// code as the canvas and the CLI.
pub fn svg(size: (f64, f64), chart: &Chart<'_>) -> Result<String, String> {
    let mut out = String::new();
    {
        let size = (size.0.max(1.0).round() as u32, size.1.max(1.0).round() as u32);
        let area = plotters::backend::SVGBackend::with_string(&mut out, size).into_drawing_area();
        packlab_plot::draw(&area, chart).map_err(|e| format!("cannot draw the chart: {e}"))?;
        area.present().map_err(|e| format!("cannot draw the chart: {e}"))?;
    }
    Ok(out)
}

/// The canvas backend with remembered text sizes.
///
/// In the browser, plotters measures a text by adding a `<span>` to the page and reading its
/// size, which forces the browser to lay the page out, a dozen times per chart. The labels of
/// a live chart change little from one redraw to the next, so their sizes are kept (per text,
/// font and rotation) and each is measured once. (Legend entries are measured by plotters
/// directly and still go through the page.)
struct MeasuredText {
    canvas: CanvasBackend,
    /// The size the chart is laid out for, in CSS pixels (the canvas may have more pixels).
    size: (u32, u32),
}

/// Text sizes measured so far, by font, rotation and text.
type SizeCache = std::collections::HashMap<String, (u32, u32)>;

thread_local! {
    static TEXT_SIZES: std::cell::RefCell<SizeCache> = std::cell::RefCell::new(SizeCache::new());
}

/// Texts remembered at most (axis labels come and go as the axes grow).
const TEXT_SIZES_KEPT: usize = 2048;

impl DrawingBackend for MeasuredText {
    type ErrorType = <CanvasBackend as DrawingBackend>::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.size
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.canvas.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.canvas.present()
    }

    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.canvas.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.canvas.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.canvas.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.canvas.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.canvas.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.canvas.fill_polygon(vert, style)
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.canvas.draw_text(text, style, pos)
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<Self::ErrorType>> {
        let rotation = match style.transform() {
            FontTransform::None => 0,
            FontTransform::Rotate90 => 1,
            FontTransform::Rotate180 => 2,
            FontTransform::Rotate270 => 3,
        };
        let key = format!("{} {} {} {rotation} {text}", style.style().as_str(), style.size(), style.family().as_str());
        if let Some(size) = TEXT_SIZES.with_borrow(|sizes| sizes.get(&key).copied()) {
            return Ok(size);
        }
        let size = self.canvas.estimate_text_size(text, style)?;
        TEXT_SIZES.with_borrow_mut(|sizes| {
            if sizes.len() >= TEXT_SIZES_KEPT {
                sizes.clear();
            }
            sizes.insert(key, size);
        });
        Ok(size)
    }
}
