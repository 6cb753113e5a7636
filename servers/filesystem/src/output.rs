//! The two result shapes of the original's tools: a text (`content` as one text block and
//! `structuredContent: {"content": text}`), and a media block (`content` as one image, audio or
//! embedded resource block and `structuredContent: {"content": [block]}`).

use mcp_runtime::protocol::{CallToolResult, ContentBlock};
use mcp_runtime::schemars::{Schema, SchemaGenerator, json_schema};
use mcp_runtime::{HandlerError, IntoToolResult};

/// A text result, with the `{"content": string}` output schema.
///
/// ```
/// use mcp_runtime::IntoToolResult;
/// let result = mcp_server_filesystem::Text("hello".into()).into_tool_result().unwrap();
/// assert_eq!(result.content[0].as_text(), Some("hello"));
/// assert_eq!(result.structured_content.unwrap().get(), r#"{"content":"hello"}"#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Text(pub String);

impl IntoToolResult for Text {
    fn into_tool_result(self) -> Result<CallToolResult, HandlerError> {
        let structured = serde_json::json!({ "content": self.0 });
        Ok(CallToolResult::structured(structured, self.0))
    }

    fn output_schema(_: &mut SchemaGenerator) -> Option<Schema> {
        Some(json_schema!({
            "type": "object",
            "properties": { "content": { "type": "string" } },
            "required": ["content"],
            "additionalProperties": false
        }))
    }
}

/// A media result: one content block, mirrored in `structuredContent`.
///
/// ```
/// use mcp_runtime::IntoToolResult;
/// use mcp_runtime::protocol::ContentBlock;
/// let block = ContentBlock::image("AAAA", "image/png");
/// let result = mcp_server_filesystem::Media(block).into_tool_result().unwrap();
/// assert_eq!(
///     result.structured_content.unwrap().get(),
///     r#"{"content":[{"type":"image","data":"AAAA","mimeType":"image/png"}]}"#
/// );
/// ```
#[derive(Debug, Clone)]
pub struct Media(pub ContentBlock);

impl IntoToolResult for Media {
    fn into_tool_result(self) -> Result<CallToolResult, HandlerError> {
        // Serialised straight to text, so the block keeps its members' order.
        let block = serde_json::to_string(&self.0).map_err(HandlerError::internal)?;
        let raw = serde_json::value::RawValue::from_string(format!("{{\"content\":[{block}]}}"))
            .map_err(HandlerError::internal)?;
        Ok(CallToolResult::new(vec![self.0]).with_structured_raw(raw))
    }

    fn output_schema(_: &mut SchemaGenerator) -> Option<Schema> {
        Some(json_schema!({
            "type": "object",
            "properties": {
                "content": {
                    "type": "array",
                    "items": {
                        "anyOf": [
                            {
                                "type": "object",
                                "properties": {
                                    "type": { "type": "string", "enum": ["image", "audio"] },
                                    "data": { "type": "string" },
                                    "mimeType": { "type": "string" }
                                },
                                "required": ["type", "data", "mimeType"]
                            },
                            {
                                "type": "object",
                                "properties": {
                                    "type": { "type": "string", "const": "resource" },
                                    "resource": {
                                        "type": "object",
                                        "properties": {
                                            "uri": { "type": "string" },
                                            "mimeType": { "type": "string" },
                                            "blob": { "type": "string" }
                                        },
                                        "required": ["uri", "blob"]
                                    }
                                },
                                "required": ["type", "resource"]
                            }
                        ]
                    }
                }
            },
            "required": ["content"],
            "additionalProperties": false
        }))
    }
}
