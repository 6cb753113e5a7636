//! Sampling: the messages, content blocks, model preferences and tool choice of
//! `sampling/createMessage`, and its result.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::content::{AudioContent, ContentBlock, ImageContent, Role, TextContent};
use crate::meta::Meta;
use crate::tools::Tool;
use crate::version::{ForVersion, ProtocolVersion};

/// A request from the model to call a tool, inside a sampling message (2025-11-25+).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolUseContent {
    /// The id the result refers to.
    pub id: String,
    /// The tool name.
    pub name: String,
    /// The arguments.
    pub input: Meta,
    /// `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// The result of a tool use, inside a sampling message (2025-11-25+).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolResultContent {
    /// The [`ToolUseContent::id`] answered.
    pub tool_use_id: String,
    /// Unstructured content.
    pub content: Vec<ContentBlock>,
    /// Structured content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structured_content: Option<Value>,
    /// Whether the tool failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_error: Option<bool>,
    /// `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// A content block of a sampling message, tagged by `type`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum SamplingContentBlock {
    /// `"text"`.
    Text(TextContent),
    /// `"image"`.
    Image(ImageContent),
    /// `"audio"` (2025-03-26+).
    Audio(AudioContent),
    /// `"tool_use"` (2025-11-25+).
    ToolUse(ToolUseContent),
    /// `"tool_result"` (2025-11-25+).
    ToolResult(ToolResultContent),
}

/// The content of a sampling message: one block or (2025-11-25+) several.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SamplingContent {
    /// A single block.
    Single(SamplingContentBlock),
    /// Several blocks.
    Multiple(Vec<SamplingContentBlock>),
}

/// A message of a sampling conversation.
///
/// ```
/// use mcp_runtime_core::SamplingMessage;
///
/// let m = SamplingMessage::user("What is 2 + 2?");
/// assert_eq!(serde_json::to_value(&m).unwrap()["content"]["type"], "text");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SamplingMessage {
    /// Who speaks.
    pub role: Role,
    /// What is said.
    pub content: SamplingContent,
    /// `_meta` (2025-11-25+).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl SamplingMessage {
    /// A message with any content.
    #[must_use]
    pub fn new(role: Role, content: SamplingContent) -> Self {
        Self {
            role,
            content,
            meta: None,
        }
    }

    /// A user text message.
    pub fn user(text: impl Into<String>) -> Self {
        Self::new(
            Role::User,
            SamplingContent::Single(SamplingContentBlock::Text(TextContent::new(text))),
        )
    }

    /// An assistant text message.
    pub fn assistant(text: impl Into<String>) -> Self {
        Self::new(
            Role::Assistant,
            SamplingContent::Single(SamplingContentBlock::Text(TextContent::new(text))),
        )
    }
}

impl ForVersion for SamplingMessage {
    fn for_version(&mut self, v: ProtocolVersion) {
        if v < ProtocolVersion::V2025_11_25 {
            self.meta = None;
        }
    }
}

/// A hint for model selection.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ModelHint {
    /// A (partial) model name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl ModelHint {
    /// A hint naming (part of) a model name.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: Some(name.into()),
        }
    }
}

/// The server's preferences for model selection.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ModelPreferences {
    /// Model name hints, in order of preference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hints: Option<Vec<ModelHint>>,
    /// 0 to 1: how much cost matters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_priority: Option<f64>,
    /// 0 to 1: how much speed matters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed_priority: Option<f64>,
    /// 0 to 1: how much capability matters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intelligence_priority: Option<f64>,
}

/// Which MCP context the client should include in a sampling prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum IncludeContext {
    /// No context.
    None,
    /// Context from this server (soft-deprecated).
    ThisServer,
    /// Context from every server (soft-deprecated).
    AllServers,
}

/// How the model may use the offered tools (2025-11-25+).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolChoice {
    /// `auto`, `required` or `none`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
}

/// The params of `sampling/createMessage`.
///
/// ```
/// use mcp_runtime_core::{CreateMessageRequestParams, SamplingMessage};
///
/// let p = CreateMessageRequestParams::new(vec![SamplingMessage::user("Hi")], 100)
///     .with_system_prompt("Be brief");
/// assert_eq!(serde_json::to_value(&p).unwrap()["maxTokens"], 100);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CreateMessageRequestParams {
    /// The conversation.
    pub messages: Vec<SamplingMessage>,
    /// The most tokens to generate.
    pub max_tokens: u64,
    /// A system prompt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system_prompt: Option<String>,
    /// Model preferences.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_preferences: Option<ModelPreferences>,
    /// Which context to include.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_context: Option<IncludeContext>,
    /// Sampling temperature.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    /// Stop sequences.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_sequences: Option<Vec<String>>,
    /// Provider-specific metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Meta>,
    /// Tools the model may use (2025-11-25+; needs the client's `sampling.tools`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<Tool>>,
    /// How the model may use them (2025-11-25+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_choice: Option<ToolChoice>,
    /// Request `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl CreateMessageRequestParams {
    /// A request for at most `max_tokens` tokens.
    #[must_use]
    pub fn new(messages: Vec<SamplingMessage>, max_tokens: u64) -> Self {
        Self {
            messages,
            max_tokens,
            system_prompt: None,
            model_preferences: None,
            include_context: None,
            temperature: None,
            stop_sequences: None,
            metadata: None,
            tools: None,
            tool_choice: None,
            meta: None,
        }
    }

    with_options! {
        with_system_prompt => system_prompt: String,
        with_model_preferences => model_preferences: ModelPreferences,
        with_include_context => include_context: IncludeContext,
        with_temperature => temperature: f64,
        with_stop_sequences => stop_sequences: Vec<String>,
        with_metadata => metadata: Meta,
        with_tools => tools: Vec<Tool>,
        with_tool_choice => tool_choice: ToolChoice,
    }
}

impl ForVersion for CreateMessageRequestParams {
    fn for_version(&mut self, v: ProtocolVersion) {
        self.messages.for_version(v);
        if v < ProtocolVersion::V2025_11_25 {
            self.tools = None;
            self.tool_choice = None;
        }
        self.tools.for_version(v);
    }
}

/// The result of `sampling/createMessage`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CreateMessageResult {
    /// The role of the generated message (normally `assistant`).
    pub role: Role,
    /// The generated content.
    pub content: SamplingContent,
    /// The model that generated it.
    pub model: String,
    /// Why generation stopped (`endTurn`, `stopSequence`, `maxTokens`, `toolUse`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    /// Result `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}
