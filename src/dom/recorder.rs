//! Recording the race as a WebM video for slides: every animation frame, the visible lanes and
//! charts (their canvases, as the page drew them) are composed into one offscreen canvas, whose
//! `captureStream` a `MediaRecorder` encodes. The video therefore runs at the speed the page
//! played at. Stopping adds a last frame with the scenario's link, then saves the file.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{
    Blob, BlobEvent, BlobPropertyBag, CanvasRenderingContext2d, Document, HtmlCanvasElement, MediaRecorder,
    MediaRecorderOptions,
};

use crate::dom::page::download;

/// Width of the video in pixels (720p: what a projector and a slide show).
const WIDTH: u32 = 1280;
/// Height of the strip above the canvases with the moment, and of each lane's name.
const HEADER: f64 = 36.0;
const LABEL: f64 = 24.0;
const GAP: f64 = 12.0;
/// How long the last frame with the link stays, in ms.
const LINK_FRAME_MS: f64 = 1500.0;
/// The canvases that are recorded: each lane's cluster, then the live charts.
const LANES: &str = "main .lanes article.lane canvas";
const CHARTS: &str = "main .charts .chart-box canvas";
/// Containers, tried in order, preferred first (VP9 is smaller; every Chromium has VP8).
const TYPES: [&str; 3] = ["video/webm;codecs=vp9", "video/webm;codecs=vp8", "video/webm"];

/// A recording in progress. Dropping it without [`Recording::stop`] discards the video.
pub struct Recording {
    /// `None` once [`Recording::stop`] took it.
    recorder: Option<MediaRecorder>,
    inner: Rc<Inner>,
}

/// What `requestAnimationFrame` calls: one frame of the recording.
type FrameCallback = Closure<dyn FnMut(f64)>;

struct Inner {
    canvas: HtmlCanvasElement,
    context: CanvasRenderingContext2d,
    chunks: RefCell<Vec<Blob>>,
    /// The link drawn in the last frame once stopping; when that frame began (ms).
    closing: RefCell<Option<(String, f64)>>,
    /// The frame loop's callback (kept alive here; `None` ends the loop) and the animation
    /// frame it asked for last.
    frame: RefCell<Option<FrameCallback>>,
    frame_id: std::cell::Cell<i32>,
    _on_data: Closure<dyn FnMut(BlobEvent)>,
}

/// What the recording saved: its file name, size in bytes and length in seconds.
pub struct Saved {
    pub filename: String,
    pub bytes: f64,
    pub seconds: f64,
}

impl Recording {
    /// Starts recording the page's visible lanes and charts.
    pub fn start() -> Result<Recording, String> {
        let document = document()?;
        let sources = sources(&document);
        if sources.lanes.is_empty() && sources.charts.is_empty() {
            return Err("There is nothing to record: no lanes or charts are shown.".into());
        }
        let mime = TYPES
            .iter()
            .copied()
            .find(|t| MediaRecorder::is_type_supported(t))
            .ok_or("This browser cannot record WebM video (MediaRecorder).")?;
        let canvas: HtmlCanvasElement = document
            .create_element("canvas")
            .ok()
            .and_then(|c| c.dyn_into().ok())
            .ok_or("cannot make the recording's canvas")?;
        canvas.set_width(WIDTH);
        canvas.set_height(height(&sources));
        let context: CanvasRenderingContext2d = canvas
            .get_context("2d")
            .ok()
            .flatten()
            .and_then(|c| c.dyn_into().ok())
            .ok_or("cannot draw the recording's frames")?;
        let stream = canvas.capture_stream_with_frame_request_rate(30.0).map_err(js_message)?;
        let options = MediaRecorderOptions::new();
        options.set_mime_type(mime);
        options.set_video_bits_per_second(2_500_000);
        let recorder =
            MediaRecorder::new_with_media_stream_and_media_recorder_options(&stream, &options).map_err(js_message)?;
        let chunks = RefCell::new(Vec::new());
        let inner = Rc::new_cyclic(|weak: &std::rc::Weak<Inner>| {
            let weak = weak.clone();
            let on_data = Closure::<dyn FnMut(BlobEvent)>::new(move |e: BlobEvent| {
                if let (Some(inner), Some(blob)) = (weak.upgrade(), e.data())
                    && blob.size() > 0.0
                {
                    inner.chunks.borrow_mut().push(blob);
                }
            });
            recorder.set_ondataavailable(Some(on_data.as_ref().unchecked_ref()));
            Inner {
                canvas,
                context,
                chunks,
                closing: RefCell::new(None),
                frame: RefCell::new(None),
                frame_id: std::cell::Cell::new(0),
                _on_data: on_data,
            }
        });
        compose(&inner.context, &inner.canvas, &sources);
        // Ask for the data every second, so a long recording is not one blob at the end.
        recorder.start_with_time_slice(1000).map_err(js_message)?;
        start_frames(&inner);
        Ok(Recording { recorder: Some(recorder), inner })
    }

    /// Stops: shows the link for a moment, then saves `<name>.webm` and calls `done` with
    /// what was saved (or why not).
    pub fn stop(
        mut self,
        link: String,
        filename: String,
        started_ms: f64,
        done: impl FnOnce(Result<Saved, String>) + 'static,
    ) {
        let Some(recorder) = self.recorder.take() else { return };
        let inner = self.inner.clone();
        *inner.closing.borrow_mut() = Some((link, now_ms()));
        let done = RefCell::new(Some(done));
        let on_stop_inner = inner.clone();
        let on_stop = Closure::once(move || {
            on_stop_inner.stop_frames();
            let chunks = on_stop_inner.chunks.borrow_mut().drain(..).collect::<js_sys::Array>();
            let saved = save(&chunks, &filename, (now_ms() - started_ms) / 1000.0);
            if let Some(done) = done.borrow_mut().take() {
                done(saved);
            }
        });
        recorder.set_onstop(Some(on_stop.as_ref().unchecked_ref()));
        on_stop.forget();
        // The recorder stops once the link has been on screen long enough.
        let stopper = Closure::once(move || {
            let _ = recorder.stop();
        });
        if let Some(window) = web_sys::window() {
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(
                stopper.as_ref().unchecked_ref(),
                LINK_FRAME_MS as i32,
            );
        }
        stopper.forget();
    }
}

impl Drop for Recording {
    /// A recording dropped without being stopped (the page left the lab) is discarded: the
    /// recorder must not call back into the callbacks that go with it.
    fn drop(&mut self) {
        if let Some(recorder) = self.recorder.take() {
            recorder.set_ondataavailable(None);
            let _ = recorder.stop();
        }
    }
}

impl Inner {
    /// Ends the frame loop: the frame asked for is cancelled before its callback is dropped
    /// (a frame calling a dropped callback is an error).
    fn stop_frames(&self) {
        if let Some(window) = web_sys::window() {
            let _ = window.cancel_animation_frame(self.frame_id.get());
        }
        self.frame.borrow_mut().take();
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        self.stop_frames();
    }
}

/// Draws a frame on each animation frame until the recording's loop is cleared.
fn start_frames(inner: &Rc<Inner>) {
    let weak = Rc::downgrade(inner);
    let callback = FrameCallback::new(move |_: f64| {
        let Some(inner) = weak.upgrade() else { return };
        match &*inner.closing.borrow() {
            Some((link, _)) => link_frame(&inner.context, &inner.canvas, link),
            None => {
                if let Ok(document) = document() {
                    compose(&inner.context, &inner.canvas, &sources(&document));
                }
            }
        }
        if let (Some(frame), Some(window)) = (inner.frame.borrow().as_ref(), web_sys::window())
            && let Ok(id) = window.request_animation_frame(frame.as_ref().unchecked_ref())
        {
            inner.frame_id.set(id);
        }
    });
    if let Some(window) = web_sys::window()
        && let Ok(id) = window.request_animation_frame(callback.as_ref().unchecked_ref())
    {
        inner.frame_id.set(id);
    }
    *inner.frame.borrow_mut() = Some(callback);
}

/// The canvases on screen now, with their names and the moment's label.
struct Sources {
    lanes: Vec<(String, HtmlCanvasElement)>,
    charts: Vec<HtmlCanvasElement>,
    moment: String,
    title: String,
}

fn sources(document: &Document) -> Sources {
    let shown = |selector: &str| -> Vec<HtmlCanvasElement> {
        let Ok(list) = document.query_selector_all(selector) else { return Vec::new() };
        (0..list.length())
            .filter_map(|i| list.item(i)?.dyn_into::<HtmlCanvasElement>().ok())
            // Hidden canvases (a folded panel, presenter mode) have no box: not on screen.
            .filter(|c| c.client_width() > 0 && c.client_height() > 0 && c.width() > 0 && c.height() > 0)
            .collect()
    };
    let text = |selector: &str| {
        document.query_selector(selector).ok().flatten().and_then(|e| e.text_content()).unwrap_or_default()
    };
    let lanes = shown(LANES)
        .into_iter()
        .map(|c| {
            let name = c.closest("article.lane").ok().flatten().and_then(|a| a.query_selector("h2").ok().flatten());
            (name.and_then(|h| h.text_content()).unwrap_or_default().trim().to_string(), c)
        })
        .collect();
    Sources { lanes, charts: shown(CHARTS), moment: text(".playback .slots"), title: text("#preset-title") }
}

/// The height of the video: the header, a row of lanes and a row of charts, each row as tall
/// as its tallest canvas drawn at its share of the width. Even, as video encoders want.
fn height(s: &Sources) -> u32 {
    let lanes: Vec<&HtmlCanvasElement> = s.lanes.iter().map(|(_, c)| c).collect();
    let charts: Vec<&HtmlCanvasElement> = s.charts.iter().collect();
    let rows = row_height(&lanes).map_or(0.0, |h| h + LABEL + GAP) + row_height(&charts).map_or(0.0, |h| h + GAP);
    let h = (HEADER + rows + GAP).ceil().clamp(120.0, 1440.0) as u32;
    h + h % 2
}

/// The width each canvas of a row gets, and the row's height (that of its tallest canvas).
fn row_height(row: &[&HtmlCanvasElement]) -> Option<f64> {
    let width = cell_width(row.len())?;
    row.iter().map(|c| width * f64::from(c.height()) / f64::from(c.width())).reduce(f64::max)
}

fn cell_width(n: usize) -> Option<f64> {
    (n > 0).then(|| (f64::from(WIDTH) - GAP * (n as f64 + 1.0)) / n as f64)
}

/// Draws one frame: the moment on top, the lanes with their names, the charts below, each
/// scaled to its share of the width and to the canvas's height.
fn compose(ctx: &CanvasRenderingContext2d, canvas: &HtmlCanvasElement, s: &Sources) {
    let (w, h) = (f64::from(canvas.width()), f64::from(canvas.height()));
    ctx.set_fill_style_str("#ffffff");
    ctx.fill_rect(0.0, 0.0, w, h);
    ctx.set_fill_style_str("#1d2430");
    ctx.set_font("bold 18px system-ui, sans-serif");
    let _ = ctx.fill_text(&format!("{} · {}", s.title.trim(), s.moment.trim()), GAP, 24.0);
    let lanes: Vec<&HtmlCanvasElement> = s.lanes.iter().map(|(_, c)| c).collect();
    let charts: Vec<&HtmlCanvasElement> = s.charts.iter().collect();
    // Rows share what is left of the height in proportion to what they would take.
    let want = [row_height(&lanes).unwrap_or(0.0), row_height(&charts).unwrap_or(0.0)];
    let room = h - HEADER - GAP * 3.0 - if lanes.is_empty() { 0.0 } else { LABEL };
    let scale = if want[0] + want[1] > 0.0 { (room / (want[0] + want[1])).min(1.0) } else { 1.0 };
    let mut y = HEADER;
    if let Some(cell) = cell_width(lanes.len()) {
        ctx.set_font("15px system-ui, sans-serif");
        for (i, (name, _)) in s.lanes.iter().enumerate() {
            let _ = ctx.fill_text_with_max_width(name, GAP + i as f64 * (cell + GAP), y + 16.0, cell);
        }
        y += LABEL;
        draw_row(ctx, &lanes, cell, y, want[0] * scale);
        y += want[0] * scale + GAP;
    }
    if let Some(cell) = cell_width(charts.len()) {
        draw_row(ctx, &charts, cell, y, want[1] * scale);
    }
}

/// Draws a row of canvases, each fitted into a `cell` × `height` box keeping its proportions.
fn draw_row(ctx: &CanvasRenderingContext2d, row: &[&HtmlCanvasElement], cell: f64, y: f64, height: f64) {
    for (i, c) in row.iter().enumerate() {
        let (cw, ch) = (f64::from(c.width()), f64::from(c.height()));
        let scale = (cell / cw).min(height / ch);
        let x = GAP + i as f64 * (cell + GAP);
        let _ = ctx.draw_image_with_html_canvas_element_and_dw_and_dh(c, x, y, cw * scale, ch * scale);
    }
}

/// The last frame: where the scenario can be opened again.
fn link_frame(ctx: &CanvasRenderingContext2d, canvas: &HtmlCanvasElement, link: &str) {
    let (w, h) = (f64::from(canvas.width()), f64::from(canvas.height()));
    ctx.set_fill_style_str("#ffffff");
    ctx.fill_rect(0.0, 0.0, w, h);
    ctx.set_fill_style_str("#1d2430");
    ctx.set_font("bold 28px system-ui, sans-serif");
    let _ = ctx.fill_text("Open this run in packlab:", 40.0, 80.0);
    ctx.set_font("20px ui-monospace, monospace");
    for (i, line) in wrap(link, 96).iter().enumerate() {
        let _ = ctx.fill_text(line, 40.0, 130.0 + 30.0 * i as f64);
    }
}

/// `text` cut into lines of at most `width` characters (a link has no spaces to break at).
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    chars.chunks(width.max(1)).map(|c| c.iter().collect()).collect()
}

/// A file name for the recording of the scenario `query`: `packlab-` and the query with every
/// character outside `[A-Za-z0-9._-]` replaced by `-` (runs of them by one), at most `max`
/// characters of it, then `.webm`.
pub fn video_filename(query: &str, max: usize) -> String {
    let mut clean = String::new();
    for ch in query.chars() {
        let ch = if ch.is_ascii_alphanumeric() || matches!(ch, '.' | '_' | '-') { ch } else { '-' };
        if !(ch == '-' && clean.ends_with('-')) {
            clean.push(ch);
        }
    }
    let clean: String = clean.trim_matches('-').chars().take(max).collect();
    let clean = clean.trim_end_matches('-');
    if clean.is_empty() { "packlab.webm".into() } else { format!("packlab-{clean}.webm") }
}

/// Saves the recorded chunks as one WebM file.
fn save(chunks: &js_sys::Array, filename: &str, seconds: f64) -> Result<Saved, String> {
    if chunks.length() == 0 {
        return Err("The recording is empty: the browser encoded no frames.".into());
    }
    let options = BlobPropertyBag::new();
    options.set_type("video/webm");
    let blob = Blob::new_with_blob_sequence_and_options(chunks, &options).map_err(js_message)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(js_message)?;
    download(filename, &url)?;
    // The download has taken its copy once the click's task is over; a minute is generous.
    let revoke = Closure::once(move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    });
    if let Some(window) = web_sys::window() {
        let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(revoke.as_ref().unchecked_ref(), 60_000);
    }
    revoke.forget();
    Ok(Saved { filename: filename.to_string(), bytes: blob.size(), seconds })
}

fn document() -> Result<Document, String> {
    web_sys::window().and_then(|w| w.document()).ok_or_else(|| "no document".to_string())
}

fn now_ms() -> f64 {
    crate::dom::workers::now_ms()
}

fn js_message(e: JsValue) -> String {
    e.dyn_ref::<js_sys::Error>().map_or_else(|| format!("{e:?}"), |e| String::from(e.message()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_query_becomes_a_short_safe_file_name() {
        assert_eq!(
            video_filename("preset=pgrr-a1&policy=vqs,bf-js&seed=1", 80),
            "packlab-preset-pgrr-a1-policy-vqs-bf-js-seed-1.webm"
        );
        assert_eq!(video_filename("a=%2F..%2F&b=<x>", 80), "packlab-a-2F..-2F-b-x.webm");
        let long = "preset=msfq-d2&".repeat(20);
        let name = video_filename(&long, 40);
        assert!(name.len() <= "packlab-.webm".len() + 40, "{name}");
        assert!(!name.contains("-.webm"), "{name}");
        assert_eq!(video_filename("&&", 80), "packlab.webm");
    }

    #[test]
    fn a_link_wraps_into_lines_of_the_width() {
        let lines = wrap(&"x".repeat(200), 96);
        assert_eq!(lines.iter().map(String::len).collect::<Vec<_>>(), [96, 96, 8]);
    }
}
