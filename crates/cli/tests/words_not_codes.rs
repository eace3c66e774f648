//! What users read of the command line and the repository says a rule in words, never by the
//! implementation spec's labels ("RES-27", "SPEC 5.6"): the help of every command, the
//! listings, the README and the model guides. `docs/resolutions.md` is where the ids are
//! resolved, so it is the one document allowed to show them. The core's texts (presets,
//! keys, policies, tours, decisions) are checked in `crates/core/tests/words_not_codes.rs`.

use std::path::Path;
use std::process::Command;

use packlab_core::scenario::presets;

/// The spec's labels in `text`, each with its line and the words around it: "RES-" followed by
/// a digit, and "SPEC" followed by a section number ("SPEC 4.3", "SPEC §8"). The same check as
/// the core's test.
fn codes(text: &str) -> Vec<String> {
    let around = |at: usize| {
        let start = text[..at].char_indices().rev().nth(24).map_or(0, |(i, _)| i);
        let line = text[..at].matches('\n').count() + 1;
        format!(
            "line {line}: …{}…",
            text[start..].chars().take(60).map(|c| if c == '\n' { ' ' } else { c }).collect::<String>()
        )
    };
    let digit_next = |rest: &str| rest.starts_with(|c: char| c.is_ascii_digit());
    let mut found = Vec::new();
    for (at, _) in text.match_indices("RES-") {
        if digit_next(&text[at + 4..]) {
            found.push(around(at));
        }
    }
    for (at, _) in text.match_indices("SPEC") {
        if digit_next(text[at + 4..].trim_start_matches(|c: char| c.is_whitespace() || c == '§')) {
            found.push(around(at));
        }
    }
    found
}

/// Fails naming each of `texts` (where it comes from, the text) that cites the spec.
fn assert_in_words(texts: &[(String, String)]) {
    assert!(!texts.is_empty(), "nothing was scanned");
    let leaks: Vec<String> =
        texts.iter().flat_map(|(place, text)| codes(text).into_iter().map(move |c| format!("{place}, {c}"))).collect();
    assert!(leaks.is_empty(), "spec labels in what users read (say the rule in words):\n{}", leaks.join("\n"));
}

#[test]
fn the_check_finds_the_spec_labels() {
    assert_eq!(codes("keep the first N tasks (RES-14 takes 10^6)").len(), 1);
    assert_eq!(codes("the analysis (SPEC 5.6)").len(), 1);
    assert_eq!(codes("as\nSPEC\n4.7 says"), ["line 2: …as SPEC 4.7 says…"]);
    assert!(codes("the spec's resolutions.md#res-14-which-google-tasks-are-kept, RESERVED-1, SPECIAL 5").is_empty());
    let planted = [("planted".to_string(), "memory draw: ByCategory, RES-33".to_string())];
    assert!(std::panic::catch_unwind(|| assert_in_words(&planted)).is_err());
}

/// The stdout of `packlab args`, which must succeed.
fn packlab(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_packlab")).args(args).output().expect("the binary runs");
    assert!(out.status.success(), "packlab {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("utf-8 stdout")
}

/// The subcommands a `--help` text lists under "Commands:" (clap's own `help` left out).
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| l.trim() != "Commands:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

/// `--help` of `packlab` and of every subcommand it lists, down to `trace stats`: clap builds
/// these from the flags' doc comments.
#[test]
fn help_speaks_in_words() {
    let mut texts = Vec::new();
    let mut pending = vec![Vec::<String>::new()];
    while let Some(command) = pending.pop() {
        let mut args: Vec<&str> = command.iter().map(String::as_str).collect();
        args.push("--help");
        let help = packlab(&args);
        for sub in subcommands(&help) {
            pending.push(command.iter().cloned().chain([sub]).collect());
        }
        texts.push((format!("packlab {}", args.join(" ")), help));
    }
    assert!(texts.len() >= 12, "{} help texts", texts.len());
    assert!(texts.iter().any(|(place, _)| place == "packlab trace stats --help"), "nested subcommands are read");
    assert_in_words(&texts);
}

/// The listings: presets, each preset described, policies, tours, and the exercises, each
/// described.
#[test]
fn listings_speak_in_words() {
    let mut texts: Vec<(String, String)> = [["presets"], ["policies"], ["tours"], ["exercise"]]
        .iter()
        .map(|args| (format!("packlab {}", args[0]), packlab(args)))
        .collect();
    for p in presets() {
        texts.push((format!("packlab presets --describe {}", p.id), packlab(&["presets", "--describe", p.id])));
    }
    for e in packlab_core::exercises::EXERCISES {
        texts.push((format!("packlab exercise {}", e.id), packlab(&["exercise", e.id])));
    }
    assert_in_words(&texts);
}

/// The README and the guides in `docs/`; `docs/resolutions.md` resolves the ids, so it alone
/// may show them.
#[test]
fn readme_and_guides_speak_in_words() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = vec![root.join("README.md")];
    let mut guides: Vec<_> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ is there")
        .map(|e| e.expect("a docs/ entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md") && !p.ends_with("resolutions.md"))
        .collect();
    guides.sort();
    assert!(guides.len() >= 4, "{guides:?}");
    files.extend(guides);
    let texts: Vec<(String, String)> = files
        .iter()
        .map(|f| {
            let name = f.strip_prefix(&root).unwrap_or(f).display().to_string();
            (name, std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display())))
        })
        .collect();
    assert_in_words(&texts);
}
