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

#[derive(Clone, Copy)]
struct Budget {
    walked: u64,
    /// Visits allowed before the next settlement, and the run's `max_instructions`.
    allowance: Option<(u64, u64)>,
    deadline: Option<(Instant, u64)>,
}

impl Budget {
    const UNARMED: Budget = Budget {
        walked: 0,
        allowance: None,
        deadline: None,
    };
}

thread_local! {
    // A constant initial value: no first-use check on every visit.
    static BUDGET: Cell<Budget> = const { Cell::new(Budget::UNARMED) };
}

/// One value visited at nesting `depth` of a recursive walk (comparing, displaying,
/// keying, serialising): counted as [`step`] counts it, and refused past
/// [`crate::value::MAX_VALUE_DEPTH`].
pub fn visit(depth: usize) -> Result<(), VmError> {
    step()?;
    if depth > crate::value::MAX_VALUE_DEPTH {
        return Err(crate::value::too_deep_error());
    }
    Ok(())
}

/// Runs `frame`, the walk's step at nesting `depth`, on a stack grown every 32 levels,
/// so that the deepest value the walks accept fits on any thread.
#[inline]
pub fn with_room<R>(depth: usize, frame: impl FnOnce() -> R) -> R {
    if depth % 32 == 31 {
        harn_compiler::stack::maybe_grow(128 * 1024, 2 * 1024 * 1024, frame)
    } else {
        frame()
    }
}

/// Checks the deadline every this many visits.
const CLOCK_EVERY: u64 = 1 << 16;

/// Counts one visited element.
#[inline]
pub fn step() -> Result<(), VmError> {
    if try_step() {
        return Ok(());
    }
    BUDGET.with(|b| {
        let mut budget = b.get();
        budget.walked += 1;
        b.set(budget);
        match (budget.allowance, budget.deadline) {
            (Some((allowed, max)), _) if budget.walked > allowed => {
                Err(VmError::limit(Limit::Instructions(max)))
            }
            (_, Some((_, ms))) => Err(VmError::limit(Limit::Timeout(ms))),
            // Unreachable: `try_step` refuses a visit only past one of the two limits.
            _ => Ok(()),
        }
    })
}

/// [`step`] for a caller with no way to report an error (the VM's fast lane): `true`
/// when the visit stays within the limits, and is counted; `false` otherwise, with
/// nothing counted, so the caller can leave the visit to code that reports the error.
#[inline]
pub fn try_step() -> bool {
    BUDGET.with(|b| {
        let mut budget = b.get();
        let walked = budget.walked + 1;
        if let Some((allowed, _)) = budget.allowance
            && walked > allowed
        {
            return false;
        }
        if walked % CLOCK_EVERY == 0
            && let Some((at, _)) = budget.deadline
            && Instant::now() >= at
        {
            return false;
        }
        budget.walked = walked;
        b.set(budget);
        true
    })
}

/// Counts `n` visited elements at once, as `n` calls of [`step`] would: the same fuel,
/// and the same limit error when they would overrun it or the deadline. One read and
/// write of the budget for all of them (the parts of an interpolation).
pub fn steps(n: u64) -> Result<(), VmError> {
    BUDGET.with(|b| {
        let mut budget = b.get();
        let before = budget.walked;
        budget.walked = before.saturating_add(n);
        b.set(budget);
        if let Some((allowed, max)) = budget.allowance
            && budget.walked > allowed
        {
            return Err(VmError::limit(Limit::Instructions(max)));
        }
        // The clock is read when the visits pass a multiple of `CLOCK_EVERY`, as one
        // visit at a time would read it on landing there.
        if budget.walked / CLOCK_EVERY != before / CLOCK_EVERY
            && let Some((at, ms)) = budget.deadline
            && Instant::now() >= at
        {
            return Err(VmError::limit(Limit::Timeout(ms)));
        }
        Ok(())
    })
}

/// The visits counted since the last settlement (they are fuel), restarting the count.
pub(crate) fn take() -> u64 {
    BUDGET.with(|b| {
        let mut budget = b.get();
        let walked = budget.walked;
        budget.walked = 0;
        b.set(budget);
        walked
    })
}

/// Allows `allowance` visits of a run with `max_instructions = max` (none: unlimited)
/// until the next settlement, and sets the deadline.
pub(crate) fn arm(allowance: Option<(u64, u64)>, deadline: Option<(Instant, u64)>) {
    BUDGET.with(|b| {
        b.set(Budget {
            walked: 0,
            allowance,
            deadline,
        });
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
