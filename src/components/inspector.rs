//! The decision inspector: the decision picked, with the numbers its rule looked at, and for a
//! job, what every other lane decided about the same job (common random numbers: the lanes see
//! the same jobs).

use packlab_core::decisions::Decision;
use packlab_core::exercises::Difference;
use yew::prelude::*;

use crate::play::snapshot::Snapshot;
use packlab_core::format::moment;

/// What the inspector shows.
#[derive(Clone, Copy)]
pub enum Picked<'s> {
    Nothing,
    /// A decision of lane `.0`.
    Decision(usize, &'s Decision),
    /// Lane `.0`'s decision number `.1`, picked but not kept at this moment.
    Gone(usize, u64),
}

/// The picked decision with its numbers, and the same job in the other lanes.
pub fn inspector(s: &Snapshot, picked: Picked<'_>) -> Html {
    let time_word = s.model.time.prefix();
    let (l, d) = match picked {
        Picked::Decision(l, d) => (l, d),
        Picked::Nothing => {
            return html! {
                <aside class="inspector" id="inspector"><p class="hint">{ "No decision yet." }</p></aside>
            };
        }
        Picked::Gone(l, seq) => {
            let label = s.lanes.get(l).map_or("", |lane| lane.label.as_str());
            return html! {
                <aside class="inspector" id="inspector"><p class="hint">{ format!(
                    "{label}'s decision #{seq} is not among the decisions kept at {time_word} {}: the run is \
                     before it, or it was made before the last stretch. Pick another.", moment(s.now)) }</p></aside>
            };
        }
    };
    let lane = &s.lanes[l];
    let others: Vec<Html> = d
        .job
        .map(|job| {
            s.lanes
                .iter()
                .enumerate()
                .filter(|(o, _)| *o != l)
                .map(|(_, other)| {
                    let about: Vec<&Decision> = other.decisions.iter().filter(|x| x.job == Some(job)).collect();
                    let text = if about.is_empty() {
                        match other.decisions.first() {
                            Some(first) => format!(
                                "no decision about job {job} since {time_word} {} (its oldest kept): the job still \
                                 waited there, or was decided before",
                                moment(first.time)
                            ),
                            None => format!("no decision about job {job} kept"),
                        }
                    } else {
                        about
                            .iter()
                            .map(|x| format!("{time_word} {}: {} ({})", moment(x.time), x.what, x.why))
                            .collect::<Vec<_>>()
                            .join("; then ")
                    };
                    html! { <li data-lane={other.policy.clone()}><strong>{ &other.label }</strong>{ " → " }{ text }</li> }
                })
                .collect()
        })
        .unwrap_or_default();
    html! {
        <aside class="inspector" id="inspector" data-lane={lane.policy.clone()} data-seq={d.seq.to_string()}
            data-time={d.time.to_string()} data-job={d.job.map(|j| j.to_string())} data-action={d.action}>
            <h3>{ format!("{} · {} {}", lane.label, s.model.time.prefix(), moment(d.time)) }</h3>
            <p class="what">{ &d.what }</p>
            <p class="why"><span class="hint">{ "why: " }</span>{ &d.why }</p>
            if !d.facts.is_empty() {
                <table class="facts">
                    <caption class="visually-hidden">{ "What the rule looked at" }</caption>
                    { for d.facts.iter().map(|f| html! {
                        <tr data-fact={f.label.clone()}><th scope="row">{ &f.label }</th><td>{ &f.value }</td></tr>
                    }) }
                </table>
            }
            if !others.is_empty() {
                <h4>{ format!("Job {} in the other lanes", d.job.unwrap_or_default()) }</h4>
                <ul class="side-by-side">{ for others }</ul>
            }
        </aside>
    }
}

/// An exercise's first difference, as the inspector shows a decision: the learner's decision and
/// the reference's side by side, each with what it did, its rule and the numbers (its notes).
/// `time_word` is the model's ("slot", "time").
pub fn difference(d: &Difference, time_word: &str, reference: &str) -> Html {
    let side = |key: &'static str, title: String, decision: Option<&Decision>| {
        html! {
            <div class="side" data-side={key}>
                <h4>{ title }</h4>
                { match decision {
                    Some(d) => html! { <>
                        <p class="when">{ format!("{time_word} {}", moment(d.time)) }</p>
                        <p class="what">{ &d.what }</p>
                        <p class="why"><span class="hint">{ "why: " }</span>{ &d.why }</p>
                        if !d.facts.is_empty() {
                            <table class="facts">
                                <caption class="visually-hidden">{ format!("What {key} looked at") }</caption>
                                { for d.facts.iter().map(|f| html! {
                                    <tr data-fact={f.label.clone()}><th scope="row">{ &f.label }</th><td>{ &f.value }</td></tr>
                                }) }
                            </table>
                        }
                    </> },
                    None => html! { <p class="what">{ "no more decisions before the horizon" }</p> },
                } }
            </div>
        }
    };
    html! {
        <div class="exercise-sides">
            { side("yours", "Your script".to_string(), d.yours.as_ref()) }
            { side("reference", format!("Reference: {reference}"), d.reference.as_ref()) }
        </div>
    }
}
