use super::*;

fn runs(first: f64, second: &[f64]) -> Vec<Growth> {
    second.iter().map(|&s| Growth { first, second: s, se: f64::NAN, df: 8, level: f64::NAN }).collect()
}

#[test]
fn flat_queues_are_stable_and_steady_growth_not() {
    assert_eq!(judge(&runs(0.0, &[0.001, -0.001, 0.0005, -0.0002]), 0.05).verdict, Verdict::Stable);
    assert_eq!(judge(&runs(0.02, &[0.02, 0.021, 0.019, 0.02]), 0.05).verdict, Verdict::Unstable);
}

#[test]
fn undecided_says_why() {
    let reason = |first, second: &[f64]| {
        let j = judge(&runs(first, second), 0.05);
        assert_eq!(j.verdict, Verdict::Undecided);
        j.reason
    };
    assert_eq!(reason(0.05, &[0.02, 0.021, 0.019, 0.02]), Reason::Slowing, "growth that halves: still filling");
    assert_eq!(reason(0.0, &[0.03, -0.02, 0.01, -0.01]), Reason::Wide);
    assert_eq!(reason(0.0, &[0.003, 0.005, 0.004, 0.006]), Reason::Small, "above 0, below 0.5%");
    assert_eq!(reason(0.0, &[]), Reason::TooEarly);
    // Growth that does not account for the level: a queue that filled faster before.
    let high = Growth { first: 0.02, second: 0.02, se: 0.001, df: 8, level: 0.08 };
    assert_eq!(judge(&[high], 0.05).reason, Reason::Slowing);
    assert_eq!(judge(&[Growth { level: 0.03, ..high }], 0.05).verdict, Verdict::Unstable, "linear from empty: 1.5×");
    // Growth below the resolution, however significant, counts as stable: the test does not
    // resolve a boundary closer than that.
    assert_eq!(judge(&runs(0.0, &[0.001, 0.0011, 0.0009, 0.001]), 0.05).verdict, Verdict::Stable);
}

#[test]
fn one_run_is_judged_on_its_own_batches() {
    let run = Growth { first: 0.01, second: 0.012, se: 0.001, df: 8, level: 0.018 };
    let j = judge(&[run], 0.05);
    assert_eq!((j.verdict, j.runs), (Verdict::Unstable, 1));
    let half = t_quantile(0.975, 8.0) * 0.001;
    assert!((j.ci[0] - (0.012 - half)).abs() < 1e-15 && (j.ci[1] - (0.012 + half)).abs() < 1e-15);
    // A smaller budget asks more of the same evidence.
    let strict = judge(&[Growth { se: 0.004, ..run }], 0.001);
    assert_eq!(strict.verdict, Verdict::Undecided, "{strict:?}");
}

/// A replayed log runs the same whatever the seed: its replications are one run, and their
/// spread of zero must not pass for certainty.
#[test]
fn identical_replications_are_judged_as_one_run() {
    let run = Growth { first: 0.01, second: 0.012, se: 0.006, df: 8, level: 0.018 };
    let one = judge(&[run], 0.05);
    let eight = judge(&[run; 8], 0.05);
    assert_eq!(eight, one, "eight copies of a run say what the run says");
    assert_eq!((eight.verdict, eight.runs), (Verdict::Undecided, 1));
    // Replications that differ are replications.
    let other = Growth { second: 0.0121, ..run };
    assert_eq!(judge(&[run, other, run, other], 0.05).runs, 4);
}

#[test]
fn t_quantiles_match_the_tables() {
    for (p, df, table) in [(0.975, 4.0, 2.776), (0.975, 30.0, 2.042), (0.995, 7.0, 3.499), (0.9995, 3.0, 12.924)] {
        assert!((t_quantile(p, df) - table).abs() < 1e-3, "t({p}, {df}) = {}", t_quantile(p, df));
    }
    assert!((t_quantile(0.975, f64::INFINITY) - 1.959964).abs() < 1e-6);
}

#[test]
fn the_slope_is_the_growth_per_time_unit() {
    let points: Vec<SeriesPoint> =
        (0..100).map(|i| SeriesPoint { start: i as f64, end: i as f64 + 1.0, mean: 3.0 + 0.5 * i as f64 }).collect();
    let g = Growth::of(&points, 100.0, 2.0);
    assert!((g.first - 0.25).abs() < 1e-12 && (g.second - 0.25).abs() < 1e-12, "{g:?}");
    assert!(g.se.abs() < 1e-12);
    assert!(Growth::of(&points[..6], 6.0, 1.0).second.is_nan(), "three points per half fit no line");
}

#[test]
fn judgements_explain_themselves() {
    let j = judge(&runs(0.0, &[0.001, -0.001, 0.0005, -0.0002]), 0.05);
    assert!(j.explain("slot").starts_with("stable: growth"), "{}", j.explain("slot"));
    let mut waiting = judge(&runs(0.0, &[0.03, -0.02, 0.01, -0.01]), 0.05);
    waiting.next = 1000.0;
    assert!(waiting.explain("slot").ends_with("next look at slot 1\u{202f}000"), "{}", waiting.explain("slot"));
}

#[test]
fn a_judgement_reads_back_what_it_wrote_in_json_and_in_postcard() {
    // postcard (the page's workers' snapshots) is not self-describing: a finite number written
    // bare and read as an Option once broke every snapshot that held a verdict.
    let judgement = judge(&runs(0.02, &[0.02, 0.021, 0.019, 0.02]), 0.05);
    let before = Judgement::before(0, f64::NAN);
    for j in [judgement, before] {
        let bytes = postcard::to_allocvec(&j).unwrap();
        assert_eq!(postcard::from_bytes::<Judgement>(&bytes).unwrap(), j);
        let json = serde_json::to_string(&j).unwrap();
        assert_eq!(serde_json::from_str::<Judgement>(&json).unwrap(), j, "{json}");
    }
    let growth = Growth { first: 0.1, second: f64::NAN, se: 0.01, df: 8, level: f64::INFINITY };
    let back: Growth = postcard::from_bytes(&postcard::to_allocvec(&growth).unwrap()).unwrap();
    assert_eq!((back.first, back.se, back.df), (0.1, 0.01, 8));
    assert!(back.second.is_nan() && back.level.is_nan());
}
