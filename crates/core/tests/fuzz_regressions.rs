//! Inputs that fuzzing (`tests/fuzz.rs`, and the independent run reported in the hardening
//! issue) found to crash, mislead or not survive their own round trip, each kept as a test.

use packlab_core::link::{decode_link, encode_link};
use packlab_core::policy::PolicySpec;

/// Decodes `link`, writes it back as the page does, and decodes that again: no errors, the
/// same scenario and policies.
fn round_trip(link: &str) -> String {
    let (decoded, errors) = decode_link(link);
    assert!(errors.is_empty(), "{link}: {errors:?}");
    let written = encode_link(&decoded.preset, &decoded.policies, &decoded.scenario, &Default::default());
    let (again, errors) = decode_link(&written);
    assert!(errors.is_empty(), "{link} written back as {written}: {errors:?}");
    assert_eq!(again.scenario, decoded.scenario, "{link} written back as {written}");
    assert_eq!(again.policies, decoded.policies, "{link} written back as {written}");
    written
}

/// `ln^1e-12` was accepted, stored as ln^0 and printed so; the parser refused its own output.
#[test]
fn a_reservation_power_too_small_to_keep_is_refused() {
    let err = PolicySpec::parse("dra:g=ln^1e-12").unwrap_err();
    assert_eq!(err.key, "policy");
    assert!(err.message.contains("0.01..=4"), "{}", err.message);
    round_trip("preset=pgas-c3&policy=dra:g=ln^0.5");
}

/// A load like 5e-324 gave an arrival gap of infinity, which tripped the event queue's debug
/// assertion. Such an arrival never comes; the run goes on without it.
#[test]
fn a_vanishing_load_means_no_arrivals_not_a_panic() {
    use packlab_core::report::live_run;
    use packlab_core::view::Watch;
    for link in ["preset=msfq-d1&load=5e-324", "preset=ghra-b3&load=5e-324", "preset=pgas-c3&load=5e-324"] {
        let (decoded, _) = decode_link(link);
        for policy in &decoded.policies {
            if let Ok(mut run) = live_run(&decoded.scenario, policy, Watch::page(16)) {
                run.run(10).unwrap();
                assert_eq!(run.readings().arrivals, 0, "{link} {policy}");
            }
        }
    }
}

/// The page writes back only keys that differ from the preset, but a new horizon alone
/// rescales the warm-up: `horizon=1000000&warmup=200000` (pgrr-a1's own warm-up) reloaded with
/// warm-up 100000. A link with another horizon now carries its warm-up and grid.
#[test]
fn a_new_horizon_with_the_preset_warm_up_survives_the_round_trip() {
    let written = round_trip("preset=pgrr-a1&horizon=1000000&warmup=200000");
    assert!(written.contains("warmup=200000"), "{written}");
    round_trip("preset=pgas-c5&warmup=2&horizon=180");
}

/// `rho=1e-99` was accepted and printed as a fraction with a 100-digit denominator, which the
/// parser (64-bit integers) then refused. Workloads below 1e-6 are now refused by name, and
/// fractions read back whatever their size.
#[test]
fn tiny_workloads_are_refused_and_printed_fractions_read_back() {
    let (_, errors) = decode_link("preset=pgas-c3&rho=1e-99,1,1,1");
    assert_eq!(errors.iter().map(|e| e.key.as_str()).collect::<Vec<_>>(), ["rho"]);
    assert!(errors[0].message.contains("at least 1e-6"), "{}", errors[0].message);
    round_trip("preset=pgas-c3&rho=0.1,1/3,2.000001,12345678901234567890/98765432109876543211");
}

/// A class with a mean size of 5e-324 made nMSR's schedule LP panic inside the solver (an
/// infinite service rate), and means of 1e-10 made it answer wrongly. Mean sizes are now
/// refused below 1e-6, by name, in text, CSV and links.
#[test]
fn vanishing_mean_sizes_are_refused_before_the_lp() {
    use packlab_core::models::msfq::JobClasses;
    for text in ["1@0.9@5e-324,32@0.1", "1@0.9@1e-10,32@0.1"] {
        let e = JobClasses::parse(text).unwrap_err();
        assert!(e.key == "classes" && e.message.contains("[1e-6, 1e6]"), "{text}: {e:?}");
    }
    let e =
        JobClasses::from_csv("need,probability,mean_size\n1,0.5,1\n3,0.25,21e-324\n5,0.2,1\n15,0.05,4\n").unwrap_err();
    assert!(e.message.contains("line 3"), "{e:?}");
    let (link, errors) = decode_link("preset=msfq-d5&policy=nmsr&classes=1@0.9@5e-324,32@0.1");
    assert_eq!(errors[0].key, "classes");
    assert!(!link.policies.is_empty());
}

/// pgas-c5 at a tiny load passed validation, then its synthetic trace held no task and the
/// policies failed with "0 sizes and 0 factors". The load is now refused by name.
#[test]
fn a_synthetic_trace_without_tasks_is_refused_by_its_load() {
    let (link, errors) = decode_link("preset=pgas-c5&load=1e-9");
    assert_eq!(errors.iter().map(|e| e.key.as_str()).collect::<Vec<_>>(), ["load"]);
    assert!(errors[0].message.contains("at least 10"), "{}", errors[0].message);
    assert_eq!(link.policies.len(), 4);
}

/// A class CSV separated by ';' said "holds no class lines", and junk lines before the first
/// class were dropped silently as if they were headers.
#[test]
fn class_csv_separators_and_junk_lines_are_named() {
    use packlab_core::models::msfq::JobClasses;
    use packlab_core::models::pgas::Trace;
    let e = JobClasses::from_csv("need;probability;mean_size\n1;0.9;1\n32;0.1;1\n").unwrap_err();
    assert!(e.message.contains("line 1") && e.message.contains("';'"), "{}", e.message);
    let e = JobClasses::from_csv("hello world\nneed,probability,mean_size\n1,0.9,1\n32,0.1,1\n").unwrap_err();
    assert!(e.message.contains("line 1") && e.message.contains("hello world"), "{}", e.message);
    assert!(JobClasses::from_csv("# a comment\nNeed,Probability,Mean_Size\n1,0.9,1\n32,0.1,1\n").is_ok());
    let e = Trace::from_csv("0;1;0.5;0\n").unwrap_err();
    assert!(e.message.contains("';'"), "{}", e.message);
}

/// The queue-limit message said "slot" for the continuous-time models too.
#[test]
fn the_queue_limit_names_the_model_time() {
    use packlab_core::{EngineError, Moment};
    let slotted = EngineError::QueueLimit { at: Moment::Slot(12), limit: 5 }.to_string();
    let continuous = EngineError::QueueLimit { at: Moment::Time(12), limit: 5 }.to_string();
    assert!(slotted.contains("at slot 12"), "{slotted}");
    assert!(continuous.contains("at time 12") && !continuous.contains("slot"), "{continuous}");
}

/// `--set` trims keys and values; links did not (` load=0.8` was an unknown key).
#[test]
fn link_keys_and_values_are_trimmed() {
    let (link, errors) = decode_link("preset=pgrr-a1&%20load%20=%200.8%20");
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(link.scenario.load(), 0.8);
}

/// A fleet of 1000 servers of distinct capacities (a 14 KB link) enumerated a configuration
/// table per capacity: seconds to decode and, under MaxWeight, gigabytes. The fleet's
/// configurations now have one budget, and the fleet is refused by name beyond it.
#[test]
fn a_fleet_of_distinct_capacities_has_one_configuration_budget() {
    let servers: Vec<String> = (0..1000).map(|i| format!("1x{}/{}/{}", 9000 + i, 1800 + i % 7, 50000 + i)).collect();
    let (link, errors) = decode_link(&format!("preset=ghra-b3&policy=mw-local&servers={}", servers.join(",")));
    assert_eq!(errors.iter().map(|e| e.key.as_str()).collect::<Vec<_>>(), ["servers"]);
    assert!(errors[0].message.contains("distinct capacities"), "{}", errors[0].message);
    assert_eq!(link.scenario.get("servers").unwrap(), "5xsmall,5xlarge");
    // A fleet of many distinct but small servers stays within it.
    let small: Vec<String> = (0..1000).map(|i| format!("1x{}/{}/{}", 300 + i, 60 + i % 7, 4000 + i)).collect();
    let (_, errors) = decode_link(&format!("preset=ghra-b3&policy=mw-local&servers={}", small.join(",")));
    assert!(errors.is_empty(), "{errors:?}");
}

/// Thousands of parameterised policy copies in one link took seconds to decode.
#[test]
fn a_link_names_a_bounded_number_of_policies() {
    let list: Vec<String> = (0..5000).map(|d| format!("po-d:d={}", d % 1000 + 1)).collect();
    let (link, errors) = decode_link(&format!("preset=pgas-c3&policy={}", list.join(",")));
    assert_eq!(errors.iter().map(|e| e.key.as_str()).collect::<Vec<_>>(), ["policy"]);
    assert!(errors[0].message.contains("5000 policies"), "{}", errors[0].message);
    assert_eq!(link.policies.len(), 16);
}

/// Found by `scripts/fuzz` (seed 8548537727859582626): a class table whose probabilities sum
/// to 1 within the tolerance was shown with its rescaled probabilities, and rescaling those
/// again moved their last bits, so the text did not read back to the same table. The text now
/// shows the probabilities as written.
#[test]
fn a_rescaled_class_table_reads_back_from_its_text() {
    use packlab_core::models::msfq::JobClasses;
    let written = "1@0.299219@14.121,2@0.209453@14.121,3@0.146617@14.121,4@0.102632@14.121,\
                   5@0.071842@14.121,6@0.05029@14.121,8@0.035203@14.121,10@0.024642@14.121,\
                   12@0.017249@14.121,16@0.012075@14.121,20@0.0052@14.121,24@0.005917@14.121,\
                   32@0.004142@14.121,40@0.002899@14.121,48@0.002029@14.121,64@0.001421@14.121,\
                   80@0.000994@14.121,96@0.000696@14.121,128@0.000487@14.121,160@0.000341@14.121,\
                   256@0.0014266@228.728,320@0.0008559@228.728,512@0.0005136@228.728,\
                   768@0.0003081@228.728,1024@0.0001849@228.728,2048@0.0001109@228.728";
    let table = JobClasses::parse(written).unwrap();
    let shown = table.to_string();
    assert_eq!(shown, written);
    assert_eq!(JobClasses::parse(&shown).unwrap(), table);
    let sum: f64 = table.as_slice().iter().map(|c| c.probability).sum();
    assert!((sum - 1.0).abs() < 1e-12, "the table samples with rescaled probabilities");
    // Out of order, with fractions: shown sorted by need, reading back the same.
    let table = JobClasses::parse("32@1/10,1@0.8999").unwrap();
    assert_eq!(JobClasses::parse(&table.to_string()).unwrap(), table);
}

/// A key given twice in a link took its last value silently (issue 20, item 9); now it is
/// named, with the value used.
#[test]
fn a_repeated_link_key_is_named() {
    let (link, errors) = decode_link("preset=pgrr-a1&servers=3&seed=2&servers=5");
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].key, "servers");
    assert!(errors[0].message.contains("given 2 times") && errors[0].message.contains("'5'"), "{}", errors[0].message);
    assert_eq!(link.scenario.get("servers").as_deref(), Some("5"));
    assert_eq!(link.scenario.get("seed").as_deref(), Some("2"));
}

/// A bad value with a right-to-left override reversed the rest of the message, and a
/// 5 000-character one overflowed the page's notice (issue 20, item 9).
#[test]
fn bad_values_are_quoted_safely() {
    let (_, errors) = decode_link("preset=pgrr-a1&seed=12%E2%80%AE34");
    assert!(errors[0].message.contains("\\u{202e}") && !errors[0].message.contains('\u{202e}'), "{:?}", errors[0]);
    let long = "9".repeat(5000);
    let (_, errors) = decode_link(&format!("preset=pgrr-a1&horizon={long}"));
    assert!(errors[0].message.len() < 300, "{}", errors[0].message);
    assert!(errors[0].message.contains("5000 characters"), "{}", errors[0].message);
}

/// Scripts that crashed or hung (issue 58 and `tests/fuzz_scripts.rs`): `sleep(1e300)`
/// panicked converting seconds to a `Duration`, in the editor's check and while a link was
/// decoded; `s.pad(n, "")` looped for ever in rhai's own `pad`; a float list holding NaN and a
/// comparator that is no order went to the standard library's sort, which may panic on them
/// (and a panic aborts the page). Each now stops or runs, by name.
#[test]
fn scripts_that_panicked_or_hung_stop_by_name() {
    use packlab_core::script::check;
    let said = |top: &str| check(&format!("fn schedule(ctx) {{}}\n{top}")).first().map(|e| e.to_string());
    for top in ["sleep(1e300);", "sleep(0.0 / 0.0);", "sleep(9223372036854775807);"] {
        let e = said(top).unwrap_or_else(|| panic!("{top} ran"));
        assert!(e.starts_with("script line 2: sleep is not available"), "{top}: {e}");
    }
    assert_eq!(said("let s = \"ab\"; s.pad(4000, \"\"); if s != \"ab\" { throw s; }"), None);
    let nan_list =
        "let a = []; for i in 0..2000 { a.push(if i % 3 == 0 { 0.0 / 0.0 } else { (i * 7919 % 1000).to_float() }); }";
    assert_eq!(said(&format!("{nan_list} a.sort(); a.sort_desc(); a.order();")), None);
    assert_eq!(said(&format!("{nan_list} a.sort(|x, y| if x < y {{ 1 }} else {{ -1 }}); a.sort(|x, y| true);")), None);
    let sorted = "let a = [3, 1, 2, 1]; a.sort(); if a != [1, 1, 2, 3] { throw a; } a.sort(|x, y| y - x); if a != [3, 2, 1, 1] { throw a; }";
    assert_eq!(said(sorted), None);
    let e = said("let m = #{}; let i = 0; loop { m[`k${i}`] = i; i += 1; }").unwrap();
    assert!(e.contains("size of object map exceeded 1000 map entries"), "{e}");
}
