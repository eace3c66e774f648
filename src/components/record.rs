//! The *Record* control: records the visible lanes and charts as a WebM video for slides
//! ([`crate::dom::recorder`]), and saves it when stopped, named after the scenario's link. What
//! it did is said through the page's status line (the announcer).

use yew::prelude::*;

use crate::dom::page::current_link;
use crate::dom::recorder::{Recording, Saved, video_filename};
use crate::dom::workers::now_ms;

/// At most this many characters of the link go into the file name (the whole link is in the
/// video's last frame).
const NAME_CHARS: usize = 80;

#[derive(Properties, PartialEq)]
pub struct RecordProps {
    /// The scenario's link (its query), for the file name and the last frame.
    pub query: String,
    /// Says something through the page's status line.
    pub on_announce: Callback<String>,
}

/// What the control is doing.
#[derive(Clone, Copy, PartialEq)]
enum Stage {
    Idle,
    Recording,
    /// Stopped; the last frame is being recorded and the file written.
    Saving,
}

/// A Record / Stop button and what the last recording saved.
#[component]
pub fn Record(props: &RecordProps) -> Html {
    let stage = use_state_eq(|| Stage::Idle);
    let status = use_state(String::new);
    let recording = use_mut_ref(|| None::<(Recording, f64)>);
    let query = use_mut_ref(String::new);
    query.borrow_mut().clone_from(&props.query);
    let onclick = {
        let (stage, status, recording, query, announce) =
            (stage.clone(), status.clone(), recording.clone(), query.clone(), props.on_announce.clone());
        Callback::from(move |_: MouseEvent| match *stage {
            Stage::Idle => match Recording::start() {
                Ok(r) => {
                    *recording.borrow_mut() = Some((r, now_ms()));
                    stage.set(Stage::Recording);
                    status.set(String::new());
                    announce.emit("Recording the lanes and charts. Press Stop recording to save the video.".into());
                }
                Err(message) => {
                    status.set(message.clone());
                    announce.emit(message);
                }
            },
            Stage::Recording => {
                let Some((r, started)) = recording.borrow_mut().take() else { return };
                stage.set(Stage::Saving);
                announce.emit("Stopping: adding the link, then saving the video.".into());
                let query = query.borrow().clone();
                let (stage, status, announce) = (stage.clone(), status.clone(), announce.clone());
                r.stop(current_link(&query), video_filename(&query, NAME_CHARS), started, move |saved| {
                    let said = said(&saved);
                    stage.set(Stage::Idle);
                    status.set(said.clone());
                    announce.emit(said);
                });
            }
            Stage::Saving => {}
        })
    };
    // Leaving the lab while recording discards the recording (Recording's Drop stops it).
    {
        let recording = recording.clone();
        use_effect_with((), move |_| move || drop(recording.borrow_mut().take()));
    }
    let (label, pressed) = match *stage {
        Stage::Idle => ("● Record", false),
        Stage::Recording => ("■ Stop recording", true),
        Stage::Saving => ("Saving…", true),
    };
    html! {
        <div class="record">
            // Not `disabled` while saving: a disabled button drops the keyboard focus to <body>.
            <button type="button" id="record" {onclick} aria-pressed={pressed.to_string()}
                aria-disabled={(*stage == Stage::Saving).then_some("true")}
                title="Record the lanes and charts as a WebM video, at the speed they play">{ label }</button>
            <span id="record-status" class="hint">{ (*status).clone() }</span>
        </div>
    }
}

/// What a finished recording says.
fn said(saved: &Result<Saved, String>) -> String {
    match saved {
        Ok(s) => format!("Saved {} ({:.1} s, {:.0} KB).", s.filename, s.seconds, s.bytes / 1024.0),
        Err(message) => format!("The video was not saved: {message}"),
    }
}
