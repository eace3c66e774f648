//! Counts the bytes the program allocates, so the timeline can weigh its checkpoints exactly.
//!
//! A checkpoint is a clone of every lane's run; what it holds (queues, servers, series) depends
//! on the scenario and on how far an unstable run has grown, so no formula gives its size. The
//! allocator below counts every allocation on the thread that makes it, and
//! [`allocated_during`] reads the count around a clone: the clone's bytes, whatever the model.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, counting the bytes each thread allocates.
pub struct CountingAllocator;

thread_local! {
    // `const` and without a destructor: reading it never allocates, as an allocator must not.
    static ALLOCATED: Cell<u64> = const { Cell::new(0) };
}

fn count(bytes: usize) {
    // `try_with`: a thread being torn down may still free and allocate.
    let _ = ALLOCATED.try_with(|a| a.set(a.get().wrapping_add(bytes as u64)));
}

// SAFETY: every call is forwarded to `System` unchanged; the count is only a side effect.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: the caller's contract is `System`'s.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size.saturating_sub(layout.size()));
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// Runs `f` and returns its result with the bytes it allocated on this thread (what a clone
/// made by `f` holds, since cloning only allocates).
pub fn allocated_during<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let before = ALLOCATED.with(Cell::get);
    let value = f();
    (value, ALLOCATED.with(Cell::get).wrapping_sub(before))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_what_a_clone_allocates() {
        let v: Vec<u64> = (0..10_000).collect();
        let (copy, bytes) = allocated_during(|| v.clone());
        assert_eq!(copy.len(), 10_000);
        assert_eq!(bytes, 80_000);
        let ((), none) = allocated_during(|| ());
        assert_eq!(none, 0);
    }
}
