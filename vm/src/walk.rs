//! Work done walking values is fuel too (`code-mode.md` 4.8: "one unit per element
//! processed by natives"). Displaying, comparing, hashing or serialising a value visits
//! every element, and a value built from shared parts (`x = [x, x]` forty times) has
//! far more elements than memory suggests; each visit is counted here and the VM adds the
//! count to the run's fuel. A walk that would overrun the fuel left, or the deadline,
//! stops with that limit's error instead of running on.
//!
//! The count is per thread, as runs are: the VM arms it with the fuel left whenever it
//! settles its fuel, and disarms it when a VM without limits starts.

use std::cell::Cell;
use std::time::Instant;

use crate::error::{Limit, VmError};

/// The walk's budget, one cell per field: a visit reads the count and the allowance and
/// writes the count, rather than copying the whole budget out and back in (which was
/// most of a visit's cost in string building).
struct Budget {
    walked: Cell<u64>,
    /// Visits allowed before the next settlement, and the run's `max_instructions`.
    allowance: Cell<Option<(u64, u64)>>,
    deadline: Cell<Option<(Instant, u64)>>,
}

thread_local! {
    // A constant initial value: no first-use check on every visit.
    static BUDGET: Budget = const {
        Budget {
            walked: Cell::new(0),
            allowance: Cell::new(None),
            deadline: Cell::new(None),
        }
    };
}

/// Checks the deadline every this many visits.
const CLOCK_EVERY: u64 = 1 << 16;

/// Counts one visited element.
#[inline]
pub fn step() -> Result<(), VmError> {
    steps(1)
}

/// Counts `n` visited elements at once, as `n` calls of [`step`] would: the same fuel,
/// and the same limit error when they would overrun it or the deadline.
#[inline]
pub fn steps(n: u64) -> Result<(), VmError> {
    if try_steps(n) {
        return Ok(());
    }
    BUDGET.with(|b| {
        b.walked.set(b.walked.get().saturating_add(n));
        match (b.allowance.get(), b.deadline.get()) {
            (Some((allowed, max)), _) if b.walked.get() > allowed => {
                Err(VmError::limit(Limit::Instructions(max)))
            }
            (_, Some((_, ms))) => Err(VmError::limit(Limit::Timeout(ms))),
            // Unreachable: `try_steps` refuses visits only past one of the two limits.
            _ => Ok(()),
        }
    })
}

/// [`step`] for a caller with no way to report an error (the VM's fast lane): `true`
/// when the visit stays within the limits, and is counted; `false` otherwise, with
/// nothing counted, so the caller can leave the visit to code that reports the error.
#[inline]
pub fn try_step() -> bool {
    try_steps(1)
}

/// [`try_step`] for `n` visits at once; the clock is read when they pass a multiple of
/// [`CLOCK_EVERY`], as one visit at a time would.
#[inline]
fn try_steps(n: u64) -> bool {
    BUDGET.with(|b| {
        let before = b.walked.get();
        let walked = before.saturating_add(n);
        if let Some((allowed, _)) = b.allowance.get()
            && walked > allowed
        {
            return false;
        }
        if walked / CLOCK_EVERY != before / CLOCK_EVERY
            && let Some((at, _)) = b.deadline.get()
            && Instant::now() >= at
        {
            return false;
        }
        b.walked.set(walked);
        true
    })
}

/// The visits counted since the last settlement (they are fuel), restarting the count.
pub(crate) fn take() -> u64 {
    BUDGET.with(|b| b.walked.replace(0))
}

/// Allows `allowance` visits of a run with `max_instructions = max` (none: unlimited)
/// until the next settlement, and sets the deadline.
pub(crate) fn arm(allowance: Option<(u64, u64)>, deadline: Option<(Instant, u64)>) {
    BUDGET.with(|b| {
        b.walked.set(0);
        b.allowance.set(allowance);
        b.deadline.set(deadline);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `steps(n)` counts what `n` calls of `step` count, and fails where they would:
    /// the visit that passes the allowance is refused, whether it comes alone or in a
    /// batch.
    #[test]
    fn a_batch_counts_and_fails_as_single_steps() {
        arm(Some((10, 10)), None);
        assert!(steps(4).is_ok());
        assert!(step().is_ok());
        assert_eq!(take(), 5);
        arm(Some((10, 10)), None);
        assert!(steps(10).is_ok());
        assert!(step().is_err());
        arm(Some((10, 10)), None);
        assert!(steps(9).is_ok());
        assert!(steps(2).is_err());
        arm(Some((10, 10)), None);
        assert!(try_step());
        assert_eq!(take(), 1);
        arm(None, None);
    }

    /// The clock is read when a batch passes a multiple of `CLOCK_EVERY`, not only when
    /// it lands on one: a passed deadline stops a batch that straddles the multiple.
    #[test]
    fn a_batch_across_the_clock_multiple_reads_the_clock() {
        arm(None, Some((Instant::now(), 5)));
        assert!(steps(CLOCK_EVERY - 10).is_ok());
        assert!(matches!(
            steps(20).map_err(|e| e.kind),
            Err(crate::error::ErrorKind::Limit(Limit::Timeout(5)))
        ));
        arm(None, None);
    }
}
