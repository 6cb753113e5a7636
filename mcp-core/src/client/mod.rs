//! Requests the client answers: sampling, elicitation and roots.
//!
//! In the handshake era the server sends them as JSON-RPC requests. In the stateless era
//! (2026-07-28) the server instead returns an [`InputRequiredResult`] listing them as
//! [`InputRequest`]s; the client retries the original request with the answers in
//! `inputResponses`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::discover::ResultType;
use crate::meta::Meta;
use crate::version::{ForVersion, ProtocolVersion};

// Defined in `discover`, beside `resultType`, so that `tools`, `prompts` and `resources` (whose
// retried requests carry it) need not depend on this module, which depends on `tools`.
pub use crate::discover::InputResponses;

mod sampling;

pub use sampling::{
    CreateMessageRequestParams, CreateMessageResult, IncludeContext, ModelHint, ModelPreferences,
    SamplingContent, SamplingContentBlock, SamplingMessage, ToolChoice, ToolResultContent,
    ToolUseContent,
};

/// Method name of a sampling request.
pub const CREATE_MESSAGE_METHOD: &str = "sampling/createMessage";
/// Method name of an elicitation request.
pub const ELICIT_METHOD: &str = "elicitation/create";
/// Method name of a roots request.
pub const LIST_ROOTS_METHOD: &str = "roots/list";

/// The mode of an elicitation request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ElicitMode {
    /// The client shows a form built from `requestedSchema`.
    Form,
    /// The client sends the user to a URL (2025-11-25+).
    Url,
}

/// The params of `elicitation/create` (2025-06-18+), in form or URL mode.
///
/// ```
/// use mcp_runtime_core::ElicitRequestParams;
/// use serde_json::json;
///
/// let form = ElicitRequestParams::form(
///     "Your name?",
///     json!({"type": "object", "properties": {"name": {"type": "string"}}}),
/// );
/// assert_eq!(serde_json::to_value(&form).unwrap()["message"], "Your name?");
/// let url = ElicitRequestParams::url("Sign in", "https://example.com/login", "e-1");
/// assert_eq!(serde_json::to_value(&url).unwrap()["mode"], "url");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ElicitRequestParams {
    /// `form` (may be omitted) or `url`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<ElicitMode>,
    /// What the user is asked.
    pub message: String,
    /// Form mode: a flat object schema of primitive properties.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requested_schema: Option<Value>,
    /// URL mode: where to send the user.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// URL mode: the correlation id (2025-11-25 only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elicitation_id: Option<String>,
    /// Request `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl ElicitRequestParams {
    /// A form-mode request.
    pub fn form(message: impl Into<String>, requested_schema: Value) -> Self {
        Self {
            mode: None,
            message: message.into(),
            requested_schema: Some(requested_schema),
            url: None,
            elicitation_id: None,
            meta: None,
        }
    }

    /// A URL-mode request.
    pub fn url(
        message: impl Into<String>,
        url: impl Into<String>,
        elicitation_id: impl Into<String>,
    ) -> Self {
        Self {
            mode: Some(ElicitMode::Url),
            message: message.into(),
            requested_schema: None,
            url: Some(url.into()),
            elicitation_id: Some(elicitation_id.into()),
            meta: None,
        }
    }
}

impl ForVersion for ElicitRequestParams {
    /// Drops `mode: "form"` before 2025-11-25 and `elicitationId` on 2026-07-28.
    fn for_version(&mut self, v: ProtocolVersion) {
        if v < ProtocolVersion::V2025_11_25 && self.mode == Some(ElicitMode::Form) {
            self.mode = None;
        }
        if v.is_stateless() {
            self.elicitation_id = None;
        }
    }
}

/// The user's answer to an elicitation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ElicitAction {
    /// The user submitted the form (or consented to the URL).
    Accept,
    /// The user explicitly declined.
    Decline,
    /// The user dismissed the request.
    Cancel,
}

/// The result of `elicitation/create`.
///
/// ```
/// use mcp_runtime_core::{ElicitAction, ElicitResult};
///
/// let r: ElicitResult =
///     serde_json::from_str(r#"{"action":"accept","content":{"name":"Ada"}}"#).unwrap();
/// assert_eq!(r.action, ElicitAction::Accept);
/// assert_eq!(r.content.unwrap()["name"], "Ada");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ElicitResult {
    /// What the user did.
    pub action: ElicitAction,
    /// The submitted values (form mode, `accept` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<Meta>,
    /// Result `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl ElicitResult {
    /// A result with an action and no content.
    #[must_use]
    pub fn new(action: ElicitAction) -> Self {
        Self {
            action,
            content: None,
            meta: None,
        }
    }

    with_options! {
        with_content => content: Meta,
    }
}

/// A root the client exposes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Root {
    /// A `file://` URI.
    pub uri: String,
    /// A display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// The result of `roots/list`.
///
/// ```
/// use mcp_runtime_core::ListRootsResult;
///
/// let r: ListRootsResult =
///     serde_json::from_str(r#"{"roots":[{"uri":"file:///src","name":"src"}]}"#).unwrap();
/// assert_eq!(r.roots[0].uri, "file:///src");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ListRootsResult {
    /// The roots.
    pub roots: Vec<Root>,
    /// Result `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl Root {
    /// A root with a URI and no name.
    ///
    /// ```
    /// let root = mcp_runtime_core::Root::new("file:///src").with_name("src");
    /// assert_eq!(root.name.as_deref(), Some("src"));
    /// ```
    #[must_use]
    pub fn new(uri: impl Into<String>) -> Self {
        Self {
            uri: uri.into(),
            name: None,
            meta: None,
        }
    }

    with_options! {
        with_name => name: String,
    }
}

impl ListRootsResult {
    /// A result listing `roots`.
    ///
    /// ```
    /// use mcp_runtime_core::{ListRootsResult, Root};
    ///
    /// let r = ListRootsResult::new(vec![Root::new("file:///src")]);
    /// assert_eq!(serde_json::to_string(&r).unwrap(), r#"{"roots":[{"uri":"file:///src"}]}"#);
    /// ```
    #[must_use]
    pub fn new(roots: Vec<Root>) -> Self {
        Self { roots, meta: None }
    }
}

/// A request the client must answer before the server can complete (2026-07-28).
///
/// ```
/// use mcp_runtime_core::{ElicitRequestParams, InputRequest};
/// use serde_json::json;
///
/// let req = InputRequest::elicit(&ElicitRequestParams::form("Name?", json!({"type": "object", "properties": {}})));
/// assert_eq!(req.method, "elicitation/create");
/// assert_eq!(serde_json::to_value(&InputRequest::list_roots()).unwrap(), json!({"method": "roots/list"}));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct InputRequest {
    /// `elicitation/create`, `sampling/createMessage` or `roots/list`.
    pub method: String,
    /// The request params.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<Value>,
}

impl InputRequest {
    /// Any request.
    pub fn new(method: impl Into<String>, params: Option<Value>) -> Self {
        Self {
            method: method.into(),
            params,
        }
    }

    /// An `elicitation/create` request.
    #[must_use]
    pub fn elicit(params: &ElicitRequestParams) -> Self {
        let mut params = params.clone();
        params.for_version(ProtocolVersion::V2026_07_28);
        Self::new(ELICIT_METHOD, serde_json::to_value(params).ok())
    }

    /// A `sampling/createMessage` request.
    #[must_use]
    pub fn create_message(params: &CreateMessageRequestParams) -> Self {
        Self::new(CREATE_MESSAGE_METHOD, serde_json::to_value(params).ok())
    }

    /// A `roots/list` request.
    #[must_use]
    pub fn list_roots() -> Self {
        Self::new(LIST_ROOTS_METHOD, None)
    }
}

/// The `input_required` result of `tools/call`, `prompts/get` or `resources/read`
/// (2026-07-28): it carries at least one of `inputRequests` and `requestState`.
///
/// ```
/// use mcp_runtime_core::{InputRequest, InputRequiredResult};
///
/// let r = InputRequiredResult::new()
///     .with_input_request("roots", InputRequest::list_roots())
///     .with_request_state("opaque");
/// let json = serde_json::to_value(&r).unwrap();
/// assert_eq!(json["resultType"], "input_required");
/// assert_eq!(json["inputRequests"]["roots"]["method"], "roots/list");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct InputRequiredResult {
    /// Always `input_required`.
    pub result_type: ResultType,
    /// The requests, by key; the answers come back under the same keys.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_requests: Option<BTreeMap<String, InputRequest>>,
    /// Opaque state the client echoes on retry (integrity-protect it if it matters).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_state: Option<String>,
    /// Result `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl Default for InputRequiredResult {
    fn default() -> Self {
        Self::new()
    }
}

impl InputRequiredResult {
    /// An empty `input_required` result; add requests or state.
    #[must_use]
    pub fn new() -> Self {
        Self {
            result_type: ResultType::InputRequired,
            input_requests: None,
            request_state: None,
            meta: None,
        }
    }

    /// Adds a request under `key`.
    #[must_use]
    pub fn with_input_request(mut self, key: impl Into<String>, request: InputRequest) -> Self {
        self.input_requests
            .get_or_insert_with(BTreeMap::new)
            .insert(key.into(), request);
        self
    }

    with_options! {
        with_request_state => request_state: String,
        with_meta => meta: Meta,
    }
}

impl ForVersion for InputRequiredResult {
    fn for_version(&mut self, _v: ProtocolVersion) {}
}
