//! Workloads recorded elsewhere: readers for the two shapes researchers keep them in.
//!
//! * The Google cluster-data 2011 `task_events` table ([`google`]): 13 comma-separated
//!   columns, one event per line, in several part files.
//! * The Standard Workload Format of the Parallel Workloads Archive ([`swf`]): 18
//!   whitespace-separated fields per job, `;` header comments.
//!
//! Both are read **streaming**: bytes go in by [`Reader::push`] in chunks of any size (a file
//! read natively, a `ReadableStream` in the page), lines are cut as they complete, and only the
//! tasks kept and those still open are held. Gzip-compressed input is recognised by its magic
//! bytes and inflated on the way (several part files may each be compressed or not). The format
//! is recognised from the first line that is not a comment.
//!
//! Every reader says what it kept and what it skipped, counted per reason ([`Report`]), and
//! refuses bad input with an error that names the file, the line and the field (key `trace`).
//! A line longer than [`MAX_LINE`] bytes is refused as soon as it passes that length, so a file
//! without line breaks costs bounded memory.

pub mod google;
pub mod stats;
pub mod swf;
pub mod synth;
pub mod tasks;

use std::io::Write;
use std::sync::{Arc, Mutex};

use crate::ConfigError;

/// The key errors carry.
pub const KEY: &str = "trace";
/// Longest line accepted, in bytes. Real lines are under 200 bytes.
pub const MAX_LINE: usize = 64 * 1024;

/// The formats a trace file may be in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Google cluster-data 2011 `task_events`.
    Google,
    /// The Standard Workload Format.
    Swf,
    /// A CSV of submit_time, duration, size, priority ([`tasks`], read whole, not by
    /// [`Reader`]).
    TaskCsv,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Self::Google => "Google cluster-data task_events",
            Self::Swf => "Standard Workload Format (SWF)",
            Self::TaskCsv => "task CSV (submit_time, duration, size, priority)",
        }
    }

    /// The format of a trace whose first line that is not blank or a comment is `line`, or why
    /// it is neither.
    pub fn detect(line: &str) -> Result<Self, String> {
        let commas = line.split(',').count();
        let words = line.split_whitespace().count();
        if line.trim_start().starts_with(';') || (commas == 1 && words == swf::FIELDS) {
            Ok(Self::Swf)
        } else if commas == google::FIELDS {
            Ok(Self::Google)
        } else {
            Err(format!(
                "is neither a Google task_events line ({} comma-separated columns, has {commas}) nor an SWF job \
                 ({} whitespace-separated fields, has {words})",
                google::FIELDS,
                swf::FIELDS
            ))
        }
    }
}

/// What a reader kept and skipped.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Report {
    /// Lines read, comments and blank lines included, over all files.
    pub lines: u64,
    /// Bytes read after decompression.
    pub bytes: u64,
    /// Tasks (Google) or jobs (SWF) kept.
    pub kept: u64,
    /// Tasks or jobs skipped, per reason, in the order the reasons were first met.
    pub skipped: Vec<(&'static str, u64)>,
    /// SWF: jobs kept that were submitted before the job kept on a line above them. The log is
    /// sorted by submit time on reading; the count says that it was, and how much.
    pub out_of_order: u64,
}

/// What [`Report::out_of_order`] counts, as `trace stats` and the page say it: "sorted 12 out
/// of submit order".
pub const OUT_OF_ORDER: (&str, &str) = ("sorted", "out of submit order");

impl Report {
    pub(crate) fn skip(&mut self, reason: &'static str) {
        match self.skipped.iter_mut().find(|(r, _)| *r == reason) {
            Some((_, n)) => *n += 1,
            None => self.skipped.push((reason, 1)),
        }
    }

    /// Tasks or jobs skipped, over all reasons.
    pub fn skipped_total(&self) -> u64 {
        self.skipped.iter().map(|(_, n)| n).sum()
    }

    /// "kept 2 000; skipped 31 (unknown run time 30, …); sorted 4 out of submit order".
    pub fn describe(&self) -> String {
        let mut text = format!("kept {}", self.kept);
        if !self.skipped.is_empty() {
            let reasons: Vec<String> = self.skipped.iter().map(|(r, n)| format!("{r} {n}")).collect();
            text.push_str(&format!("; skipped {} ({})", self.skipped_total(), reasons.join(", ")));
        }
        if self.out_of_order > 0 {
            let (verb, what) = OUT_OF_ORDER;
            text.push_str(&format!("; {verb} {} {what}", self.out_of_order));
        }
        text
    }
}

/// A parsed trace.
#[derive(Debug, Clone, PartialEq)]
pub enum Loaded {
    Google(google::GoogleTrace),
    Swf(swf::SwfLog),
    /// A task CSV.
    TaskCsv(tasks::TaskTable),
}

impl Loaded {
    pub fn format(&self) -> Format {
        match self {
            Self::Google(_) => Format::Google,
            Self::Swf(_) => Format::Swf,
            Self::TaskCsv(_) => Format::TaskCsv,
        }
    }

    /// A hash of what was kept: links name a loaded trace by it.
    pub fn fingerprint(&self) -> u64 {
        match self {
            Self::Google(t) => t.fingerprint(),
            Self::Swf(l) => l.fingerprint(),
            Self::TaskCsv(t) => t.fingerprint(),
        }
    }

    /// The number of tasks or jobs kept.
    pub fn len(&self) -> usize {
        match self {
            Self::Google(t) => t.tasks.len(),
            Self::Swf(l) => l.jobs.len(),
            Self::TaskCsv(t) => t.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A loaded trace shared by the scenarios that replay it; two are equal when their
/// fingerprints are (comparing a million tasks at every scenario comparison would not do).
#[derive(Debug, Clone)]
pub struct Shared(pub Arc<Loaded>);

impl PartialEq for Shared {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0.fingerprint() == other.0.fingerprint()
    }
}

impl Shared {
    /// The fingerprint as links write it: 16 hexadecimal digits.
    pub fn name(&self) -> String {
        format!("{:016x}", self.0.fingerprint())
    }
}

/// The traces loaded in this process (a file given to the CLI, one uploaded in the page), so
/// that a link's `trace=FINGERPRINT` can find its trace. The last [`LIBRARY_SIZE`] are kept.
static LIBRARY: Mutex<Vec<Shared>> = Mutex::new(Vec::new());
pub const LIBRARY_SIZE: usize = 3;

/// Keeps `loaded` where [`find`] looks, and returns it shared.
pub fn keep(loaded: Loaded) -> Shared {
    let shared = Shared(Arc::new(loaded));
    let mut library = LIBRARY.lock().unwrap_or_else(|e| e.into_inner());
    library.retain(|s| *s != shared);
    library.push(shared.clone());
    if library.len() > LIBRARY_SIZE {
        library.remove(0);
    }
    shared
}

/// The traces loaded, most recent last.
pub fn library() -> Vec<Shared> {
    LIBRARY.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// The message for a link naming a trace that is not loaded.
pub fn not_loaded(name: &str) -> ConfigError {
    ConfigError::new(
        KEY,
        format!(
            "this link replays the trace file with fingerprint {name}, which is not loaded here; load that file (the \
             page's trace picker, or --trace FILE on the command line) and open the link again"
        ),
    )
}

/// The loaded trace a link names by its fingerprint (16 hexadecimal digits), or an error
/// saying how to load it.
pub fn find(name: &str) -> Result<Shared, ConfigError> {
    let fingerprint = parse_fingerprint(name)?;
    let library = LIBRARY.lock().unwrap_or_else(|e| e.into_inner());
    library.iter().find(|s| s.0.fingerprint() == fingerprint).cloned().ok_or_else(|| not_loaded(name))
}

/// Where a line is, for messages: "line 12" or "part-00001.csv.gz line 12".
#[derive(Debug, Clone, Default)]
pub(crate) struct Place {
    file: String,
    line: u64,
}

impl Place {
    pub(crate) fn error(&self, message: impl std::fmt::Display) -> ConfigError {
        if self.file.is_empty() {
            ConfigError::new(KEY, format!("line {}: {message}", self.line))
        } else {
            ConfigError::new(KEY, format!("{} line {}: {message}", self.file, self.line))
        }
    }
}

/// What the reader hands each line to.
enum Parser {
    /// The format is not known yet (no line that is not blank or a comment has been read).
    Unknown,
    Google(google::GoogleParser),
    Swf(swf::SwfParser),
}

/// A streaming trace reader: [`Reader::file`] for each file, [`Reader::push`] its bytes in
/// chunks, then [`Reader::finish`].
pub struct Reader {
    parser: Parser,
    /// The format asked for, if any (else detected).
    expected: Option<Format>,
    place: Place,
    /// The current line so far.
    line: Vec<u8>,
    /// Inflates the current file when it is gzip-compressed.
    gzip: Option<flate2::write::MultiGzDecoder<Vec<u8>>>,
    /// The current file's first bytes, until there are enough to tell gzip from text.
    head: Vec<u8>,
    /// Whether the current file's compression is known.
    sniffed: bool,
    report: Report,
    /// For Google traces: keep the first this many qualifying tasks.
    limit: Option<usize>,
}

const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

impl Default for Reader {
    fn default() -> Self {
        Self::new()
    }
}

impl Reader {
    pub fn new() -> Self {
        Self {
            parser: Parser::Unknown,
            expected: None,
            place: Place::default(),
            line: Vec::new(),
            gzip: None,
            head: Vec::new(),
            sniffed: false,
            report: Report::default(),
            limit: None,
        }
    }

    /// Refuses any format but `format`.
    pub fn expecting(mut self, format: Format) -> Self {
        self.expected = Some(format);
        self
    }

    /// For Google traces, keeps only the first `limit` qualifying tasks in submit order
    /// (RES-14 proposes 10^6). Memory then stays within about twice that many tasks.
    pub fn first(mut self, limit: usize) -> Self {
        self.limit = Some(limit);
        self
    }

    /// Starts the next file (its name is used in messages; line numbers restart). The previous
    /// file's last line, if it had no line break, is read first.
    pub fn file(&mut self, name: &str) -> Result<(), ConfigError> {
        self.end_file()?;
        self.place = Place { file: name.to_string(), line: 0 };
        Ok(())
    }

    /// Reads the next bytes of the current file.
    pub fn push(&mut self, bytes: &[u8]) -> Result<(), ConfigError> {
        if !self.sniffed {
            self.head.extend_from_slice(bytes);
            if self.head.len() < GZIP_MAGIC.len() {
                return Ok(());
            }
            self.sniffed = true;
            let head = std::mem::take(&mut self.head);
            if head.starts_with(&GZIP_MAGIC) {
                self.gzip = Some(flate2::write::MultiGzDecoder::new(Vec::new()));
            }
            return self.push(&head);
        }
        match self.gzip.as_mut() {
            Some(gzip) => {
                gzip.write_all(bytes).map_err(|e| self.place.error(format!("gzip: {e}")))?;
                let text = std::mem::take(gzip.get_mut());
                self.text(&text)
            }
            None => self.text(bytes),
        }
    }

    /// Ends the input: reads the last line and returns the trace with its report.
    pub fn finish(mut self) -> Result<Loaded, ConfigError> {
        self.end_file()?;
        let report = std::mem::take(&mut self.report);
        match self.parser {
            Parser::Unknown => Err(ConfigError::new(KEY, "the file holds no task or job line")),
            Parser::Google(p) => p.finish(report).map(Loaded::Google),
            Parser::Swf(p) => p.finish(report).map(Loaded::Swf),
        }
    }

    /// Bytes read so far, after decompression (for progress).
    pub fn bytes(&self) -> u64 {
        self.report.bytes
    }

    fn end_file(&mut self) -> Result<(), ConfigError> {
        if !self.sniffed && !self.head.is_empty() {
            self.sniffed = true;
            let head = std::mem::take(&mut self.head);
            self.text(&head)?;
        }
        if let Some(gzip) = self.gzip.take() {
            // A truncated stream fails here: the decoder still wants bytes.
            let text =
                gzip.finish().map_err(|e| self.place.error(format!("gzip: the compressed data ends early ({e})")))?;
            self.text(&text)?;
        }
        if !self.line.is_empty() {
            let line = std::mem::take(&mut self.line);
            self.line_done(&line)?;
        }
        self.sniffed = false;
        Ok(())
    }

    fn text(&mut self, mut bytes: &[u8]) -> Result<(), ConfigError> {
        self.report.bytes += bytes.len() as u64;
        while let Some(end) = bytes.iter().position(|&b| b == b'\n') {
            let (head, rest) = bytes.split_at(end);
            bytes = &rest[1..];
            if self.line.is_empty() {
                self.check_length(head.len())?;
                self.line_done(head)?;
            } else {
                self.check_length(self.line.len() + head.len())?;
                let mut line = std::mem::take(&mut self.line);
                line.extend_from_slice(head);
                self.line_done(&line)?;
                line.clear();
                self.line = line;
            }
        }
        self.check_length(self.line.len() + bytes.len())?;
        self.line.extend_from_slice(bytes);
        Ok(())
    }

    fn check_length(&self, len: usize) -> Result<(), ConfigError> {
        if len > MAX_LINE {
            let place = Place { line: self.place.line + 1, ..self.place.clone() };
            return Err(place.error(format!("longer than {MAX_LINE} bytes; is this a trace file?")));
        }
        Ok(())
    }

    fn line_done(&mut self, bytes: &[u8]) -> Result<(), ConfigError> {
        self.place.line += 1;
        self.report.lines += 1;
        let line = std::str::from_utf8(bytes).map_err(|e| self.place.error(format!("not UTF-8 text ({e})")))?;
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.trim().is_empty() {
            return Ok(());
        }
        if let Parser::Unknown = self.parser {
            // A leading '#' is a comment in neither format, but tools that cut traces write one.
            if line.starts_with('#') {
                return Ok(());
            }
            let format = Format::detect(line).map_err(|m| self.place.error(m))?;
            if let Some(expected) = self.expected.filter(|e| *e != format) {
                return Err(self.place.error(format!("reads as {}, not {}", format.name(), expected.name())));
            }
            self.parser = match format {
                Format::Google => Parser::Google(google::GoogleParser::new(self.limit)),
                Format::Swf => Parser::Swf(swf::SwfParser::new()),
                // `detect` never names it; a task CSV is read whole, not line by line.
                Format::TaskCsv => return Err(self.place.error("a task CSV is read whole (read_task_csv)")),
            };
        }
        match &mut self.parser {
            Parser::Unknown => unreachable!("set above"),
            Parser::Google(p) => p.line(line, &self.place, &mut self.report),
            Parser::Swf(p) => p.line(line, &self.place, &mut self.report),
        }
    }
}

/// The bytes that tell what a file is: enough for [`is_task_csv`].
pub const HEAD_BYTES: usize = 4096;

/// Whether a file starting with `head` is a task CSV (plain text whose first line that is not
/// blank or a comment has 4 comma-separated fields), which is read whole by [`read_task_csv`]
/// rather than by [`Reader`].
pub fn is_task_csv(head: &[u8]) -> bool {
    if head.starts_with(&GZIP_MAGIC) {
        return false;
    }
    let text = String::from_utf8_lossy(head);
    let first = text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with('#'));
    first.is_some_and(|l| l.split(',').count() == 4)
}

/// Reads a whole task CSV ([`tasks`]).
pub fn read_task_csv(text: &str) -> Result<Loaded, ConfigError> {
    tasks::TaskTable::from_csv(text).map(Loaded::TaskCsv)
}

/// A fingerprint as links write it: 16 hexadecimal digits.
pub fn parse_fingerprint(name: &str) -> Result<u64, ConfigError> {
    (name.len() == 16)
        .then(|| u64::from_str_radix(name, 16).ok())
        .flatten()
        .ok_or_else(|| ConfigError::new(KEY, format!("'{name}' is not a trace fingerprint (16 hexadecimal digits)")))
}

/// Reads a whole trace held in memory (tests, the bundled samples).
pub fn read_bytes(bytes: &[u8]) -> Result<Loaded, ConfigError> {
    let mut reader = Reader::new();
    reader.push(bytes)?;
    reader.finish()
}

/// FNV-1a over 64-bit words: the fingerprint of a parsed trace.
pub(crate) fn fingerprint(words: impl Iterator<Item = u64>) -> u64 {
    words.fold(0xcbf2_9ce4_8422_2325u64, |h, v| (h ^ v).wrapping_mul(0x0000_0100_0000_01B3))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gzip(text: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(text).unwrap();
        e.finish().unwrap()
    }

    const SWF: &str =
        "; MaxProcs: 8\n1 0 1 10 2 -1 -1 2 -1 -1 1 1 1 1 1 1 -1 -1\n2 5 0 -1 4 -1 -1 4 -1 -1 1 1 1 1 1 1 -1 -1\n";

    #[test]
    fn chunks_of_any_size_and_gzip_read_the_same() {
        let whole = read_bytes(SWF.as_bytes()).unwrap();
        for compressed in [false, true] {
            let bytes = if compressed { gzip(SWF.as_bytes()) } else { SWF.as_bytes().to_vec() };
            for chunk in [1, 2, 3, 7, 1000] {
                let mut r = Reader::new();
                for c in bytes.chunks(chunk) {
                    r.push(c).unwrap();
                }
                let got = r.finish().unwrap();
                assert_eq!(got, whole, "chunk {chunk}, gzip {compressed}");
            }
        }
        let Loaded::Swf(log) = &whole else { panic!("an SWF log") };
        assert_eq!((log.report.lines, log.report.kept), (3, 1));
    }

    #[test]
    fn bad_files_are_named() {
        let mut truncated = gzip(SWF.as_bytes());
        truncated.truncate(truncated.len() - 10);
        let mut r = Reader::new();
        r.file("log.swf.gz").unwrap();
        let e = r.push(&truncated).and_then(|_| r.finish().map(|_| ())).unwrap_err();
        assert!(e.message.starts_with("log.swf.gz line") && e.message.contains("gzip"), "{e}");

        let long = vec![b'1'; MAX_LINE + 10];
        let e = read_bytes(&long).unwrap_err();
        assert!(e.message.contains("line 1: longer than 65536 bytes"), "{e}");
        let e = read_bytes(b"a,b,c\n").unwrap_err();
        assert!(e.message.contains("line 1: is neither a Google task_events line"), "{e}");
        let e = read_bytes(b"\xff\xfe\n").unwrap_err();
        assert!(e.message.contains("line 1: not UTF-8"), "{e}");
        assert!(read_bytes(b"").unwrap_err().message.contains("no task or job line"));
        assert!(is_task_csv(b"# a trace\nsubmit_time,duration,size,priority\n0,1,0.5,3\n"));
        assert!(!is_task_csv(SWF.as_bytes()) && !is_task_csv(&[0x1f, 0x8b, 1, 2]));
        let e = Reader::new().expecting(Format::Google);
        let mut e = e;
        let e = e.push(SWF.as_bytes()).unwrap_err();
        assert!(e.message.contains("reads as Standard Workload Format (SWF), not Google"), "{e}");
    }
}
