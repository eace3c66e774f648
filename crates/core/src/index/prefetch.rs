//! A hint that memory will be read soon.
//!
//! At 10^4 servers the slotted engine's working set (the servers' job lists, the residual
//! index) is megabytes, and most of a departure's cost was waiting for two cache misses in
//! turn: the server's record, then its list of jobs (issue 35). The departures of a slot are
//! known before the first one is handled, so the engine can ask for the lines of the ones a few
//! places ahead and let the misses overlap. A hint changes no value, only when it arrives.

/// Asks the processor to bring the cache line holding `value` close. Does nothing where the
/// target has no prefetch instruction (wasm32, for one).
#[inline(always)]
pub fn prefetch<T>(value: *const T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: the intrinsic is unsafe only because it needs SSE, which every x86-64
        // processor has (it is in the target's baseline). A prefetch never faults and reads
        // nothing the program sees, whatever the address.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(value.cast::<i8>()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
