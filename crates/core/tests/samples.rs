//! The bundled samples (`samples/`) are what their generators write, and read back as their
//! README says.

use std::io::Read;

use packlab_core::trace::synth::{GoogleSynth, SwfSynth};
use packlab_core::trace::{Loaded, read_bytes};

fn sample(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/../../samples/{name}", env!("CARGO_MANIFEST_DIR"))).expect("the sample is in samples/")
}

#[test]
fn the_google_sample_is_the_generators_and_reads_back() {
    let mut text = Vec::new();
    flate2::read::GzDecoder::new(&sample("google-task-events.csv.gz")[..]).read_to_end(&mut text).unwrap();
    let mut expected = Vec::new();
    GoogleSynth::new(4000, 1).write(&mut expected).unwrap();
    assert!(
        text == expected,
        "samples/google-task-events.csv.gz differs from `packlab trace synth --format google --tasks 4000 --seed 1`"
    );
    let Loaded::Google(trace) = read_bytes(&sample("google-task-events.csv.gz")).unwrap() else {
        panic!("a Google trace")
    };
    assert_eq!(trace.report.kept, 3668, "{}", trace.report.describe());
}

#[test]
fn the_swf_sample_is_the_generators_and_reads_back() {
    let mut expected = Vec::new();
    SwfSynth::new(2000, 1).write(&mut expected).unwrap();
    assert!(sample("synthetic-128.swf") == expected, "samples/synthetic-128.swf differs from its generator");
    let Loaded::Swf(log) = read_bytes(&sample("synthetic-128.swf")).unwrap() else { panic!("an SWF log") };
    assert_eq!((log.report.kept, log.report.skipped_total(), log.max_procs), (1940, 60, Some(128)));
}
