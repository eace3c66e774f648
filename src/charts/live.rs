//! What each live chart plots of a snapshot: its curves, reference lines and axes, as a
//! packlab-plot [`Chart`] that the canvas, the SVG export and the CLI draw alike.

use packlab_core::model::LoadMark;
use packlab_plot::{Band, ChangeMarks, Chart, Curve, Ink, LegendAt, Mark, Stroke, recovery_bands};

use crate::charts::kind::ChartKind;
use crate::play::snapshot::Snapshot;

/// Whether trajectories mark their points (no: ~1000 points make a line).
pub const QUEUE_MARKERS: bool = false;

/// The chart `kind` of a snapshot. `marks` are the theory's load marks (in units of the load
/// knob; those below 1 are fractions of the capacity and drawn on the occupancy chart), `load`
/// the offered fraction of the capacity, `changes` the scenario's changes (a dotted line at each;
/// the queue charts shade each lane's band until it drained back).
pub fn chart<'a>(
    kind: ChartKind,
    snapshot: &'a Snapshot,
    marks: &'a [LoadMark],
    load: f64,
    changes: &'a ChangeMarks,
) -> Chart<'a> {
    let x_range = Some((0.0, snapshot.slot.max(1) as f64));
    // The end of the warm-up, unlabelled (the stats footnote explains it): a label at the top
    // would run into the legend once the warm-up is a small part of the x range.
    let warmup =
        (snapshot.slot > snapshot.warmup && snapshot.warmup > 0).then(|| Mark::new(snapshot.warmup as f64, ""));
    // Each change the run has reached, dotted, the legend saying what they were.
    let x_marks = warmup.into_iter().chain(changes.marks(snapshot.now, true)).collect();
    let x_label = snapshot.model.time.axis();
    // The legend goes under the plot, off the data, with the reference lines in it.
    let base = Chart { x_label, x_marks, x_range, legend: LegendAt::Below, ..Chart::default() };
    match kind {
        // The multiserver-job figures (MSFQ Fig. 1) plot n(t), every job in the system; the
        // other models plot the waiting jobs Q(t).
        ChartKind::Queue if snapshot.lanes.iter().any(|l| !l.in_system_series.is_empty()) => Chart {
            title: "Jobs in the system n(t)",
            y_label: "jobs waiting or running",
            curves: snapshot
                .lanes
                .iter()
                .map(|l| Curve {
                    label: &l.label,
                    color: Ink::Policy(l.color),
                    points: &l.in_system_series,
                    markers: QUEUE_MARKERS,
                    stroke: Stroke::Solid,
                })
                .collect(),
            bands: bands(snapshot),
            ..base
        },
        ChartKind::Queue => Chart {
            title: "Waiting jobs Q(t)",
            y_label: "waiting jobs",
            curves: snapshot
                .lanes
                .iter()
                .map(|l| Curve {
                    label: &l.label,
                    color: Ink::Policy(l.color),
                    points: &l.queue_series,
                    markers: QUEUE_MARKERS,
                    stroke: Stroke::Solid,
                })
                .collect(),
            bands: bands(snapshot),
            ..base
        },
        ChartKind::Occupancy => Chart {
            title: "Occupancy, running average",
            y_label: "occupied fraction",
            curves: snapshot
                .lanes
                .iter()
                .map(|l| Curve {
                    label: &l.label,
                    color: Ink::Policy(l.color),
                    points: &l.occupancy_series,
                    markers: false,
                    stroke: Stroke::Solid,
                })
                .collect(),
            // Offered load (what a stable policy carries) and, where the load knob is a
            // fraction of the capacity (PG-RR's α), the fractions the papers guarantee; the
            // work-conservation bound is the top of the axis.
            y_marks: std::iter::once(Mark::new(load, "offered load"))
                .chain(
                    marks
                        .iter()
                        .filter(|m| snapshot.model.load.is_utilization && m.load < 1.0)
                        .map(|m| Mark::new(m.load, &m.label)),
                )
                .collect(),
            y_range: Some((0.0, 1.0)),
            ..base
        },
        ChartKind::JobTime => Chart {
            title: snapshot.job_time().map_or("", |t| t.title),
            y_label: snapshot.job_time().map_or("", |t| t.name),
            curves: snapshot
                .lanes
                .iter()
                .map(|l| Curve {
                    label: &l.label,
                    color: Ink::Policy(l.color),
                    points: &l.job_time_series,
                    markers: false,
                    stroke: Stroke::Solid,
                })
                .collect(),
            // The analysis (SPEC 5.6) that the running means should settle near.
            y_marks: snapshot
                .lanes
                .iter()
                .filter_map(|l| {
                    l.analysis.as_ref().map(|(value, label)| Mark::inked(*value, label, Ink::Policy(l.color)))
                })
                .collect(),
            ..base
        },
        ChartKind::ClassJobTime => Chart {
            title: snapshot.job_time().map_or("", |t| t.bin_title),
            y_label: snapshot.job_time().map_or("", |t| t.name),
            curves: snapshot
                .bin_labels
                .iter()
                .zip(&snapshot.bin_job_time_series)
                .enumerate()
                .map(|(bin, (label, points))| Curve {
                    label,
                    color: Ink::Class(bin),
                    points,
                    markers: false,
                    stroke: Stroke::Solid,
                })
                .collect(),
            y_marks: snapshot
                .bin_analysis
                .iter()
                .enumerate()
                .map(|(bin, (value, label))| Mark::inked(*value, label, Ink::Class(bin)))
                .collect(),
            ..base
        },
        ChartKind::Bins if !snapshot.queues() => Chart {
            title: "Jobs in service per type",
            y_label: "jobs in service",
            curves: snapshot
                .bin_labels
                .iter()
                .zip(&snapshot.bin_series)
                .enumerate()
                .map(|(bin, (label, points))| Curve {
                    label,
                    color: Ink::Class(bin),
                    points,
                    markers: false,
                    stroke: Stroke::Solid,
                })
                .collect(),
            ..base
        },
        ChartKind::Reward => Chart {
            title: "Reward per server R(t)/L",
            y_label: "reward rate per server",
            curves: snapshot
                .lanes
                .iter()
                .map(|l| Curve {
                    label: &l.label,
                    color: Ink::Policy(l.color),
                    points: &l.reward_series,
                    markers: false,
                    stroke: Stroke::Solid,
                })
                .collect(),
            // What DRA tends to as L grows (U^(g)), and what no policy can beat (U*).
            y_marks: snapshot
                .reward
                .iter()
                .flat_map(|r| [Mark::new(r.greedy, "U^(g) greedy"), Mark::new(r.optimal, "U* LP optimum")])
                .collect(),
            ..base
        },
        ChartKind::Bins => Chart {
            title: "Waiting jobs per bin",
            y_label: "waiting jobs",
            curves: snapshot
                .bin_labels
                .iter()
                .zip(&snapshot.bin_series)
                .enumerate()
                // Bins that never held a job would only crowd the legend.
                .filter(|(_, (_, points))| points.iter().any(|p| p.y > 0.0))
                .map(|(bin, (label, points))| Curve {
                    label,
                    color: Ink::Class(bin),
                    points,
                    markers: false,
                    stroke: Stroke::Solid,
                })
                .collect(),
            ..base
        },
    }
}

/// The marks of `setup`'s changes.
pub fn change_marks(setup: &packlab_core::scenario::Setup) -> ChangeMarks {
    ChangeMarks::of(&setup.scenario.any().window().changes)
}

/// Each lane's bands, from each change it recovered from (RES-94: the queue the chart plots,
/// n(t) where the model's figures plot it).
fn bands(snapshot: &Snapshot) -> Vec<Band<'static>> {
    snapshot.lanes.iter().flat_map(|l| recovery_bands(&l.recovery, Ink::Policy(l.color), snapshot.now)).collect()
}

#[cfg(test)]
mod tests {
    use packlab_core::scenario::Setup;

    use super::*;
    use crate::play::race::Race;
    use crate::play::snapshot::Phase;

    #[test]
    fn the_charts_follow_the_race() {
        let none = ChangeMarks::default();
        let mut setup = Setup::from_preset("pgrr-a1").unwrap();
        setup.policies.truncate(2);
        setup.scenario.set("horizon", "5000").unwrap();
        setup.scenario.set("warmup", "1000").unwrap();
        setup.scenario.set("sample_every", "64").unwrap();
        let mut race = Race::new(&setup, 64);
        race.advance(512, f64::INFINITY, || 0.0).unwrap();
        let marks = setup.scenario.marks();
        let snapshot = race.snapshot(Phase::Running, 0);
        let queue = chart(ChartKind::Queue, &snapshot, &marks, 0.7, &none);
        assert_eq!(queue.x_range, Some((0.0, 512.0)));
        assert!(queue.x_marks.is_empty(), "no warm-up line before the warm-up ends");
        let labels: Vec<_> = queue.curves.iter().map(|c| (c.label, c.color)).collect();
        assert_eq!(labels, [("VQS (J=2)", Ink::Policy(0)), ("BF-J/S", Ink::Policy(1))]);
        let occupancy = chart(ChartKind::Occupancy, &snapshot, &marks, 0.7, &none);
        let y: Vec<_> = occupancy.y_marks.iter().map(|m| m.value).collect();
        assert_eq!(y, [0.7, 0.5, 2.0 / 3.0]);
        race.advance(1_024, f64::INFINITY, || 0.0).unwrap();
        let snapshot = race.snapshot(Phase::Running, 0);
        assert_eq!(chart(ChartKind::Queue, &snapshot, &marks, 0.7, &none).x_marks[0].value, 1_000.0);
        let bins = chart(ChartKind::Bins, &snapshot, &marks, 0.7, &none);
        assert!(bins.curves.iter().all(|c| c.label.starts_with("VQ")));
    }

    #[test]
    fn multiserver_charts_plot_n_and_per_class_response_with_the_analysis() {
        let none = ChangeMarks::default();
        let mut setup = Setup::from_preset("msfq-d1").unwrap();
        setup.scenario.set("horizon", "4000").unwrap();
        setup.scenario.set("warmup", "500").unwrap();
        setup.scenario.set("sample_every", "10").unwrap();
        let mut race = Race::new(&setup, 256);
        race.advance(4_000, f64::INFINITY, || 0.0).unwrap();
        let marks = setup.scenario.marks();
        // Focus on MSFQ(31), the second lane.
        let snapshot = race.snapshot(Phase::Running, 1);
        // Every chart but the reward chart, which is PG-AS's.
        let shown: Vec<ChartKind> = ChartKind::ALL.into_iter().filter(|k| k.applies(&snapshot)).collect();
        assert_eq!(
            shown,
            [ChartKind::Queue, ChartKind::Occupancy, ChartKind::JobTime, ChartKind::ClassJobTime, ChartKind::Bins]
        );
        let queue = chart(ChartKind::Queue, &snapshot, &marks, 0.9, &none);
        assert_eq!(queue.title, "Jobs in the system n(t)");
        // n(t) counts running jobs too, so it is never below Q(t).
        let lane = &snapshot.lanes[1];
        assert!(lane.in_system_series.iter().zip(lane.queue_series.iter()).all(|(n, q)| n.y >= q.y));
        let classes = chart(ChartKind::ClassJobTime, &snapshot, &marks, 0.9, &none);
        let labels: Vec<_> = classes.curves.iter().map(|c| c.label).collect();
        assert_eq!(labels, ["1 core", "32 cores"]);
        assert!(classes.curves.iter().all(|c| !c.points.is_empty() && c.points.iter().all(|p| p.x > 500.0)));
        // The analysis of MSFQ(31) at λ = 7.5 per class (SPEC 5.6): E[T^(1)] and E[T^(32)].
        assert_eq!(classes.y_marks.len(), 2);
        assert!(classes.y_marks.iter().all(|m| m.value > 1.0 && m.value < 200.0), "{:?}", classes.y_marks);
        // The PG-RR page has no response charts.
        let pgrr = Race::new(&Setup::from_preset("pgrr-a1").unwrap(), 64).snapshot(Phase::Ready, 0);
        assert!(!ChartKind::ClassJobTime.applies(&pgrr) && !ChartKind::JobTime.applies(&pgrr));
    }

    #[test]
    fn a_loss_system_plots_its_reward_against_the_bounds_not_a_queue() {
        let none = ChangeMarks::default();
        let mut setup = Setup::from_preset("pgas-c4").unwrap();
        setup.scenario.set("servers", "24").unwrap();
        setup.scenario.set("horizon", "5").unwrap();
        let mut race = Race::new(&setup, 64);
        race.advance(5, f64::INFINITY, || 0.0).unwrap();
        let marks = setup.scenario.marks();
        let snapshot = race.snapshot(Phase::Finished, 0);
        let shown: Vec<ChartKind> = ChartKind::ALL.into_iter().filter(|k| k.applies(&snapshot)).collect();
        assert_eq!(shown, [ChartKind::Reward, ChartKind::Occupancy, ChartKind::Bins]);
        let reward = chart(ChartKind::Reward, &snapshot, &marks, 0.8, &none);
        let lines: Vec<(f64, &str)> = reward.y_marks.iter().map(|m| (m.value, m.label)).collect();
        assert!((lines[0].0 - 3196.0 / 3.0).abs() < 1e-6 && (lines[1].0 - 1236.0).abs() < 1e-4, "{lines:?}");
        assert!(reward.curves.iter().all(|c| !c.points.is_empty()));
        assert_eq!(chart(ChartKind::Bins, &snapshot, &marks, 0.8, &none).title, "Jobs in service per type");
        // α is not a fraction of the capacity: the occupancy chart carries no guarantee marks.
        assert_eq!(chart(ChartKind::Occupancy, &snapshot, &marks, 0.8, &none).y_marks.len(), 1);
    }

    /// A run's changes on its charts (issue 54): a dotted line at each change reached, the
    /// legend saying what they were, and each lane's band shaded from its change until its
    /// queue drained back into it, as the recovery table has it.
    #[test]
    fn changes_are_marked_and_each_lane_s_band_shaded() {
        let setup = crate::state::Lab::from_link(
            "?preset=pgrr-a1&policy=bf-js,vqs&load=0.5&horizon=60000&change=10000%3Aload%3D0.85%3B30000%3Aload%3D0.5",
        )
        .setup
        .as_ref()
        .clone();
        let changes = change_marks(&setup);
        let marks = setup.scenario.marks();
        let mut race = Race::new(&setup, 64);
        race.advance(20_000, f64::INFINITY, || 0.0).unwrap();
        let snapshot = race.snapshot(Phase::Running, 0);
        let queue = chart(ChartKind::Queue, &snapshot, &marks, 0.5, &changes);
        let dotted: Vec<_> = queue.x_marks.iter().filter(|m| m.stroke == Some(Stroke::Dotted)).collect();
        assert_eq!(dotted.len(), 1, "only the change reached so far");
        assert_eq!(dotted[0].value, 10_000.0);
        assert_eq!(dotted[0].label, packlab_plot::CHANGE_LABEL);
        race.advance(60_000, f64::INFINITY, || 0.0).unwrap();
        let snapshot = race.snapshot(Phase::Finished, 0);
        let queue = chart(ChartKind::Queue, &snapshot, &marks, 0.5, &changes);
        let at: Vec<f64> = queue.x_marks.iter().filter(|m| m.stroke == Some(Stroke::Dotted)).map(|m| m.value).collect();
        assert_eq!(at, [10_000.0, 30_000.0]);
        // Two lanes, two changes: a band each, in the lane's colour, from the recovery table.
        assert_eq!(queue.bands.len(), 4);
        for (lane, bands) in snapshot.lanes.iter().zip(queue.bands.chunks(2)) {
            for (r, band) in lane.recovery.iter().zip(bands) {
                assert_eq!(band.ink, Ink::Policy(lane.color));
                assert_eq!(band.y, (r.band[0], r.band[1]));
                let end = r.drain.map_or(band.x.1, |d| r.at as f64 + d);
                assert_eq!(band.x, (r.at as f64, end));
            }
        }
        // After the return, BF-J/S's band ends where its queue drained, before the horizon.
        let bfjs = &snapshot.lanes[0].recovery[1];
        assert!(bfjs.drain.is_some_and(|d| d > 0.0 && d < 30_000.0), "{bfjs:?}");
        assert!(queue.bands[1].x.1 < 60_000.0);
        // The occupancy chart marks the changes but shades nothing: its bands are the queue's.
        let occupancy = chart(ChartKind::Occupancy, &snapshot, &marks, 0.5, &changes);
        assert_eq!(occupancy.x_marks.iter().filter(|m| m.stroke == Some(Stroke::Dotted)).count(), 2);
        assert!(occupancy.bands.is_empty());
        let words = crate::charts::describe::describe(&queue);
        assert!(
            words.contains("Dotted: a change of the run, at slot 10\u{202f}000 and 30\u{202f}000.")
                && words.contains("Shaded: a queue's band until back in it"),
            "{words}"
        );
    }
}
