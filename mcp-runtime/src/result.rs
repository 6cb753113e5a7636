//! Turning what handlers return into protocol results (the `IntoResponse` of this crate).

use std::any::TypeId;
use std::collections::HashMap;
use std::sync::{OnceLock, RwLock};

use base64::Engine as _;
use mcp_core::{CallToolResult, ContentBlock, GetPromptResult, PromptMessage, ResourceContents};
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::Serialize;

use crate::error::{HandlerError, IntoHandlerError};
use crate::sync::{read, write};

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

/// The decisions of [`wraps`], by type.
fn wrap_cache() -> &'static RwLock<HashMap<TypeId, bool>> {
    static CACHE: OnceLock<RwLock<HashMap<TypeId, bool>>> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// Whether `T`'s structured value must be wrapped in `{"result": …}`: whether its schema, as a
/// generator with the default settings makes it, is not an object. Computed once per type.
pub(crate) fn wraps<T: JsonSchema + 'static>() -> bool {
    let id = TypeId::of::<T>();
    if let Some(hit) = read(wrap_cache()).get(&id) {
        return *hit;
    }
    let schema = T::json_schema(&mut SchemaGenerator::default());
    let wrap = !crate::schema::is_object_schema(&schema);
    remember_wraps::<T>(wrap);
    wrap
}

fn remember_wraps<T: 'static>(wrap: bool) {
    write(wrap_cache()).insert(TypeId::of::<T>(), wrap);
}

/// Whether a root schema made by `generator` decides [`wraps`] by itself: its settings make the
/// same top level as the default settings (it inlines nothing, transforms nothing), so its
/// root's `type` is the one `wraps` would see. Then `T`'s schema is generated once.
fn decides_wraps(generator: &SchemaGenerator) -> bool {
    let settings = generator.settings();
    let default = schemars::generate::SchemaSettings::default();
    !settings.inline_subschemas
        && settings.transforms.is_empty()
        && settings.contract == default.contract
        && settings.untagged_enum_variant_titles == default.untagged_enum_variant_titles
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
        let mut value = serde_json::to_value(&self.0).map_err(HandlerError::internal)?;
        if wraps::<T>() {
            value = serde_json::json!({ "result": value });
        }
        let text = value.to_string();
        Ok(CallToolResult::structured(value, text))
    }

    fn output_schema(generator: &mut SchemaGenerator) -> Option<Schema> {
        let schema = generator.root_schema_for::<T>();
        if decides_wraps(generator) {
            remember_wraps::<T>(!crate::schema::is_object_schema(&schema));
        }
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
        let text = serde_json::to_string(&self.0).map_err(HandlerError::internal)?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::SchemaProfile;

    #[derive(Serialize, JsonSchema)]
    struct Sum {
        total: i64,
    }

    /// A newtype around an object: with the default settings its schema is a `$ref` (so its
    /// value is wrapped), inlined it is an object.
    #[derive(Serialize, JsonSchema)]
    struct Wrapped(Sum);

    #[derive(Serialize, JsonSchema)]
    struct Strict {
        n: u8,
    }

    #[derive(Serialize, JsonSchema)]
    struct Listed(Vec<u8>);

    fn output<T: IntoToolResult>(profile: SchemaProfile) -> serde_json::Value {
        T::output_schema(&mut profile.generator())
            .unwrap()
            .to_value()
    }

    #[test]
    fn the_wrap_rule_is_the_default_settings_whatever_the_profile() {
        // Portable: the root is inlined, the decision still the default settings'.
        let schema = output::<Json<Wrapped>>(SchemaProfile::Portable);
        assert_eq!(
            schema["properties"]["result"]["properties"]["total"]["type"],
            "integer"
        );
        assert!(wraps::<Wrapped>());
        let schema = output::<Json<Sum>>(SchemaProfile::Portable);
        assert_eq!(schema["properties"]["total"]["type"], "integer");
        assert!(!wraps::<Sum>());
        // Strict: the root decides by itself, and agrees with the default settings.
        let schema = output::<Json<Strict>>(SchemaProfile::Strict2020_12);
        assert_eq!(schema["properties"]["n"]["type"], "integer");
        assert_eq!(
            wrap_cache().read().unwrap().get(&TypeId::of::<Strict>()),
            Some(&false)
        );
        let schema = output::<Json<Listed>>(SchemaProfile::Strict2020_12);
        assert_eq!(schema["properties"]["result"]["type"], "array");
        assert_eq!(
            wrap_cache().read().unwrap().get(&TypeId::of::<Listed>()),
            Some(&true)
        );
        for (decided, probe) in [
            (
                wraps::<Strict>(),
                Strict::json_schema(&mut SchemaGenerator::default()),
            ),
            (
                wraps::<Listed>(),
                Listed::json_schema(&mut SchemaGenerator::default()),
            ),
        ] {
            assert_eq!(decided, !crate::schema::is_object_schema(&probe));
        }
        let value = Json(Listed(vec![1])).into_tool_result().unwrap();
        assert_eq!(
            value.structured_content,
            Some(serde_json::json!({"result": [1]}))
        );
    }
}
