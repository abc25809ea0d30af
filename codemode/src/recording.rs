//! `harnc run --record FILE`: a host wrapper that notes every answer the real host gave
//! (each attempt, in order, per tool) and writes them as a fixtures file (the format
//! of `fixtures.rs`), so a snippet can be re-run offline against what the servers said.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use harn_compiler::manifest::Binding;
use serde_json::{Map, Value as Json, json};

use crate::host::{ToolError, ToolFuture, ToolHost};

/// Wraps a host and keeps each tool's answers.
pub struct RecordingHost {
    inner: Rc<dyn ToolHost>,
    answers: Rc<RefCell<BTreeMap<String, Vec<Json>>>>,
}

impl RecordingHost {
    pub fn new(inner: Rc<dyn ToolHost>) -> RecordingHost {
        RecordingHost {
            inner,
            answers: Rc::default(),
        }
    }

    /// The answers as a fixtures document: one step per tool answered once, else a
    /// sequence in call order.
    pub fn fixtures(&self) -> Json {
        let answers = self.answers.borrow();
        let mut out = Map::new();
        for (tool, steps) in answers.iter() {
            let entry = match steps.as_slice() {
                [one] => one.clone(),
                many => json!({ "sequence": many }),
            };
            out.insert(tool.clone(), entry);
        }
        Json::Object(out)
    }
}

fn step_of(outcome: &Result<Json, ToolError>) -> Json {
    match outcome {
        Ok(v) => json!({ "output": v }),
        Err(e) => {
            let mut step = json!({
                "error": e.message,
                "category": e.category.as_str(),
                "retryable": e.retryable,
            });
            if let Some(ms) = e.retry_after_ms {
                step["retry_after_ms"] = json!(ms);
            }
            if let Some(status) = e.http_status {
                step["http_status"] = json!(status);
            }
            step
        }
    }
}

impl ToolHost for RecordingHost {
    fn call(&self, binding: &Binding, input: Json) -> ToolFuture {
        let answers = Rc::clone(&self.answers);
        let tool = binding.name.clone();
        let call = self.inner.call(binding, input);
        Box::pin(async move {
            let outcome = call.await;
            answers
                .borrow_mut()
                .entry(tool)
                .or_default()
                .push(step_of(&outcome));
            outcome
        })
    }

    fn executor_tag(&self, binding: &Binding) -> Json {
        self.inner.executor_tag(binding)
    }
}
