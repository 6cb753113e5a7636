//! Cursor-based pagination of the `*/list` requests.

use serde::{Deserialize, Serialize};

use crate::meta::Meta;

/// An opaque pagination cursor. An empty string is a valid cursor.
pub type Cursor = String;

/// The params of `tools/list`, `prompts/list`, `resources/list` and `resources/templates/list`.
///
/// ```
/// use mcp_runtime_core::PaginatedRequestParams;
///
/// let p: PaginatedRequestParams = serde_json::from_str(r#"{"cursor":"abc"}"#).unwrap();
/// assert_eq!(p.cursor.as_deref(), Some("abc"));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PaginatedRequestParams {
    /// Where to continue; absent for the first page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<Cursor>,
    /// Request `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}
