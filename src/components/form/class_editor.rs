//! A key whose value is a table (the job classes of the multiserver-job model): the key as
//! text, and the file its model reads it from (a CSV), uploaded.

use std::rc::Rc;

use packlab_core::ConfigError;
use packlab_core::keys::KeyInfo;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::components::form::key_field::KeyField;
use crate::state::Action;
use crate::state::Lab;

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

#[derive(Properties, PartialEq)]
pub struct TableEditorProps {
    pub lab: Rc<Lab>,
    pub dispatch: Callback<Action>,
    /// The key, whose row says what file it is read from.
    pub key_info: KeyInfo,
}

/// A table key (the job classes: need@probability@mean size, …) as text, and the upload of
/// the file its model reads it from (a CSV of need, probability, mean_size for the classes of
/// msfq-d6's Borg table).
#[component]
pub fn TableEditor(props: &TableEditorProps) -> Html {
    let info = &props.key_info;
    let key = info.key;
    // The file becomes the key's text form; a bad table shows its message (naming the line)
    // under the field.
    let scenario = props.lab.setup.scenario.clone();
    let upload = csv_upload(&props.dispatch, move |text| {
        scenario.any().read_key_file(key, text).map(|value| Action::Set { key: key.into(), value })
    });
    let label = format!("{} ({})", info.label, info.range);
    html! {
        <div class="classes">
            <KeyField name={key} {label} kind="text" lab={props.lab.clone()} dispatch={props.dispatch.clone()} />
            if let Some((holds, accept)) = info.file {
                <label class="field">
                    <span>{ format!("…or upload {holds}") }</span>
                    <input type="file" id={format!("{key}-file")} {accept} onchange={upload} />
                </label>
            }
        </div>
    }
}
