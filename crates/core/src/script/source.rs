//! A script's text as it travels in a policy spec and a link: base64url (no padding) of its
//! raw-deflate compression, so `script:src=…` holds no `:`, `,`, `&` or `=` of its own.

use std::io::{Read, Write};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use flate2::Compression;
use flate2::read::DeflateDecoder;
use flate2::write::DeflateEncoder;

use super::MAX_SOURCE_BYTES;

/// The text of `source` in a spec: deflate at a fixed level (the same bytes on every
/// platform), then base64url.
pub fn encode(source: &str) -> String {
    encode_bytes(source.as_bytes())
}

/// The text of any bytes as [`encode`] writes a source (for tests of what is not a script).
pub fn encode_bytes(bytes: &[u8]) -> String {
    let mut deflate = DeflateEncoder::new(Vec::new(), Compression::best());
    deflate.write_all(bytes).expect("writing to a Vec cannot fail");
    URL_SAFE_NO_PAD.encode(deflate.finish().expect("writing to a Vec cannot fail"))
}

/// The source a spec's text holds, or what is wrong with it. Never inflates more than
/// [`MAX_SOURCE_BYTES`] + 1 bytes, however the text was made.
pub fn decode(text: &str) -> Result<String, String> {
    // Deflate never makes a text much longer, and base64 adds a third: longer text cannot hold
    // a script short enough (checked before decoding a text of any length).
    if text.trim().len() > (MAX_SOURCE_BYTES + MAX_SOURCE_BYTES / 8 + 64) * 4 / 3 {
        return Err(format!("the script is longer than {MAX_SOURCE_BYTES} bytes"));
    }
    let bytes = URL_SAFE_NO_PAD.decode(text.trim()).map_err(|_| "it is not base64url text".to_string())?;
    let mut source = Vec::new();
    DeflateDecoder::new(bytes.as_slice())
        .take(MAX_SOURCE_BYTES as u64 + 1)
        .read_to_end(&mut source)
        .map_err(|_| "it is not a deflate-compressed script".to_string())?;
    check_length(source.len())?;
    String::from_utf8(source).map_err(|_| "the script is not UTF-8 text".to_string())
}

/// Whether a source of `bytes` bytes may run.
pub fn check_length(bytes: usize) -> Result<(), String> {
    if bytes > MAX_SOURCE_BYTES {
        return Err(format!("the script is longer than {MAX_SOURCE_BYTES} bytes"));
    }
    Ok(())
}

/// The canonical spec text of a spec's `src` value (re-encoded, so equal scripts give equal
/// specs), or what is wrong with it. The parameter's parser.
pub fn canonical(text: &str) -> Result<String, String> {
    decode(text).map(|source| encode(&source))
}

/// The longest name a script may declare.
const MAX_NAME_CHARS: usize = 40;

/// What a script declares of `key` on a comment line `// key: value` (the first such line):
/// its name, or what a model asks of it before its first call (PG-RR's `small jobs`).
pub fn declared<'s>(source: &'s str, key: &str) -> Option<&'s str> {
    source
        .lines()
        .find_map(|line| line.trim().strip_prefix("//")?.trim().strip_prefix(key)?.strip_prefix(':'))
        .map(str::trim)
}

/// The name a script declares on a comment line `// name: best fit` (the first such line),
/// for labels: "Script (best fit)".
pub fn declared_name(source: &str) -> Option<String> {
    let name = declared(source, "name")?;
    let name: String = name.chars().filter(|c| !c.is_control()).take(MAX_NAME_CHARS).collect();
    // Shown in labels, legends and tables: bidirectional overrides written as escapes.
    (!name.is_empty()).then(|| crate::error::readable(&name))
}

/// The name shown in labels for a spec's `src` value.
pub fn label_name(text: &str) -> Option<String> {
    decode(text).ok().and_then(|source| declared_name(&source))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_round_trip_and_bad_text_is_named() {
        let source = "// name: best fit\nfn schedule(ctx) { ctx.slot }\n";
        let text = encode(source);
        assert!(text.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'), "{text}");
        assert_eq!(decode(&text).unwrap(), source);
        assert_eq!(canonical(&text), Ok(text.clone()));
        assert_eq!(label_name(&text).as_deref(), Some("best fit"));
        assert!(decode("!!").unwrap_err().contains("base64url"));
        assert!(decode("AAAA").unwrap_err().contains("deflate"));
        let huge = encode(&"x".repeat(MAX_SOURCE_BYTES + 1));
        assert!(decode(&huge).unwrap_err().contains("longer than"));
        assert_eq!(declared_name("fn schedule(ctx) {}"), None);
        assert_eq!(declared("// name: x\n  //small jobs:  round \n", "small jobs"), Some("round"));
        assert_eq!(declared("// small jobs are rounded\n", "small jobs"), None);
    }
}
