//! The page's one polite status line for screen readers: what the person's own action did to
//! the run (play, pause, step, back, a jump on the timeline, the end), with the numbers of the
//! moment it reached. It speaks only when the race changes phase or moment while stopped, never
//! on every frame of a run that plays.

use std::cell::Cell;
use std::rc::Rc;

use packlab_core::format::{format_mean, group_decimal, group_digits, moment};
use yew::prelude::*;

use crate::play::snapshot::{Phase, Snapshot};

/// What the person last asked of the race, so the line says "stepped" rather than "moved".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Intent {
    #[default]
    None,
    Step,
    Back,
    Seek,
}

/// A shared cell the playback's callbacks write their intent into.
pub type IntentCell = Rc<Cell<Intent>>;

#[derive(Properties, PartialEq)]
pub struct AnnouncerProps {
    pub snapshot: Rc<Snapshot>,
    pub intent: IntentCell,
    /// Something else to say (a recording started or saved): said once, when a new one comes.
    #[prop_or_default]
    pub note: Option<Rc<str>>,
}

/// `<p id="announcer" role="status">`, visually hidden: the last thing worth saying.
#[component]
pub fn Announcer(props: &AnnouncerProps) -> Html {
    let s = &props.snapshot;
    // The phase and moment last seen, and what was said about them.
    let last = use_mut_ref(|| (s.phase.clone(), s.now, String::new()));
    // The snapshot last seen: a new one after an action speaks even at the same moment (two
    // quick presses, ← then →, may publish only the second's).
    let seen = use_mut_ref(|| s.clone());
    let fresh = !Rc::ptr_eq(&seen.replace(s.clone()), s);
    {
        let mut last = last.borrow_mut();
        let (phase, now) = (&last.0, last.1);
        let running = s.phase == Phase::Running;
        let was_running = *phase == Phase::Running;
        let acted = fresh && props.intent.get() != Intent::None;
        let said = if running && !was_running {
            Some(format!("Playing from {}.", when(s)))
        } else if !running && (was_running || *phase != s.phase || now != s.now || acted) {
            let intent = props.intent.replace(Intent::None);
            let what = match (&s.phase, intent) {
                (Phase::Failed(message), _) => format!("Stopped at {}: {message}", when(s)),
                (Phase::Finished, _) if *phase != Phase::Finished => {
                    format!("The run reached the horizon, {}.", when(s))
                }
                (Phase::Ready, Intent::None) => format!("Reset to {}.", when(s)),
                (_, Intent::Step) => format!("Stepped to {}.", when(s)),
                (_, Intent::Back) => format!("Back to {}.", when(s)),
                (_, Intent::Seek) => format!("Went to {}.", when(s)),
                _ if was_running => format!("Paused at {}.", when(s)),
                _ => format!("Now at {}.", when(s)),
            };
            Some(format!("{what} {}", numbers(s)))
        } else {
            None
        };
        if let Some(said) = said {
            *last = (s.phase.clone(), s.now, said);
        } else {
            last.0 = s.phase.clone();
            last.1 = s.now;
        }
    }
    // A new note is said after the race's news of the same render.
    let note_seen = use_mut_ref(|| None::<Rc<str>>);
    if let Some(note) = &props.note
        && !note_seen.borrow().as_ref().is_some_and(|seen| Rc::ptr_eq(seen, note))
    {
        *note_seen.borrow_mut() = Some(note.clone());
        last.borrow_mut().2 = note.to_string();
    }
    html! {
        <p id="announcer" class="visually-hidden" role="status" aria-live="polite">{ last.borrow().2.clone() }</p>
    }
}

/// "slot 1 200" or "time 35.2000".
fn when(s: &Snapshot) -> String {
    format!("{} {}", s.model.time.prefix(), moment(s.now))
}

/// Each lane's numbers as the stats table shows them.
pub fn numbers(s: &Snapshot) -> String {
    let lanes: Vec<String> = s
        .lanes
        .iter()
        .map(|l| {
            let mut parts = Vec::new();
            if s.model.queue {
                parts.push(format!("waiting now {}", group_digits(l.queue)));
                parts.push(format!("mean waiting {}", format_mean(l.mean_queue, l.measured)));
            }
            if let Some(r) = l.mean_reward {
                parts.push(format!("reward per server {}", group_decimal(r, 1)));
            }
            if let (Some(t), Some(job_time)) = (l.mean_job_time, s.model.job_time) {
                parts.push(format!("mean {} {}", job_time.name, group_decimal(t, 2)));
            }
            format!("{}: {}", l.label, parts.join(", "))
        })
        .collect();
    lanes.join("; ")
}
