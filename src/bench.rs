//! The engines timed in WebAssembly, for `npm run bench:wasm` (`tests/e2e/wasm-bench.mjs`): the
//! same measurement as `packlab bench` ([`packlab_core::bench::time_run`]) on the page's own
//! wasm, so the two give the wasm-to-native ratio of each engine. Not used by the page itself.

use packlab_core::bench::{Timing, Warmup, time_run};
use packlab_core::link::decode_link;
use packlab_core::policy::PolicySpec;
use packlab_core::report::live_run;
use packlab_core::view::Watch;
use serde::Deserialize;
use wasm_bindgen::prelude::*;

/// Series points kept, as `packlab bench` keeps.
const MAX_POINTS: usize = 64;

/// One case: a page link (its scenario), one of the policies, the jobs to time.
#[derive(Debug, Deserialize)]
pub struct BenchRequest {
    pub link: String,
    pub policy: String,
    pub jobs: u64,
}

/// Times `request` with `seconds` as the clock (the native test passes a fake one).
pub fn time_case(request: &BenchRequest, seconds: &mut dyn FnMut() -> f64) -> Result<Timing, String> {
    let (link, errors) = decode_link(&request.link);
    if let Some(e) = errors.first() {
        return Err(e.to_string());
    }
    let policy = PolicySpec::parse(&request.policy).map_err(|e| e.to_string())?;
    link.scenario.validate().map_err(|e| e.to_string())?;
    let mut run = live_run(&link.scenario, &policy, Watch::batch(MAX_POINTS)).map_err(|e| e.to_string())?;
    let warmup = Warmup::UntilOrFifth { until: link.scenario.warmup() };
    time_run(run.as_mut(), warmup, request.jobs, seconds).map_err(|e| e.to_string())
}

/// [`time_case`] for a script: a [`BenchRequest`] as JSON in, a [`Timing`] as JSON out, timed
/// by `performance.now()` (in a window or a worker alike).
#[wasm_bindgen]
pub fn bench_case(request: &str) -> Result<String, JsValue> {
    let request: BenchRequest =
        serde_json::from_str(request).map_err(|e| JsValue::from_str(&format!("bad request: {e}")))?;
    let performance: web_sys::Performance = js_sys::Reflect::get(&js_sys::global(), &"performance".into())
        .ok()
        .and_then(|p| p.dyn_into().ok())
        .ok_or_else(|| JsValue::from_str("no performance clock"))?;
    let timing = time_case(&request, &mut || performance.now() / 1000.0).map_err(|e| JsValue::from_str(&e))?;
    serde_json::to_string(&timing).map_err(|e| JsValue::from_str(&e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_case_is_timed_from_a_link_or_refused_by_name() {
        let mut clock = 0.0;
        let mut tick = || {
            clock += 1.0;
            clock
        };
        let request =
            BenchRequest { link: "?preset=msfq-d1&horizon=1000000".into(), policy: "msf".into(), jobs: 50_000 };
        let t = time_case(&request, &mut tick).unwrap();
        assert!(t.jobs >= 50_000 && t.seconds == 1.0, "{t:?}");
        let bad = BenchRequest { link: "?preset=msfq-d1&load=-3".into(), ..request };
        assert!(time_case(&bad, &mut tick).unwrap_err().contains("load"));
    }
}
