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

#[derive(Clone, Copy, Default)]
struct Budget {
    walked: u64,
    /// Visits allowed before the next settlement, and the run's `max_instructions`.
    allowance: Option<(u64, u64)>,
    deadline: Option<(Instant, u64)>,
}

thread_local! {
    static BUDGET: Cell<Budget> = Cell::new(Budget::default());
}

/// Checks the deadline every this many visits.
const CLOCK_EVERY: u64 = 1 << 16;

/// Counts one visited element.
#[inline]
pub fn step() -> Result<(), VmError> {
    BUDGET.with(|b| {
        let mut budget = b.get();
        budget.walked += 1;
        b.set(budget);
        if let Some((allowed, max)) = budget.allowance
            && budget.walked > allowed
        {
            return Err(VmError::limit(Limit::Instructions(max)));
        }
        if budget.walked % CLOCK_EVERY == 0
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
