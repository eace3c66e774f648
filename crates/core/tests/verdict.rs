//! The verdict as the page reads it, every frame of a run: it never turns from stable to not
//! stable (or back) without reading "undecided" in between, it does not depend on how the run
//! is stepped, and at the horizon it is the CLI report's.

use packlab_core::limits::PAGE_MAX_POINTS;
use packlab_core::link::decode_link;
use packlab_core::metrics::{Judgement, Verdict};
use packlab_core::report::{live_run, run};
use packlab_core::view::Watch;

/// Plays every lane of `link` in `frames` equal steps, as the page's frames do, and returns
/// each lane's verdict after every step and its last judgement.
fn frames(link: &str, frames: u64) -> Vec<(Vec<Verdict>, Judgement)> {
    let (decoded, errors) = decode_link(link);
    assert!(errors.is_empty(), "{link}: {errors:?}");
    let horizon = decoded.scenario.any().window().horizon;
    decoded
        .policies
        .iter()
        .map(|policy| {
            let mut lane = live_run(&decoded.scenario, policy, Watch::page(PAGE_MAX_POINTS)).unwrap();
            let mut seen = Vec::new();
            for frame in 1..=frames {
                lane.run_to((horizon * frame / frames) as f64).unwrap();
                seen.push(lane.verdict().expect("a queue").verdict);
            }
            let last = lane.verdict().unwrap();
            let report = run(decoded.preset.id, &decoded.scenario, policy).unwrap().report;
            assert_eq!(report.verdict, Some(last), "{link} {policy}: the page's last verdict is the CLI's");
            (seen, last)
        })
        .collect()
}

fn assert_no_turnover(link: &str, seen: &[Verdict]) {
    let mut changes: Vec<Verdict> = seen.to_vec();
    changes.dedup();
    for pair in changes.windows(2) {
        assert!(
            !(pair[0].is_decided() && pair[1].is_decided()),
            "{link}: the verdict went from {} to {} in one frame ({changes:?})",
            pair[0].word(),
            pair[1].word()
        );
    }
}

/// PG-RR Fig. 3a at the page's 30-second pace (900 frames): VQS's queue grows, BF-J/S's
/// settles, and neither verdict turns over on the way.
#[test]
fn the_race_of_fig_3a_reads_the_same_way_every_frame() {
    let link = "?preset=pgrr-a1&policy=vqs,bf-js";
    let lanes = frames(link, 900);
    for (seen, _) in &lanes {
        assert_no_turnover(link, seen);
    }
    assert_eq!(lanes[0].1.verdict, Verdict::Unstable, "VQS at α = 0.7, past its 2/3: {:?}", lanes[0].1);
    assert_eq!(lanes[1].1.verdict, Verdict::Stable, "BF-J/S at α = 0.7: {:?}", lanes[1].1);
    assert!(!lanes[0].0[..100].contains(&Verdict::Stable), "no early 'stable' for VQS: {:?}", &lanes[0].0[..100]);
}

/// MSF on msfq-d1 at 0.987 of its boundary, where its queue swings widely: whatever it
/// reads, it never turns over from one frame to the next, and it is never "not stable".
#[test]
fn msf_near_its_boundary_never_turns_over() {
    for seed in 1..=3 {
        let link = format!("?preset=msfq-d1&policy=msf&load=7.7&seed={seed}");
        for (seen, last) in frames(&link, 900) {
            assert_no_turnover(&link, &seen);
            assert!(!seen.contains(&Verdict::Unstable), "{link}: a stable load read not stable ({last:?})");
        }
    }
}

/// Stepping changes no bit of the verdict: one go, 7 steps or 900 give the same judgement.
#[test]
fn the_verdict_does_not_depend_on_the_steps() {
    for link in ["?preset=pgrr-a1&policy=vqs", "?preset=msfq-d1&policy=msfq&load=7", "?preset=ghra-b0&policy=alg2-jsq"]
    {
        let one = frames(link, 1);
        assert_eq!(frames(link, 7)[0].1, one[0].1, "{link}");
        assert_eq!(frames(link, 900)[0].1, one[0].1, "{link}");
    }
}
