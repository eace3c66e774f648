//! The web crate in a real browser (wasm-bindgen-test under chromedriver): the race steps the
//! core in WebAssembly, the race session's animation loop runs and stops when dropped, and the
//! stats panel renders the attributes the page tests read.
//!
//! `CHROMEDRIVER=/usr/bin/chromedriver CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
//! cargo test -p packlab-web --target wasm32-unknown-unknown --test web_smoke` (see scripts/test).
#![cfg(target_arch = "wasm32")]

use std::cell::Cell;
use std::rc::Rc;

use packlab_core::format::group_digits;
use packlab_core::scenario::Setup;
use packlab_web::components::stats_table::{StatsTable, StatsTableProps};
use packlab_web::play::race::Race;
use packlab_web::play::session::RaceSession;
use packlab_web::play::snapshot::Phase;
use packlab_web::state::Lab;
use packlab_web::state::Speed;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// What the acceptance link asks for.
fn setup() -> Rc<Setup> {
    Lab::from_link("?preset=pgrr-a1&policy=vqs,bf-js&seed=1").setup
}

/// Resolves at the next animation frame.
async fn next_frame() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window().unwrap().request_animation_frame(&resolve).unwrap();
    });
    JsFuture::from(promise).await.unwrap();
}

#[wasm_bindgen_test]
fn race_steps_both_policies_in_lockstep() {
    let mut race = Race::new(&setup(), 256);
    assert_eq!(race.advance(20_000, f64::INFINITY, || 0.0).unwrap(), 20_000);
    let snap = race.snapshot(Phase::Paused, 0);
    let names: Vec<_> = snap.lanes.iter().map(|l| l.policy.as_str()).collect();
    assert_eq!(names, ["vqs", "bf-js"]);
    assert!(snap.lanes.iter().all(|l| l.slot == 20_000 && !l.queue_series.is_empty()));
    assert_eq!(snap.lanes[0].arrivals, snap.lanes[1].arrivals, "common random numbers");
    assert!(snap.lanes[0].arrivals > 0);
}

#[wasm_bindgen_test]
async fn a_session_plays_and_stops_when_dropped() {
    let published = Rc::new(Cell::new(0u32));
    let session = {
        let published = published.clone();
        RaceSession::new(setup(), Speed::Max, move |_| published.set(published.get() + 1))
    };
    session.play();
    for _ in 0..5 {
        next_frame().await;
    }
    let snap = session.snapshot();
    assert_eq!(snap.phase, Phase::Running);
    assert!(snap.slot > 0, "no slot ran in five frames");
    session.pause();
    assert_eq!(session.snapshot().phase, Phase::Paused);
    session.play();
    next_frame().await;
    drop(session);
    let count = published.get();
    for _ in 0..3 {
        next_frame().await;
    }
    assert_eq!(published.get(), count, "the loop ran on after its session was dropped");
}

#[wasm_bindgen_test]
async fn stats_rows_carry_the_numbers() {
    let mut race = Race::new(&setup(), 256);
    race.advance(1_234, f64::INFINITY, || 0.0).unwrap();
    let snap = race.snapshot(Phase::Paused, 0);
    let document = web_sys::window().unwrap().document().unwrap();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    let props = StatsTableProps {
        lanes: snap.lanes.clone(),
        warmup: snap.warmup,
        unit: snap.model.time.plural(),
        job_time: snap.job_time(),
        queues: snap.queues(),
        rewards: snap.model.reward,
        reward: snap.reward,
    };
    let app = yew::Renderer::<StatsTable>::with_root_and_props(root.clone(), props).render();
    yew::scheduler::flush().await;

    let row = root.query_selector("[data-policy=\"vqs\"]").unwrap().expect("a vqs row");
    assert_eq!(row.get_attribute("data-time").as_deref(), Some("1234"));
    let queue: u64 = row.get_attribute("data-queue").unwrap().parse().unwrap();
    assert_eq!(queue, snap.lanes[0].queue);
    let mean: f64 = row.get_attribute("data-mean-queue").unwrap().parse().unwrap();
    assert_eq!(mean, snap.lanes[0].mean_queue);
    let text = row.text_content().unwrap();
    assert!(text.contains("VQS (J=2)") && text.contains(&group_digits(1_234)), "{text}");
    // The legend swatch uses the chart's colour.
    let line = row.query_selector("svg line").unwrap().unwrap();
    assert_eq!(line.get_attribute("stroke").unwrap(), packlab_plot::css_color(0));
    assert!(root.query_selector("[data-policy=\"bf-js\"]").unwrap().is_some());

    app.destroy();
    root.unchecked_into::<web_sys::HtmlElement>().remove();
}

/// The panic hook's message: visible at the top of the page, named, with the way back to the
/// preset; a second panic replaces it.
#[wasm_bindgen_test]
fn a_crash_is_shown_with_a_way_back() {
    packlab_web::dom::crash::show("panicked at somewhere: something");
    packlab_web::dom::crash::show("panicked at elsewhere: another thing");
    let document = web_sys::window().unwrap().document().unwrap();
    let panels = document.query_selector_all(&format!("#{}", packlab_web::dom::crash::CRASH_ID)).unwrap();
    assert_eq!(panels.length(), 1);
    let panel = document.get_element_by_id(packlab_web::dom::crash::CRASH_ID).unwrap();
    assert_eq!(panel.get_attribute("role").as_deref(), Some("alert"));
    let text = panel.text_content().unwrap();
    assert!(text.contains("another thing") && !text.contains("something"), "{text}");
    let link = panel.query_selector("a").unwrap().unwrap();
    assert!(link.get_attribute("href").unwrap().starts_with('?'));
    panel.remove();
}
