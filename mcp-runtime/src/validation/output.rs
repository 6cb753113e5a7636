//! Structured results checked against a tool's `outputSchema` when that schema is not derived
//! from the tool's return type: a hand-written schema (`ToolRecord::with_output_schema`), a
//! mounted server's tool. Whether a tool is checked is decided once, when its catalog entry is
//! made, and its schema compiled then; a derived schema (`Json<T>`) gets no check at all.
//!
//! A result that does not conform is answered with a JSON-RPC error -32603, not an `isError`
//! result. The specification's tools page (2025-11-25, "Output Schema") says: "Servers **MUST**
//! provide structured results that conform to this schema." A result that does not is a fault of
//! the server, and its "Error Handling" puts "Server errors" among the protocol errors, keeping
//! `isError` for failures "that language models can use to self-correct and retry with adjusted
//! parameters": no other arguments make the server's own output conform.

use std::sync::Arc;

use mcp_core::output::OutputValidator;
use mcp_core::{CallToolResult, ErrorObject};
use serde_json::Value;

/// One tool's compiled output schema.
#[derive(Debug)]
pub(crate) struct OutputCheck(OutputValidator);

impl OutputCheck {
    /// The check of a tool whose served output schema is `schema`: none when it has none, when
    /// the schema is derived from its return type, or when validation is off for it
    /// (`per_tool`, else the server's default).
    pub(crate) fn decide(
        schema: Option<&Value>,
        derived: bool,
        per_tool: Option<bool>,
        server: bool,
    ) -> Result<Option<Arc<Self>>, String> {
        match schema {
            Some(schema) if !derived && per_tool.unwrap_or(server) => {
                Self::compile(schema).map(|c| Some(Arc::new(c)))
            }
            _ => Ok(None),
        }
    }

    /// `schema` compiled.
    pub(crate) fn compile(schema: &Value) -> Result<Self, String> {
        OutputValidator::new(schema).map(Self)
    }

    /// `result` checked: the -32603 error naming the tool, the JSON path and the keyword that
    /// failed (also in `data`) when its `structuredContent` does not conform.
    pub(crate) fn check(&self, tool: &str, result: &CallToolResult) -> Result<(), ErrorObject> {
        self.0.check(result).map_err(|mismatch| {
            ErrorObject::internal(format!(
                "tool '{tool}' returned a result that does not conform to its outputSchema: \
                 {mismatch}"
            ))
            .with_data(serde_json::json!({
                "tool": tool,
                "path": mismatch.path,
                "keyword": mismatch.keyword,
            }))
        })
    }
}

/// `outcome` checked by `check`, when there is one: the error replaces a result that does not
/// conform.
pub(crate) fn check_outcome(
    check: Option<&OutputCheck>,
    tool: &str,
    outcome: &Result<CallToolResult, crate::error::HandlerError>,
) -> Result<(), ErrorObject> {
    match (check, outcome) {
        (Some(check), Ok(result)) => check.check(tool, result),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn derived_or_turned_off_schemas_get_no_check() {
        let schema = json!({"type": "object"});
        let decide = |derived, per_tool, server| {
            OutputCheck::decide(Some(&schema), derived, per_tool, server)
                .unwrap()
                .is_some()
        };
        assert!(decide(false, None, true));
        assert!(!decide(true, None, true));
        assert!(!decide(true, Some(true), true));
        assert!(!decide(false, Some(false), true));
        assert!(!decide(false, None, false));
        assert!(decide(false, Some(true), false));
        assert!(
            OutputCheck::decide(None, false, None, true)
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn the_error_names_the_tool_path_and_keyword() {
        let check = OutputCheck::compile(&json!({
            "type": "object",
            "properties": {"items": {"type": "array", "items": {
                "type": "object", "properties": {"price": {"type": "number"}}
            }}}
        }))
        .unwrap();
        let bad = CallToolResult::structured(json!({"items": [{"price": "ten"}]}), "one");
        let err = check.check("quote", &bad).unwrap_err();
        assert_eq!(err.code, -32603);
        assert_eq!(
            err.message,
            "tool 'quote' returned a result that does not conform to its outputSchema: \
             structuredContent at /items/0/price fails \"type\": \"ten\" is not of type \"number\""
        );
        assert_eq!(
            err.data,
            Some(json!({"tool": "quote", "path": "/items/0/price", "keyword": "type"}))
        );
    }
}
