//! Typed calls from the same definitions: a tool declared with [`#[typed_tool]`](macro@crate::typed_tool)
//! above `#[tool]` gets an argument struct that names the tool and its declared return type, so
//! that a client built from the same crate calls it with Rust types, checked by the compiler
//! (`Client::call`, feature `client`). The traits live in `mcp-core` (both sides use them);
//! here is what a client reads back from [`Json<T>`].

use mcp_core::CallToolResult;
use mcp_core::typed::{OutputError, texts};
use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;

pub use mcp_core::typed::{ToolArguments, ToolOutput};

use crate::result::{Json, Structured};

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
        match &result.structured_content {
            Some(raw) => from_text::<T>(raw).map_err(OutputError::DoesNotFit),
            None => {
                let text = texts(&result);
                let raw: &RawValue =
                    serde_json::from_str(&text).map_err(OutputError::TextNotJson)?;
                from_text::<T>(raw).map_err(OutputError::DoesNotFit)
            }
        }
    }
}

/// The same as [`Json<T>`], whatever the text block.
///
/// ```
/// use mcp_runtime::protocol::CallToolResult;
/// use mcp_runtime::{Structured, ToolOutput};
///
/// let result = CallToolResult::structured(serde_json::json!({"result": 5}), "five");
/// assert_eq!(<Structured<i64> as ToolOutput>::read(result).unwrap(), 5);
/// ```
impl<T: DeserializeOwned + JsonSchema + 'static> ToolOutput for Structured<T> {
    type Value = T;
    fn read(result: CallToolResult) -> Result<T, OutputError> {
        <Json<T> as ToolOutput>::read(result)
    }
}

/// `{"result": …}` as sent for a `T` whose schema is not an object.
#[derive(Deserialize)]
struct Wrapped<T> {
    result: T,
}

/// `T` from JSON text, unwrapped from `{"result": …}` when `T`'s schema is not an object.
fn from_text<T: DeserializeOwned + JsonSchema + 'static>(
    raw: &RawValue,
) -> Result<T, serde_json::Error> {
    let text = raw.get();
    if crate::result::wraps::<T>() && text.trim_start().starts_with('{') {
        serde_json::from_str::<Wrapped<T>>(text).map(|w| w.result)
    } else {
        serde_json::from_str(text)
    }
}
