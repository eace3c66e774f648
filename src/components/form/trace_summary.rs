//! What a loaded trace holds: counts, span, the size or need histogram, the offered load.

use std::rc::Rc;

use packlab_core::trace::OUT_OF_ORDER;
use packlab_core::trace::stats::TraceStats;
use yew::prelude::*;

use packlab_core::format::group_digits;

#[derive(Properties, PartialEq)]
pub struct TraceSummaryProps {
    pub stats: Rc<TraceStats>,
}

/// What a loaded trace holds: counts, span, the size or need histogram, the offered load.
#[component]
pub fn TraceSummary(props: &TraceSummaryProps) -> Html {
    let s = &props.stats;
    let most = s.histogram.iter().map(|b| b.count).max().unwrap_or(1).max(1) as f64;
    let (width, height) = (12.0, 48.0);
    // The reasons and the order's words are the core's, as `trace stats` prints them.
    let skipped: Vec<String> = s.skipped.iter().map(|(r, n)| format!("{r} {}", group_digits(*n))).collect();
    let (sorted, out_of_order) = OUT_OF_ORDER;
    let (unit, per) = (s.time_unit, if s.time_unit == "s" { "second" } else { "time unit" });
    html! {
        <div class="trace-summary" id="trace-summary">
            <p>
                { format!("{}: {} kept", s.format, group_digits(s.kept)) }
                if !skipped.is_empty() { { format!("; skipped {}", skipped.join(", ")) } }
                if s.out_of_order > 0 { { format!("; {sorted} {} {out_of_order}", group_digits(s.out_of_order)) } }
            </p>
            <p>{ format!(
                "span {:.1} {unit}, {:.3} arrivals per {per}, mean run {:.1} {unit}, mean {} {:.3}{}",
                s.span_seconds,
                s.per_second,
                s.mean_run_seconds,
                if s.priorities.is_empty() { "need" } else { "size" },
                s.mean_size,
                match (s.servers, s.offered_load) {
                    (Some(l), Some(load)) => format!(", offered load {load:.3} on {l}"),
                    _ => String::new(),
                }
            ) }</p>
            <p class="hint">{ if s.priorities.is_empty() {
                "jobs by processors: 1, 2, 3–4, 5–8, …"
            } else {
                "tasks by size: (1/2, 1], (1/4, 1/2], … down to 1/1024"
            } }</p>
            <svg class="trace-histogram" role="img" width={(width * s.histogram.len() as f64).to_string()}
                height={height.to_string()}
                aria-label={format!("{} by {}", if s.priorities.is_empty() { "jobs" } else { "tasks" },
                    if s.priorities.is_empty() { "processors" } else { "size" })}>
                { for s.histogram.iter().enumerate().map(|(i, bar)| {
                    let h = (bar.count as f64 / most * (height - 2.0)).max(if bar.count > 0 { 1.0 } else { 0.0 });
                    html! {
                        <rect x={(i as f64 * width + 1.0).to_string()} y={(height - h).to_string()}
                            width={(width - 2.0).to_string()} height={h.to_string()}>
                            <title>{ format!("{}: {}", bar.label, group_digits(bar.count)) }</title>
                        </rect>
                    }
                }) }
            </svg>
            <p class="hint">{ format!("fingerprint {}", s.fingerprint) }</p>
        </div>
    }
}
