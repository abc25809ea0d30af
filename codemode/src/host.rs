//! Where child calls are performed (`code-mode.md` 4.7).

use std::future::Future;
use std::pin::Pin;

use harn_compiler::manifest::Binding;
use serde_json::{Value as Json, json};

use crate::record::ChildCategory;

/// A failed tool call, with its child error category (wire value) and what the host
/// knows about retrying it (`code-mode.md` 6.2, 6.3).
#[derive(Clone, Debug, PartialEq)]
pub struct ToolError {
    pub category: ChildCategory,
    pub message: String,
    /// The host marked the failure as transient.
    pub retryable: bool,
    /// A structured Retry-After, in milliseconds.
    pub retry_after_ms: Option<u64>,
    /// A host-reported HTTP status.
    pub http_status: Option<u16>,
}

impl ToolError {
    pub fn new(category: ChildCategory, message: impl Into<String>) -> ToolError {
        ToolError {
            category,
            message: message.into(),
            retryable: false,
            retry_after_ms: None,
            http_status: None,
        }
    }
}

pub type ToolFuture = Pin<Box<dyn Future<Output = Result<Json, ToolError>>>>;

/// Performs tool calls.
pub trait ToolHost {
    /// Calls the binding with JSON input.
    fn call(&self, binding: &Binding, input: Json) -> ToolFuture;
    /// The child result's `executor` tag.
    fn executor_tag(&self, binding: &Binding) -> Json;
}

/// The default host: waits `metadata.mock_delay_ms`, then returns
/// `metadata.mock_output` if present (even `null`), else the smallest instance of the
/// tool's `outputSchema` when it has one, else `{"tool": name, "input": input}`.
pub struct MockHost;

impl ToolHost for MockHost {
    fn call(&self, binding: &Binding, input: Json) -> ToolFuture {
        let delay = binding
            .metadata
            .get("mock_delay_ms")
            .and_then(Json::as_u64)
            .unwrap_or(0);
        let output = match (binding.metadata.get("mock_output"), &binding.output_schema) {
            (Some(v), _) => v.clone(),
            (None, Some(schema)) => crate::mock_instance::instance_of(schema),
            (None, None) => json!({"tool": binding.name, "input": input}),
        };
        Box::pin(async move {
            if delay > 0 {
                tokio::time::sleep(std::time::Duration::from_millis(delay)).await;
            }
            Ok(output)
        })
    }

    fn executor_tag(&self, _binding: &Binding) -> Json {
        json!({"kind": "harn_builtin"})
    }
}
