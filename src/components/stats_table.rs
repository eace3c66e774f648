//! The stats table: one row per policy, numbers both visible and as `data-*` attributes for
//! tests and scripts.

use packlab_core::metrics::{Reason, VERDICT_RULE};
use packlab_core::model::{JobTime, RewardReference};
use yew::prelude::*;

use crate::charts::live::QUEUE_MARKERS;
use crate::components::swatch::Swatch;
use crate::play::snapshot::LaneStats;
use packlab_core::format::{format_mean, group_decimal, group_digits};

#[derive(Properties, PartialEq)]
pub struct StatsTableProps {
    pub lanes: Vec<LaneStats>,
    /// Time discarded before measuring, for the footnote.
    pub warmup: u64,
    /// "slots" or "time units".
    pub unit: &'static str,
    /// The per-job time the model measures, if any (a column and a `data-mean-*` attribute).
    #[prop_or_default]
    pub job_time: Option<JobTime>,
    /// Whether jobs wait in the model (without a queue, the queue columns go).
    #[prop_or(true)]
    pub queues: bool,
    /// Whether the model earns rewards (PG-AS): reward columns, with the ratios to these
    /// references where there are some.
    #[prop_or_default]
    pub rewards: bool,
    #[prop_or_default]
    pub reward: Option<RewardReference>,
}

/// The stats table inside `<div id="stats">`, which carries the reward references as
/// `data-greedy-reward` and `data-optimal-reward` where the model has them.
#[component]
pub fn StatsTable(props: &StatsTableProps) -> Html {
    let job_time = props.job_time;
    let unit = props.unit;
    let time_header = if unit == "slots" { "Slots".to_string() } else { "Time".to_string() };
    let columns = Columns {
        slotted: unit == "slots",
        job_time,
        queues: props.queues,
        rewards: props.rewards,
        reward: props.reward,
    };
    html! {
        // Reachable by the keyboard: on a narrow screen the table scrolls sideways in it.
        <div id="stats" tabindex="0" role="region" aria-label="Each lane's numbers"
            data-greedy-reward={props.reward.map(|r| r.greedy.to_string())}
            data-optimal-reward={props.reward.map(|r| r.optimal.to_string())}>
            <table>
                <thead>
                    <tr>
                        <th scope="col">{ "Policy" }</th>
                        <th scope="col" class="num time">{ time_header }</th>
                        if columns.queues {
                            <th scope="col" class="num">{ "Waiting now" }</th>
                            <th scope="col" class="num">{ "Mean waiting*" }</th>
                            <th scope="col" title={VERDICT_RULE}>{ "Verdict" }</th>
                        }
                        if columns.rewards {
                            <th scope="col" class="num" title="time average of R(t)/L">{ "Reward per server*" }</th>
                        }
                        if columns.reward.is_some() {
                            <th scope="col" class="num">{ "÷ U^(g)" }</th>
                            <th scope="col" class="num">{ "÷ U*" }</th>
                        }
                        <th scope="col" class="num">{ "Occupancy*" }</th>
                        if let Some(t) = job_time {
                            <th scope="col" class="num">{ format!("Mean {}*", t.name) }</th>
                        }
                    </tr>
                </thead>
                <tbody>
                    { for props.lanes.iter().map(|lane| row(lane, &columns)) }
                </tbody>
            </table>
            <p class="note">
                { format!(
                    "{}{}{}{}{}",
                    if props.warmup == 0 {
                        "* over the whole run (no warm-up)".to_string()
                    } else {
                        format!(
                            "* after the warm-up: the first {} {unit}, left of the dashed line, are not measured",
                            group_digits(props.warmup)
                        )
                    },
                    if props.queues { format!("; verdict: {VERDICT_RULE}") } else { String::new() },
                    job_time.map_or(String::new(), |t| format!("; {}: {}", t.name, t.definition)),
                    // E[T] weighs every class's mean: it has none until every class has a measured
                    // job (one still in the system counts with its time so far).
                    if job_time.is_some() && props.lanes.iter().any(|l| l.measured > 0 && l.mean_job_time.is_none()) {
                        "; – : some class has had no measured job yet"
                    } else {
                        ""
                    },
                    props.reward.map_or(String::new(), |r| format!(
                        "; U^(g) = {}: the global greedy's reward per server, U* = {}: the LP optimum",
                        group_decimal(r.greedy, 1), group_decimal(r.optimal, 1)
                    )),
                ) }
            </p>
        </div>
    }
}

/// Which columns the table has.
struct Columns {
    /// Whether time comes in slots (how the verdict names its next look).
    slotted: bool,
    job_time: Option<JobTime>,
    queues: bool,
    rewards: bool,
    reward: Option<RewardReference>,
}

/// The mean occupancy for people: "–" before anything was measured, or for a policy that
/// occupies no servers (PG-AS's upper bound, NaN).
fn occupancy(lane: &LaneStats) -> String {
    if lane.measured == 0 || !lane.mean_occupancy.is_finite() {
        "–".to_string()
    } else {
        format!("{:.1}%", 100.0 * lane.mean_occupancy)
    }
}

/// The verdict as the CLI words it ("–" where nothing waits), what it rests on or waits for
/// (the cell's tooltip), and, while undecided, when it looks next.
fn verdict(lane: &LaneStats, unit: &str) -> Html {
    let Some(judgement) = lane.verdict else { return html! { { "–" } } };
    let time = if unit == "slots" { "slot" } else { "time" };
    let waiting = match judgement.reason {
        Reason::Decided => None,
        _ if judgement.next.is_finite() => {
            Some(format!("next look at {time} {}", packlab_core::format::moment(judgement.next)))
        }
        _ => Some("a longer run may decide".to_string()),
    };
    html! { <>
        { judgement.verdict.word() }
        // The space keeps the words apart for screen readers and copy-paste; the style puts
        // the wait on its own line.
        if let Some(waiting) = waiting { { " " }<span class="verdict-wait">{ waiting }</span> }
    </> }
}

fn row(lane: &LaneStats, columns: &Columns) -> Html {
    let job_time = columns.job_time;
    // The attribute is named by the model's per-job time: data-mean-response, data-mean-delay.
    let mean = |key: &str| job_time.filter(|t| t.key == key).and(lane.mean_job_time).map(|m| m.to_string());
    let reward_now = lane.reward_series.last().map(|p| p.y.to_string());
    let ratio = |to: f64| lane.mean_reward.map_or_else(|| "–".to_string(), |r| format!("{:.3}", r / to));
    html! {
        <tr key={lane.policy.clone()}
            data-policy={lane.policy.clone()}
            data-time={lane.slot.to_string()}
            data-arrivals={lane.arrivals.to_string()}
            data-queue={lane.queue.to_string()}
            data-mean-queue={lane.mean_queue.to_string()}
            data-unstable={lane.verdict.map(|j| j.unstable().to_string())}
            data-verdict={lane.verdict.map(|j| j.verdict.word())}
            data-mean-occupancy={lane.mean_occupancy.to_string()}
            data-mean-response={mean("response")}
            data-mean-delay={mean("delay")}
            data-mean-reward={lane.mean_reward.map(|r| r.to_string())}
            data-reward-now={columns.rewards.then_some(reward_now).flatten()}
            data-stopped={lane.stopped.clone()}>
            <th scope="row">
                <Swatch color={lane.color} markers={QUEUE_MARKERS} />{ &lane.label }
                // A lane whose script failed stops here; the others run on.
                if let Some(why) = &lane.stopped {
                    <div class="lane-stopped" role="alert">{ format!("stopped: {why}") }</div>
                }
            </th>
            <td class="num time">{ group_digits(lane.slot) }</td>
            if columns.queues {
                <td class="num">{ group_digits(lane.queue) }</td>
                <td class="num">{ format_mean(lane.mean_queue, lane.measured) }</td>
                <td class="verdict" title={lane.verdict.map(|j| j.explain(if columns.slotted { "slot" } else { "time" }))}>
                    { verdict(lane, if columns.slotted { "slots" } else { "time units" }) }
                </td>
            }
            if columns.rewards {
                <td class="num">{ lane.mean_reward.map_or_else(|| "–".to_string(), |r| group_decimal(r, 1)) }</td>
            }
            if let Some(reference) = columns.reward {
                <td class="num">{ ratio(reference.greedy) }</td>
                <td class="num">{ ratio(reference.optimal) }</td>
            }
            // NaN where a policy holds no servers (PG-AS's upper bound).
            <td class="num">{ occupancy(lane) }</td>
            if job_time.is_some() {
                <td class="num">{ lane.mean_job_time.map_or_else(|| "–".to_string(), |m| group_decimal(m, 2)) }</td>
            }
        </tr>
    }
}
