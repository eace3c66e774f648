//! The bundled samples (`samples/`) are what their generators write, read back as their
//! README says, and show their presets' figures at the presets' own settings: the policies
//! differ as the papers say.

use std::io::Read;

use packlab_core::link::decode_link;
use packlab_core::report::{RunReport, run};
use packlab_core::scenario::preset;
use packlab_core::trace::synth::{GoogleSynth, SwfSynth};
use packlab_core::trace::{Loaded, keep, read_bytes};

fn sample(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/../../samples/{name}", env!("CARGO_MANIFEST_DIR"))).expect("the sample is in samples/")
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut text = Vec::new();
    flate2::read::GzDecoder::new(bytes).read_to_end(&mut text).unwrap();
    text
}

#[test]
fn the_google_sample_is_the_generators_and_reads_back() {
    let mut expected = Vec::new();
    GoogleSynth { per_second: 84.0, ..GoogleSynth::new(42_000, 1) }.write(&mut expected).unwrap();
    assert!(
        gunzip(&sample("google-task-events.csv.gz")) == expected,
        "samples/google-task-events.csv.gz differs from `packlab trace synth --format google --tasks 42000 --seed 1 \
         --per-second 84`"
    );
    let Loaded::Google(trace) = read_bytes(&sample("google-task-events.csv.gz")).unwrap() else {
        panic!("a Google trace")
    };
    assert_eq!(trace.report.kept, 38_992, "{}", trace.report.describe());
}

#[test]
fn the_swf_sample_is_the_generators_and_reads_back() {
    let mut expected = Vec::new();
    SwfSynth::one_or_all(21_000, 1, 32, 0.1, 0.9).write(&mut expected).unwrap();
    assert!(
        gunzip(&sample("synthetic-32.swf.gz")) == expected,
        "samples/synthetic-32.swf.gz differs from `packlab trace synth --format swf --tasks 21000 --seed 1 --procs 32 \
         --one-or-all 0.1`"
    );
    let Loaded::Swf(log) = read_bytes(&sample("synthetic-32.swf.gz")).unwrap() else { panic!("an SWF log") };
    assert_eq!((log.report.kept, log.report.skipped_total(), log.max_procs), (20_336, 664, Some(32)));
}

/// Runs `preset` replaying the sample `file` as the page's sample button and `--trace` do (at
/// the preset's own settings), under `policies`.
fn replay(preset_id: &str, file: &str, policies: &str) -> Vec<RunReport> {
    let shared = keep(read_bytes(&sample(file)).unwrap());
    let p = preset(preset_id).unwrap();
    let mut scenario = p.scenario.clone();
    scenario.replay(&shared, &[], &p.scenario).unwrap();
    let (link, _) = decode_link(&format!("preset={preset_id}&policy={policies}"));
    link.policies.iter().map(|policy| run(preset_id, &scenario, policy).unwrap().report).collect()
}

/// PG-RR Fig. 5: best fit (BF-J/S, VQS-BF) keeps the queue short where FIFO-FF, blocked behind
/// a head job that fits nowhere, queues far more.
#[test]
fn the_google_sample_shows_pg_rr_fig_5() {
    let runs = replay("pgrr-a5", "google-task-events.csv.gz", "bf-js,vqs-bf,fifo-ff");
    let [bf_js, vqs_bf, fifo_ff] = [0, 1, 2].map(|i| runs[i].mean_queue);
    assert!(fifo_ff > 5.0 * bf_js.max(vqs_bf).max(1.0), "BF-J/S {bf_js}, VQS-BF {vqs_bf}, FIFO-FF {fifo_ff}");
}

/// PG-AS Figs. 5-6: DRA with preemption earns nearly the upper bound; power-of-d, packing
/// without reservation, earns far less.
#[test]
fn the_google_sample_shows_pg_as_figs_5_and_6() {
    let runs = replay("pgas-c5", "google-task-events.csv.gz", "dra-preempt,po-d,upper-bound");
    let reward = |r: &RunReport| serde_json::to_value(r).unwrap()["normalized_reward"].as_f64().unwrap();
    let [preempt, po_d, bound] = [0, 1, 2].map(|i| reward(&runs[i]));
    assert!(preempt > 0.9 * bound && po_d < 0.8 * preempt, "DRA+P {preempt}, po-d {po_d}, bound {bound}");
}

/// MSFQ Fig. 6's story: Quickswap keeps response times low where MSF and First-Fit starve one
/// side or the other.
#[test]
fn the_swf_sample_shows_quickswap_winning() {
    let runs = replay("msfq-d6", "synthetic-32.swf.gz", "static-qs,adaptive-qs,msf,first-fit");
    let response = |r: &RunReport| serde_json::to_value(r).unwrap()["mean_response"].as_f64().unwrap();
    let [static_qs, adaptive_qs, msf, first_fit] = [0, 1, 2, 3].map(|i| response(&runs[i]));
    let quickswap = static_qs.max(adaptive_qs);
    assert!(msf > 3.0 * quickswap && first_fit > 3.0 * quickswap, "{static_qs} {adaptive_qs} {msf} {first_fit}");
}

/// Every model's links name a replayed file by one fingerprint, the one `packlab trace stats`
/// prints and the page hands its race worker: a link written in one model finds the file in
/// any process that loaded it. (PG-AS named a file by its tasks as PG-AS maps them, so the
/// page's worker did not know the name and such replays ran on the page's thread.) A PG-AS
/// link written that older way still opens.
#[test]
fn every_model_names_a_file_by_its_fingerprint() {
    use packlab_core::link::encode_link;
    use packlab_core::trace::KEY;
    for (preset_id, file) in [
        ("pgrr-a5", "google-task-events.csv.gz"),
        ("pgas-c5", "google-task-events.csv.gz"),
        ("msfq-d6", "synthetic-32.swf.gz"),
    ] {
        let shared = keep(read_bytes(&sample(file)).unwrap());
        let p = preset(preset_id).unwrap();
        let mut scenario = p.scenario.clone();
        scenario.replay(&shared, &[], &p.scenario).unwrap();
        assert_eq!(scenario.get(KEY).as_deref(), Some(shared.name().as_str()), "{preset_id}");
        let query = encode_link(&p, &[], &scenario, &Default::default());
        let (link, errors) = decode_link(&query);
        assert!(errors.is_empty(), "{preset_id}: {errors:?}");
        assert!(link.scenario == scenario, "{preset_id}: the link opens the same replay");
    }
    let shared = keep(read_bytes(&sample("google-task-events.csv.gz")).unwrap());
    let tasks = packlab_core::models::pgas::trace::Trace::from_loaded(&shared.0).unwrap();
    let older = format!("{:016x}", tasks.fingerprint());
    assert_ne!(older, shared.name());
    let (link, errors) = decode_link(&format!("preset=pgas-c5&trace={older}"));
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(link.scenario.get(KEY).as_deref(), Some(shared.name().as_str()), "the older link finds the file");
}
