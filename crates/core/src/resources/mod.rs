//! Resource vectors in integer units (SPEC 1.3, RES-3), and the configurations of a server:
//! the job counts per type that fit it.
//!
//! Every model stores capacities and demands as integers so that fit tests are exact: the
//! PG-RR sizes 0.4 + 0.6 fill a server exactly, and partition boundaries such as 2/3 compare
//! without rounding. Continuous sizes are drawn on a fine integer grid (see
//! [`crate::models::pgrr::sizes`]).

pub mod capacity;
pub mod configurations;

pub use configurations::{Configurations, FleetConfigurations, TooManyConfigurations};
use serde::{Deserialize, Serialize};

/// The most resource dimensions any model uses (GH-RA: memory, CPU, storage).
pub const MAX_RESOURCES: usize = 4;

/// A vector of up to [`MAX_RESOURCES`] integer amounts, one per resource dimension.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Resources {
    dims: u8,
    amounts: [u64; MAX_RESOURCES],
}

impl Resources {
    /// A one-dimensional amount (PG-RR, MSFQ).
    pub const fn scalar(amount: u64) -> Self {
        Self { dims: 1, amounts: [amount, 0, 0, 0] }
    }

    /// A vector of the given amounts; `None` if there are none or more than
    /// [`MAX_RESOURCES`].
    pub fn from_slice(amounts: &[u64]) -> Option<Self> {
        if amounts.is_empty() || amounts.len() > MAX_RESOURCES {
            return None;
        }
        let mut out = [0; MAX_RESOURCES];
        out[..amounts.len()].copy_from_slice(amounts);
        Some(Self { dims: amounts.len() as u8, amounts: out })
    }

    /// The zero vector with `dims` dimensions.
    pub fn zero(dims: usize) -> Self {
        assert!((1..=MAX_RESOURCES).contains(&dims), "resource dimension out of range");
        Self { dims: dims as u8, amounts: [0; MAX_RESOURCES] }
    }

    pub fn dims(&self) -> usize {
        self.dims as usize
    }

    pub fn as_slice(&self) -> &[u64] {
        &self.amounts[..self.dims as usize]
    }

    /// The first dimension: the whole vector in one-dimensional models.
    pub fn primary(&self) -> u64 {
        self.amounts[0]
    }

    /// `self + other ≤ capacity` in every dimension.
    pub fn fits_with(&self, other: &Self, capacity: &Self) -> bool {
        debug_assert_eq!(self.dims, other.dims);
        debug_assert_eq!(self.dims, capacity.dims);
        self.as_slice()
            .iter()
            .zip(other.as_slice())
            .zip(capacity.as_slice())
            .all(|((a, b), c)| a.checked_add(*b).is_some_and(|s| s <= *c))
    }

    /// Componentwise sum. Callers check capacity first, so overflow is a bug.
    pub fn plus(&self, other: &Self) -> Self {
        let mut out = *self;
        for (a, b) in out.amounts.iter_mut().zip(other.amounts) {
            *a = a.checked_add(b).expect("resource amount overflow");
        }
        out
    }

    /// Componentwise difference. Removing more than is present is a bug.
    pub fn minus(&self, other: &Self) -> Self {
        let mut out = *self;
        for (a, b) in out.amounts.iter_mut().zip(other.amounts) {
            *a = a.checked_sub(b).expect("resource amount underflow");
        }
        out
    }

    /// `self ≤ other` in every dimension, compared without an early exit: for asking of
    /// several demands whether each fits the same free room (GH-RA's clocks, at every start
    /// and departure), where the branch of a loop that stops at the first full resource is
    /// hard to predict.
    pub fn fits_in(&self, free: &Self) -> bool {
        self.as_slice().iter().zip(free.as_slice()).fold(true, |ok, (a, b)| ok & (a <= b))
    }

    /// `self ≤ other` in every dimension.
    pub fn le(&self, other: &Self) -> bool {
        self.as_slice().iter().zip(other.as_slice()).all(|(a, b)| a <= b)
    }
}

impl std::fmt::Debug for Resources {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_is_exact_and_componentwise() {
        let cap = Resources::from_slice(&[10, 4]).unwrap();
        let used = Resources::from_slice(&[6, 1]).unwrap();
        assert!(Resources::from_slice(&[4, 3]).unwrap().fits_with(&used, &cap));
        assert!(!Resources::from_slice(&[5, 0]).unwrap().fits_with(&used, &cap));
        assert!(!Resources::from_slice(&[1, 4]).unwrap().fits_with(&used, &cap));
        assert!(!Resources::scalar(u64::MAX).fits_with(&Resources::scalar(1), &Resources::scalar(u64::MAX)));
    }

    #[test]
    fn arithmetic_round_trips() {
        let a = Resources::from_slice(&[3, 5, 7]).unwrap();
        let b = Resources::from_slice(&[1, 2, 3]).unwrap();
        assert_eq!(a.plus(&b).minus(&b), a);
        assert!(b.le(&a));
        assert!(Resources::from_slice(&[]).is_none());
        assert!(Resources::from_slice(&[1; 5]).is_none());
    }
}
