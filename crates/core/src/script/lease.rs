//! Lending a model's policy context to a script for one call.
//!
//! rhai calls registered functions through `'static` closures over `'static` values, but a
//! policy context borrows the engine's state for one decision. A [`Lease`] bridges the two:
//! [`Lease::lend`] hands the script a handle for the length of one call, and every registered
//! function reaches the context through [`Lease::with`]. This is the one `unsafe` block of the
//! scripted policies; the argument for it is written beside it.

use std::cell::Cell;
use std::marker::PhantomData;
use std::ptr::NonNull;
use std::rc::Rc;

/// A family of context types, one per lifetime: `PgrrContext<'a>` for every `'a`.
pub trait Family: 'static {
    type Of<'a>;
}

/// A handle to a context lent for one call; clones share the loan.
pub struct Lease<F: Family> {
    slot: Rc<Cell<Option<NonNull<()>>>>,
    family: PhantomData<F>,
}

impl<F: Family> Clone for Lease<F> {
    fn clone(&self) -> Self {
        Self { slot: Rc::clone(&self.slot), family: PhantomData }
    }
}

/// Why a handle could not reach its context.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotLent;

impl<F: Family> Lease<F> {
    /// Runs `call` with a handle to `context`; the handle reaches nothing once `call` returns
    /// (or unwinds).
    pub fn lend<'a, R>(context: &mut F::Of<'a>, call: impl FnOnce(&Self) -> R) -> R {
        let lease = Self { slot: Rc::new(Cell::new(Some(NonNull::from(context).cast()))), family: PhantomData };
        struct Revoke<'s>(&'s Cell<Option<NonNull<()>>>);
        impl Drop for Revoke<'_> {
            fn drop(&mut self) {
                self.0.set(None);
            }
        }
        let _revoke = Revoke(&lease.slot);
        call(&lease)
    }

    /// Runs `use_it` on the lent context; [`NotLent`] outside the loan, or from inside another
    /// `with` on the same loan.
    pub fn with<R>(&self, use_it: impl for<'x> FnOnce(&mut F::Of<'x>) -> R) -> Result<R, NotLent> {
        // Taken out while in use, so a nested call cannot make a second `&mut`.
        let ptr = self.slot.take().ok_or(NotLent)?;
        struct Restore<'s>(&'s Cell<Option<NonNull<()>>>, NonNull<()>);
        impl Drop for Restore<'_> {
            fn drop(&mut self) {
                self.0.set(Some(self.1));
            }
        }
        let _restore = Restore(&self.slot, ptr);
        // SAFETY: the pointer was made in `lend` from a `&mut F::Of<'a>` that `lend` holds,
        // unused, until `call` returns, and `Revoke` clears the slot before that borrow ends,
        // so the pointee is alive and nothing else uses it. It is taken out of the slot for
        // this use, so no second `&mut` to it exists (the handle is `Rc`, so never on another
        // thread). `use_it` must work for every lifetime `'x`, so it cannot keep a borrow of
        // the context, nor store in it anything that lives shorter than `'a`.
        let context = unsafe { ptr.cast::<F::Of<'_>>().as_mut() };
        Ok(use_it(context))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Counter<'a>(&'a mut u32);
    struct Counters;
    impl Family for Counters {
        type Of<'a> = Counter<'a>;
    }

    #[test]
    fn a_handle_reaches_the_context_only_during_the_loan() {
        let mut n = 0;
        let mut counter = Counter(&mut n);
        let kept = Lease::<Counters>::lend(&mut counter, |lease| {
            lease.with(|c| *c.0 += 1).unwrap();
            // Nested use is refused rather than aliased.
            let nested = lease.with(|_| lease.with(|c| *c.0 += 1));
            assert_eq!(nested, Ok(Err(NotLent)));
            lease.clone()
        });
        assert_eq!(kept.with(|c| *c.0 += 1), Err(NotLent));
        assert_eq!(n, 1);
    }
}
