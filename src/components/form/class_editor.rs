//! The job classes of the multiserver-job model: the `classes` key as text, or a CSV upload.

use std::rc::Rc;

use packlab_core::ConfigError;
use packlab_core::models::msfq::JobClasses;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::components::form::LabControlsProps;
use crate::components::form::key_field::KeyField;
use crate::state::Action;

/// The change handler of a file input: reads the chosen file and dispatches what `parse` makes
/// of its text, or its error (prefixed "uploaded CSV:") as a notice on the error's key.
fn csv_upload(
    dispatch: &Callback<Action>,
    parse: impl Fn(&str) -> Result<Action, ConfigError> + 'static,
) -> Callback<Event> {
    let (dispatch, parse) = (dispatch.clone(), Rc::new(parse));
    Callback::from(move |e: Event| {
        let Some(input) = e.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<HtmlInputElement>(t).ok()) else {
            return;
        };
        let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
        let (dispatch, parse) = (dispatch.clone(), parse.clone());
        wasm_bindgen_futures::spawn_local(async move {
            let text = wasm_bindgen_futures::JsFuture::from(file.text()).await;
            let text = text.ok().and_then(|t| t.as_string()).unwrap_or_default();
            match parse(&text) {
                Ok(action) => dispatch.emit(action),
                Err(mut e) => {
                    e.message = format!("uploaded CSV: {}", e.message);
                    dispatch.emit(Action::Reject(e));
                }
            }
        });
    })
}

/// The job classes of the multiserver-job model: the `classes` key as text, and a CSV upload
/// (need, probability, mean_size per line) for tables such as Borg's (msfq-d6).
#[component]
pub fn ClassEditor(props: &LabControlsProps) -> Html {
    // The CSV becomes the `classes` key's text form; a bad table shows its message (naming the
    // line) under the field.
    let upload = csv_upload(&props.dispatch, |text| {
        JobClasses::from_csv(text).map(|classes| Action::Set { key: "classes".into(), value: classes.to_string() })
    });
    html! {
        <div class="classes">
            <KeyField name="classes" label="Job classes (need@probability@mean size, …)" kind="text"
                lab={props.lab.clone()} dispatch={props.dispatch.clone()} />
            <label class="field">
                <span>{ "…or upload a CSV (need, probability, mean_size)" }</span>
                <input type="file" id="classes-file" accept=".csv,text/csv" onchange={upload} />
            </label>
        </div>
    }
}
