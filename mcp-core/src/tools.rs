//! Tools: `tools/list` and `tools/call`.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;

use crate::content::{ContentBlock, entity_meta_for, icons_for, title_for};
use crate::discover::{CacheScope, InputResponses, ResultType, cache_hints_for, result_type_for};
use crate::icons::Icon;
use crate::meta::Meta;
use crate::pagination::Cursor;
use crate::version::{ForVersion, ProtocolVersion};

/// Hints about a tool's behaviour (2025-03-26+). They are hints, not guarantees.
///
/// ```
/// use mcp_runtime_core::ToolAnnotations;
///
/// let a = ToolAnnotations::new().read_only(true);
/// assert_eq!(serde_json::to_string(&a).unwrap(), r#"{"readOnlyHint":true}"#);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolAnnotations {
    /// A display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The tool does not modify its environment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only_hint: Option<bool>,
    /// The tool may perform destructive updates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destructive_hint: Option<bool>,
    /// Repeating a call with the same arguments has no additional effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotent_hint: Option<bool>,
    /// The tool interacts with an open world of external entities.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_world_hint: Option<bool>,
}

impl ToolAnnotations {
    /// No hints.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    with_options! {
        with_title => title: String,
    }

    /// Sets `readOnlyHint`.
    #[must_use]
    pub fn read_only(mut self, value: bool) -> Self {
        self.read_only_hint = Some(value);
        self
    }

    /// Sets `destructiveHint`.
    #[must_use]
    pub fn destructive(mut self, value: bool) -> Self {
        self.destructive_hint = Some(value);
        self
    }

    /// Sets `idempotentHint`.
    #[must_use]
    pub fn idempotent(mut self, value: bool) -> Self {
        self.idempotent_hint = Some(value);
        self
    }

    /// Sets `openWorldHint`.
    #[must_use]
    pub fn open_world(mut self, value: bool) -> Self {
        self.open_world_hint = Some(value);
        self
    }
}

/// A tool the model can call.
///
/// ```
/// use mcp_runtime_core::{Tool, ToolAnnotations};
/// use serde_json::json;
///
/// let tool = Tool::new("add", json!({"type": "object", "properties": {"a": {"type": "number"}}}))
///     .with_description("Adds numbers")
///     .with_annotations(ToolAnnotations::new().read_only(true));
/// let json = serde_json::to_value(&tool).unwrap();
/// assert_eq!(json["inputSchema"]["type"], "object");
/// assert_eq!(json["annotations"]["readOnlyHint"], true);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Tool {
    /// The programmatic name.
    pub name: String,
    /// A display name (2025-06-18+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What the tool does, for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The JSON Schema of the arguments (an object schema).
    pub input_schema: Value,
    /// The JSON Schema of `structuredContent` (2025-06-18+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Value>,
    /// Behaviour hints (2025-03-26+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<ToolAnnotations>,
    /// Icons (2025-11-25+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// `_meta` (2025-06-18+).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// How the tool may be run: `execution.taskSupport` (2025-11-25 only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub execution: Option<crate::tasks::ToolExecution>,
}

impl Tool {
    /// A tool with a name and an input schema.
    pub fn new(name: impl Into<String>, input_schema: Value) -> Self {
        Self {
            name: name.into(),
            title: None,
            description: None,
            input_schema,
            output_schema: None,
            annotations: None,
            icons: None,
            meta: None,
            execution: None,
        }
    }

    with_options! {
        with_title => title: String,
        with_description => description: String,
        with_output_schema => output_schema: Value,
        with_annotations => annotations: ToolAnnotations,
        with_icons => icons: Vec<Icon>,
        with_meta => meta: Meta,
        with_execution => execution: crate::tasks::ToolExecution,
    }
}

fn is_object_schema(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("object")
}

impl ForVersion for Tool {
    /// Clears `title` and `outputSchema` before 2025-06-18, `annotations` before 2025-03-26,
    /// `icons` before 2025-11-25 and `_meta` before 2025-06-18. Before 2026-07-28 an
    /// `outputSchema` must be an object schema, so any other is dropped.
    fn for_version(&mut self, v: ProtocolVersion) {
        title_for(v, &mut self.title);
        icons_for(v, &mut self.icons);
        // `execution` is of 2025-11-25 alone: the extension of 2026-07-28 lets the server decide.
        if v != ProtocolVersion::V2025_11_25 {
            self.execution = None;
        }
        entity_meta_for(v, &mut self.meta);
        if !v.has_annotations_on_tools() {
            self.annotations = None;
        }
        if !v.has_structured_content()
            || (!v.is_stateless() && !self.output_schema.as_ref().is_none_or(is_object_schema))
        {
            self.output_schema = None;
        }
    }
}

/// The result of `tools/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ListToolsResult {
    /// The tools of this page.
    pub tools: Vec<Tool>,
    /// The cursor of the next page, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<Cursor>,
    /// Cache lifetime in milliseconds (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl_ms: Option<u64>,
    /// Cache scope (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_scope: Option<CacheScope>,
    /// `complete` (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType>,
    /// Result `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl ListToolsResult {
    /// A page of tools.
    #[must_use]
    pub fn new(tools: Vec<Tool>) -> Self {
        Self {
            tools,
            next_cursor: None,
            ttl_ms: None,
            cache_scope: None,
            result_type: None,
            meta: None,
        }
    }

    /// Sets the cache hints (sent on 2026-07-28 only).
    #[must_use]
    pub fn with_cache(mut self, ttl_ms: u64, cache_scope: CacheScope) -> Self {
        self.ttl_ms = Some(ttl_ms);
        self.cache_scope = Some(cache_scope);
        self
    }

    with_options! {
        with_next_cursor => next_cursor: Cursor,
        with_meta => meta: Meta,
    }
}

impl ForVersion for ListToolsResult {
    fn for_version(&mut self, v: ProtocolVersion) {
        self.tools.for_version(v);
        cache_hints_for(v, &mut self.ttl_ms, &mut self.cache_scope);
        result_type_for(v, &mut self.result_type);
    }
}

/// The params of `tools/call`. `arguments` stays raw JSON so it can be deserialised
/// straight into the tool's argument type.
///
/// ```
/// use mcp_runtime_core::CallToolRequestParams;
///
/// let p: CallToolRequestParams =
///     serde_json::from_str(r#"{"name":"add","arguments":{"a":1,"b":2}}"#).unwrap();
/// assert_eq!(p.name, "add");
/// assert_eq!(p.arguments.unwrap().get(), r#"{"a":1,"b":2}"#);
/// ```
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CallToolRequestParams {
    /// The tool to call.
    pub name: String,
    /// The arguments object, raw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Box<RawValue>>,
    /// Request `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Responses to an earlier `input_required` result (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_responses: Option<InputResponses>,
    /// The opaque state echoed from an earlier `input_required` result (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_state: Option<String>,
}

impl CallToolRequestParams {
    /// Params calling `name` with no arguments.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            arguments: None,
            meta: None,
            input_responses: None,
            request_state: None,
        }
    }

    /// Sets the arguments from a JSON value.
    ///
    /// # Errors
    ///
    /// Never in practice: serialising a `Value` cannot fail.
    pub fn with_arguments(mut self, arguments: &Value) -> Result<Self, serde_json::Error> {
        self.arguments = Some(serde_json::value::to_raw_value(arguments)?);
        Ok(self)
    }
}

impl PartialEq for CallToolRequestParams {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
            && self.arguments.as_ref().map(|a| a.get()) == other.arguments.as_ref().map(|a| a.get())
            && self.meta == other.meta
            && self.input_responses == other.input_responses
            && self.request_state == other.request_state
    }
}

/// The result of `tools/call`.
///
/// `structuredContent` is kept as JSON text ([`RawValue`]): a server serialises its value once,
/// members in the order it wrote them, and the text is sent as it is. Give it a
/// [`Value`] ([`structured`](Self::structured)) or the text itself
/// ([`structured_raw`](Self::structured_raw)); read it with
/// [`structured_value`](Self::structured_value), or deserialise `structured_content`'s text into
/// a type of your own.
///
/// ```
/// use mcp_runtime_core::{CallToolResult, ForVersion, ProtocolVersion};
/// use serde_json::json;
///
/// let ok = CallToolResult::structured(json!({"sum": 3}), "{\"sum\":3}");
/// assert_eq!(ok.content[0].as_text(), Some("{\"sum\":3}"));
/// assert_eq!(ok.structured_value(), Some(json!({"sum": 3})));
/// let old = ok.into_version(ProtocolVersion::V2025_03_26);
/// assert!(old.structured_content.is_none());
///
/// let raw = serde_json::value::RawValue::from_string(r#"{"zeta":1,"alpha":2}"#.into()).unwrap();
/// let ordered = CallToolResult::structured_raw(raw, "zeta 1, alpha 2");
/// assert_eq!(
///     serde_json::to_string(&ordered).unwrap(),
///     r#"{"content":[{"type":"text","text":"zeta 1, alpha 2"}],"structuredContent":{"zeta":1,"alpha":2}}"#
/// );
///
/// let err = CallToolResult::error_text("`a` must be a number");
/// assert_eq!(err.is_error, Some(true));
/// ```
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CallToolResult {
    /// Unstructured content.
    #[serde(default)]
    pub content: Vec<ContentBlock>,
    /// Structured content matching the tool's `outputSchema` (2025-06-18+), as JSON text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structured_content: Option<Box<RawValue>>,
    /// Whether the call failed (a tool execution error the model can act on).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_error: Option<bool>,
    /// `complete` (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType>,
    /// Result `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl CallToolResult {
    /// A result with the given content.
    #[must_use]
    pub fn new(content: Vec<ContentBlock>) -> Self {
        Self {
            content,
            structured_content: None,
            is_error: None,
            result_type: None,
            meta: None,
        }
    }

    /// A successful result with one text block.
    pub fn text(text: impl Into<String>) -> Self {
        Self::new(vec![ContentBlock::text(text)])
    }

    /// A failed result (`isError: true`) with one text block.
    pub fn error_text(text: impl Into<String>) -> Self {
        Self::text(text).with_is_error(true)
    }

    /// A successful structured result, with a text mirror for older clients.
    pub fn structured(value: Value, text_mirror: impl Into<String>) -> Self {
        Self::text(text_mirror).with_structured_content(value)
    }

    /// A successful structured result from its JSON text (written once, in the order the
    /// server chose), with a text mirror for older clients.
    pub fn structured_raw(value: Box<RawValue>, text_mirror: impl Into<String>) -> Self {
        Self::text(text_mirror).with_structured_raw(value)
    }

    /// Sets `structured_content` from a [`Value`] (its objects' members come out sorted, as a
    /// `Value` keeps them; [`with_structured_raw`](Self::with_structured_raw) keeps an order).
    #[must_use]
    pub fn with_structured_content(mut self, value: impl Into<Value>) -> Self {
        self.structured_content = Some(raw_of(&value.into()));
        self
    }

    /// Sets `structured_content` to this JSON text.
    #[must_use]
    pub fn with_structured_raw(mut self, value: Box<RawValue>) -> Self {
        self.structured_content = Some(value);
        self
    }

    /// `structured_content` read into a [`Value`], if there is one.
    pub fn structured_value(&self) -> Option<Value> {
        self.structured_content
            .as_ref()
            .and_then(|raw| serde_json::from_str(raw.get()).ok())
    }

    with_options! {
        with_is_error => is_error: bool,
        with_meta => meta: Meta,
    }
}

/// A `Value` as JSON text. Writing a `Value` cannot fail (its keys are strings); `null` stands
/// in should it ever.
fn raw_of(value: &Value) -> Box<RawValue> {
    serde_json::value::to_raw_value(value).unwrap_or_else(|_| RawValue::NULL.to_owned())
}

/// Whether JSON text is an object (its first character after white space is `{`).
fn is_object_text(raw: &RawValue) -> bool {
    raw.get().trim_start().starts_with('{')
}

impl PartialEq for CallToolResult {
    /// `structuredContent` compares as text.
    fn eq(&self, other: &Self) -> bool {
        self.content == other.content
            && self.structured_content.as_ref().map(|r| r.get())
                == other.structured_content.as_ref().map(|r| r.get())
            && self.is_error == other.is_error
            && self.result_type == other.result_type
            && self.meta == other.meta
    }
}

impl ForVersion for CallToolResult {
    /// Clears `structuredContent` before 2025-06-18, and before 2026-07-28 when it is not
    /// a JSON object (those revisions require an object; the text mirror remains).
    fn for_version(&mut self, v: ProtocolVersion) {
        self.content.for_version(v);
        if !v.has_structured_content()
            || (!v.is_stateless()
                && !self
                    .structured_content
                    .as_deref()
                    .is_none_or(is_object_text))
        {
            self.structured_content = None;
        }
        result_type_for(v, &mut self.result_type);
    }
}
