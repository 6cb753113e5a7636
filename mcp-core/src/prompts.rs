//! Prompts: `prompts/list` and `prompts/get`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::content::{ContentBlock, Role, entity_meta_for, icons_for, title_for};
use crate::discover::{CacheScope, InputResponses, ResultType, cache_hints_for, result_type_for};
use crate::icons::Icon;
use crate::meta::Meta;
use crate::pagination::Cursor;
use crate::version::{ForVersion, ProtocolVersion};

/// An argument a prompt accepts. Values are always strings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PromptArgument {
    /// The argument name.
    pub name: String,
    /// A display name (2025-06-18+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// A description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Whether the argument must be given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<bool>,
}

impl PromptArgument {
    /// An optional argument named `name`.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            title: None,
            description: None,
            required: None,
        }
    }

    with_options! {
        with_title => title: String,
        with_description => description: String,
        with_required => required: bool,
    }
}

impl ForVersion for PromptArgument {
    fn for_version(&mut self, v: ProtocolVersion) {
        title_for(v, &mut self.title);
    }
}

/// A prompt template the server offers.
///
/// ```
/// use mcp_runtime_core::{Prompt, PromptArgument};
///
/// let p = Prompt::new("greet")
///     .with_description("Greets someone")
///     .with_arguments(vec![PromptArgument::new("name").with_required(true)]);
/// assert_eq!(serde_json::to_value(&p).unwrap()["arguments"][0]["required"], true);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Prompt {
    /// The programmatic name.
    pub name: String,
    /// A display name (2025-06-18+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// A description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The arguments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Vec<PromptArgument>>,
    /// Icons (2025-11-25+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// `_meta` (2025-06-18+).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl Prompt {
    /// A prompt named `name`.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            title: None,
            description: None,
            arguments: None,
            icons: None,
            meta: None,
        }
    }

    with_options! {
        with_title => title: String,
        with_description => description: String,
        with_arguments => arguments: Vec<PromptArgument>,
        with_icons => icons: Vec<Icon>,
        with_meta => meta: Meta,
    }
}

impl ForVersion for Prompt {
    fn for_version(&mut self, v: ProtocolVersion) {
        title_for(v, &mut self.title);
        icons_for(v, &mut self.icons);
        entity_meta_for(v, &mut self.meta);
        self.arguments.for_version(v);
    }
}

/// The result of `prompts/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ListPromptsResult {
    /// The prompts of this page.
    pub prompts: Vec<Prompt>,
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

impl ListPromptsResult {
    /// A page of prompts.
    #[must_use]
    pub fn new(prompts: Vec<Prompt>) -> Self {
        Self {
            prompts,
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

impl ForVersion for ListPromptsResult {
    fn for_version(&mut self, v: ProtocolVersion) {
        self.prompts.for_version(v);
        cache_hints_for(v, &mut self.ttl_ms, &mut self.cache_scope);
        result_type_for(v, &mut self.result_type);
    }
}

/// The params of `prompts/get`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct GetPromptRequestParams {
    /// The prompt to render.
    pub name: String,
    /// Argument values (strings).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<BTreeMap<String, String>>,
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

impl GetPromptRequestParams {
    /// Params for the prompt `name` with no arguments.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            arguments: None,
            meta: None,
            input_responses: None,
            request_state: None,
        }
    }
}

/// One message of a rendered prompt.
///
/// ```
/// use mcp_runtime_core::PromptMessage;
///
/// let m = PromptMessage::user("Hello");
/// assert_eq!(
///     serde_json::to_string(&m).unwrap(),
///     r#"{"role":"user","content":{"type":"text","text":"Hello"}}"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PromptMessage {
    /// Who speaks.
    pub role: Role,
    /// What is said.
    pub content: ContentBlock,
}

impl PromptMessage {
    /// A message with any content.
    #[must_use]
    pub fn new(role: Role, content: ContentBlock) -> Self {
        Self { role, content }
    }

    /// A user text message.
    pub fn user(text: impl Into<String>) -> Self {
        Self::new(Role::User, ContentBlock::text(text))
    }

    /// An assistant text message.
    pub fn assistant(text: impl Into<String>) -> Self {
        Self::new(Role::Assistant, ContentBlock::text(text))
    }
}

impl ForVersion for PromptMessage {
    fn for_version(&mut self, v: ProtocolVersion) {
        self.content.for_version(v);
    }
}

/// The result of `prompts/get`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct GetPromptResult {
    /// A description of the rendered prompt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The messages.
    pub messages: Vec<PromptMessage>,
    /// `complete` (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType>,
    /// Result `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl GetPromptResult {
    /// A result with the given messages.
    #[must_use]
    pub fn new(messages: Vec<PromptMessage>) -> Self {
        Self {
            description: None,
            messages,
            result_type: None,
            meta: None,
        }
    }

    with_options! {
        with_description => description: String,
        with_meta => meta: Meta,
    }
}

impl ForVersion for GetPromptResult {
    fn for_version(&mut self, v: ProtocolVersion) {
        self.messages.for_version(v);
        result_type_for(v, &mut self.result_type);
    }
}
