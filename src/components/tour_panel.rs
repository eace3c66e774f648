//! A guided tour's panel: the step's text, a prediction to make, the run, what happened in the
//! run's own numbers, and the way on.

use std::rc::Rc;

use packlab_core::scenario::Scenario;
use packlab_core::stability::Finder;
use packlab_core::tours::LaneOutcome;
use yew::prelude::*;

use crate::components::exercise_panel::ExercisePanel;
use crate::play::snapshot::{Phase, Snapshot};
use crate::state::Action;
use crate::state::TourAt;

#[derive(Properties, PartialEq)]
pub struct TourPanelProps {
    pub at: TourAt,
    pub snapshot: Rc<Snapshot>,
    pub scenario: Rc<Scenario>,
    pub dispatch: Callback<Action>,
    pub on_play: Callback<()>,
    /// The stability map once it is done, for a step whose outcome is the map's.
    #[prop_or_default]
    pub map: Option<Rc<Finder>>,
    /// The learner's script, on an exercise's step, once applied.
    #[prop_or_default]
    pub attempt: Option<String>,
}

/// A guided tour's step: what to look at, a prediction to make, the run, then what happened,
/// stated with the run's own numbers, and the way on.
#[component]
pub fn TourPanel(props: &TourPanelProps) -> Html {
    let at = props.at;
    let (tour, step) = (at.tour, at.step());
    let count = tour.steps.len();
    let answer = use_state(|| None::<usize>);
    let snapshot = &props.snapshot;
    let from_race = (snapshot.phase == Phase::Finished).then(|| {
        let lanes: Vec<LaneOutcome> = snapshot
            .lanes
            .iter()
            .map(|l| LaneOutcome {
                policy: l.policy.clone(),
                label: l.label.clone(),
                mean_queue: l.mean_queue,
                verdict: l.verdict.map(|j| j.verdict),
                normalized_reward: l.mean_reward,
                greedy_reward: snapshot.reward.map(|r| r.greedy),
                optimal_reward: snapshot.reward.map(|r| r.optimal),
                recovery: l.recovery.to_vec(),
                stretches: l.stretches.to_vec(),
            })
            .collect();
        step.check.state(&lanes, &props.scenario)
    });
    // A step about the stability map is stated when the map is done, not the race.
    // An exercise's step is judged by its own check of the learner's script, not by the race.
    let exercise = step.check.exercise().zip(props.scenario.scripting());
    let outcome = if step.check.reads_map() {
        props.map.as_ref().map(|map| step.check.state_map(map))
    } else if exercise.is_some() {
        None
    } else {
        from_race
    };
    let go = |k: usize| props.dispatch.reform(move |_: MouseEvent| Action::TourStep(k));
    let leave = props.dispatch.reform(|_: MouseEvent| Action::LeaveTour);
    let play = props.on_play.reform(|_: MouseEvent| ());
    let can_play = matches!(snapshot.phase, Phase::Ready | Phase::Paused);
    // The prediction is recorded when the run ends, for the tour's closing summary.
    let right = match (&outcome, step.question, *answer) {
        (Some(Ok(_)), Some(q), Some(a)) => Some(a == q.answer),
        _ => None,
    };
    {
        let dispatch = props.dispatch.clone();
        let ended = outcome.is_some();
        use_effect_with((ended, right), move |&(ended, right)| {
            if ended {
                dispatch.emit(Action::TourPredicted { step: at.step, right });
            }
        });
    }
    html! {
        <section class="tour" id="tour" aria-label="Guided tour" data-tour={tour.id} data-step={(at.step + 1).to_string()}>
            <p class="tour-head">
                <span class="figure">{ format!("Tour · {}", tour.paper) }</span>
                <strong>{ tour.title }</strong>
                <span class="hint">{ format!("step {} of {count}", at.step + 1) }</span>
            </p>
            <p>{ step.text }</p>
            if let Some((exercise, scripting)) = exercise {
                <ExercisePanel {exercise} {scripting} time_word={snapshot.model.time.prefix()}
                    attempt={props.attempt.clone()} dispatch={props.dispatch.clone()} />
            }
            if let Some(q) = step.question {
                <fieldset class="tour-question" id="tour-question">
                    <legend>{ q.prompt }</legend>
                    { for q.choices.iter().enumerate().map(|(i, choice)| {
                        let pick = { let answer = answer.clone(); Callback::from(move |_: Event| answer.set(Some(i))) };
                        html! {
                            <label class="check">
                                <input type="radio" name="tour-answer" value={i.to_string()}
                                    checked={*answer == Some(i)} onchange={pick} />
                                <span>{ *choice }</span>
                            </label>
                        }
                    }) }
                </fieldset>
            }
            if can_play {
                <p><button type="button" id="tour-play" class="primary" onclick={play}>
                    { if snapshot.slot == 0 { "Play this step" } else { "Play on" } }</button></p>
            }
            { match outcome {
                Some(Ok((holds, statement))) => {
                    let verdict = match (step.question, *answer) {
                        (Some(q), Some(a)) if a == q.answer => format!("You predicted {}: right. ", q.choices[a]),
                        (Some(q), Some(a)) => format!("You predicted {}; the run says {}. ", q.choices[a], q.choices[q.answer]),
                        _ => String::new(),
                    };
                    html! { <>
                        <p class="tour-check" id="tour-check" role="status" data-holds={holds.map_or("undecided".to_string(), |h| h.to_string())}>
                            { verdict }{ statement }
                            { match holds {
                                Some(true) => "",
                                Some(false) => " (not what this step expects: the scenario was changed)",
                                None => " (not yet decided at this horizon: the verdict's tooltip says what it waits for)",
                            } }
                        </p>
                        if !step.after.is_empty() {
                            <p class="tour-after" id="tour-after">{ step.after }</p>
                        }
                    </> }
                }
                Some(Err(e)) => html! { <p class="tour-check" id="tour-check" role="status">{ e.message }</p> },
                None => html! {},
            } }
            <p class="tour-nav">
                <button type="button" id="tour-back" onclick={go(at.step.saturating_sub(1))} disabled={at.step == 0}>{ "Back" }</button>
                if at.step + 1 < count {
                    <button type="button" id="tour-next" onclick={go(at.step + 1)}>{ "Next step" }</button>
                }
                <button type="button" id="tour-leave" onclick={leave}>
                    { if at.step + 1 == count { "Finish the tour" } else { "Leave the tour" } }
                </button>
            </p>
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct TourSummaryProps {
    pub tour: &'static packlab_core::tours::Tour,
    /// Each step's prediction: right, wrong, or none made.
    pub predictions: Vec<Option<bool>>,
    pub dispatch: Callback<Action>,
}

/// The end of a tour: how many predictions were right, and what each step asked and showed.
#[component]
pub fn TourSummary(props: &TourSummaryProps) -> Html {
    let tour = props.tour;
    let asked: Vec<(usize, &packlab_core::tours::Question)> =
        tour.steps.iter().enumerate().filter_map(|(k, s)| s.question.as_ref().map(|q| (k, q))).collect();
    let right = asked.iter().filter(|(k, _)| props.predictions.get(*k) == Some(&Some(true))).count();
    // An exercise's tour asks no predictions: its step's own check was the verdict.
    let score = match (asked.len(), tour.steps.iter().filter(|s| s.check.exercise().is_some()).count()) {
        (0, 0) => "This tour asked no predictions.".to_string(),
        (0, _) => "This tour asked no predictions: its exercise was judged by Check, on its step.".to_string(),
        (n, _) => format!("{right} of {n} predictions right."),
    };
    let close = props.dispatch.reform(|_: MouseEvent| Action::CloseTourSummary);
    let again = props.dispatch.reform(move |_: MouseEvent| Action::StartTour(tour.id));
    html! {
        <section class="tour" id="tour-summary" aria-labelledby="tour-summary-title" data-right={right.to_string()}
            data-asked={asked.len().to_string()}>
            <h2 id="tour-summary-title">{ format!("Tour finished: {}", tour.title) }</h2>
            <p role="status">{ score }</p>
            <ol>
                { for asked.iter().map(|&(k, q)| {
                    let said = match props.predictions.get(k).copied().flatten() {
                        Some(true) => "right".to_string(),
                        Some(false) => format!("not quite: the run said {}", q.choices[q.answer]),
                        None => format!("no prediction made; the run said {}", q.choices[q.answer]),
                    };
                    html! { <li>{ format!("Step {}: {} {said}.", k + 1, q.prompt) }</li> }
                }) }
            </ol>
            <p class="tour-nav">
                <button type="button" id="tour-again" onclick={again}>{ "Take the tour again" }</button>
                <button type="button" id="tour-summary-close" class="primary" onclick={close}>{ "Explore freely" }</button>
            </p>
        </section>
    }
}
