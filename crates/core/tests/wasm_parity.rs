//! The core gives bit-identical results natively and in WebAssembly.
//!
//! `FINGERPRINT` was computed natively; this test runs on both targets (`cargo test` and
//! `cargo test --target wasm32-unknown-unknown` under wasm-bindgen-test-runner), so a
//! difference in floating-point math or random streams between the two fails one of them.
//! If an intended change to the simulation moves the numbers, recompute the value natively
//! and update it here.

use packlab_core::models::Summary;
use packlab_core::policy::PolicySpec;
use packlab_core::report::run;
use packlab_core::scenario::preset;
use wasm_bindgen_test::wasm_bindgen_test;

/// FNV-1a over the bits of every number that matters.
fn fingerprint(values: impl IntoIterator<Item = u64>) -> u64 {
    values.into_iter().fold(0xcbf2_9ce4_8422_2325, |h, v| (h ^ v).wrapping_mul(0x0000_0100_0000_01B3))
}

fn pgrr_fingerprint() -> u64 {
    let mut values = Vec::new();
    for (id, policy) in
        [("pgrr-a1", "vqs"), ("pgrr-a3", "vqs-bf"), ("pgrr-a4", "bf-js"), ("pgrr-a6", "vqs:ties=random")]
    {
        let mut s = preset(id).unwrap().scenario;
        s.set("horizon", "100000").unwrap();
        s.set("warmup", "10000").unwrap();
        let out = run(id, &s, &PolicySpec::parse(policy).unwrap()).unwrap();
        let r = out.report;
        values.extend([
            r.mean_queue.to_bits(),
            r.final_queue,
            r.arrivals,
            r.started,
            r.mean_wait.to_bits(),
            r.mean_occupancy.to_bits(),
        ]);
        values.extend(out.queue.iter().map(|p| p.mean.to_bits()));
    }
    fingerprint(values)
}

const PGRR_FINGERPRINT: u64 = 0x0904_396c_025b_d553;

#[wasm_bindgen_test(unsupported = test)]
fn pgrr_native_and_wasm_agree() {
    assert_eq!(pgrr_fingerprint(), PGRR_FINGERPRINT, "fingerprint {:#x}", pgrr_fingerprint());
}

/// The same for the continuous-time multiserver-job engine: exponential draws, event order and
/// every policy's decisions.
fn msfq_fingerprint() -> u64 {
    let mut values = Vec::new();
    for (id, policy) in
        [("msfq-d1", "msf"), ("msfq-d1", "msfq:l=31"), ("msfq-d5", "adaptive-qs"), ("msfq-d5", "static-qs")]
    {
        let mut s = preset(id).unwrap().scenario;
        s.set("horizon", "5000").unwrap();
        s.set("warmup", "500").unwrap();
        s.set("sample_every", "50").unwrap();
        let out = run(id, &s, &PolicySpec::parse(policy).unwrap()).unwrap();
        let r = out.report;
        let Summary::Msfq(m) = r.summary else { panic!("MSFQ") };
        values.extend([
            r.mean_queue.to_bits(),
            r.arrivals,
            r.started,
            m.mean_response.to_bits(),
            m.weighted_mean_response.to_bits(),
            m.p95_response.to_bits(),
            m.utilization.to_bits(),
        ]);
        values.extend(out.in_system.iter().map(|p| p.mean.to_bits()));
    }
    fingerprint(values)
}

const MSFQ_FINGERPRINT: u64 = 0x7ab8_eb1e_0c35_f40d;

#[wasm_bindgen_test(unsupported = test)]
fn msfq_native_and_wasm_agree() {
    assert_eq!(msfq_fingerprint(), MSFQ_FINGERPRINT, "fingerprint {:#x}", msfq_fingerprint());
}

/// The same for the VM engine: Poisson clocks with lazy invalidation, JSQ and power-of-two
/// routing, dummy jobs, MaxWeight's configurations, on one- and three-resource servers.
fn ghra_fingerprint() -> u64 {
    let mut values = Vec::new();
    for (id, policy) in [
        ("ghra-b3", "mw-local"),
        ("ghra-b3", "alg2-jsq"),
        ("ghra-b1", "alg2-po2:f=loglog"),
        ("ghra-b2", "mw-global"),
        ("ghra-b0", "alg1:f=log"),
    ] {
        let mut s = preset(id).unwrap().scenario;
        s.set("horizon", "1000").unwrap();
        s.set("warmup", "100").unwrap();
        s.set("sample_every", "10").unwrap();
        let out = run(id, &s, &PolicySpec::parse(policy).unwrap()).unwrap();
        let r = out.report;
        let Summary::Ghra(m) = r.summary else { panic!("GH-RA") };
        values.extend([
            r.mean_queue.to_bits(),
            r.arrivals,
            r.started,
            r.mean_occupancy.to_bits(),
            m.mean_delay.to_bits(),
            m.dummy_share.to_bits(),
            m.dummies_started,
            m.refreshes,
        ]);
        values.extend(out.queue.iter().map(|p| p.mean.to_bits()));
    }
    fingerprint(values)
}

const GHRA_FINGERPRINT: u64 = 0x3624_c526_03f8_43e6;

#[wasm_bindgen_test(unsupported = test)]
fn ghra_native_and_wasm_agree() {
    assert_eq!(ghra_fingerprint(), GHRA_FINGERPRINT, "fingerprint {:#x}", ghra_fingerprint());
}

/// The same for the PG-AS loss model: DRA's CRA and migrations, power-of-d's sampling,
/// DRA+Preemption on the synthetic trace (its generator included), and the upper bound's LP (6)
/// certificates (microlp in floating point) and knapsack.
fn pgas_fingerprint() -> u64 {
    let mut values = Vec::new();
    for (id, policy, keys) in [
        ("pgas-c3", "dra", &[("servers", "24"), ("horizon", "20"), ("warmup", "5")][..]),
        ("pgas-c3", "po-d", &[("servers", "24"), ("horizon", "20"), ("warmup", "5")][..]),
        ("pgas-c6", "upper-bound", &[("servers", "20"), ("horizon", "10"), ("warmup", "2")][..]),
        ("pgas-c5", "dra-preempt", &[("servers", "30"), ("horizon", "5"), ("warmup", "1")][..]),
        ("pgas-c5", "upper-bound", &[("servers", "30"), ("horizon", "5"), ("warmup", "1")][..]),
    ] {
        let mut s = preset(id).unwrap().scenario;
        for (k, v) in keys {
            s.set(k, v).unwrap();
        }
        let out = run(id, &s, &PolicySpec::parse(policy).unwrap()).unwrap();
        let r = out.report;
        let Summary::Pgas(m) = r.summary else { panic!("PG-AS") };
        values.extend([
            r.arrivals,
            r.started,
            m.normalized_reward.to_bits(),
            m.overall_blocking.to_bits(),
            m.migrations,
            m.preemptions,
            m.reconfigurations,
            m.mean_reject_group.to_bits(),
        ]);
        values.extend(out.reward.iter().map(|p| p.mean.to_bits()));
    }
    fingerprint(values)
}

const PGAS_FINGERPRINT: u64 = 0x664d_d9e1_c467_4b62;

#[wasm_bindgen_test(unsupported = test)]
fn pgas_native_and_wasm_agree() {
    assert_eq!(pgas_fingerprint(), PGAS_FINGERPRINT, "fingerprint {:#x}", pgas_fingerprint());
}

/// The synthetic traces (their draws go through `ln` and `exp`) and a run of pgrr-a5 on one.
fn trace_fingerprint() -> u64 {
    use packlab_core::trace::synth::{GoogleSynth, SwfSynth};
    let mut swf = Vec::new();
    SwfSynth::new(500, 2).write(&mut swf).unwrap();
    let packlab_core::trace::Loaded::Swf(log) = packlab_core::trace::read_bytes(&swf).unwrap() else {
        panic!("an SWF log")
    };
    let mut values = vec![GoogleSynth::new(3000, 2).trace().unwrap().fingerprint(), log.fingerprint()];
    let mut s = preset("pgrr-a5").unwrap().scenario;
    s.set("horizon", "3000").unwrap();
    s.set("load", "1.5").unwrap();
    let out = run("pgrr-a5", &s, &PolicySpec::parse("vqs-bf").unwrap()).unwrap();
    values.extend([out.report.mean_queue.to_bits(), out.report.arrivals, out.report.started]);
    values.extend(out.queue.iter().map(|p| p.mean.to_bits()));
    fingerprint(values)
}

const TRACE_FINGERPRINT: u64 = 0xfe86_7751_e9cf_dfbd;

#[wasm_bindgen_test(unsupported = test)]
fn traces_native_and_wasm_agree() {
    assert_eq!(trace_fingerprint(), TRACE_FINGERPRINT, "fingerprint {:#x}", trace_fingerprint());
}

/// The same for scripts (issue 58): a starting point, and scripts that stop on their budget at
/// a moment that depends on the run (what a call spends follows the queue), so the budget must
/// count the same operations on both targets; the moment and the message are in the print.
fn script_fingerprint() -> u64 {
    use packlab_core::report::live_run;
    use packlab_core::view::Watch;
    let spends = |per_job: u64, note: &str| {
        format!(
            "fn schedule(ctx) {{\n  let w = ctx.waiting();\n  let n = 0;\n  while n < {per_job} * w.len() {{ n += 1; {note} }}\n  \
             for j in w {{ let s = ctx.best_fit(j); if s != () {{ ctx.start(j, s); }} }}\n}}\n"
        )
    };
    let sources = [
        include_str!("../src/models/pgrr/scripts/best_fit.rhai").to_string(),
        // The run's budget: about 4·10^4 operations per waiting job and call, so the call it
        // runs out in follows the arrivals.
        spends(10_000, ""),
        // Notes cost the same whether or not they are kept (this run keeps some).
        spends(10_000, "ctx.note(\"n\", w);"),
    ];
    let mut values = Vec::new();
    for source in &sources {
        let mut s = preset("pgrr-a1").unwrap().scenario;
        s.set("horizon", "20000").unwrap();
        let spec = PolicySpec::parse(&packlab_core::script::spec_text(source).unwrap()).unwrap();
        let mut run = live_run(&s, &spec, Watch::page(64).with_log(64)).unwrap();
        let stopped = run.run_to(20_000.0).err().map(|e| e.to_string()).unwrap_or_default();
        let r = run.readings();
        values.extend([run.now().to_bits(), r.arrivals, run.decisions().count()]);
        values.extend(stopped.bytes().map(u64::from));
    }
    fingerprint(values)
}

const SCRIPT_FINGERPRINT: u64 = 0xeb44_6a82_9691_a20d;

#[wasm_bindgen_test(unsupported = test)]
fn scripts_native_and_wasm_agree() {
    assert_eq!(script_fingerprint(), SCRIPT_FINGERPRINT, "fingerprint {:#x}", script_fingerprint());
}
