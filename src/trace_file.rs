//! Reading a trace file in the page, streaming: the file is read in slices of [`CHUNK`] bytes;
//! a gzip file goes through the browser's own `DecompressionStream`; what comes out is fed to
//! the core's [`Reader`] as it arrives. Every slice is awaited, so the page keeps drawing
//! frames while a large file is read, and no more than a slice or two of the file's text is
//! held at once (besides the tasks kept).

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::{Reflect, Uint8Array};
use packlab_core::ConfigError;
use packlab_core::trace::{self, Reader};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, ReadableStream, ReadableStreamDefaultReader, WritableStream, WritableStreamDefaultWriter};

// The browser's gzip inflater. web-sys has it only behind `web_sys_unstable_apis`, a flag for
// the whole build; these three members are all the page uses.
#[wasm_bindgen]
extern "C" {
    type DecompressionStream;
    #[wasm_bindgen(constructor, catch)]
    fn new(format: &str) -> Result<DecompressionStream, JsValue>;
    #[wasm_bindgen(method, getter)]
    fn readable(this: &DecompressionStream) -> ReadableStream;
    #[wasm_bindgen(method, getter)]
    fn writable(this: &DecompressionStream) -> WritableStream;
}

/// Bytes read from the file at a time.
pub const CHUNK: f64 = (1 << 20) as f64;

/// How far the reading is: bytes of the files (compressed, as stored) read so far, and in all.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Progress {
    pub read: f64,
    pub total: f64,
}

/// What a picked file holds, by its first bytes: gzip, or text whose first line says.
pub enum Kind {
    /// Google task_events or SWF, plain or gzip: the streaming reader.
    Standard,
    /// PG-AS's task CSV (four comma-separated columns): read whole, as before.
    TaskCsv,
}

/// Reads `files` (name and contents, in order) as one trace, calling `progress` after every
/// slice. Errors name the file, the line and the field.
pub async fn read(files: &[(String, Blob)], progress: impl Fn(Progress)) -> Result<trace::Loaded, ConfigError> {
    let total: f64 = files.iter().map(|(_, b)| b.size()).sum();
    let mut reader = Reader::new();
    let mut before = 0.0;
    for (name, blob) in files {
        reader.file(name)?;
        let report = |read: f64| progress(Progress { read: before + read, total });
        if is_gzip(blob).await? {
            read_gzip(name, blob, &mut reader, &report).await?;
        } else {
            let size = blob.size();
            let mut at = 0.0;
            while at < size {
                let end = (at + CHUNK).min(size);
                reader.push(
                    &bytes_of(name, &blob.slice_with_f64_and_f64(at, end).map_err(|e| js_error(name, e))?).await?,
                )?;
                at = end;
                report(at);
            }
        }
        before += blob.size();
    }
    reader.finish()
}

/// Reads picked or dropped files as one trace: one task CSV, or Google task_events part files
/// or an SWF log through [`read`].
pub async fn load(files: &[(String, Blob)], progress: impl Fn(Progress)) -> Result<trace::Loaded, ConfigError> {
    if let [(name, blob)] = files
        && let Kind::TaskCsv = kind(name, blob).await?
    {
        let text = JsFuture::from(blob.text()).await;
        let text = text.ok().and_then(|t| t.as_string()).unwrap_or_default();
        return trace::read_task_csv(&text).map_err(|mut e| {
            e.message = format!("{name}: {}", e.message);
            e
        });
    }
    read(files, progress).await
}

/// The race worker's copy of a trace the page loads (`www/race-worker.js`): `files` is an
/// array of `{name, blob}`, the same files in the same order, so the worker's library holds the
/// same trace under the same fingerprint and a race replaying it can run there. Returns the
/// fingerprint.
#[wasm_bindgen]
pub async fn load_trace_in_worker(files: js_sys::Array) -> Result<String, JsValue> {
    let field = |entry: &JsValue, key: &str| Reflect::get(entry, &JsValue::from_str(key));
    let files: Vec<(String, Blob)> = files
        .iter()
        .map(|entry| {
            let name = field(&entry, "name")?.as_string().unwrap_or_default();
            let blob: Blob = field(&entry, "blob")?.dyn_into()?;
            Ok((name, blob))
        })
        .collect::<Result<_, JsValue>>()?;
    let loaded = load(&files, |_| {}).await.map_err(|e| JsValue::from_str(&e.to_string()))?;
    Ok(trace::keep(loaded).name())
}

/// The message that hands a worker a trace's files, `{trace: [{name, blob}, …]}` (the blobs
/// themselves, not copies), which `www/race-worker.js` and `www/sweep-worker.js` read with
/// [`load_trace_in_worker`].
pub fn worker_message(files: &[(String, Blob)]) -> Option<JsValue> {
    let list = js_sys::Array::new();
    for (name, blob) in files {
        list.push(&crate::dom::workers::js_object(&[("name", JsValue::from_str(name)), ("blob", blob.into())]).ok()?);
    }
    crate::dom::workers::js_object(&[("trace", list.into())]).ok()
}

/// A trace's fingerprint and its files, in order.
type Held = (String, Vec<(String, Blob)>);

thread_local! {
    /// The files of the traces the page read, by fingerprint: the last [`trace::LIBRARY_SIZE`],
    /// as the core's library keeps them, so every trace a link can name here has its files. A
    /// sweep's or a map's workers start after the trace was read; they are handed its files
    /// then ([`files_of`]). A picked file's blob refers to the file on disk; the sample's is the
    /// fetched text, which the library holds parsed anyway.
    static FILES: RefCell<Vec<Held>> = const { RefCell::new(Vec::new()) };
}

/// Keeps the files of trace `fingerprint` for the workers started later.
pub fn remember(fingerprint: String, files: Vec<(String, Blob)>) {
    FILES.with(|held| {
        let mut held = held.borrow_mut();
        held.retain(|(name, _)| *name != fingerprint);
        held.push((fingerprint, files));
        let extra = held.len().saturating_sub(trace::LIBRARY_SIZE);
        held.drain(..extra);
    });
}

/// The files of trace `fingerprint`, if the page read them.
pub fn files_of(fingerprint: &str) -> Option<Vec<(String, Blob)>> {
    FILES.with(|held| held.borrow().iter().find(|(name, _)| name == fingerprint).map(|(_, files)| files.clone()))
}

/// The command line's ` --trace FILE…` for the trace `setup` replays (its files' names, as the
/// page read them), or nothing when it replays none.
pub fn trace_flag(setup: &packlab_core::scenario::Setup) -> String {
    if !setup.scenario.any().replaying() {
        return String::new();
    }
    let name = setup.scenario.get(trace::KEY).unwrap_or_default();
    let names = files_of(&name).map(|files| files.into_iter().map(|(name, _)| name).collect::<Vec<_>>().join(" "));
    format!(" --trace {}", names.filter(|n| !n.is_empty()).unwrap_or_else(|| "FILE…".into()))
}

/// Whether the file's first line is PG-AS's task CSV rather than a standard trace.
pub async fn kind(name: &str, blob: &Blob) -> Result<Kind, ConfigError> {
    let head = blob.slice_with_f64_and_f64(0.0, trace::HEAD_BYTES as f64).map_err(|e| js_error(name, e))?;
    Ok(if trace::is_task_csv(&bytes_of(name, &head).await?) { Kind::TaskCsv } else { Kind::Standard })
}

async fn is_gzip(blob: &Blob) -> Result<bool, ConfigError> {
    let head = bytes_of("", &blob.slice_with_f64_and_f64(0.0, 2.0).map_err(|e| js_error("", e))?).await?;
    Ok(head == [0x1f, 0x8b])
}

/// Writes the file's slices into a `DecompressionStream` from a task of its own (the writes
/// wait for room), while this loop reads what comes out and feeds the reader.
async fn read_gzip(name: &str, blob: &Blob, reader: &mut Reader, report: &impl Fn(f64)) -> Result<(), ConfigError> {
    let stream = DecompressionStream::new("gzip").map_err(|e| js_error(name, e))?;
    let writer: WritableStreamDefaultWriter = stream.writable().get_writer().map_err(|e| js_error(name, e))?;
    let output: ReadableStreamDefaultReader = stream.readable().get_reader().unchecked_into();
    let written = Rc::new(Cell::new(0.0));
    {
        let (blob, written) = (blob.clone(), written.clone());
        wasm_bindgen_futures::spawn_local(async move {
            let size = blob.size();
            let mut at = 0.0;
            while at < size {
                let end = (at + CHUNK).min(size);
                let Ok(slice) = blob.slice_with_f64_and_f64(at, end) else { break };
                let Ok(buffer) = JsFuture::from(slice.array_buffer()).await else { break };
                if JsFuture::from(writer.ready()).await.is_err()
                    || JsFuture::from(writer.write_with_chunk(&Uint8Array::new(&buffer))).await.is_err()
                {
                    // The reading side failed (bad data): it reports the error.
                    return;
                }
                at = end;
                written.set(at);
            }
            // A truncated stream fails the reading side here.
            let _ = JsFuture::from(writer.close()).await;
        });
    }
    loop {
        let chunk = JsFuture::from(output.read()).await.map_err(|e| {
            ConfigError::new(
                trace::KEY,
                format!("{name}: gzip: the compressed data is damaged or ends early ({})", describe(&e)),
            )
        })?;
        if Reflect::get(&chunk, &"done".into()).ok().and_then(|d| d.as_bool()).unwrap_or(true) {
            return Ok(());
        }
        let value = Reflect::get(&chunk, &"value".into()).map_err(|e| js_error(name, e))?;
        reader.push(&Uint8Array::new(&value).to_vec())?;
        report(written.get());
    }
}

async fn bytes_of(name: &str, blob: &Blob) -> Result<Vec<u8>, ConfigError> {
    let buffer = JsFuture::from(blob.array_buffer()).await.map_err(|e| js_error(name, e))?;
    Ok(Uint8Array::new(&buffer).to_vec())
}

fn js_error(name: &str, e: JsValue) -> ConfigError {
    ConfigError::new(trace::KEY, format!("{name}: the browser could not read the file ({})", describe(&e)))
}

fn describe(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>().map_or_else(|| format!("{e:?}"), |e| String::from(e.message()))
}
