//! `tools/call` results checked against the tool's `outputSchema`, when the client is built with
//! [`ClientBuilder::validate_output`]. The specification's tools page ("Output Schema") says:
//! "Clients **SHOULD** validate structured results against this schema."
//!
//! Each listed tool's schema is compiled once, by [`Client::list_tools`]; a call of a tool not
//! listed yet lists the tools once first. A tool listed without an `outputSchema` (or with one
//! that does not compile, which is logged) is not checked.

use std::collections::HashMap;
use std::sync::Arc;

use mcp_core::output::OutputValidator;
use mcp_core::{CallToolResult, Tool};
use mcp_io::lock;

use crate::error::ClientError;
use crate::outgoing::Answer;
use crate::{Client, ClientBuilder};

/// The compiled `outputSchema` of each listed tool, by name (`None`: it has none).
pub(crate) type Checks = HashMap<String, Option<Arc<OutputValidator>>>;

impl ClientBuilder {
    /// Whether each `tools/call` result is checked against the `outputSchema` the server listed
    /// for the tool (off unless turned on). A successful result whose `structuredContent` does
    /// not conform (or that has none) fails with [`ClientError::OutputSchema`], naming the JSON
    /// path and the keyword that failed; an `isError` result is not checked. Schemas are
    /// compiled once per [`Client::list_tools`]; calling a tool not listed yet lists the tools
    /// once first.
    ///
    /// ```
    /// let builder = mcp_runtime_client::Client::builder().validate_output(true);
    /// # let _ = builder;
    /// ```
    pub fn validate_output(mut self, on: bool) -> Self {
        self.validate_output = on;
        self
    }
}

/// The checks of `tools`, each schema compiled once.
pub(crate) fn compile(tools: &[Tool]) -> Checks {
    tools
        .iter()
        .map(|tool| {
            let check = tool.output_schema.as_ref().and_then(|schema| {
                OutputValidator::new(schema)
                    .map_err(|e| {
                        tracing::warn!(tool = %tool.name, "mcp client: results not checked: {e}")
                    })
                    .ok()
                    .map(Arc::new)
            });
            (tool.name.clone(), check)
        })
        .collect()
}

impl Client {
    /// Whether `tools/call` results are checked.
    pub(crate) fn validates_output(&self) -> bool {
        self.engine.config.validate_output
    }

    /// The answer to a call of `tool`, checked against its listed `outputSchema`.
    pub(crate) async fn check_output(
        &self,
        tool: &str,
        answer: &Answer,
    ) -> Result<(), ClientError> {
        let known = lock(&self.engine.state).output_checks.get(tool).cloned();
        let check = match known {
            Some(check) => check,
            None => {
                self.list_tools().await?;
                // Listed or not, it is not listed again for the next call.
                let mut state = lock(&self.engine.state);
                state
                    .output_checks
                    .entry(tool.to_owned())
                    .or_default()
                    .clone()
            }
        };
        let Some(check) = check else {
            return Ok(());
        };
        let result: CallToolResult = answer
            .decode()
            .map_err(|e| ClientError::decode("tools/call", e))?;
        check
            .check(&result)
            .map_err(|mismatch| ClientError::OutputSchema {
                tool: tool.to_owned(),
                mismatch,
            })
    }
}
