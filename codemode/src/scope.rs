//! The run's stage stack (`code-mode.md` section 2): the ambient allow-list and the
//! pushed stage policies, which can only tighten. Applied on every child call, so a
//! manifest built for a wider scope cannot be used to escape a narrower one.

use harn_compiler::manifest::{Binding, Level, StagePolicy};
use serde_json::{Value as Json, json};

use crate::options::Options;

/// Name used in receipts for the host's ambient allow-list.
const AMBIENT: &str = "ambient";

pub struct Scope {
    /// Outermost first; the ambient allow-list, when given, is the first entry.
    stack: Vec<StagePolicy>,
}

/// A refused out-of-scope call: the stage that excludes it and that stage's list.
pub struct Violation {
    pub stage: String,
    pub allowed_tools: Vec<String>,
}

impl Scope {
    /// The stack for a run: ambient allow-list, the active declared stage, then `scope`.
    /// The active stage must have been validated to exist.
    pub fn new(options: &Options) -> Scope {
        let mut stack = Vec::new();
        if let Some(allowed) = &options.allowed_tools {
            stack.push(StagePolicy {
                name: AMBIENT.into(),
                allowed_tools: Some(allowed.clone()),
                ..StagePolicy::default()
            });
        }
        if let Some(active) = &options.stage
            && let Some(stage) = options.stages.iter().find(|s| &s.name == active)
        {
            stack.push(stage.clone());
        }
        stack.extend(options.scope.iter().cloned());
        Scope { stack }
    }

    /// The lowest of `base` and every stage level.
    pub fn ceiling(&self, base: Level) -> Level {
        self.stack
            .iter()
            .filter_map(|s| s.side_effect_level)
            .fold(base, |c, l| if l.rank() < c.rank() { l } else { c })
    }

    /// The innermost declared stage (not the ambient list).
    fn innermost(&self) -> Option<&StagePolicy> {
        self.stack.iter().rev().find(|s| s.name != AMBIENT)
    }

    /// `policy_context.scope` of a call record, when stages apply.
    pub fn context(&self, ceiling: Level) -> Option<Json> {
        let stage = self.innermost()?;
        Some(json!({
            "stage": stage.name,
            "allowed_tools": self.effective_allowed(),
            "ceiling": ceiling.as_str(),
        }))
    }

    /// The intersection of every given allow-list (`null` when none restricts).
    fn effective_allowed(&self) -> Json {
        let mut lists = self.stack.iter().filter_map(|s| s.allowed_tools.as_ref());
        let Some(first) = lists.next() else {
            return Json::Null;
        };
        let mut allowed: Vec<String> = first.clone();
        for list in lists {
            allowed.retain(|t| list.contains(t));
        }
        json!(allowed)
    }

    /// The innermost stage whose allow-list excludes the binding, if any.
    pub fn violation(&self, binding: &Binding) -> Option<Violation> {
        self.stack.iter().rev().find_map(|stage| {
            let list = stage.allowed_tools.as_ref()?;
            let inside = list
                .iter()
                .any(|t| t == &binding.name || t == &binding.binding);
            (!inside).then(|| Violation {
                stage: stage.name.clone(),
                allowed_tools: list.clone(),
            })
        })
    }
}
