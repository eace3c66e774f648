//! Fuzzing script text (issue 58): every script, from the editor, a link or a lane, stops or
//! runs within its budget, in bounded time and memory, and never panics.
//!
//! Each input meets everything a script meets: the editor's check ([`script::check`], its
//! top-level code), a link naming it (`decode_link`, which builds the policy), and a lane
//! running it with a decision log (so `ctx.note` keeps what it notes), on the first preset of
//! a model that takes scripts. The oracle, per input: no panic; at most [`WALL_S`] seconds of
//! wall time (a generous bound: the budget stops a call after 10^6 weighted operations, about
//! 0.1 s, and each input builds its script three times); at most [`PEAK_BYTES`] of memory over
//! what was held before (a counting allocator below); and a lane that stops says why with a
//! script line or names the `policy` key.
//!
//! The inputs are hostile on purpose, in families: built-ins whose work grows with a list in
//! endless loops, a map grown by index, deep calls holding large values, notes in loops, the
//! clock functions, and huge or non-UTF-8 sources; plus text made of rhai's pieces. The fixed
//! list of [`every_hostile_family_stops_in_time_and_memory`] holds one of each; the proptest
//! target mixes them (`PACKLAB_FUZZ_CASES` / 8 cases, default 50; `scripts/fuzz` runs more).

use std::alloc::{GlobalAlloc, Layout, System};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use packlab_core::link::decode_link;
use packlab_core::policy::PolicySpec;
use packlab_core::report::live_run;
use packlab_core::script::{self, source};
use packlab_core::view::Watch;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(bytes: usize) {
    let live = LIVE.fetch_add(bytes, Ordering::Relaxed) + bytes;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

// SAFETY: every call is forwarded to `System` unchanged; the counts are only a side effect.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        // SAFETY: the caller's contract is `System`'s.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            grew(new_size - layout.size());
        } else {
            LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Held while an input is measured: the allocator counts every thread of the binary.
static ALONE: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The wall-time oracle per input (the bound for a budget exceeded).
const WALL_S: f64 = 5.0;
/// The memory oracle per input.
const PEAK_BYTES: usize = 256 << 20;

/// Horizons of the lanes: a few calls of `fn schedule`.
const LANES: [(&str, u64); 3] = [("pgrr-a1", 300), ("msfq-d1", 20), ("ghra-b3", 5)];

/// What an input did, measured.
struct Measured {
    wall: f64,
    peak: usize,
    messages: Vec<String>,
}

/// Runs `source` through the editor's check, a link and a lane of `model` (an index into
/// [`LANES`]), measuring time and memory; a panic becomes an error naming the input.
fn measure(source: &str, model: usize) -> Result<Measured, String> {
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let start = Instant::now();
    let messages = catch_unwind(AssertUnwindSafe(|| exercise(source, model))).map_err(|cause| {
        let why =
            cause.downcast_ref::<String>().cloned().or_else(|| cause.downcast_ref::<&str>().map(|s| s.to_string()));
        format!("panicked: {}", why.unwrap_or_default())
    })?;
    Ok(Measured { wall: start.elapsed().as_secs_f64(), peak: PEAK.load(Ordering::Relaxed) - before, messages })
}

/// What a script meets, and what it said when it stopped.
fn exercise(source: &str, model: usize) -> Vec<String> {
    let mut said: Vec<String> = script::check(source).iter().map(|e| e.to_string()).collect();
    let (preset_id, horizon) = LANES[model];
    let Ok(spec_text) = script::spec_text(source) else { return said };
    let (link, errors) = decode_link(&format!("preset={preset_id}&policy={spec_text}&horizon={horizon}"));
    for e in &errors {
        assert_eq!(e.key, "policy", "a script's link names another key: {e}");
        said.push(e.to_string());
    }
    let spec = PolicySpec::parse(&spec_text).expect("the core's own spec text parses");
    let scenario = link.scenario;
    match live_run(&scenario, &spec, Watch::page(64).with_log(1 << 12)) {
        Err(e) => said.push(e.to_string()),
        Ok(mut run) => {
            if let Err(e) = run.run_to(horizon.min(scenario.horizon()) as f64) {
                said.push(e.to_string());
            }
            // What the page shows of it: the decisions with their notes.
            for d in run.decisions().records() {
                // The notes kept, their marker, and the engine's own few facts.
                assert!(d.facts.len() <= packlab_core::decisions::MAX_NOTES + 8, "{} facts kept", d.facts.len());
            }
        }
    }
    said
}

/// The oracle: in time, in memory, and every stop says where or names the key.
fn judge(source: &str, model: usize) -> Result<Measured, String> {
    let m = measure(source, model)?;
    if m.wall > WALL_S {
        return Err(format!("took {:.1} s", m.wall));
    }
    if m.peak > PEAK_BYTES {
        return Err(format!("held {} MB", m.peak >> 20));
    }
    for message in &m.messages {
        let placed = message.contains("script line ") || message.contains("script: ") || message.starts_with("policy:");
        if !placed {
            return Err(format!("a stop that names no line nor key: {message}"));
        }
        if message.chars().any(|c| c.is_control() && c != '\n' || matches!(c, '\u{202a}'..='\u{202e}')) {
            return Err(format!("a message shows raw control text: {message:?}"));
        }
    }
    Ok(m)
}

/// Setting up the values the hostile loops work on: `a`, a list of 9 999; `s`, a string of
/// 4 000 bytes; `m`, a map of 999 entries; `big`, the largest list.
const SETUP: &str = "let a = []; a.pad(9999, 1); let s = \"\"; s.pad(4000, \"a b \"); \
    let m = #{}; for i in 0..999 { m[`k${i}`] = i; } let big = []; big.pad(10000, 2.5);";

/// Built-ins whose work grows with a list, as endless loops do them.
const COSTLY: &[&str] = &[
    "a.contains(2)",
    "2 in a",
    "a.index_of(2)",
    "a.index_of(2, -5000)",
    "a.dedup()",
    "a == big",
    "a != a",
    "let b = a + a;",
    "let b = a; b.sort();",
    "let b = big; b.sort(|x, y| y - x);",
    "let b = a.order(|x, y| true);",
    "a.sort_desc()",
    "let b = a; b.retain(|x| x > 1);",
    "let b = a; b.drain(|x| x == 1);",
    "a.map(|x| x * 2)",
    "a.filter(|x| x > 0)",
    "a.reduce(|s, x| s + x, 0)",
    "a.some(|x| x > 5)",
    "a.zip(a, |x, y| x + y)",
    "a.split(5000)",
    "a.extract(1)",
    "let b = a; b.reverse();",
    "let t = a.to_string();",
    "let t = `${big}`;",
    "s.split(\" \")",
    "s.split_rev(\"a\")",
    "s.to_chars()",
    "s.contains(\"zz\")",
    "let t = s; t.replace(\"a\", \"bb\");",
    "let t = \"x\"; t.pad(4000, \"\");",
    "m.keys()",
    "m.values()",
    "m == m",
    "m.filter(|k, v| v > 3)",
    "let n = m; n.mixin(m);",
    "let t = m.to_json(); parse_json(t)",
    "let b = a; let c = a; let d = a; let e = a;",
];

/// Where a hostile body runs: at top level or in each call of `fn schedule`. The body's last
/// line is what runs; lines before it define functions.
fn wrap(body: &str, inside: bool) -> String {
    let (defs, run) = body.rsplit_once('\n').unwrap_or(("", body));
    if inside {
        format!("{defs}\nfn schedule(ctx) {{\n  {SETUP}\n  {run}\n}}\n")
    } else {
        format!("{defs}\nfn schedule(ctx) {{}}\n{SETUP}\n{run}\n")
    }
}

/// One script of each hostile family (`inside` decides where it runs).
fn families(inside: bool) -> Vec<String> {
    let mut all: Vec<String> = COSTLY.iter().map(|op| wrap(&format!("loop {{ {op}; }}"), inside)).collect();
    let grow = [
        "let m = #{}; let i = 0; loop { m[`k${i}`] = big; i += 1; }",
        "let m = #{}; let i = 0; loop { m[`k${i}`] = i; i += 1; }",
        "let m = #{x: #{}}; let i = 0; loop { m.x[`k${i}`] = a; i += 1; }",
    ];
    let deep = [
        "fn f(n, x) { let b = x; let c = x; if n > 0 { f(n - 1, b) } else { loop { let d = x; } } }\nf(40, big);",
        "fn g(n, x) { let v1 = x; let v2 = x; let v3 = x; [1].map(|y| g(n + 1, v1)) }\ng(0, big);",
        "let l = []; loop { l = [l]; }",
        "fn h() {}\nlet f = Fn(\"h\"); loop { f = f.curry(big); }",
    ];
    // Many variables holding the largest values, at every call level (script functions
    // share one scope; a closure a built-in calls starts a fresh one), and strings made
    // from a literal without reading a variable.
    let lets = |value: &str| (0..30).map(|i| format!("let v{i} = {value}; ")).collect::<String>();
    let literal = "y".repeat(4000);
    let hoards = [
        format!("fn f(n, x) {{ {} if n < 40 {{ f(n + 1, x) }} else {{ loop {{}} }} }}\nf(0, big);", lets("x")),
        format!(
            "fn g(n, x) {{ {} if n < 40 {{ [1].map(|y| g(n + 1, x)) }} else {{ loop {{}} }} }}\ng(0, big);",
            lets("x")
        ),
        format!(
            "fn u() {{ \"{literal}\".to_upper() }}\nfn g(n) {{ {} if n < 40 {{ [1].map(|y| g(n + 1)) }} else {{ loop {{}} }} }}\ng(0);",
            (0..300).map(|i| format!("let v{i} = u(); ")).collect::<String>()
        ),
    ];
    let clock =
        ["sleep(1);", "sleep(1e300);", "sleep(-1);", "sleep(9223372036854775807);", "sleep(0.0 / 0.0);", "exit(3);"];
    for body in grow.iter().chain(&deep).chain(&clock) {
        all.push(wrap(body, inside));
    }
    all.extend(hoards.iter().map(|body| wrap(body, inside)));
    all
}

/// Notes in loops, with and without decisions between them (run inside `fn schedule`).
const NOTES: &[&str] = &[
    "fn schedule(ctx) { loop { ctx.note(\"x\", big()); } }\nfn big() { let a = []; a.pad(10000, 1.5); a }",
    "fn schedule(ctx) { let s = \"\"; s.pad(4000, \"\\u202e\"); loop { ctx.note(s, s); } }",
    "fn schedule(ctx) { for j in ctx.waiting() { for i in 0..100 { ctx.note(`n${i}`, j); } \
     let s = ctx.best_fit(j); if s != () { ctx.start(j, s); } } }",
];

/// A source of `bytes` bytes (comments), around the longest allowed.
fn long_source(bytes: usize) -> String {
    let head = "fn schedule(ctx) {}\n// ";
    format!("{head}{}", "x".repeat(bytes.saturating_sub(head.len())))
}

fn check_all(label: &str, sources: &[String], model: usize) {
    let mut worst = (0.0f64, 0usize);
    for source in sources {
        match judge(source, model) {
            Ok(m) => {
                if m.wall > 1.0 {
                    let shown = source.lines().rfind(|l| l.trim() != "}").unwrap_or_default();
                    let shown: String = shown.chars().take(200).collect();
                    eprintln!("slow input ({:.1} s, {} MB): …{shown}", m.wall, m.peak >> 20);
                }
                worst = (worst.0.max(m.wall), worst.1.max(m.peak));
            }
            Err(why) => panic!("{label}, {}: {why}\n{source}", LANES[model].0),
        }
    }
    eprintln!(
        "{label} on {}: {} scripts, slowest {:.2} s, most memory {} MB",
        LANES[model].0,
        sources.len(),
        worst.0,
        worst.1 >> 20
    );
}

#[test]
fn every_hostile_family_stops_in_time_and_memory() {
    check_all("top level", &families(false), 0);
    check_all("in fn schedule", &families(true), 0);
    let notes: Vec<String> = NOTES.iter().map(|s| s.to_string()).collect();
    check_all("notes", &notes, 0);
    let routed: Vec<String> =
        NOTES[..2].iter().map(|s| s.replace("loop {", "ctx.route(ctx.eligible()[0]); loop {")).collect();
    check_all("notes", &routed, 2);
    let sources = [long_source(script::MAX_SOURCE_BYTES), long_source(script::MAX_SOURCE_BYTES + 1)];
    check_all("long sources", &sources, 1);
}

/// A non-UTF-8 or huge script in a link is refused by name, saying what is wrong.
#[test]
fn sources_that_are_no_script_say_why() {
    let deflated = source::encode_bytes;
    for (text, says) in [
        (deflated(&[0xff, 0xfe, b'f', b'n']), "not UTF-8"),
        (deflated(long_source(script::MAX_SOURCE_BYTES + 1).as_bytes()), "longer than 20000 bytes"),
        ("!!".to_string(), "not base64url"),
        ("AAAA".to_string(), "not a deflate-compressed script"),
    ] {
        let e = PolicySpec::parse(&format!("script:src={text}")).unwrap_err();
        assert!(e.message.contains(says), "{says}: {e}");
        let (_, errors) = decode_link(&format!("preset=pgrr-a1&policy=script:src={text}"));
        assert!(errors.iter().any(|e| e.key == "policy" && e.message.contains(says)), "{says}: {errors:?}");
        assert!(source::decode(&text).unwrap_err().contains(says));
    }
}

/// Pieces of rhai and of the families above, so random text often parses and runs.
const PIECES: &[&str] = &[
    "fn schedule(ctx) {",
    "}",
    "{",
    "(",
    ")",
    "[",
    "]",
    ";",
    "\n",
    "let x = ",
    "x",
    "a",
    "s",
    "m",
    "1",
    "-1",
    "1.5",
    "\"s\"",
    "+",
    "*",
    "/",
    "==",
    "<",
    "loop",
    "while",
    "for",
    "in",
    "if",
    "else",
    "return",
    "break",
    "throw",
    "try",
    "catch",
    "ctx.",
    "start(",
    "head()",
    "waiting()",
    "note(",
    "random()",
    "route(",
    "eligible()",
    ",",
    ".",
    "x.push(",
    "x += x",
    "fn f(n) { f(n) }",
    "f(1)",
    "[]",
    "#{}",
    "0..10",
    "9223372036854775807",
    "1e308",
    "eval(",
    "sleep(",
    "this",
    "|y| y",
    "sort(",
    "contains(",
    "pad(",
    "split(",
    "=",
    "m[x] = ",
    "0.0 / 0.0",
    "exit(",
];

fn script_text() -> impl Strategy<Value = String> {
    let pieces = prop::collection::vec(0..PIECES.len(), 0..50)
        .prop_map(|picks| picks.iter().map(|&i| PIECES[i]).collect::<Vec<_>>().join(" "));
    let costly =
        (0..COSTLY.len(), any::<bool>()).prop_map(|(i, inside)| wrap(&format!("loop {{ {}; }}", COSTLY[i]), inside));
    prop_oneof![
        pieces.clone().prop_map(|body| format!("fn schedule(ctx) {{\n{SETUP}\n{body}\n}}\n{body}")),
        pieces.prop_map(|body| format!("fn schedule(ctx) {{\n{body}\n}}\n{body}")),
        costly,
        ".{0,300}",
    ]
}

#[test]
fn any_script_stops_in_time_and_memory() {
    let env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
    let cases = env("PACKLAB_FUZZ_CASES").map_or(50, |c| (c / 8).max(1)) as u32;
    let mut seed = [0u8; 32];
    seed[..8].copy_from_slice(&env("PACKLAB_FUZZ_SEED").unwrap_or(1).to_le_bytes());
    let config = Config { cases, failure_persistence: None, ..Config::default() };
    let mut runner = TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &seed));
    runner
        .run(&(script_text(), 0..LANES.len()), |(source, model)| {
            judge(&source, model).map(drop).map_err(|why| TestCaseError::fail(format!("{why} on {source:?}")))
        })
        .unwrap();
}
