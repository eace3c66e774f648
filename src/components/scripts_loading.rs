//! What the page's first download shows when the lab needs the script engine it leaves out (a
//! scripted lane, an exercise): that it is loading it, then the build that has it takes over
//! on the same address, which holds the whole lab (docs/web.md, "Less to download").

use std::rc::Rc;

use wasm_bindgen_futures::JsFuture;
use yew::prelude::*;

use crate::dom::boot::load_scripts;
use crate::state::Lab;

#[derive(Properties, PartialEq)]
pub struct ScriptsLoadingProps {
    pub lab: Rc<Lab>,
}

/// "Loading the script engine…" while boot.js loads the build with it; why not, if it cannot
/// (offline before the page was ever cached whole), with a way to try again.
#[component]
pub fn ScriptsLoading(props: &ScriptsLoadingProps) -> Html {
    let failed = use_state(|| None::<String>);
    let attempt = use_state(|| 0u32);
    // Where the focus goes in the new page: the scripted lane's editor button, else the
    // exercise's, else the view's heading.
    let focus: Vec<String> = if props.lab.tour.is_some() {
        vec!["#tour button".into(), "main h1".into()]
    } else {
        vec![".lane-setup .edit-script".into(), "#policies input".into(), "main h1".into()]
    };
    let heading = use_node_ref();
    {
        let (failed, heading) = (failed.clone(), heading.clone());
        use_effect_with(*attempt, move |_| {
            // The control that asked for a script is gone with the view it was in.
            if let Some(h) = heading.cast::<web_sys::HtmlElement>() {
                let _ = h.focus();
            }
            failed.set(None);
            match load_scripts(&focus) {
                Ok(promise) => wasm_bindgen_futures::spawn_local(async move {
                    if let Err(e) = JsFuture::from(promise).await {
                        let why = e.as_string().unwrap_or_else(|| format!("{e:?}"));
                        failed.set(Some(why));
                    }
                }),
                Err(why) => failed.set(Some(why)),
            }
        });
    }
    let retry = {
        let attempt = attempt.clone();
        Callback::from(move |_: MouseEvent| attempt.set(*attempt + 1))
    };
    html! {
        <main class="lab loading-scripts" aria-busy={failed.is_none().to_string()}>
            <section class="intro">
                <h1 ref={heading} tabindex="-1">{ "Loading the script engine…" }</h1>
                if let Some(why) = &*failed {
                    <p class="error" role="alert">{ format!("The script engine could not be loaded: {why}") }</p>
                    <p><button type="button" id="scripts-retry" class="primary" onclick={retry}>{ "Try again" }</button>
                        { " or " }<a href="?">{ "go back to the gallery" }</a>{ "." }</p>
                } else {
                    <p role="status">{ "This lab runs a script. The page's first download leaves the script engine out \
                        to start sooner; it is loading now, and the lab opens as soon as it is here." }</p>
                }
            </section>
        </main>
    }
}
