//! Typed calls from the same definitions: a tool declared with [`#[typed_tool]`](macro@crate::typed_tool)
//! above `#[tool]` gets an argument struct that names the tool and its declared return type, so
//! that a client built from the same crate calls it with Rust types, checked by the compiler
//! (`Client::call`, feature `client`). The traits live in `mcp-core` (both sides use them);
//! here is what a client reads back from [`Json<T>`].

use mcp_core::CallToolResult;
use mcp_core::typed::{OutputError, texts};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;

pub use mcp_core::typed::{ToolArguments, ToolOutput};

use crate::result::Json;

/// `T`, from `structuredContent` (or, from a server that sends only the text mirror, from the
/// text), unwrapped from `{"result": …}` when `T`'s schema is not an object.
///
/// ```
/// use mcp_runtime::protocol::CallToolResult;
/// use mcp_runtime::{Json, ToolOutput};
///
/// let result = CallToolResult::structured(serde_json::json!({"result": 5}), "5");
/// assert_eq!(<Json<i64> as ToolOutput>::read(result).unwrap(), 5);
/// assert_eq!(<Json<i64> as ToolOutput>::read(CallToolResult::text("7")).unwrap(), 7);
/// ```
impl<T: DeserializeOwned + JsonSchema + 'static> ToolOutput for Json<T> {
    type Value = T;
    fn read(result: CallToolResult) -> Result<T, OutputError> {
        let value = match result.structured_content {
            Some(v) => v,
            None => serde_json::from_str(&texts(&result)).map_err(OutputError::TextNotJson)?,
        };
        let value = match value {
            serde_json::Value::Object(mut o) if crate::result::wraps::<T>() && o.len() == 1 => {
                o.remove("result").unwrap_or_default()
            }
            other => other,
        };
        serde_json::from_value(value).map_err(OutputError::DoesNotFit)
    }
}
