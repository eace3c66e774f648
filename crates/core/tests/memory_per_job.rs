//! Memory per waiting job, counted by the allocator: what an unstable run costs as its queue
//! grows towards the waiting-queue limit, so that 5·10^6 waiting jobs fit in well under
//! 500 MB, in the browser too (issue 18). The README's table of bytes per waiting job comes
//! from this test (`cargo test --release -p packlab-core --test memory_per_job -- --nocapture`).
//!
//! The bound is 72 bytes: 40 to 58 for FIFO and best fit over a few distinct sizes, up to 70
//! where best fit keeps an ordered-map entry per distinct size (continuous sizes) or VQS keeps
//! its per-type queues next to the engine's queue.
//!
//! The counting allocator is global and tests of one binary run on parallel threads, so each
//! test holds [`ALONE`] while it counts.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use packlab_core::policy::PolicySpec;
use packlab_core::report::live_run;
use packlab_core::scenario::preset;
use packlab_core::view::Watch;

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(new_size, Ordering::Relaxed);
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Held by each test while it reads the allocator.
static ALONE: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Waiting jobs at which the memory is read.
const WAITING: u64 = 150_000;

/// Bytes held per waiting job (growth slack and tombstones included) once `WAITING` jobs wait,
/// over what the run held when its queue was first past 1000.
fn bytes_per_waiting_job(preset_id: &str, sets: &[(&str, &str)], policy: &str) -> f64 {
    let mut scenario = preset(preset_id).unwrap().scenario;
    for (key, value) in sets {
        scenario.set(key, value).unwrap();
    }
    scenario.set("horizon", "1000000000").unwrap();
    scenario.validate().unwrap();
    let policy = PolicySpec::parse(policy).unwrap();
    let mut run = live_run(&scenario, &policy, Watch::batch(64)).unwrap();
    let mut base = None;
    while run.readings().queue_len < WAITING {
        run.run(2_000).unwrap();
        if base.is_none() && run.readings().queue_len > 1000 {
            base = Some((LIVE.load(Ordering::Relaxed), run.readings().queue_len));
        }
    }
    let (bytes, waiting) = base.unwrap();
    let grown = LIVE.load(Ordering::Relaxed) as f64 - bytes as f64;
    grown / (run.readings().queue_len - waiting) as f64
}

/// A preset, the keys it sets and the policies measured on it.
type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a [&'a str]);

#[test]
fn every_engine_keeps_a_waiting_job_in_72_bytes() {
    let overloaded_pgrr = [("servers", "10"), ("load", "5")];
    let cases: &[Case] = &[
        ("pgrr-a1", &overloaded_pgrr, &["bf-js", "bf-s", "vqs", "vqs-bf", "fifo-ff"]),
        ("pgrr-a3", &overloaded_pgrr, &["bf-js", "bf-j", "vqs", "vqs-bf", "fifo-ff-skip"]),
        ("msfq-d1", &[("load", "20")], &["msf", "msfq", "first-fit"]),
        // Algorithms 1 and 2 too, since only the clock ticks that act are simulated: a clock
        // whose queue grows no longer ticks faster in vain (issue 57).
        ("ghra-b1", &[("load", "3")], &["mw-global", "mw-local", "alg1", "alg2-jsq", "alg2-po2"]),
    ];
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    let mut over = Vec::new();
    for (preset_id, sets, policies) in cases {
        for policy in *policies {
            let bytes = bytes_per_waiting_job(preset_id, sets, policy);
            eprintln!("{preset_id} {policy}: {bytes:.1} bytes per waiting job");
            if bytes > 72.0 {
                over.push(format!("{preset_id} {policy}: {bytes:.1}"));
            }
        }
    }
    assert!(over.is_empty(), "more than 72 bytes per waiting job: {}", over.join(", "));
}

/// Bytes held after building the four default lanes of pgrr-a5 (the synthetic Google trace)
/// at `load`, the trace's summary included.
fn bytes_to_build_trace_lanes(load: &str) -> usize {
    let mut scenario = preset("pgrr-a5").unwrap().scenario;
    scenario.set("load", load).unwrap();
    scenario.validate().unwrap();
    let before = LIVE.load(Ordering::Relaxed);
    let runs: Vec<_> = ["bf-js", "vqs", "vqs-bf", "fifo-ff"]
        .iter()
        .map(|p| live_run(&scenario, &PolicySpec::parse(p).unwrap(), Watch::batch(64)).unwrap())
        .collect();
    let bytes = LIVE.load(Ordering::Relaxed).saturating_sub(before);
    drop(runs);
    bytes
}

#[test]
fn lanes_replaying_the_synthetic_trace_hold_none_of_it_before_it_arrives() {
    // At 1/β = 10 the horizon's trace has 1.1·10^6 tasks; held as jobs they took 27 MB (and
    // building them several seconds in the page): each lane now draws them as it reaches them.
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    let (one, ten) = (bytes_to_build_trace_lanes("1"), bytes_to_build_trace_lanes("10"));
    eprintln!("building pgrr-a5's lanes: {one} bytes at load 1, {ten} at load 10");
    assert!(ten < 4 << 20, "{ten} bytes to build the lanes at load 10");
    assert!(ten.abs_diff(one) < 1 << 20, "the load changes the set-up's memory: {one} bytes at 1, {ten} at 10");
}
