//! The handshake-era lifecycle (`initialize`), the capability and identity types that both eras
//! use, and [`RequestMeta`], the stateless era's per-request `_meta` that carries them.

use serde::{Deserialize, Serialize};

use crate::content::{icons_for, title_for};
use crate::icons::Icon;
use crate::meta::Meta;
use crate::version::{ForVersion, ProtocolVersion};

mod request_meta;

pub use request_meta::RequestMeta;
use request_meta::{Key, reserved};

/// The name and version of a client or server implementation.
///
/// ```
/// use mcp_runtime_core::Implementation;
///
/// let info = Implementation::new("gift-server", "0.3.1").with_title("Gift ideas");
/// assert_eq!(
///     serde_json::to_string(&info).unwrap(),
///     r#"{"name":"gift-server","title":"Gift ideas","version":"0.3.1"}"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Implementation {
    /// A programmatic name.
    pub name: String,
    /// A display name (2025-06-18+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The version.
    pub version: String,
    /// A description (2025-11-25+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Icons (2025-11-25+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// A website URL (2025-11-25+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub website_url: Option<String>,
}

impl Implementation {
    /// An implementation with a name and a version.
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            title: None,
            version: version.into(),
            description: None,
            icons: None,
            website_url: None,
        }
    }

    with_options! {
        with_title => title: String,
        with_description => description: String,
        with_icons => icons: Vec<Icon>,
        with_website_url => website_url: String,
    }
}

impl ForVersion for Implementation {
    fn for_version(&mut self, v: ProtocolVersion) {
        title_for(v, &mut self.title);
        icons_for(v, &mut self.icons);
        if !v.has_implementation_details() {
            self.description = None;
            self.website_url = None;
        }
    }
}

/// `roots` client capability.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct RootsCapability {
    /// The client notifies when its roots change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list_changed: Option<bool>,
}

/// `sampling` client capability.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SamplingCapability {
    /// Tool use in sampling requests is supported (2025-11-25+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<serde_json::Value>,
    /// `includeContext` other than `none` is supported (2025-11-25+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<serde_json::Value>,
}

/// `elicitation` client capability.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ElicitationCapability {
    /// Form-mode elicitation (2025-11-25+; an empty `elicitation` object means form only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub form: Option<serde_json::Value>,
    /// URL-mode elicitation (2025-11-25+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<serde_json::Value>,
}

impl ElicitationCapability {
    /// Whether form mode is supported (declared, or implied by an empty object).
    #[must_use]
    pub fn supports_form(&self) -> bool {
        self.form.is_some() || self.url.is_none()
    }

    /// Whether URL mode is supported.
    #[must_use]
    pub fn supports_url(&self) -> bool {
        self.url.is_some()
    }
}

/// What a client supports. Unknown members are kept in `other`.
///
/// Read in one pass (every stateless request carries it): known members into their fields, the
/// rest into `other`, as `#[serde(flatten)]` would, without buffering the object first.
///
/// ```
/// use mcp_runtime_core::ClientCapabilities;
///
/// let caps: ClientCapabilities =
///     serde_json::from_str(r#"{"roots":{"listChanged":true},"elicitation":{},"tasks":{}}"#)
///         .unwrap();
/// assert!(caps.elicitation.is_some());
/// assert!(caps.sampling.is_none());
/// assert!(caps.other.contains_key("tasks"));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ClientCapabilities {
    /// `roots/list` is supported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roots: Option<RootsCapability>,
    /// `sampling/createMessage` is supported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sampling: Option<SamplingCapability>,
    /// `elicitation/create` is supported (2025-06-18+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elicitation: Option<ElicitationCapability>,
    /// Experimental, non-standard capabilities.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub experimental: Option<Meta>,
    /// Extensions the client supports, by identifier (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extensions: Option<Meta>,
    /// Members this crate does not model (for example 2025-11-25 `tasks`).
    // Read by the hand-written `Deserialize` below: a new member needs an arm there too.
    #[serde(flatten)]
    pub other: Meta,
}

impl<'de> Deserialize<'de> for ClientCapabilities {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(ClientCapabilitiesVisitor)
    }
}

struct ClientCapabilitiesVisitor;

impl<'de> serde::de::Visitor<'de> for ClientCapabilitiesVisitor {
    type Value = ClientCapabilities;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("struct ClientCapabilities")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(
        self,
        mut map: A,
    ) -> Result<ClientCapabilities, A::Error> {
        let mut caps = ClientCapabilities::default();
        let mut seen = [false; 5];
        while let Some(Key(key)) = map.next_key()? {
            match &*key {
                "roots" => reserved(&mut map, &mut caps.roots, &mut seen[0], "roots")?,
                "sampling" => reserved(&mut map, &mut caps.sampling, &mut seen[1], "sampling")?,
                "elicitation" => {
                    reserved(&mut map, &mut caps.elicitation, &mut seen[2], "elicitation")?
                }
                "experimental" => reserved(
                    &mut map,
                    &mut caps.experimental,
                    &mut seen[3],
                    "experimental",
                )?,
                "extensions" => {
                    reserved(&mut map, &mut caps.extensions, &mut seen[4], "extensions")?
                }
                _ => {
                    let value: serde_json::Value = map.next_value()?;
                    caps.other.insert(key.into_owned(), value);
                }
            }
        }
        Ok(caps)
    }
}

/// `tools` server capability.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolsCapability {
    /// The server sends `notifications/tools/list_changed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list_changed: Option<bool>,
}

/// `prompts` server capability.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PromptsCapability {
    /// The server sends `notifications/prompts/list_changed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list_changed: Option<bool>,
}

/// `resources` server capability.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ResourcesCapability {
    /// The server supports resource subscriptions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subscribe: Option<bool>,
    /// The server sends `notifications/resources/list_changed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list_changed: Option<bool>,
}

/// What a server offers.
///
/// ```
/// use mcp_runtime_core::{ForVersion, ProtocolVersion, ServerCapabilities};
/// use mcp_runtime_core::lifecycle::ToolsCapability;
///
/// let mut caps = ServerCapabilities::default()
///     .with_tools(ToolsCapability::default())
///     .with_completions();
/// assert_eq!(serde_json::to_string(&caps).unwrap(), r#"{"tools":{},"completions":{}}"#);
/// caps.for_version(ProtocolVersion::V2024_11_05);
/// assert_eq!(caps.completions, None);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ServerCapabilities {
    /// The server offers tools.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<ToolsCapability>,
    /// The server offers resources.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources: Option<ResourcesCapability>,
    /// The server offers prompts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompts: Option<PromptsCapability>,
    /// The server sends log messages (an empty object).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logging: Option<Meta>,
    /// The server completes arguments (an empty object; 2025-03-26+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completions: Option<Meta>,
    /// Experimental, non-standard capabilities.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub experimental: Option<Meta>,
    /// Extensions the server supports, by identifier (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extensions: Option<Meta>,
    /// Task-augmented requests the server accepts, and whether it lists and cancels tasks
    /// (2025-11-25 only: `{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tasks: Option<Meta>,
}

impl ServerCapabilities {
    with_options! {
        with_tools => tools: ToolsCapability,
        with_resources => resources: ResourcesCapability,
        with_prompts => prompts: PromptsCapability,
        with_experimental => experimental: Meta,
        with_extensions => extensions: Meta,
    }

    /// Declares `logging: {}`.
    #[must_use]
    pub fn with_logging(mut self) -> Self {
        self.logging = Some(Meta::new());
        self
    }

    /// Declares `completions: {}`.
    #[must_use]
    pub fn with_completions(mut self) -> Self {
        self.completions = Some(Meta::new());
        self
    }
}

impl ForVersion for ServerCapabilities {
    fn for_version(&mut self, v: ProtocolVersion) {
        if !v.has_completions_capability() {
            self.completions = None;
        }
        if !v.is_stateless() {
            self.extensions = None;
        }
        if v != ProtocolVersion::V2025_11_25 {
            self.tasks = None;
        }
    }
}

/// The params of `initialize` (handshake era).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct InitializeRequestParams {
    /// The version the client asks for, raw: it may be one this crate does not know.
    pub protocol_version: String,
    /// The client's capabilities.
    #[serde(default)]
    pub capabilities: ClientCapabilities,
    /// The client's identity.
    pub client_info: Implementation,
    /// Request `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl InitializeRequestParams {
    /// Params for a client that asks for `protocol_version`.
    pub fn new(protocol_version: impl Into<String>, client_info: Implementation) -> Self {
        Self {
            protocol_version: protocol_version.into(),
            capabilities: ClientCapabilities::default(),
            client_info,
            meta: None,
        }
    }
}

/// The result of `initialize` (handshake era).
///
/// ```
/// use mcp_runtime_core::{Implementation, InitializeResult, ProtocolVersion, ServerCapabilities};
///
/// let result = InitializeResult::new(
///     ProtocolVersion::V2025_06_18,
///     ServerCapabilities::default(),
///     Implementation::new("demo", "1.0.0"),
/// );
/// let json = serde_json::to_value(&result).unwrap();
/// assert_eq!(json["protocolVersion"], "2025-06-18");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct InitializeResult {
    /// The negotiated version.
    pub protocol_version: ProtocolVersion,
    /// What the server offers.
    pub capabilities: ServerCapabilities,
    /// The server's identity.
    pub server_info: Implementation,
    /// Hints for the model on how to use the server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<String>,
    /// Result `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl InitializeResult {
    /// A result for the negotiated version.
    #[must_use]
    pub fn new(
        protocol_version: ProtocolVersion,
        capabilities: ServerCapabilities,
        server_info: Implementation,
    ) -> Self {
        Self {
            protocol_version,
            capabilities,
            server_info,
            instructions: None,
            meta: None,
        }
    }

    with_options! {
        with_instructions => instructions: String,
        with_meta => meta: Meta,
    }
}

impl ForVersion for InitializeResult {
    fn for_version(&mut self, v: ProtocolVersion) {
        self.capabilities.for_version(v);
        self.server_info.for_version(v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_capabilities_read_in_one_pass_as_the_derived_reader_did() {
        let caps: ClientCapabilities = serde_json::from_str(
            r#"{"roots":{"listChanged":true},"sampling":null,"elicitation":{"url":{}},
            "experimental":{"x":1},"extensions":{"e":{}},"tasks":{"list":{}},"z":null}"#,
        )
        .unwrap();
        assert_eq!(caps.roots.unwrap().list_changed, Some(true));
        assert!(caps.sampling.is_none());
        assert!(caps.elicitation.unwrap().supports_url());
        assert_eq!(caps.experimental.unwrap()["x"], 1);
        assert!(caps.extensions.unwrap().contains_key("e"));
        assert_eq!(
            serde_json::Value::Object(caps.other),
            serde_json::json!({"tasks": {"list": {}}, "z": null})
        );
        let err = |text: &str| {
            serde_json::from_str::<ClientCapabilities>(text)
                .unwrap_err()
                .to_string()
        };
        assert!(
            err("5").starts_with("invalid type: integer `5`, expected struct ClientCapabilities"),
            "{}",
            err("5")
        );
        assert!(
            err(r#"{"roots":5}"#)
                .starts_with("invalid type: integer `5`, expected struct RootsCapability")
        );
        assert!(err(r#"{"roots":{},"roots":{}}"#).starts_with("duplicate field `roots`"));
        // Written back as read.
        let text = r#"{"roots":{},"elicitation":{},"tasks":{}}"#;
        let caps: ClientCapabilities = serde_json::from_str(text).unwrap();
        assert_eq!(serde_json::to_string(&caps).unwrap(), text);
    }
}
