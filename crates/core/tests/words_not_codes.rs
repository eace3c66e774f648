//! What users read says a rule in words, never by the implementation spec's labels: no
//! "RES-27" (a resolution id) and no "SPEC 5.6" (a spec section) in any preset, scenario key,
//! policy, tour, error message or recorded decision. The ids belong in code comments, which
//! `docs/resolutions.md` resolves; a reader of the page or the CLI has neither the spec nor
//! the comments.

use std::collections::BTreeSet;

use packlab_core::models::{self, all_policies};
use packlab_core::policy::PolicySpec;
use packlab_core::report::live_run;
use packlab_core::scenario::{Plot, Preset, Sweep, presets};
use packlab_core::tours::{Check, TOURS};
use packlab_core::view::Watch;

/// The spec's labels in `text`, each with the words around it: "RES-" followed by a digit, and
/// "SPEC" followed by a section number ("SPEC 4.3", "SPEC §8").
fn codes(text: &str) -> Vec<String> {
    let around = |at: usize| {
        let start = text[..at].char_indices().rev().nth(24).map_or(0, |(i, _)| i);
        text[start..].chars().take(60).map(|c| if c == '\n' { ' ' } else { c }).collect::<String>()
    };
    let digit_next = |rest: &str| rest.starts_with(|c: char| c.is_ascii_digit());
    let mut found = Vec::new();
    for (at, _) in text.match_indices("RES-") {
        if digit_next(&text[at + 4..]) {
            found.push(around(at));
        }
    }
    for (at, _) in text.match_indices("SPEC") {
        let rest = text[at + 4..].trim_start_matches(|c: char| c.is_whitespace() || c == '§');
        if digit_next(rest) {
            found.push(around(at));
        }
    }
    found
}

/// The texts users read, scanned as they are added: how many, and the spec labels found in
/// them with where each text comes from.
#[derive(Default)]
struct Texts {
    scanned: usize,
    leaks: BTreeSet<String>,
}

impl Texts {
    fn add(&mut self, place: impl AsRef<str>, text: impl AsRef<str>) {
        self.scanned += 1;
        for code in codes(text.as_ref()) {
            self.leaks.insert(format!("{}: …{code}…", place.as_ref()));
        }
    }

    /// Fails naming every text that cites the spec, and where it comes from.
    fn assert_in_words(&self) {
        assert!(self.scanned > 0, "nothing was scanned");
        let leaks: Vec<&str> = self.leaks.iter().map(String::as_str).collect();
        assert!(leaks.is_empty(), "spec labels in what users read (say the rule in words):\n{}", leaks.join("\n"));
    }
}

#[test]
fn the_check_finds_the_spec_labels_and_nothing_else() {
    for text in
        ["unranked (accept group, RES-27)", "the analysis (SPEC 5.6)", "SPEC §8", "as SPEC RES-14 says", "RES-3"]
    {
        assert_eq!(codes(text).len(), 1, "{text}");
    }
    for text in [
        "RESERVED-1",
        "RES-x",
        "SPECIAL 5",
        "the spec leaves it open",
        "PG-AS §7.2",
        "resolutions.md#res-14-which-google-tasks-are-kept",
        "¿RES",
        "",
    ] {
        assert!(codes(text).is_empty(), "{text}");
    }
    let mut planted = Texts::default();
    planted.add("planted", "ties go to the lowest index (RES-22)");
    assert!(std::panic::catch_unwind(|| planted.assert_in_words()).is_err());
}

fn add_preset(texts: &mut Texts, p: &Preset) {
    let at = |what: &str| format!("preset {} {what}", p.id);
    texts.add(at("title"), p.title);
    texts.add(at("figure"), p.figure);
    texts.add(at("summary"), p.summary);
    texts.add(at("explanation"), p.explanation);
    match &p.sweep {
        Sweep::Unavailable(why) => texts.add(at("sweep"), *why),
        Sweep::Runs { plot: Plot::Curves { figures, y_label, references }, .. } => {
            texts.add(at("sweep axis"), *y_label);
            for f in *figures {
                texts.add(at("sweep figure"), f.label);
            }
            for r in *references {
                texts.add(at("sweep reference"), r.label);
            }
        }
        Sweep::Runs { plot: Plot::AgainstParameter { axis, figure, .. }, .. } => {
            texts.add(at("sweep axis"), *axis);
            texts.add(at("sweep figure"), figure.label);
        }
        Sweep::Theory { .. } => {}
    }
    let s = p.scenario.any();
    texts.add(at("how to read"), s.how_to_read());
    for mark in s.marks() {
        texts.add(at("load mark"), format!("{} {}", mark.label, mark.short));
    }
    for key in p.scenario.keys() {
        let at = |what: &str| format!("preset {} key {} {what}", p.id, key.key);
        texts.add(at("label"), key.label);
        texts.add(at("help"), key.help);
        texts.add(at("range"), key.range);
        // The message of a value the key refuses.
        let mut scenario = p.scenario.clone();
        if let Err(e) = scenario.set(key.key, "not-a-value") {
            texts.add(at("error"), e.to_string());
        }
    }
}

/// Every model's names and load knob, every preset's texts and every scenario key's label,
/// help, range and error message.
#[test]
fn models_presets_and_keys_speak_in_words() {
    let mut texts = Texts::default();
    for m in models::all() {
        let at = |what: &str| format!("model {} {what}", m.id);
        texts.add(at("name"), m.name);
        texts.add(at("label"), m.label);
        texts.add(at("load knob"), format!("{} {} {} {}", m.load.name, m.load.symbol, m.load.axis, m.load.help));
        if let Some(t) = m.job_time {
            texts.add(at("job time"), format!("{} {} {} {}", t.name, t.definition, t.title, t.bin_title));
        }
    }
    let all = presets();
    assert!(all.len() >= 20, "{} presets", all.len());
    for p in &all {
        add_preset(&mut texts, p);
    }
    texts.assert_in_words();
}

/// What the theory says of each policy at each preset: the capacity's source, the theorem's
/// claim, every hypothesis and why it holds or fails there.
#[test]
fn stability_theory_speaks_in_words() {
    let mut texts = Texts::default();
    for p in presets() {
        let any = p.scenario.any();
        for spec in models::policies_of(any.info().id).map(|meta| PolicySpec::parse(meta.name).unwrap()) {
            let at = |what: &str| format!("preset {} policy {} {what}", p.id, spec.name());
            let theory = any.stability_theory(&spec);
            if let Some(c) = &theory.capacity {
                texts.add(at("capacity"), c.describe());
            }
            if let Some(g) = &theory.guarantee {
                texts.add(at("claim"), format!("{} {}", g.theorem, g.claim));
                for h in &g.hypotheses {
                    texts.add(at("hypothesis"), format!("{} {} {}", h.text, h.source, h.why));
                }
            }
            if let Some(text) = theory.describe() {
                texts.add(at("statement"), text);
            }
        }
    }
    texts.assert_in_words();
}

/// Every policy's label and summary, and every parameter's help and range.
#[test]
fn policies_speak_in_words() {
    let mut texts = Texts::default();
    for (model, meta) in all_policies() {
        let at = |what: &str| format!("policy {} ({}) {what}", meta.name, model.id);
        texts.add(at("label"), meta.label);
        texts.add(at("summary"), meta.summary);
        for param in meta.params {
            texts.add(at(&format!("parameter {} help", param.key)), param.help);
            texts.add(at(&format!("parameter {} range", param.key)), param.range());
        }
    }
    texts.assert_in_words();
}

/// Every tour's title and steps: what to look at, the question and its choices.
#[test]
fn tours_speak_in_words() {
    let mut texts = Texts::default();
    for tour in TOURS {
        let at = |what: String| format!("tour {} {what}", tour.id);
        texts.add(at("title".into()), tour.title);
        texts.add(at("paper".into()), tour.paper);
        for (i, step) in tour.steps.iter().enumerate() {
            texts.add(at(format!("step {} text", i + 1)), step.text);
            if let Some(q) = &step.question {
                texts.add(at(format!("step {} question", i + 1)), q.prompt);
                for choice in q.choices {
                    texts.add(at(format!("step {} choice", i + 1)), *choice);
                }
            }
            if let Check::CriticalPoints { labels } = step.check {
                for label in labels {
                    texts.add(at(format!("step {} check", i + 1)), *label);
                }
            }
        }
    }
    texts.assert_in_words();
}

/// Decisions kept per lane while scanning: more than any piece of a run records (checked).
const LOG: usize = 50_000;
/// Each run is scanned in this many pieces, the decisions of each read before the next.
const CHUNKS: u64 = 40;

/// How long each preset runs under each policy: long enough for every kind of decision to
/// occur (phases, migrations, refreshes, dummies), short enough for one run per preset and
/// policy. DRA's rarest note, an arrival admitted into an unranked server of a configuration
/// GPA no longer lists, appears only once the run has moved GPA away from the configurations it
/// first deployed, well past 50 time units into pgas-c3; so DRA runs its presets' own horizons
/// (at most 200). The upper bound, whose LP certificates make it the slowest, records the same
/// decision at every arrival.
fn horizon(model: &str, policy: &str) -> u64 {
    match (model, policy) {
        ("pgas", "dra") => 200,
        ("pgas", "upper-bound") => 2,
        ("pgas", _) => 5,
        ("ghra", _) => 50,
        _ => 2_000,
    }
}

/// The decisions each preset's run records under every policy of its model, with what the
/// policy noted for the inspector, and what the page draws: the "why" of the last placement,
/// the readouts, legends and bin labels.
#[test]
fn decisions_and_views_speak_in_words() {
    let mut texts = Texts::default();
    let mut runs = 0;
    for p in presets() {
        let model = p.scenario.info().id;
        for (_, meta) in all_policies().filter(|(m, _)| m.id == model) {
            let mut scenario = p.scenario.clone();
            scenario.set_horizon_scaled(horizon(model, meta.name).min(scenario.horizon())).unwrap();
            let spec = PolicySpec::parse(meta.name).unwrap();
            // Policies that do not fit the preset (MSFQ beyond one-or-all classes, preemption
            // without priorities) and presets without a simulation (bounds only) are skipped;
            // any other that does not build fails.
            if scenario.check_policy(&spec).is_err() || scenario.any().theory_only() {
                continue;
            }
            let mut run = live_run(&scenario, &spec, Watch::page(64).with_log(LOG))
                .unwrap_or_else(|e| panic!("preset {} policy {}: fits but does not build: {e}", p.id, meta.name));
            runs += 1;
            let at = |what: &str| format!("preset {} policy {} {what}", p.id, meta.name);
            let step = scenario.horizon().div_ceil(CHUNKS);
            let mut seen = 0;
            while run.time() < scenario.horizon() {
                run.run(step.min(scenario.horizon() - run.time())).unwrap();
                let count = run.decisions().count();
                assert!(
                    count - seen <= LOG as u64,
                    "{}: {} decisions in a piece, more than the log keeps",
                    at(""),
                    count - seen
                );
                for d in run.decisions().records().iter().filter(|d| d.seq > seen) {
                    texts.add(at("decision"), format!("{} | {}", d.what, d.why));
                    for fact in &d.facts {
                        texts.add(at("decision fact"), format!("{}: {}", fact.label, fact.value));
                    }
                }
                seen = count;
                texts.add(at("view"), serde_json::to_string(&run.view(true)).unwrap());
            }
            texts.add(at("bins"), run.bin_labels().join(", "));
        }
    }
    assert!(runs >= 60, "only {runs} preset and policy runs");
    texts.assert_in_words();
}
