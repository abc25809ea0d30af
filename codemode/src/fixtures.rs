//! The fixtures host (`code-mode.md` 4.7): canned outputs per tool, or scripted
//! sequences of failures and outputs for fault injection. The fixtures file is a JSON
//! object keyed by canonical tool name; each entry is one step or
//! `{"sequence": [step, ...]}` (the last step repeats). A step is `{"output": value}`
//! or `{"error": "message", "category"?: "tool_error", "retryable"?: bool,
//! "retry_after_ms"?: int, "http_status"?: int}`, optionally with `"delay_ms"`.

use std::cell::RefCell;
use std::collections::HashMap;
use std::time::Duration;

use harn_compiler::manifest::Binding;
use serde_json::{Value as Json, json};

use crate::host::{ToolError, ToolFuture, ToolHost};
use crate::record::ChildCategory;

#[derive(Clone, Debug)]
struct Step {
    outcome: Result<Json, ToolError>,
    delay_ms: u64,
}

fn step(v: &Json, at: &str) -> Result<Step, String> {
    let obj = v
        .as_object()
        .ok_or_else(|| format!("fixture {at}: a step must be an object"))?;
    let delay_ms = match obj.get("delay_ms") {
        None => 0,
        Some(d) => d
            .as_u64()
            .ok_or_else(|| format!("fixture {at}: delay_ms must be a non-negative integer"))?,
    };
    let outcome = match (obj.get("output"), obj.get("error")) {
        (Some(out), None) => Ok(out.clone()),
        (None, Some(Json::String(message))) => {
            let category = obj
                .get("category")
                .and_then(Json::as_str)
                .map_or(ChildCategory::ToolError, ChildCategory::from_host);
            let mut e = ToolError::new(category, message.clone());
            e.retryable = obj
                .get("retryable")
                .and_then(Json::as_bool)
                .unwrap_or(false);
            e.retry_after_ms = obj.get("retry_after_ms").and_then(Json::as_u64);
            e.http_status = obj
                .get("http_status")
                .and_then(Json::as_u64)
                .and_then(|s| u16::try_from(s).ok());
            Err(e)
        }
        _ => {
            return Err(format!(
                "fixture {at}: a step needs exactly one of `output` or `error` (a string)"
            ));
        }
    };
    Ok(Step { outcome, delay_ms })
}

/// Answers from a fixtures file.
pub struct FixturesHost {
    steps: HashMap<String, Vec<Step>>,
    calls: RefCell<HashMap<String, usize>>,
}

impl FixturesHost {
    /// Reads the fixtures JSON; errors name the tool and the problem.
    pub fn from_json(v: &Json) -> Result<FixturesHost, String> {
        let map = v
            .as_object()
            .ok_or("fixtures must be an object keyed by tool name")?;
        let mut steps = HashMap::new();
        for (tool, entry) in map {
            let list = match entry.get("sequence") {
                Some(Json::Array(items)) if !items.is_empty() => items
                    .iter()
                    .enumerate()
                    .map(|(i, s)| step(s, &format!("'{tool}' step {i}")))
                    .collect::<Result<Vec<_>, _>>()?,
                Some(_) => {
                    return Err(format!(
                        "fixture '{tool}': sequence must be a non-empty list"
                    ));
                }
                None => vec![step(entry, &format!("'{tool}'"))?],
            };
            steps.insert(tool.clone(), list);
        }
        Ok(FixturesHost {
            steps,
            calls: RefCell::new(HashMap::new()),
        })
    }
}

impl ToolHost for FixturesHost {
    fn call(&self, binding: &Binding, _input: Json) -> ToolFuture {
        let step = self.steps.get(&binding.name).map(|list| {
            let mut calls = self.calls.borrow_mut();
            let n = calls.entry(binding.name.clone()).or_insert(0);
            let s = list[(*n).min(list.len() - 1)].clone();
            *n += 1;
            s
        });
        let name = binding.name.clone();
        Box::pin(async move {
            let Some(step) = step else {
                return Err(ToolError::new(
                    ChildCategory::ToolError,
                    format!("no fixture for tool '{name}'"),
                ));
            };
            if step.delay_ms > 0 {
                tokio::time::sleep(Duration::from_millis(step.delay_ms)).await;
            }
            step.outcome
        })
    }

    fn executor_tag(&self, _binding: &Binding) -> Json {
        json!({"kind": "harn_builtin"})
    }
}
