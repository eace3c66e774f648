//! The job-size distribution's editor: uniform on [a, b], or a table of sizes and
//! probabilities, applied as the `size` key's text.

use std::rc::Rc;

use yew::prelude::*;

use crate::components::form::LabControlsProps;
use crate::components::form::field_notice::Notice;
use crate::dom::page::value_of;
use crate::state::Action;

/// What the size editor is editing.
#[derive(Debug, Clone, PartialEq)]
pub enum SizeDraft {
    Uniform { lo: String, hi: String },
    Discrete(Vec<(String, String)>),
}

impl SizeDraft {
    /// From the `size` key's text (`uniform:LO,HI` or `discrete:S@P,...`).
    pub fn from_text(text: &str) -> Self {
        match text.split_once(':') {
            Some(("uniform", rest)) => {
                let (lo, hi) = rest.split_once(',').unwrap_or((rest, ""));
                SizeDraft::Uniform { lo: lo.into(), hi: hi.into() }
            }
            Some((_, rest)) => SizeDraft::Discrete(
                rest.split(',')
                    .map(|pair| {
                        let (s, p) = pair.split_once('@').unwrap_or((pair, ""));
                        (s.to_string(), p.to_string())
                    })
                    .collect(),
            ),
            None => SizeDraft::Uniform { lo: String::new(), hi: String::new() },
        }
    }

    /// The `size` key's text.
    pub fn to_text(&self) -> String {
        match self {
            SizeDraft::Uniform { lo, hi } => format!("uniform:{},{}", lo.trim(), hi.trim()),
            SizeDraft::Discrete(rows) => {
                let pairs: Vec<String> = rows.iter().map(|(s, p)| format!("{}@{}", s.trim(), p.trim())).collect();
                format!("discrete:{}", pairs.join(","))
            }
        }
    }
}

/// A change to the size draft from an input's new value.
type DraftEdit = dyn Fn(&mut SizeDraft, String);

/// The job-size distribution: uniform on [a, b], or a table of sizes and probabilities.
#[component]
pub fn SizeEditor(props: &LabControlsProps) -> Html {
    let current = props.lab.setup.scenario.get("size").unwrap_or_default();
    let draft = use_state(|| SizeDraft::from_text(&current));
    {
        // A new preset, a reset or a link replaces the draft.
        let draft = draft.clone();
        use_effect_with(current.clone(), move |text| draft.set(SizeDraft::from_text(text)));
    }
    let edit = |f: Rc<DraftEdit>| {
        let draft = draft.clone();
        Callback::from(move |e: Event| {
            let mut next = (*draft).clone();
            f(&mut next, value_of(&e));
            draft.set(next);
        })
    };
    let kind = edit(Rc::new(|d, v| {
        *d = if v == "uniform" {
            SizeDraft::Uniform { lo: "0.1".into(), hi: "0.9".into() }
        } else {
            SizeDraft::Discrete(vec![("0.4".into(), "1/2".into()), ("0.6".into(), "1/2".into())])
        }
    }));
    let apply = {
        let (draft, dispatch) = (draft.clone(), props.dispatch.clone());
        Callback::from(move |_: MouseEvent| dispatch.emit(Action::Set { key: "size".into(), value: draft.to_text() }))
    };
    let body = match &*draft {
        SizeDraft::Uniform { lo, hi } => html! {
            <div class="size-row">
                <label>{ "from " }<input id="size-lo" size="6" value={lo.clone()}
                    onchange={edit(Rc::new(|d, v| if let SizeDraft::Uniform { lo, .. } = d { *lo = v }))} /></label>
                <label>{ " to " }<input id="size-hi" size="6" value={hi.clone()}
                    onchange={edit(Rc::new(|d, v| if let SizeDraft::Uniform { hi, .. } = d { *hi = v }))} /></label>
            </div>
        },
        SizeDraft::Discrete(rows) => html! {
            <table class="size-table">
                <thead><tr><th>{ "size" }</th><th>{ "probability" }</th>
                    <th><span class="visually-hidden">{ "remove" }</span></th></tr></thead>
                <tbody>
                    { for rows.iter().enumerate().map(|(i, (s, p))| html! {
                        <tr key={i}>
                            <td><input size="6" aria-label={format!("size {}", i + 1)} value={s.clone()}
                                onchange={edit(Rc::new(move |d, v| if let SizeDraft::Discrete(r) = d { r[i].0 = v }))} /></td>
                            <td><input size="6" aria-label={format!("probability {}", i + 1)} value={p.clone()}
                                onchange={edit(Rc::new(move |d, v| if let SizeDraft::Discrete(r) = d { r[i].1 = v }))} /></td>
                            <td><button type="button" aria-label={format!("remove row {}", i + 1)} disabled={rows.len() == 1}
                                onclick={let draft = draft.clone(); Callback::from(move |_: MouseEvent| {
                                    let mut next = (*draft).clone();
                                    if let SizeDraft::Discrete(r) = &mut next { r.remove(i); }
                                    draft.set(next);
                                    // The row's button goes with it: focus the row now in its place.
                                    let row = |n: usize| format!(".size-table tbody tr:nth-child({n}) button:not([disabled])");
                                    crate::dom::focus::focus_first_later(vec![
                                        row(i + 1), row(i.max(1)), ".size-table tfoot button".into(),
                                    ]);
                                })}>{ "×" }</button></td>
                        </tr>
                    }) }
                </tbody>
                <tfoot><tr><td colspan="3">
                    <button type="button" onclick={let draft = draft.clone(); Callback::from(move |_: MouseEvent| {
                        let mut next = (*draft).clone();
                        if let SizeDraft::Discrete(r) = &mut next { r.push((String::new(), String::new())); }
                        draft.set(next);
                    })}>{ "+ size" }</button>
                </td></tr></tfoot>
            </table>
        },
    };
    let is_uniform = matches!(*draft, SizeDraft::Uniform { .. });
    html! {
        <fieldset class="size" id="size-editor">
            <legend>{ "Job sizes (fractions of a server)" }</legend>
            <select id="size-kind" aria-label="Size distribution" onchange={kind}>
                <option value="uniform" selected={is_uniform}>{ "uniform on [a, b]" }</option>
                <option value="discrete" selected={!is_uniform}>{ "discrete values" }</option>
            </select>
            { body }
            <button type="button" id="size-apply" onclick={apply}>{ "Apply sizes" }</button>
            <code class="hint">{ format!("size={current}") }</code>
            <Notice lab={props.lab.clone()} field="size" />
        </fieldset>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_drafts_round_trip() {
        for text in ["uniform:0.1,0.9", "discrete:0.4@1/2,0.6@1/2", "discrete:0.2@0.25"] {
            assert_eq!(SizeDraft::from_text(text).to_text(), text);
        }
        let mut d = SizeDraft::from_text("discrete:0.4@1/2,0.6@1/2");
        if let SizeDraft::Discrete(rows) = &mut d {
            rows.push(("0.1".into(), " 0 ".into()));
        }
        assert_eq!(d.to_text(), "discrete:0.4@1/2,0.6@1/2,0.1@0");
    }
}
