//! An exercise in a tour step: write the policy in the script editor, then check it. The core's
//! checker races the script against the reference on the step's arrivals; the page only runs
//! it, a piece per task so the page keeps responding, and shows its verdict: a pass, or the
//! first decision that differs, the learner's beside the reference's as the inspector shows
//! decisions. The learner's script is the lab's (`attempt=` in its link), so a link shares it.

use packlab_core::exercises::{Checker, Exercise, Verdict};
use packlab_core::script::Scripting;
use yew::prelude::*;

use crate::components::form::script_editor::ScriptEditor;
use crate::components::inspector;
use crate::dom::focus::focus_first_later;
use crate::state::Action;

#[derive(Properties, PartialEq)]
pub struct ExercisePanelProps {
    pub exercise: &'static Exercise,
    pub scripting: &'static Scripting,
    /// The model's word for a moment ("slot", "time").
    pub time_word: &'static str,
    /// The learner's script once applied (the lab keeps it, and its link carries it); the
    /// skeleton until then.
    #[prop_or_default]
    pub attempt: Option<String>,
    pub dispatch: Callback<Action>,
}

/// Where a check is.
#[derive(Clone, PartialEq)]
enum Checking {
    Idle,
    /// Running: how far, from 0 to 1.
    Running(f64),
    Done(Result<Verdict, String>),
}

/// The exercise's buttons, its status (a live region) and its verdict.
#[component]
pub fn ExercisePanel(props: &ExercisePanelProps) -> Html {
    let exercise = props.exercise;
    // The learner's script: the skeleton until they apply their own.
    let attempt = props.attempt.clone().unwrap_or_else(|| exercise.skeleton.to_string());
    let editing = use_state(|| false);
    let checking = use_state(|| Checking::Idle);
    // Labelled on the exercise's own scenario (its link's), whatever the form shows now.
    let reference = use_memo((), move |()| {
        packlab_core::link::scenario_of(exercise.link)
            .map_or_else(|_| exercise.reference.to_string(), |s| exercise.reference_label(&s))
    });

    let write = {
        let editing = editing.clone();
        Callback::from(move |_: MouseEvent| editing.set(true))
    };
    let on_close = {
        let editing = editing.clone();
        Callback::from(move |()| editing.set(false))
    };
    let on_apply = {
        let (editing, checking, dispatch) = (editing.clone(), checking.clone(), props.dispatch.clone());
        Callback::from(move |source: String| {
            dispatch.emit(Action::Attempt(source));
            checking.set(Checking::Idle);
            editing.set(false);
        })
    };
    let check = {
        let (attempt, checking) = (attempt.clone(), checking.clone());
        Callback::from(move |_: MouseEvent| {
            if matches!(*checking, Checking::Running(_)) {
                return;
            }
            let source = attempt.clone();
            let checking = checking.clone();
            checking.set(Checking::Running(0.0));
            wasm_bindgen_futures::spawn_local(async move {
                let verdict = run(exercise, &source, &checking).await;
                checking.set(Checking::Done(verdict));
                focus_first_later(vec!["#exercise-result".into()]);
            });
        })
    };
    let running = matches!(*checking, Checking::Running(_));
    let status = match &*checking {
        Checking::Idle => String::new(),
        Checking::Running(done) => format!("Checking… {:.0}%", done * 100.0),
        // The core's sentence, the one `packlab exercise --check` prints.
        Checking::Done(Ok(verdict)) => verdict.sentence(&reference, props.time_word),
        Checking::Done(Err(message)) => packlab_core::exercises::could_not_start(message),
    };
    let outcome = match &*checking {
        Checking::Done(Ok(Verdict::Pass { .. })) => "pass",
        Checking::Done(Ok(Verdict::Differs(_))) => "differs",
        Checking::Done(_) => "stopped",
        _ => "",
    };
    html! {
        <div class="exercise" id="exercise" data-exercise={exercise.id}>
            <p class="exercise-buttons">
                <button type="button" id="exercise-write" onclick={write}>{ "Write it" }</button>
                <button type="button" id="exercise-check" class="primary" onclick={check} disabled={running}>
                    { "Check" }</button>
            </p>
            <p id="exercise-status" role="status" aria-live="polite">{ status }</p>
            if let Checking::Done(Ok(verdict)) = &*checking {
                <section class="inspector exercise-result" id="exercise-result" tabindex="-1"
                    aria-labelledby="exercise-result-title" data-outcome={outcome}>
                    { match verdict {
                        Verdict::Differs(d) => html! { <>
                            <h3 id="exercise-result-title">{ format!("First difference: decision {}", d.decision) }</h3>
                            { inspector::difference(d, props.time_word, &reference) }
                        </> },
                        Verdict::Pass { .. } => html! {
                            <h3 id="exercise-result-title">{ "Pass: your script makes the reference's decisions" }</h3>
                        },
                        Verdict::Stopped { .. } => html! {
                            <h3 id="exercise-result-title">{ "Your script stopped" }</h3>
                        },
                    } }
                </section>
            }
            if *editing {
                <ScriptEditor lane={0} label={String::new()} source={attempt.clone()} scripting={props.scripting}
                    {on_apply} {on_close} starters={false}
                    heading={AttrValue::from(format!("Exercise: write {reference}"))}
                    applies={AttrValue::Static("The script compiles; Apply keeps it for Check.")} />
            }
        </div>
    }
}

/// Runs the core's check of `source` a piece at a time, telling `checking` how far it is and
/// giving the page a task between pieces.
async fn run(
    exercise: &'static Exercise,
    source: &str,
    checking: &UseStateHandle<Checking>,
) -> Result<Verdict, String> {
    let scenario = packlab_core::link::scenario_of(exercise.link).map_err(|e| e.to_string())?;
    let mut checker = Checker::new(exercise, &scenario, source).map_err(|e| e.message)?;
    let piece = checker.piece();
    loop {
        if let Some(verdict) = checker.advance(piece) {
            return Ok(verdict.clone());
        }
        checking.set(Checking::Running(checker.progress()));
        next_task().await;
    }
}

/// Resolves in the page's next task, after it has drawn and handled input.
async fn next_task() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(window) = web_sys::window() {
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}
