//! Fuzzing every entry point that takes user input: links (decoded, re-encoded, and the runs
//! they name built and stepped), policy specs, scenario keys (`--set` and the page's fields),
//! class tables, task traces and the scripts submitted to an exercise (`fuzz/exercises.rs`).
//!
//! Inputs come from generators seeded with what users really type: every key of every
//! model, every value some preset holds, every policy with its parameters, the shipped class
//! tables, a valid trace and the exercises' scripts, then mutated (characters cut, repeated or
//! swapped, numbers made extreme). The property is the same everywhere: an input is either
//! refused with an error that names its key, or it yields something that builds and runs;
//! nothing panics.
//!
//! `scripts/test` runs a bounded number of cases per target (`PACKLAB_FUZZ_CASES`, default
//! below); `scripts/fuzz` runs the same targets for as long as it is left running, with fresh
//! seeds. A failure prints the shrunk input; it becomes a regression test in
//! `crates/core/tests/fuzz_regressions.rs`.

use std::cell::RefCell;
use std::panic::{AssertUnwindSafe, catch_unwind};

use packlab_core::link::{decode_link, encode_link};
use packlab_core::models::msfq::JobClasses;
use packlab_core::models::pgas::Trace;
use packlab_core::models::{Scenario, all_policies};
use packlab_core::policy::{ParamKind, PolicySpec};
use packlab_core::scenario::presets;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

#[path = "fuzz/runs.rs"]
mod runs;
use runs::{Reached, run_briefly};

/// The scripts `packlab exercise --check` reads.
#[path = "fuzz/exercises.rs"]
mod exercises;

/// Cases per target in `scripts/test`: about ten seconds each on 2 cores.
const DEFAULT_CASES: u32 = 400;

/// Cases per target: `PACKLAB_FUZZ_CASES`, else [`DEFAULT_CASES`].
fn cases() -> u32 {
    std::env::var("PACKLAB_FUZZ_CASES").ok().and_then(|v| v.parse::<u32>().ok()).unwrap_or(DEFAULT_CASES)
}

/// A runner for one target: `PACKLAB_FUZZ_CASES` cases from the seed `PACKLAB_FUZZ_SEED`
/// (default 1, so `scripts/test` tries the same inputs every time; `scripts/fuzz` draws
/// fresh seeds).
fn runner() -> TestRunner {
    let env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
    let cases = cases();
    let mut seed = [0u8; 32];
    seed[..8].copy_from_slice(&env("PACKLAB_FUZZ_SEED").unwrap_or(1).to_le_bytes());
    // Failures are reported with their input and kept as explicit regression tests, not in
    // proptest's files.
    let config = Config { cases, failure_persistence: None, ..Config::default() };
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &seed))
}

/// Runs `f`, turning a panic into a test failure that names the input. An input that takes
/// more than a second is reported on stderr (a lead for the bounded-cost limits), not failed:
/// timing depends on the machine.
fn no_panic(input: &str, f: impl FnOnce()) -> Result<(), TestCaseError> {
    let start = std::time::Instant::now();
    let result = catch_unwind(AssertUnwindSafe(f));
    let took = start.elapsed().as_secs_f64();
    if took > 1.0 {
        eprintln!("slow input ({took:.1} s): {input}");
    }
    match result {
        Ok(()) => Ok(()),
        Err(cause) => {
            let message = cause
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| cause.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            Err(TestCaseError::fail(format!("panicked on {input:?}: {message}")))
        }
    }
}

/// Numbers at the edges of every range.
const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "1",
    "-1",
    "2",
    "0.5",
    "1e-324",
    "5e-324",
    "1e-300",
    "1e-12",
    "1e-9",
    "0.999999999",
    "1.0000001",
    "7",
    "10",
    "31",
    "32",
    "100",
    "1e3",
    "1e6",
    "1e9",
    "1e12",
    "1e18",
    "1e30",
    "1e300",
    "1e309",
    "1.7976931348623157e308",
    "18446744073709551615",
    "18446744073709551616",
    "4294967295",
    "4294967296",
    "9999999999999999999999",
    "NaN",
    "inf",
    "-inf",
    "infinity",
    "0x10",
    "1/3",
    "2/3",
    "1/0",
    "0/0",
    "",
    " ",
    "+5",
    "1_000",
    "٣",
];

/// Every value some preset holds for some key, and every key name.
fn preset_values() -> (Vec<String>, Vec<String>) {
    let mut values = Vec::new();
    let mut keys = vec!["preset".to_string(), "policy".to_string(), "speed".to_string()];
    for p in presets() {
        for k in p.scenario.keys() {
            if !keys.iter().any(|x| x == k.key) {
                keys.push(k.key.to_string());
            }
            if let Some(v) = p.scenario.get(k.key)
                && !values.contains(&v)
            {
                values.push(v);
            }
        }
    }
    (keys, values)
}

/// Policy specs as users write them: every policy, with each parameter given a value from
/// its own range or from the edges.
fn policy_texts() -> Vec<String> {
    let mut out = Vec::new();
    for (_, meta) in all_policies() {
        out.push(meta.name.to_string());
        for param in meta.params {
            let values: Vec<String> = match param.kind {
                ParamKind::Int { lo, hi } => vec![lo.to_string(), hi.to_string(), (hi + 1).to_string()],
                ParamKind::ScenarioInt { .. } => vec!["0".into(), "3".into(), "31".into(), "5000".into()],
                ParamKind::Choice(options) => options.iter().map(|o| o.to_string()).collect(),
                ParamKind::Text { .. } => vec!["ln^1.5".into(), "ln^1e-12".into(), "12".into(), "log".into()],
            };
            for v in values {
                out.push(format!("{}:{}={v}", meta.name, param.key));
            }
        }
    }
    out
}

/// Mutates `text` with the operation `op` at `at` (both reduced to fit).
fn mutate(text: &str, op: u8, at: usize, with: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let i = if chars.is_empty() { 0 } else { at % (chars.len() + 1) };
    let (head, tail): (String, String) = (chars[..i].iter().collect(), chars[i..].iter().collect());
    match op % 6 {
        // Cut a piece.
        0 => format!("{head}{}", tail.chars().skip(1 + at % 4).collect::<String>()),
        // Insert something.
        1 => format!("{head}{with}{tail}"),
        // Repeat the text (long lists, many classes).
        2 => std::iter::repeat_n(text, 1 + at % 40).collect::<Vec<_>>().join(","),
        // Replace the first number by `with`.
        3 => {
            let start = chars.iter().position(|c| c.is_ascii_digit()).unwrap_or(0);
            let end = chars[start..]
                .iter()
                .position(|c| !(c.is_ascii_digit() || *c == '.'))
                .map_or(chars.len(), |e| start + e);
            format!("{}{with}{}", chars[..start].iter().collect::<String>(), chars[end..].iter().collect::<String>())
        }
        // Swap separators.
        4 => text.replace(',', ";").replace('@', " "),
        // A long list of distinct entries made from the first one (a fleet of many distinct
        // capacities, many classes or sizes): each copy's numbers shifted by its index.
        _ => {
            let first = text.split(',').next().unwrap_or(text);
            (0..1 + at % 1500)
                .map(|n| {
                    let mut digits = first.chars().filter(char::is_ascii_digit).count();
                    first
                        .chars()
                        .map(|c| match c.to_digit(10) {
                            Some(d) if digits > 0 => {
                                digits -= 1;
                                char::from_digit((d + (n / 10usize.pow(digits as u32 % 4)) as u32) % 10, 10)
                                    .unwrap_or(c)
                            }
                            _ => c,
                        })
                        .collect::<String>()
                })
                .collect::<Vec<_>>()
                .join(",")
        }
    }
}

/// A value: a preset's, a number from the edges, junk, or a mutation of one of these.
fn value(values: Vec<String>) -> impl Strategy<Value = String> {
    let base = prop_oneof![
        4 => proptest::sample::select(values),
        2 => proptest::sample::select(NUMBERS).prop_map(str::to_string),
        1 => "[ -~]{0,12}",
    ];
    (base, any::<u8>(), any::<usize>(), proptest::sample::select(NUMBERS))
        .prop_map(|(text, op, at, with)| if op % 3 == 0 { mutate(&text, op / 3, at, with) } else { text })
}

/// A case's outcome: the failure it recorded, if any.
fn verdict(failure: Option<String>) -> Result<(), TestCaseError> {
    failure.map_or(Ok(()), |f| Err(TestCaseError::fail(f)))
}

#[test]
fn links_decode_round_trip_and_run() {
    let (keys, values) = preset_values();
    let ids: Vec<String> = presets().iter().map(|p| p.id.to_string()).collect();
    let pair = (proptest::sample::select(keys), value(values));
    let links = (
        proptest::sample::select(ids),
        proptest::collection::vec(proptest::sample::select(policy_texts()), 0..4),
        proptest::collection::vec(pair, 0..6),
    );
    let reached = RefCell::new(Reached::new(cases()));
    runner()
        .run(&links, |(preset, policies, pairs)| {
            let mut query: Vec<(String, String)> = vec![("preset".into(), preset)];
            if !policies.is_empty() {
                query.push(("policy".into(), policies.join(",")));
            }
            query.extend(pairs);
            let link = serde_urlencoded::to_string(&query).unwrap_or_default();
            let mut failure = None;
            no_panic(&link, || {
                let (decoded, _) = decode_link(&link);
                run_briefly(&reached, &decoded.scenario, &decoded.policies);
                // What the page writes back decodes to the same scenario and policies, without
                // errors, and encoding is idempotent.
                let written = encode_link(&decoded.preset, &decoded.policies, &decoded.scenario, &Default::default());
                let (again, errors) = decode_link(&written);
                let rewritten = encode_link(&again.preset, &again.policies, &again.scenario, &Default::default());
                if !errors.is_empty() || again.scenario != decoded.scenario || again.policies != decoded.policies {
                    failure = Some(format!("{link} was written back as {written}, which reads {errors:?}"));
                } else if rewritten != written {
                    failure = Some(format!("{link}: encoding is not idempotent: {written} then {rewritten}"));
                }
            })?;
            verdict(failure)
        })
        .unwrap();
    reached.borrow().check("links_decode_round_trip_and_run", &["pgrr", "msfq", "ghra", "pgas"], 8);
}

#[test]
fn policy_specs_parse_or_name_the_policy_key() {
    let texts = policy_texts();
    let spec = prop_oneof![
        3 => (proptest::sample::select(texts.clone()), any::<u8>(), any::<usize>(), proptest::sample::select(NUMBERS))
            .prop_map(|(t, op, at, with)| mutate(&t, op, at, with)),
        1 => proptest::sample::select(texts),
        1 => "[ -~]{0,16}",
    ];
    let scenarios: Vec<Scenario> = presets().into_iter().map(|p| p.scenario).collect();
    let reached = RefCell::new(Reached::new(cases()));
    runner()
        .run(&spec, |text| {
            let mut failure = None;
            no_panic(&text, || match PolicySpec::parse(&text) {
                Err(e) if e.key != "policy" => failure = Some(format!("{text:?}: error names {}", e.key)),
                Err(_) => {}
                Ok(spec) => {
                    // The canonical form reads back as the same spec.
                    match PolicySpec::parse(&spec.to_string()) {
                        Ok(again) if again == spec => {}
                        other => failure = Some(format!("{text:?} prints as {spec}, which reads {other:?}")),
                    }
                    for s in scenarios.iter().filter(|s| s.info().id == spec.model().id) {
                        if s.check_policy(&spec).is_ok() {
                            run_briefly(&reached, s, std::slice::from_ref(&spec));
                        }
                    }
                }
            })?;
            verdict(failure)
        })
        .unwrap();
    reached.borrow().check("policy_specs_parse_or_name_the_policy_key", &["pgrr", "msfq", "ghra", "pgas"], 8);
}

#[test]
fn scenario_keys_refuse_by_name_or_run() {
    let (_, values) = preset_values();
    let all = presets();
    let inputs = (0..all.len(), any::<usize>(), value(values));
    let reached = RefCell::new(Reached::new(cases()));
    runner()
        .run(&inputs, |(p, k, text)| {
            let preset = &all[p];
            let keys = preset.scenario.keys();
            let key = keys[k % keys.len()].key;
            let input = format!("{} {key}={text}", preset.id);
            let mut failure = None;
            no_panic(&input, || {
                let mut scenario = preset.scenario.clone();
                match scenario.set(key, &text) {
                    Err(e) if e.key != key => failure = Some(format!("{input}: error names {}", e.key)),
                    Err(_) => {}
                    Ok(()) => {
                        // What was accepted prints in a form that reads back the same.
                        let shown = scenario.get(key).unwrap_or_default();
                        let mut again = preset.scenario.clone();
                        match again.set(key, &shown) {
                            Ok(()) if again.get(key) == Some(shown.clone()) => {}
                            other => failure = Some(format!("{input}: shown as {shown:?}, which reads {other:?}")),
                        }
                        if scenario.validate().is_ok() {
                            run_briefly(&reached, &scenario, &preset.policies);
                        }
                    }
                }
            })?;
            verdict(failure)
        })
        .unwrap();
    reached.borrow().check("scenario_keys_refuse_by_name_or_run", &["pgrr", "msfq", "ghra", "pgas"], 8);
}

/// Change lists (`change=T:KEY=VALUE;...`, `--change`): entries built from moments at and past
/// the edges, keys that can, cannot and do not exist, and values in and out of range (server
/// counts among them), with stray separators. Each list is refused under the key `change` naming an entry, or it runs
/// and reads back the same from a link.
#[test]
fn change_lists_refuse_by_entry_or_run() {
    let (_, values) = preset_values();
    let all = presets();
    let moments = ["0", "1", "7", "399", "400", "1999", "2000", "18446744073709551616", "-1", "x", ""];
    // PG-RR's and PG-AS's server counts can change (RES-95, RES-98; PG-AS's also while its
    // trace replays): counts that drain servers holding jobs, add some, repeat the current one
    // or leave the range; MSFQ's cores cannot change.
    let keys = ["load", "load", "servers", "servers", "cores", "seed", "change", "speed", "", "LOAD"];
    let counts = ["1", "2", "3", "10", "100001", "0"].map(str::to_string);
    // GH-RA's fleet can change (RES-97): fleets that remove servers from the end of a preset's
    // (ghra-b3's five small and five large, ghra-b1's two, ghra-b0's one of capacity 10), add
    // some, repeat it, reorder it (refused) or leave the range.
    let fleets = [
        "5xsmall",
        "5xsmall,3xlarge",
        "5xsmall,5xlarge",
        "5xsmall,7xlarge",
        "1xsmall",
        "12xsmall",
        "3x10",
        "3xlarge",
        "1001xsmall",
    ]
    .map(str::to_string);
    let entry = (
        proptest::sample::select(moments.to_vec()),
        proptest::sample::select(keys.to_vec()),
        prop_oneof![
            3 => value(values),
            1 => Just("0.5".to_string()),
            1 => Just("1.3".to_string()),
            2 => proptest::sample::select(counts.to_vec()),
            2 => proptest::sample::select(fleets.to_vec()),
        ],
        proptest::sample::select(vec![";", ";", ";;", ",", " ; "]),
    );
    let inputs = (0..all.len(), proptest::collection::vec(entry, 0..6));
    let reached = RefCell::new(Reached::new(cases()));
    runner()
        .run(&inputs, |(p, entries)| {
            let preset = &all[p];
            let text: String =
                entries.iter().map(|(t, k, v, sep)| format!("{t}:{k}={v}{sep}")).collect::<Vec<_>>().concat();
            let input = format!("{} change={text}", preset.id);
            let mut failure = None;
            no_panic(&input, || {
                let mut scenario = preset.scenario.clone();
                scenario.set_horizon_scaled(2000.min(scenario.horizon())).expect("a shorter horizon");
                let result = scenario.set("change", &text).and_then(|()| scenario.validate());
                match result {
                    Err(e) if e.key != "change" && !text.trim().is_empty() => {
                        failure = Some(format!("{input}: error names {}", e.key))
                    }
                    Err(e) if e.key == "change" && !e.message.contains("entry") && !e.message.contains("at most") => {
                        failure = Some(format!("{input}: the error names no entry: {e}"))
                    }
                    Err(_) => {}
                    Ok(()) => {
                        let link = encode_link(preset, &preset.policies, &scenario, &Default::default());
                        let (decoded, errors) = decode_link(&link);
                        if !errors.is_empty() || decoded.scenario.get("change") != scenario.get("change") {
                            failure = Some(format!("{input}: the link {link} reads {errors:?}"));
                        }
                        run_briefly(&reached, &scenario, &preset.policies);
                    }
                }
            })?;
            verdict(failure)
        })
        .unwrap();
    reached.borrow().check("change_lists_refuse_by_entry_or_run", &["pgrr", "msfq", "ghra", "pgas"], 8);
}

const CLASS_CSV: &str = "need,probability,mean_size\n1,0.5,1\n3,0.25,2\n5,0.2,1\n15,0.05,4\n";

#[test]
fn class_tables_parse_or_say_why() {
    let texts = vec![
        "1@0.9,32@0.1".to_string(),
        "1@0.5,3@0.25,5@0.2,15@0.05".to_string(),
        "1@0.9@0.1,32@0.1@1".to_string(),
        CLASS_CSV.to_string(),
    ];
    let input = (
        proptest::sample::select(texts),
        any::<u8>(),
        any::<usize>(),
        proptest::sample::select(NUMBERS),
        any::<bool>(),
    );
    // The tables run on the MSFQ presets of 15 cores (d5) and 32 (d1), where they validate.
    let machines: Vec<Scenario> =
        presets().into_iter().filter(|p| ["msfq-d5", "msfq-d1"].contains(&p.id)).map(|p| p.scenario).collect();
    let all: Vec<PolicySpec> =
        all_policies().filter(|(m, _)| m.id == "msfq").filter_map(|(_, p)| PolicySpec::parse(p.name).ok()).collect();
    let reached = RefCell::new(Reached::new(cases()));
    runner()
        .run(&input, |(text, op, at, with, csv)| {
            let text = mutate(&text, op, at, with);
            let mut failure = None;
            no_panic(&text, || {
                let parsed = if csv { JobClasses::from_csv(&text) } else { JobClasses::parse(&text) };
                match parsed {
                    Err(e) if e.key != "classes" => failure = Some(format!("{text:?}: error names {}", e.key)),
                    Err(_) => {}
                    Ok(classes) => {
                        for machine in &machines {
                            let mut scenario = machine.clone();
                            if scenario.set("classes", &classes.to_string()).is_ok() && scenario.validate().is_ok() {
                                run_briefly(&reached, &scenario, &all);
                            }
                        }
                    }
                }
            })?;
            verdict(failure)
        })
        .unwrap();
    reached.borrow().check("class_tables_parse_or_say_why", &["msfq"], 8);
}

const TRACE_CSV: &str =
    "submit_time,duration,size,priority\n0,1.5,0.25,0\n0.1,2,0.5,1\n0.2,0.5,0.125,9\n1,3,1,11\n2.5,1,0.0009765625,4\n";

#[test]
fn traces_parse_or_name_line_and_field() {
    let input = (any::<u8>(), any::<usize>(), proptest::sample::select(NUMBERS), 1..4usize);
    let c5 = presets().into_iter().find(|p| p.id == "pgas-c5").unwrap();
    let reached = RefCell::new(Reached::new(cases()));
    runner()
        .run(&input, |(op, at, with, rounds)| {
            let mut text = TRACE_CSV.to_string();
            for r in 0..rounds {
                text = mutate(&text, op.wrapping_add(r as u8), at.wrapping_mul(r + 1), with);
            }
            let mut failure = None;
            no_panic(&text, || match Trace::from_csv(&text) {
                Err(e) if e.key != "trace" => failure = Some(format!("{text:?}: error names {}", e.key)),
                Err(_) => {}
                Ok(trace) => {
                    let Scenario::Pgas(mut s) = c5.scenario.clone() else { return };
                    s.attach_trace(trace);
                    let scenario = Scenario::Pgas(s);
                    if scenario.validate().is_ok() {
                        run_briefly(&reached, &scenario, &c5.policies);
                    }
                }
            })?;
            verdict(failure)
        })
        .unwrap();
    // The trace holds five tasks: a run decides on each at most once or twice.
    reached.borrow().check("traces_parse_or_name_line_and_field", &["pgas"], 3);
}

/// The start of a bundled sample, as text.
fn sample_lines(name: &str, lines: usize) -> String {
    use std::io::Read;
    let bytes = std::fs::read(format!("{}/../../samples/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let mut text = String::new();
    if bytes.starts_with(&[0x1f, 0x8b]) {
        flate2::read::GzDecoder::new(&bytes[..]).read_to_string(&mut text).unwrap();
    } else {
        text = String::from_utf8(bytes).unwrap();
    }
    text.lines().take(lines).map(|l| format!("{l}\n")).collect()
}

/// The lines of the first `tasks` tasks of the bundled Google sample that finish normally, in
/// the file's order: a task_events file that replays (the sample's first 150 lines hold only
/// tasks still running where they stop, which every model refuses).
fn google_tasks(tasks: usize) -> String {
    let text = sample_lines("google-task-events.csv.gz", 2_000);
    // A task is its job id and index (fields 2 and 3); event 4 is FINISH.
    let task = |line: &str| line.split(',').skip(2).take(2).collect::<Vec<_>>().join(",");
    let finished: Vec<String> =
        text.lines().filter(|l| l.split(',').nth(5) == Some("4")).map(task).take(tasks).collect();
    text.lines().filter(|l| finished.contains(&task(l))).map(|l| format!("{l}\n")).collect()
}

/// Google task_events and SWF files: the bundled samples' first lines, mutated, read in chunks
/// of random sizes, sometimes gzip-compressed and cut short. A file is read, or refused with
/// an error (key `trace`) that says where; what is read replays on its model.
#[test]
fn trace_files_read_or_name_where() {
    use packlab_core::trace::{self, Reader};
    use std::io::Write;
    let google = google_tasks(20);
    let swf = sample_lines("synthetic-32.swf.gz", 40);
    let a5 = presets().into_iter().find(|p| p.id == "pgrr-a5").unwrap();
    let d6 = presets().into_iter().find(|p| p.id == "msfq-d6").unwrap();
    let c5 = presets().into_iter().find(|p| p.id == "pgas-c5").unwrap();
    let input = (
        any::<bool>(),
        any::<u8>(),
        any::<usize>(),
        proptest::sample::select(NUMBERS),
        0..4usize,
        1..200usize,
        any::<u8>(),
    );
    let reached = RefCell::new(Reached::new(cases()));
    runner()
        .run(&input, |(is_google, op, at, with, rounds, chunk, packing)| {
            let mut text = if is_google { google.clone() } else { swf.clone() };
            for r in 0..rounds {
                text = mutate(&text, op.wrapping_add(r as u8), at.wrapping_mul(r + 1), with);
            }
            let mut bytes = text.clone().into_bytes();
            if packing % 3 == 0 {
                let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
                gz.write_all(&bytes).unwrap();
                bytes = gz.finish().unwrap();
                if packing % 2 == 0 {
                    bytes.truncate(at % bytes.len());
                }
            }
            let mut failure = None;
            no_panic(&text, || {
                let mut reader = Reader::new();
                let read = reader.file("f").and_then(|()| bytes.chunks(chunk).try_for_each(|c| reader.push(c)));
                match read.and_then(|()| reader.finish()) {
                    Err(e) if e.key != "trace" => failure = Some(format!("error names {}: {e}", e.key)),
                    Err(e)
                        if !["line", "gzip", "no task", "no usable", "holds no"]
                            .iter()
                            .any(|w| e.message.contains(w)) =>
                    {
                        failure = Some(format!("the error does not say where: {e}"))
                    }
                    Err(_) => {}
                    Ok(loaded) => {
                        // The trace replays on every preset whose model takes its format (PG-RR
                        // and PG-AS a Google trace, MSFQ an SWF log), as the CLI and the page
                        // replay it; another model refuses it by name.
                        let shared = trace::keep(loaded);
                        for preset in [&a5, &d6, &c5] {
                            let mut scenario = preset.scenario.clone();
                            match scenario.replay(&shared, &[], &preset.scenario) {
                                Ok(_) if scenario.validate().is_ok() => {
                                    run_briefly(&reached, &scenario, &preset.policies)
                                }
                                Ok(_) => {}
                                Err(e) if e.key != "trace" => {
                                    failure = Some(format!("replay error names {}: {e}", e.key))
                                }
                                Err(_) => {}
                            }
                        }
                    }
                }
            })?;
            verdict(failure)
        })
        .unwrap();
    reached.borrow().check("trace_files_read_or_name_where", &["pgrr", "msfq", "pgas"], 8);
}
