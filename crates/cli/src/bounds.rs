//! `packlab bounds`: PG-AS's static bounds without simulation (SPEC 4.2, 4.5, 4.7): U^(g) and
//! U* at the scenario's α·ρ with the greedy configurations and an optimal LP support, both
//! certified exact; or, for pgas-c1, the statistics of the random VM collections.

use std::io::Write;

use anyhow::{Context, Result, anyhow, bail};
use packlab_core::models::pgas::PgasTypes;
use packlab_core::models::pgas::theory::rational::{self, Rational};
use packlab_core::models::pgas::theory::{MemoryDraw, c1_statistics};
use packlab_core::scenario::Scenario;
use serde::Serialize;

use crate::args::BoundsArgs;
use crate::output::{Table, print_table};
use crate::setup::resolve;

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
struct BoundsJson<'a> {
    preset: &'a str,
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
struct CollectionsJson<'a> {
    preset: &'a str,
    seed: u64,
    collections: usize,
    memory: MemoryDraw,
    ratio_one: usize,
    mean_ratio: f64,
    min_ratio: f64,
    guarantee: f64,
    below_guarantee: usize,
    results: Vec<packlab_core::models::pgas::theory::CollectionResult>,
}

pub fn command(args: &BoundsArgs, out: &mut dyn Write) -> Result<()> {
    let setup = resolve(&args.scenario)?.setup;
    let mut scenario = setup.scenario.clone();
    if let Some(load) = &args.load {
        scenario.set("load", load).context("--load")?;
        scenario.validate().map_err(|e| anyhow!("--load {load}: {e}"))?;
    }
    let id = setup.preset.id;
    let Scenario::Pgas(s) = &scenario else {
        bail!("--preset {id}: bounds are PG-AS's; use pgas-c1 to pgas-c6");
    };
    let p = &setup.preset;
    match &s.types {
        PgasTypes::Trace => bail!(
            "{id}: a trace has no static bounds (its workload changes over time); run the upper-bound policy: \
             packlab run --preset {id} --policy upper-bound"
        ),
        PgasTypes::Random { collections, memory } => {
            let (results, summary) =
                c1_statistics(s.window.seed, *collections as usize, *memory).map_err(|e| anyhow!("{id}: {e}"))?;
            if args.json {
                let json = CollectionsJson {
                    preset: id,
                    seed: s.window.seed,
                    collections: summary.count,
                    memory: *memory,
                    ratio_one: summary.ratio_one,
                    mean_ratio: summary.mean_ratio,
                    min_ratio: summary.min_ratio,
                    guarantee: summary.guarantee,
                    below_guarantee: summary.below_guarantee,
                    results,
                };
                writeln!(out, "{}", serde_json::to_string(&json)?)?;
                return Ok(());
            }
            writeln!(out, "{}: {} ({})", p.id, p.title, p.figure)?;
            writeln!(
                out,
                "{} collections from seed {} (memory draw: {memory:?}, RES-33)\n",
                summary.count, s.window.seed
            )?;
            let mut table = Table::new(&["collection", "U^(g)", "U*", "ratio"]);
            for (i, r) in results.iter().enumerate() {
                table.row(vec![
                    (i + 1).to_string(),
                    format!("{:.3}", r.greedy_reward),
                    format!("{:.3}", r.optimal_reward),
                    format!("{:.6}", r.ratio),
                ]);
            }
            print_table(&table, out)?;
            writeln!(out)?;
            writeln!(out, "ratio exactly 1: {} of {}   (paper: 23 of 50)", summary.ratio_one, summary.count)?;
            writeln!(out, "mean ratio:      {:.4}   (paper: 0.972)", summary.mean_ratio)?;
            writeln!(out, "minimum ratio:   {:.4}   (paper: at least 0.86)", summary.min_ratio)?;
            writeln!(
                out,
                "below 1 − 1/e = {:.4}: {}   (the paper found none; Theorem 3.7 guarantees 1/2)",
                summary.guarantee, summary.below_guarantee
            )?;
            Ok(())
        }
        _ => {
            let instance = s.instance()?.expect("an enumerated catalogue");
            let rho = s.scaled_rho(instance.types());
            let bounds = instance.bounds_exact(&rho).map_err(|e| anyhow!("{id}: {e}"))?;
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
            let json = BoundsJson {
                preset: id,
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
            if args.json {
                writeln!(out, "{}", serde_json::to_string(&json)?)?;
                return Ok(());
            }
            writeln!(out, "{}: {} ({})", p.id, p.title, p.figure)?;
            writeln!(out, "α = {} · ρ = ({}) · types: {}\n", s.load, json.rho.join(", "), json.types.join("; "))?;
            writeln!(
                out,
                "U^(g) = {:.3} ({})   global greedy, the limit of DRA's reward per server",
                json.greedy_reward, json.greedy_reward_exact
            )?;
            let exact = json.optimal_reward_exact.as_deref().map_or(String::new(), |e| format!(" ({e})"));
            writeln!(out, "U*    = {:.3}{exact}   optimum of LP (7)", json.optimal_reward)?;
            writeln!(out, "ratio = {:.6}\n", json.ratio)?;
            writeln!(out, "greedy configurations, in order (x = share of the servers):")?;
            let mut table = Table::new(&["i", "k^(i)", "U(k)", "removes type", "z", "x"]);
            for (i, st) in json.greedy_configurations.iter().enumerate() {
                table.row(vec![
                    (i + 1).to_string(),
                    counts(&st.counts),
                    format!("{}", st.reward),
                    st.removed_type.to_string(),
                    st.z.clone(),
                    st.share_exact.clone(),
                ]);
            }
            print_table(&table, out)?;
            if json.empty_share != "0" {
                writeln!(out, "empty configuration: x = {}", json.empty_share)?;
            }
            writeln!(out, "\nan optimal LP support (share of the servers; maximal configurations only):")?;
            let mut table = Table::new(&["k", "X_k"]);
            for e in &json.optimal_support {
                table
                    .row(vec![counts(&e.counts), e.weight_exact.clone().unwrap_or_else(|| format!("{:.6}", e.weight))]);
            }
            print_table(&table, out)?;
            Ok(())
        }
    }
}

fn counts(k: &[u32]) -> String {
    format!("({})", k.iter().map(u32::to_string).collect::<Vec<_>>().join(","))
}
