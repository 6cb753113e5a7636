//! Turning what handlers return into protocol results (the `IntoResponse` of this crate).

use base64::Engine as _;
use mcp_core::{CallToolResult, ContentBlock, GetPromptResult, PromptMessage, ResourceContents};
use schemars::{Schema, SchemaGenerator};

use crate::error::{HandlerError, IntoHandlerError};

mod json;

pub(crate) use json::wraps;
pub use json::{Json, Structured};

/// What a `#[tool]` function may return.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a supported tool return type",
    label = "unsupported return type",
    note = "a tool may return `String`, `&'static str`, `Json<T>` or `Structured<T>` (T: a type with `#[mcp_runtime::data]`, or any `Serialize + JsonSchema`), a `ContentBlock`, `Vec<ContentBlock>`, `CallToolResult`, `()`, or `Result<T, E>` of these, with `E` a `ToolError`, a `String`, or any `std::error::Error + Send + Sync`"
)]
pub trait IntoToolResult {
    /// Converts the value.
    fn into_tool_result(self) -> Result<CallToolResult, HandlerError>;

    /// The `outputSchema` this return type implies (structured returns only).
    fn output_schema(_generator: &mut SchemaGenerator) -> Option<Schema> {
        None
    }

    /// Whether every value conforms to [`output_schema`](Self::output_schema) by construction
    /// (`Json<T>`: the schema is `T`'s), so that results are never checked. A type whose schema
    /// comes from elsewhere says `false` (the results of the tools `openapi::tools` generates:
    /// the document's schema, the API's answer), and its results are checked like those of a
    /// hand-written schema ([`ToolRecord::with_output_schema`](crate::registry::ToolRecord::with_output_schema)).
    const OUTPUT_SCHEMA_DERIVED: bool = true;
}

impl IntoToolResult for CallToolResult {
    fn into_tool_result(self) -> Result<CallToolResult, HandlerError> {
        Ok(self)
    }
}

impl IntoToolResult for String {
    fn into_tool_result(self) -> Result<CallToolResult, HandlerError> {
        Ok(CallToolResult::text(self))
    }
}

impl IntoToolResult for &'static str {
    fn into_tool_result(self) -> Result<CallToolResult, HandlerError> {
        Ok(CallToolResult::text(self))
    }
}

impl IntoToolResult for () {
    fn into_tool_result(self) -> Result<CallToolResult, HandlerError> {
        Ok(CallToolResult::new(Vec::new()))
    }
}

impl IntoToolResult for ContentBlock {
    fn into_tool_result(self) -> Result<CallToolResult, HandlerError> {
        Ok(CallToolResult::new(vec![self]))
    }
}

impl IntoToolResult for Vec<ContentBlock> {
    fn into_tool_result(self) -> Result<CallToolResult, HandlerError> {
        Ok(CallToolResult::new(self))
    }
}

impl<T: IntoToolResult, E: IntoHandlerError> IntoToolResult for Result<T, E> {
    fn into_tool_result(self) -> Result<CallToolResult, HandlerError> {
        match self {
            Ok(v) => v.into_tool_result(),
            Err(e) => match e.into_handler_error() {
                HandlerError::Tool(err) => {
                    let mut result = CallToolResult::error_text(err.message());
                    if let Some(s) = err.structured() {
                        result = result.with_structured_content(s.clone());
                    }
                    Ok(result)
                }
                other => Err(other),
            },
        }
    }

    fn output_schema(generator: &mut SchemaGenerator) -> Option<Schema> {
        T::output_schema(generator)
    }

    const OUTPUT_SCHEMA_DERIVED: bool = T::OUTPUT_SCHEMA_DERIVED;
}

/// What a `#[resource]` function may return.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a supported resource return type",
    label = "unsupported return type",
    note = "a resource may return `String` (text), `Vec<u8>` (blob), `Json<T>`, `ResourceContents`, `Vec<ResourceContents>`, or `Result<T, E>` of these, with `E` a `ResourceError`, a `String`, or any `std::error::Error + Send + Sync`"
)]
pub trait IntoResourceContents {
    /// Converts the value; `uri` is the URI read, `mime` the declared MIME type.
    fn into_resource_contents(
        self,
        uri: &str,
        mime: Option<&'static str>,
    ) -> Result<Vec<ResourceContents>, HandlerError>;
}

pub(crate) fn text_contents(uri: &str, mime: &str, text: String) -> ResourceContents {
    ResourceContents::text(uri, text).with_mime_type(mime)
}

impl IntoResourceContents for String {
    fn into_resource_contents(
        self,
        uri: &str,
        mime: Option<&'static str>,
    ) -> Result<Vec<ResourceContents>, HandlerError> {
        Ok(vec![text_contents(uri, mime.unwrap_or("text/plain"), self)])
    }
}

impl IntoResourceContents for &'static str {
    fn into_resource_contents(
        self,
        uri: &str,
        mime: Option<&'static str>,
    ) -> Result<Vec<ResourceContents>, HandlerError> {
        self.to_owned().into_resource_contents(uri, mime)
    }
}

impl IntoResourceContents for Vec<u8> {
    fn into_resource_contents(
        self,
        uri: &str,
        mime: Option<&'static str>,
    ) -> Result<Vec<ResourceContents>, HandlerError> {
        let blob = base64::engine::general_purpose::STANDARD.encode(self);
        Ok(vec![ResourceContents::blob(uri, blob).with_mime_type(
            mime.unwrap_or("application/octet-stream"),
        )])
    }
}

impl IntoResourceContents for ResourceContents {
    fn into_resource_contents(
        self,
        _uri: &str,
        _mime: Option<&'static str>,
    ) -> Result<Vec<ResourceContents>, HandlerError> {
        Ok(vec![self])
    }
}

impl IntoResourceContents for Vec<ResourceContents> {
    fn into_resource_contents(
        self,
        _uri: &str,
        _mime: Option<&'static str>,
    ) -> Result<Vec<ResourceContents>, HandlerError> {
        Ok(self)
    }
}

impl<T: IntoResourceContents, E: IntoHandlerError> IntoResourceContents for Result<T, E> {
    fn into_resource_contents(
        self,
        uri: &str,
        mime: Option<&'static str>,
    ) -> Result<Vec<ResourceContents>, HandlerError> {
        match self {
            Ok(v) => v.into_resource_contents(uri, mime),
            Err(e) => Err(e.into_handler_error()),
        }
    }
}

/// What a `#[prompt]` function may return.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a supported prompt return type",
    label = "unsupported return type",
    note = "a prompt may return `Vec<PromptMessage>`, a `PromptMessage`, a `String` (one user message), `GetPromptResult`, or `Result<T, E>` of these, with `E` a `PromptError`, a `String`, or any `std::error::Error + Send + Sync`"
)]
pub trait IntoPromptResult {
    /// Converts the value.
    fn into_prompt_result(self) -> Result<GetPromptResult, HandlerError>;
}

impl IntoPromptResult for GetPromptResult {
    fn into_prompt_result(self) -> Result<GetPromptResult, HandlerError> {
        Ok(self)
    }
}

impl IntoPromptResult for Vec<PromptMessage> {
    fn into_prompt_result(self) -> Result<GetPromptResult, HandlerError> {
        Ok(GetPromptResult::new(self))
    }
}

impl IntoPromptResult for PromptMessage {
    fn into_prompt_result(self) -> Result<GetPromptResult, HandlerError> {
        Ok(GetPromptResult::new(vec![self]))
    }
}

impl IntoPromptResult for String {
    fn into_prompt_result(self) -> Result<GetPromptResult, HandlerError> {
        Ok(GetPromptResult::new(vec![PromptMessage::user(self)]))
    }
}

impl<T: IntoPromptResult, E: IntoHandlerError> IntoPromptResult for Result<T, E> {
    fn into_prompt_result(self) -> Result<GetPromptResult, HandlerError> {
        match self {
            Ok(v) => v.into_prompt_result(),
            Err(e) => Err(e.into_handler_error()),
        }
    }
}
