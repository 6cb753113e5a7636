//! Turning what handlers return into protocol results (the `IntoResponse` of this crate).

use std::any::TypeId;
use std::collections::HashMap;
use std::sync::{OnceLock, RwLock};

use base64::Engine as _;
use mcp_core::{CallToolResult, ContentBlock, GetPromptResult, PromptMessage, ResourceContents};
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::Serialize;

use crate::error::{HandlerError, IntoHandlerError};

/// Structured output: `structuredContent`, an `outputSchema` derived from `T`, and the same JSON as
/// a text block for clients that read only text.
///
/// A `T` whose schema is not an object (a list, a number) is wrapped as `{"result": …}`, since
/// revisions before 2026-07-28 require object-shaped structured content.
///
/// ```standalone_crate
/// use mcp_runtime::prelude::*;
///
/// #[derive(serde::Serialize, schemars::JsonSchema)]
/// struct Sum { total: i64 }
///
/// /// Adds two numbers.
/// #[tool]
/// async fn add(a: i64, b: i64) -> Json<Sum> {
///     Json(Sum { total: a + b })
/// }
/// # fn main() {}
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Json<T>(pub T);

fn internal(err: impl std::fmt::Display) -> HandlerError {
    HandlerError::internal(err.to_string())
}

/// Whether `T`'s structured value must be wrapped in `{"result": …}`; computed once per type.
pub(crate) fn wraps<T: JsonSchema + 'static>() -> bool {
    static CACHE: OnceLock<RwLock<HashMap<TypeId, bool>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let id = TypeId::of::<T>();
    if let Some(hit) = cache.read().unwrap_or_else(|e| e.into_inner()).get(&id) {
        return *hit;
    }
    let schema = T::json_schema(&mut SchemaGenerator::default());
    let wrap = !crate::schema::is_object_schema(&schema);
    cache
        .write()
        .unwrap_or_else(|e| e.into_inner())
        .insert(id, wrap);
    wrap
}

/// What a `#[tool]` function may return.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a supported tool return type",
    label = "unsupported return type",
    note = "a tool may return `String`, `&'static str`, `Json<T>` (T: Serialize + JsonSchema), a `ContentBlock`, `Vec<ContentBlock>`, `CallToolResult`, `()`, or `Result<T, E>` of these, with `E` a `ToolError`, a `String`, or any `std::error::Error + Send + Sync`"
)]
pub trait IntoToolResult {
    /// Converts the value.
    fn into_tool_result(self) -> Result<CallToolResult, HandlerError>;

    /// The `outputSchema` this return type implies (structured returns only).
    fn output_schema(_generator: &mut SchemaGenerator) -> Option<Schema> {
        None
    }
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

impl<T: Serialize + JsonSchema + 'static> IntoToolResult for Json<T> {
    fn into_tool_result(self) -> Result<CallToolResult, HandlerError> {
        let mut value = serde_json::to_value(&self.0).map_err(internal)?;
        if wraps::<T>() {
            value = serde_json::json!({ "result": value });
        }
        let text = value.to_string();
        Ok(CallToolResult::structured(value, text))
    }

    fn output_schema(generator: &mut SchemaGenerator) -> Option<Schema> {
        let schema = generator.root_schema_for::<T>();
        Some(if wraps::<T>() {
            crate::schema::wrap_result(schema)
        } else {
            schema
        })
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
                        result.structured_content = Some(s.clone());
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

fn text_contents(uri: &str, mime: &str, text: String) -> ResourceContents {
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

impl<T: Serialize> IntoResourceContents for Json<T> {
    fn into_resource_contents(
        self,
        uri: &str,
        mime: Option<&'static str>,
    ) -> Result<Vec<ResourceContents>, HandlerError> {
        let text = serde_json::to_string(&self.0).map_err(internal)?;
        Ok(vec![text_contents(
            uri,
            mime.unwrap_or("application/json"),
            text,
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
