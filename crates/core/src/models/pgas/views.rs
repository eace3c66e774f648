//! What PG-AS's theory shows without simulating, for the page and the CLI alike: Fig. 2's
//! bounds against α with its critical points, §7.1's random collections, `packlab bounds`'s
//! table of the greedy configurations and an optimal LP support, and the theory's sweep
//! against α (pgas-c2, pgas-c4, pgas-c6).

use serde::Serialize;

use super::PgasScenario;
use super::theory::rational::{self, Rational};
use super::theory::{AlphaCurve, CollectionResult, CollectionSummary, MemoryDraw, c1_statistics};
use super::types::PgasTypes;
use crate::ConfigError;
use crate::graph::{Graph, Legend, Line, Mark, Point, Stroke};
use crate::model::{Bounds, Table, TheorySweep};

/// The α range of Fig. 2 (the paper's runs to 10).
const ALPHA_MAX: f64 = 10.0;

/// The graphs of the scenario's theory: Fig. 2's bounds against α for an enumerated catalogue,
/// or the random collections' ratios; none for a trace.
pub fn graphs(s: &PgasScenario) -> Vec<Result<Graph, String>> {
    if let PgasTypes::Random { collections, memory } = s.types {
        return vec![collections_graph(s.window.seed, collections as usize, memory)];
    }
    s.alpha_view().map(|curve| curve.map(|c| alpha_graph(&c, s.types == PgasTypes::C2))).into_iter().collect()
}

/// One sentence on the curve: where greedy is optimal and where it is worst.
fn alpha_summary(curve: &AlphaCurve) -> String {
    let worst = curve.points.iter().filter(|p| p.optimal_reward > 0.0).min_by(|a, b| a.ratio.total_cmp(&b.ratio));
    let parts: Vec<String> = curve.critical.iter().map(|c| c.label()).collect();
    let equal = match parts.as_slice() {
        [] => "U^(g) = U* over the whole range".to_string(),
        [a, b] => format!("U^(g) = U* up to {a} and from {b} on, U^(g) < U* between"),
        _ => format!("U^(g) and U* part or meet at {}", parts.join(", ")),
    };
    match worst {
        Some(w) if w.ratio < 1.0 - 1e-9 => {
            format!("{equal}; the worst ratio U^(g)/U* on the grid is {:.4}, at α = {}", w.ratio, w.alpha)
        }
        _ => equal,
    }
}

/// Fig. 2: U^(g)\[αρ\] and U*\[αρ\] against α, the critical points dashed; `figure` says whether
/// the types are the paper's Fig. 2 collection.
fn alpha_graph(curve: &AlphaCurve, figure: bool) -> Graph {
    let line = |label: &str, color, f: fn(&super::theory::SweepPoint) -> f64| Line {
        label: label.to_string(),
        color,
        points: curve.points.iter().map(|p| Point::new(p.alpha, f(p))).collect(),
        markers: false,
        stroke: Stroke::Solid,
    };
    let critical: Vec<String> = curve.critical.iter().map(|c| c.alpha.to_string()).collect();
    Graph {
        id: "alpha",
        title: if figure {
            "Bounds against the workload scale α (PG-AS Fig. 2)".into()
        } else {
            "Bounds against the workload scale α".into()
        },
        x_label: "workload scale α".into(),
        y_label: "reward per server".into(),
        lines: vec![
            line("U* (LP optimum)", 1, |p| p.optimal_reward),
            line("U^(g) (global greedy)", 0, |p| p.greedy_reward),
        ],
        x_marks: curve.critical.iter().map(|c| Mark::new(c.alpha, c.label())).collect(),
        x_range: Some((0.0, ALPHA_MAX)),
        legend: Legend::Below,
        caption: format!("{}. Dashed: those points. Computed here, one LP per point.", alpha_summary(curve)),
        description: "Line chart of the greedy reward U^(g) and the LP optimum U* against the workload scale α, with \
                      the critical points and the current α as dashed lines"
            .into(),
        data: vec![("data-critical", critical.join(","))],
        x_is_load: true,
        ..Graph::default()
    }
}

/// §7.1: U^(g)/U* of each random collection, sorted, against Theorem 3.9's 1 − 1/e and
/// Theorem 3.7's 1/2.
fn collections_graph(seed: u64, count: usize, memory: MemoryDraw) -> Result<Graph, String> {
    let (results, s) = c1_statistics(seed, count, memory).map_err(|e| e.to_string())?;
    let mut ratios: Vec<f64> = results.iter().map(|r| r.ratio).collect();
    ratios.sort_by(f64::total_cmp);
    Ok(Graph {
        id: "collections",
        title: "U^(g)/U* of each random collection, sorted".into(),
        x_label: "collection (sorted by ratio)".into(),
        y_label: "U^(g) / U*".into(),
        lines: vec![Line {
            label: "ratio".into(),
            color: 0,
            points: ratios.iter().enumerate().map(|(i, &r)| Point::new((i + 1) as f64, r)).collect(),
            markers: true,
            stroke: Stroke::Solid,
        }],
        // Theorem 3.9 holds for instances with the monotone greedy property, which is not
        // checked for these collections; Theorem 3.7 holds for every instance.
        y_marks: vec![
            Mark::new(s.guarantee, "1 − 1/e (Theorem 3.9, if the greedy is monotone: not checked)"),
            Mark::new(0.5, "1/2 (Theorem 3.7)"),
        ],
        y_range: Some((0.45, 1.02)),
        legend: Legend::Below,
        caption: format!(
            "{} collections (seed {seed}): U^(g) = U* in {}, mean ratio {:.3}, minimum {:.3}; {} below 1 − 1/e = {:.3}, \
             which Theorem 3.9 promises only for instances with the monotone greedy property (not checked here; \
             Theorem 3.7's 1/2 holds for every instance). \
             This preset computes bounds only, no simulation: change the seed for other collections. The paper \
             reports 23 of 50 at ratio 1, mean 0.972 and minimum ≥ 0.86 with its own random draws. Computed from \
             the theory: the exact global greedy and an LP per collection.",
            s.count, s.ratio_one, s.mean_ratio, s.min_ratio, s.below_guarantee, s.guarantee
        ),
        description: "The ratio U^(g)/U* of each random collection, sorted, with 1 − 1/e and 1/2 as dashed lines"
            .into(),
        data: vec![
            ("data-count", s.count.to_string()),
            ("data-ratio-one", s.ratio_one.to_string()),
            ("data-mean-ratio", s.mean_ratio.to_string()),
            ("data-min-ratio", s.min_ratio.to_string()),
            ("data-below-guarantee", s.below_guarantee.to_string()),
        ],
        ..Graph::default()
    })
}

#[derive(Debug, Serialize)]
struct GreedyStep {
    /// k^(i), slots per type.
    counts: Vec<u32>,
    /// U(k^(i)).
    reward: f64,
    /// The type the step removes (1-based, as the paper numbers them).
    removed_type: usize,
    /// z_i and x_i exactly, and x_i as a number.
    z: String,
    share_exact: String,
    share: f64,
}

#[derive(Debug, Serialize)]
struct SupportRow {
    counts: Vec<u32>,
    /// X_k, a share of the servers.
    weight: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    weight_exact: Option<String>,
}

#[derive(Debug, Serialize)]
struct BoundsJson {
    load: f64,
    types: Vec<String>,
    rho: Vec<String>,
    greedy_reward: f64,
    optimal_reward: f64,
    ratio: f64,
    greedy_reward_exact: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    optimal_reward_exact: Option<String>,
    greedy_configurations: Vec<GreedyStep>,
    /// The share of servers left empty by the greedy (Σz < 1).
    empty_share: String,
    optimal_support: Vec<SupportRow>,
}

#[derive(Debug, Serialize)]
struct CollectionsJson {
    seed: u64,
    collections: usize,
    memory: MemoryDraw,
    ratio_one: usize,
    mean_ratio: f64,
    min_ratio: f64,
    guarantee: f64,
    below_guarantee: usize,
    results: Vec<CollectionResult>,
}

fn json(value: &impl Serialize) -> serde_json::Value {
    serde_json::to_value(value).unwrap_or(serde_json::Value::Null)
}

/// `packlab bounds`: U^(g) and U* at α·ρ with the greedy configurations and an optimal LP
/// support, both certified exact; or the random collections' statistics.
pub fn bounds(s: &PgasScenario) -> Result<Bounds, ConfigError> {
    match &s.types {
        PgasTypes::Trace => Err(ConfigError::new(
            "types",
            "a trace has no static bounds (its workload changes over time); run the upper-bound policy instead \
             (policy upper-bound)",
        )),
        PgasTypes::Random { collections, memory } => {
            let (results, summary) = c1_statistics(s.window.seed, *collections as usize, *memory)
                .map_err(|e| ConfigError::new("types", e.to_string()))?;
            Ok(Bounds {
                text: collections_text(s.window.seed, *memory, &results, &summary),
                json: json(&CollectionsJson {
                    seed: s.window.seed,
                    collections: summary.count,
                    memory: *memory,
                    ratio_one: summary.ratio_one,
                    mean_ratio: summary.mean_ratio,
                    min_ratio: summary.min_ratio,
                    guarantee: summary.guarantee,
                    below_guarantee: summary.below_guarantee,
                    results,
                }),
            })
        }
        _ => {
            let instance = s.instance()?.expect("an enumerated catalogue");
            let rho = s.scaled_rho(instance.types());
            let bounds = instance.bounds_exact(&rho).map_err(|e| ConfigError::new("types", e.to_string()))?;
            let g = &bounds.greedy;
            let steps: Vec<GreedyStep> = (0..g.configurations.len())
                .map(|i| GreedyStep {
                    counts: g.counts[i].clone(),
                    reward: rational::to_f64(&instance.configuration_reward(g.configurations[i])),
                    removed_type: g.order[i] + 1,
                    z: g.z[i].to_string(),
                    share_exact: g.x[i].to_string(),
                    share: rational::to_f64(&g.x[i]),
                })
                .collect();
            let support: Vec<SupportRow> = bounds
                .optimum
                .support
                .iter()
                .map(|e| SupportRow {
                    counts: e.counts.clone(),
                    weight: e.weight,
                    weight_exact: e.exact_weight.as_ref().map(Rational::to_string),
                })
                .collect();
            let b = BoundsJson {
                load: s.load,
                types: s.type_names(),
                rho: rho.iter().map(Rational::to_string).collect(),
                greedy_reward: bounds.greedy_reward,
                optimal_reward: bounds.optimal_reward,
                ratio: bounds.ratio,
                greedy_reward_exact: g.reward.to_string(),
                optimal_reward_exact: bounds.optimum.exact_value.as_ref().map(Rational::to_string),
                greedy_configurations: steps,
                empty_share: g.empty_share.to_string(),
                optimal_support: support,
            };
            Ok(Bounds { text: bounds_text(&b), json: json(&b) })
        }
    }
}

fn counts(k: &[u32]) -> String {
    format!("({})", k.iter().map(u32::to_string).collect::<Vec<_>>().join(","))
}

fn bounds_text(b: &BoundsJson) -> String {
    let mut out = format!("α = {} · ρ = ({}) · types: {}\n\n", b.load, b.rho.join(", "), b.types.join("; "));
    out += &format!(
        "U^(g) = {:.3} ({})   global greedy, the limit of DRA's reward per server\n",
        b.greedy_reward, b.greedy_reward_exact
    );
    let exact = b.optimal_reward_exact.as_deref().map_or(String::new(), |e| format!(" ({e})"));
    out += &format!("U*    = {:.3}{exact}   optimum of LP (7)\n", b.optimal_reward);
    out += &format!("ratio = {:.6}\n\n", b.ratio);
    out += "greedy configurations, in order (x = share of the servers):\n";
    let mut table = Table::new(&["i", "k^(i)", "U(k)", "removes type", "z", "x"]);
    for (i, st) in b.greedy_configurations.iter().enumerate() {
        table.row(vec![
            (i + 1).to_string(),
            counts(&st.counts),
            format!("{}", st.reward),
            st.removed_type.to_string(),
            st.z.clone(),
            st.share_exact.clone(),
        ]);
    }
    out += &table.render();
    if b.empty_share != "0" {
        out += &format!("empty configuration: x = {}\n", b.empty_share);
    }
    out += "\nan optimal LP support (share of the servers; maximal configurations only):\n";
    let mut table = Table::new(&["k", "X_k"]);
    for e in &b.optimal_support {
        table.row(vec![counts(&e.counts), e.weight_exact.clone().unwrap_or_else(|| format!("{:.6}", e.weight))]);
    }
    out += &table.render();
    out
}

fn collections_text(seed: u64, memory: MemoryDraw, results: &[CollectionResult], s: &CollectionSummary) -> String {
    let draw = match memory {
        MemoryDraw::ByCategory => "memory per vCPU: a category (high, low, regular), then a value in it",
        MemoryDraw::PerValue => "memory per vCPU drawn from 1, 2, 4, 8 or 16 GB",
    };
    let mut out = format!("{} collections from seed {seed} ({draw})\n\n", s.count);
    let mut table = Table::new(&["collection", "U^(g)", "U*", "ratio"]);
    for (i, r) in results.iter().enumerate() {
        table.row(vec![
            (i + 1).to_string(),
            format!("{:.3}", r.greedy_reward),
            format!("{:.3}", r.optimal_reward),
            format!("{:.6}", r.ratio),
        ]);
    }
    out += &table.render();
    out += "\n";
    out += &format!("ratio exactly 1: {} of {}   (paper: 23 of 50)\n", s.ratio_one, s.count);
    out += &format!("mean ratio:      {:.4}   (paper: 0.972)\n", s.mean_ratio);
    out += &format!("minimum ratio:   {:.4}   (paper: at least 0.86)\n", s.min_ratio);
    out += &format!(
        "below 1 − 1/e = {:.4}: {}   (the paper found none; Theorem 3.7 guarantees 1/2)\n",
        s.guarantee, s.below_guarantee
    );
    out
}

/// Fig. 2 as a sweep: U^(g)\[αρ\] and U*\[αρ\] at the loads `alphas`, from the theory.
pub fn theory_sweep(s: &PgasScenario, alphas: &[f64]) -> Result<TheorySweep, ConfigError> {
    let Some(instance) = s.instance()? else {
        return Err(ConfigError::new(
            "types",
            "a trace or random collections have no static bounds to sweep against α; sweep a trace against L (servers)",
        ));
    };
    let rho = s.base_rho(instance.types());
    let points = instance.sweep(&rho, alphas).map_err(|e| ConfigError::new("types", e.to_string()))?;
    let (lo, hi) = (alphas[0], alphas[alphas.len() - 1]);
    let marks: Vec<_> =
        <super::Pgas as crate::model::Model>::marks(s).into_iter().filter(|m| m.load >= lo && m.load <= hi).collect();
    let meanings: Vec<&str> = marks.iter().map(|m| m.label.as_str()).collect();
    let x_label = if marks.is_empty() {
        "workload scale α (ρ → αρ)".to_string()
    } else {
        format!("workload scale α (ρ → αρ)   (dashed: {})", meanings.join("; "))
    };
    let line = |label: &str, color, f: fn(&super::theory::SweepPoint) -> f64| Line {
        label: label.into(),
        color,
        points: points.iter().map(|p| Point::new(p.alpha, f(p))).collect(),
        markers: false,
        stroke: Stroke::Solid,
    };
    let mut table = Table::new(&["α", "U^(g)", "U*", "U^(g)/U*"]);
    for p in &points {
        table.row(vec![
            crate::model::table::tick(p.alpha),
            format!("{:.3}", p.greedy_reward),
            format!("{:.3}", p.optimal_reward),
            format!("{:.6}", p.ratio),
        ]);
    }
    let worst = points.iter().min_by(|a, b| a.ratio.total_cmp(&b.ratio)).expect("at least one point");
    Ok(TheorySweep {
        columns: vec!["alpha", "greedy_reward", "optimal_reward", "ratio"],
        rows: points.iter().map(|p| vec![p.alpha, p.greedy_reward, p.optimal_reward, p.ratio]).collect(),
        head: vec![format!(
            "{} values of α, ρ = ({}); bounds from the theory, no simulation",
            points.len(),
            rho.iter().map(|q| q.to_string()).collect::<Vec<_>>().join(", ")
        )],
        table,
        tail: vec![format!("worst ratio {:.6} at α = {}", worst.ratio, crate::model::table::tick(worst.alpha))],
        graph: Graph {
            id: "alpha",
            x_label,
            y_label: "reward per server".into(),
            lines: vec![
                line("U* (LP 7)", 0, |p| p.optimal_reward),
                line("U^(g) (global greedy)", 1, |p| p.greedy_reward),
            ],
            x_marks: marks
                .iter()
                .map(|m| Mark::new(m.load, format!("α = {}", crate::model::table::tick(m.load))))
                .collect(),
            legend: Legend::LowerRight,
            ..Graph::default()
        },
    })
}
