//! Structured results checked against a tool's `outputSchema` (feature `output-schema`): the one
//! check the server (for tools whose schema is not derived from their return type) and the
//! client (when asked) both run.
//!
//! The specification's tools page ("Output Schema", 2025-06-18 on) says: "Servers **MUST**
//! provide structured results that conform to this schema. Clients **SHOULD** validate
//! structured results against this schema." An [`OutputValidator`] is compiled once from the
//! schema; [`check`](OutputValidator::check) names the first place the result breaks it, as a
//! JSON pointer into `structuredContent` and the schema keyword that failed.
//!
//! ```
//! use mcp_runtime_core::CallToolResult;
//! use mcp_runtime_core::output::OutputValidator;
//! use serde_json::json;
//!
//! let schema = json!({
//!     "type": "object",
//!     "properties": {"items": {"type": "array", "items": {
//!         "type": "object", "properties": {"price": {"type": "number"}}
//!     }}}
//! });
//! let validator = OutputValidator::new(&schema).unwrap();
//! let bad = CallToolResult::structured(json!({"items": [{"price": "ten"}]}), "one item");
//! let mismatch = validator.check(&bad).unwrap_err();
//! assert_eq!(mismatch.path, "/items/0/price");
//! assert_eq!(mismatch.keyword, "type");
//! assert_eq!(
//!     mismatch.to_string(),
//!     r#"structuredContent at /items/0/price fails "type": "ten" is not of type "number""#
//! );
//! assert!(validator.check(&CallToolResult::structured(json!({"items": []}), "none")).is_ok());
//! ```

use serde_json::Value;

use crate::CallToolResult;

/// The longest schema message a [`OutputMismatch`] keeps, in bytes (the message quotes the
/// offending value, which may be large).
pub const MAX_MESSAGE: usize = 200;

/// A tool's `outputSchema`, compiled once.
///
/// ```
/// use mcp_runtime_core::output::OutputValidator;
///
/// assert!(OutputValidator::new(&serde_json::json!({"type": "object"})).is_ok());
/// let err = OutputValidator::new(&serde_json::json!({"type": 5})).unwrap_err();
/// assert!(err.starts_with("the output schema does not compile: "), "{err}");
/// ```
pub struct OutputValidator {
    validator: jsonschema::Validator,
}

impl std::fmt::Debug for OutputValidator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OutputValidator").finish_non_exhaustive()
    }
}

/// Where a structured result breaks its tool's `outputSchema`.
///
/// ```
/// use mcp_runtime_core::CallToolResult;
/// use mcp_runtime_core::output::OutputValidator;
///
/// let validator = OutputValidator::new(&serde_json::json!({"type": "object"})).unwrap();
/// let mismatch = validator.check(&CallToolResult::text("no structure")).unwrap_err();
/// assert_eq!((mismatch.path.as_str(), mismatch.keyword.as_str()), ("", ""));
/// assert_eq!(mismatch.to_string(), "no structuredContent, but the tool has an outputSchema");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct OutputMismatch {
    /// The JSON pointer of the failing value in `structuredContent` (`""`: the whole of it, or
    /// none given).
    pub path: String,
    /// The schema keyword that failed (`"type"`, `"required"`, …; `""` when no
    /// `structuredContent` was given).
    pub keyword: String,
    /// What the schema validator says, at most [`MAX_MESSAGE`] bytes.
    pub message: String,
}

impl std::fmt::Display for OutputMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.keyword.is_empty() {
            return f.write_str(&self.message);
        }
        f.write_str("structuredContent")?;
        if !self.path.is_empty() {
            write!(f, " at {}", self.path)?;
        }
        write!(f, " fails \"{}\": {}", self.keyword, self.message)
    }
}

impl std::error::Error for OutputMismatch {}

impl OutputValidator {
    /// Compiles `schema` (its `$schema` says the draft; 2020-12 otherwise). References to
    /// other documents are not fetched: such a schema does not compile.
    ///
    /// # Errors
    /// The schema validator's reason, when `schema` is no valid schema.
    pub fn new(schema: &Value) -> Result<Self, String> {
        jsonschema::validator_for(schema)
            .map(|validator| Self { validator })
            .map_err(|e| {
                format!(
                    "the output schema does not compile: {}",
                    bounded(e.to_string())
                )
            })
    }

    /// Checks a result's `structuredContent`. A result with `isError: true` is not checked
    /// (a failure carries no promised structure); a successful one without
    /// `structuredContent` fails.
    ///
    /// # Errors
    /// The first place the result breaks the schema.
    pub fn check(&self, result: &CallToolResult) -> Result<(), OutputMismatch> {
        if result.is_error == Some(true) {
            return Ok(());
        }
        let Some(raw) = &result.structured_content else {
            return Err(OutputMismatch {
                path: String::new(),
                keyword: String::new(),
                message: "no structuredContent, but the tool has an outputSchema".into(),
            });
        };
        let value: Value = serde_json::from_str(raw.get()).map_err(|e| OutputMismatch {
            path: String::new(),
            keyword: String::new(),
            message: bounded(format!("structuredContent is not JSON: {e}")),
        })?;
        self.check_value(&value)
    }

    /// Checks a `structuredContent` value.
    ///
    /// ```
    /// use mcp_runtime_core::output::OutputValidator;
    /// use serde_json::json;
    ///
    /// let v = OutputValidator::new(&json!({"type": "object", "required": ["id"]})).unwrap();
    /// let mismatch = v.check_value(&json!({})).unwrap_err();
    /// assert_eq!(mismatch.to_string(), r#"structuredContent fails "required": "id" is a required property"#);
    /// ```
    ///
    /// # Errors
    /// The first place `value` breaks the schema.
    pub fn check_value(&self, value: &Value) -> Result<(), OutputMismatch> {
        let Err(error) = self.validator.validate(value) else {
            return Ok(());
        };
        let schema_path = error.schema_path.as_str();
        let keyword = schema_path.rsplit('/').next().unwrap_or_default();
        Err(OutputMismatch {
            path: error.instance_path.as_str().to_owned(),
            keyword: keyword.to_owned(),
            message: bounded(error.to_string()),
        })
    }
}

/// `text` cut to [`MAX_MESSAGE`] bytes (at a character boundary, then `…`).
fn bounded(mut text: String) -> String {
    if text.len() > MAX_MESSAGE {
        let mut end = MAX_MESSAGE;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
        text.push('…');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn long_messages_are_bounded() {
        let v = OutputValidator::new(&json!({"type": "number"})).unwrap();
        let mismatch = v.check_value(&json!("x".repeat(300))).unwrap_err();
        assert_eq!(mismatch.message.len(), MAX_MESSAGE + "…".len());
        assert!(mismatch.message.ends_with('…'));
        // A cut inside a character moves back to its start.
        let cut = bounded(format!("a{}", "é".repeat(150)));
        assert_eq!(cut.len(), MAX_MESSAGE - 1 + "…".len());
    }

    #[test]
    fn error_results_are_not_checked() {
        let v = OutputValidator::new(&json!({"type": "object"})).unwrap();
        assert_eq!(v.check(&CallToolResult::error_text("failed")), Ok(()));
    }
}
