//! The handshake-era lifecycle (`initialize`), the capability and identity types that both eras
//! use, and [`RequestMeta`], the stateless era's per-request `_meta` that carries them.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::content::{icons_for, title_for};
use crate::icons::Icon;
use crate::logging::LoggingLevel;
use crate::meta::Meta;
use crate::progress::ProgressToken;
use crate::version::{ForVersion, ProtocolVersion};

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

/// The typed contents of a request's `params._meta`: in the stateless era (2026-07-28), the
/// per-request counterpart of `initialize` (protocol version, client capabilities and identity).
///
/// The client's capabilities and identity are behind [`Arc`]s: they are the large members, read
/// once per request and handed on (to a server's request context) without being copied, and
/// they keep the struct small to move. Read them with `as_deref()`.
///
/// ```
/// use mcp_runtime_core::RequestMeta;
/// use serde_json::value::RawValue;
///
/// let params = RawValue::from_string(r#"{"name":"x","_meta":{
///     "progressToken": 5,
///     "io.modelcontextprotocol/protocolVersion": "2026-07-28",
///     "io.modelcontextprotocol/clientCapabilities": {},
///     "vendor.example/trace": "abc"}}"#.to_owned()).unwrap();
/// let meta = RequestMeta::from_params(Some(&params)).unwrap();
/// assert_eq!(meta.protocol_version.as_deref(), Some("2026-07-28"));
/// assert!(meta.client_capabilities.as_deref().is_some_and(|c| c.roots.is_none()));
/// assert!(meta.progress_token.is_some());
/// assert_eq!(meta.rest["vendor.example/trace"], "abc");
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[non_exhaustive]
pub struct RequestMeta {
    /// `progressToken`: send progress notifications tagged with this token.
    #[serde(
        rename = "progressToken",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub progress_token: Option<ProgressToken>,
    /// [`PROTOCOL_VERSION_KEY`](crate::meta::PROTOCOL_VERSION_KEY), raw (it may name an unknown revision).
    #[serde(
        rename = "io.modelcontextprotocol/protocolVersion",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub protocol_version: Option<String>,
    /// [`CLIENT_CAPABILITIES_KEY`](crate::meta::CLIENT_CAPABILITIES_KEY), behind an [`Arc`]:
    /// the value is large, and a server hands it on to the request's handler without copying it.
    #[serde(
        rename = "io.modelcontextprotocol/clientCapabilities",
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "shared"
    )]
    pub client_capabilities: Option<Arc<ClientCapabilities>>,
    /// [`CLIENT_INFO_KEY`](crate::meta::CLIENT_INFO_KEY), behind an [`Arc`] like the capabilities.
    #[serde(
        rename = "io.modelcontextprotocol/clientInfo",
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "shared"
    )]
    pub client_info: Option<Arc<Implementation>>,
    /// [`LOG_LEVEL_KEY`](crate::meta::LOG_LEVEL_KEY).
    #[serde(
        rename = "io.modelcontextprotocol/logLevel",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub log_level: Option<LoggingLevel>,
    /// Every other key, untouched.
    // Read by the hand-written `Deserialize` below: a new reserved key needs an arm there too.
    #[serde(flatten)]
    pub rest: Meta,
}

/// Writes an optional shared value as the value itself.
fn shared<T: Serialize, S: serde::Serializer>(
    value: &Option<Arc<T>>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match value {
        Some(v) => serializer.serialize_some(&**v),
        None => serializer.serialize_none(),
    }
}

/// Read in one pass: the reserved keys into their fields, every other key into `rest` (what
/// `#[serde(flatten)]` would do, without buffering the whole object first).
impl<'de> Deserialize<'de> for RequestMeta {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(RequestMetaVisitor)
    }
}

struct RequestMetaVisitor;

/// A map key, borrowed from the input when it can be.
struct Key<'de>(std::borrow::Cow<'de, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> serde::de::Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a string key")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(std::borrow::Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(std::borrow::Cow::Owned(v.to_owned())))
            }
            fn visit_string<E>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key(std::borrow::Cow::Owned(v)))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

/// Reads one reserved key's value; a key given twice is an error, as for a derived struct.
fn reserved<'de, A, T>(
    map: &mut A,
    slot: &mut Option<T>,
    seen: &mut bool,
    key: &'static str,
) -> Result<(), A::Error>
where
    A: serde::de::MapAccess<'de>,
    T: Deserialize<'de>,
{
    if std::mem::replace(seen, true) {
        return Err(serde::de::Error::duplicate_field(key));
    }
    *slot = map.next_value()?;
    Ok(())
}

/// [`reserved`] for a value kept behind an [`Arc`]: read in place, then moved into the `Arc`
/// once (no intermediate `Box`).
fn reserved_shared<'de, A, T>(
    map: &mut A,
    slot: &mut Option<Arc<T>>,
    seen: &mut bool,
    key: &'static str,
) -> Result<(), A::Error>
where
    A: serde::de::MapAccess<'de>,
    T: Deserialize<'de>,
{
    let mut value = None;
    reserved(map, &mut value, seen, key)?;
    *slot = value.map(Arc::new);
    Ok(())
}

impl<'de> serde::de::Visitor<'de> for RequestMetaVisitor {
    type Value = RequestMeta;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("struct RequestMeta")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<RequestMeta, A::Error> {
        use crate::meta::{
            CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY, LOG_LEVEL_KEY, PROGRESS_TOKEN_KEY,
            PROTOCOL_VERSION_KEY,
        };
        let mut meta = RequestMeta::default();
        let mut seen = [false; 5];
        while let Some(Key(key)) = map.next_key()? {
            match &*key {
                PROGRESS_TOKEN_KEY => reserved(
                    &mut map,
                    &mut meta.progress_token,
                    &mut seen[0],
                    PROGRESS_TOKEN_KEY,
                )?,
                PROTOCOL_VERSION_KEY => reserved(
                    &mut map,
                    &mut meta.protocol_version,
                    &mut seen[1],
                    PROTOCOL_VERSION_KEY,
                )?,
                CLIENT_CAPABILITIES_KEY => reserved_shared(
                    &mut map,
                    &mut meta.client_capabilities,
                    &mut seen[2],
                    CLIENT_CAPABILITIES_KEY,
                )?,
                CLIENT_INFO_KEY => reserved_shared(
                    &mut map,
                    &mut meta.client_info,
                    &mut seen[3],
                    CLIENT_INFO_KEY,
                )?,
                LOG_LEVEL_KEY => {
                    reserved(&mut map, &mut meta.log_level, &mut seen[4], LOG_LEVEL_KEY)?
                }
                _ => {
                    let value: serde_json::Value = map.next_value()?;
                    meta.rest.insert(key.into_owned(), value);
                }
            }
        }
        Ok(meta)
    }
}

#[derive(Deserialize)]
struct MetaOnly {
    #[serde(rename = "_meta", default)]
    meta: Option<RequestMeta>,
}

impl RequestMeta {
    /// Reads `_meta` from raw request params, ignoring every other member.
    ///
    /// Absent params, absent `_meta` and `"_meta": null` all give an empty `RequestMeta`.
    ///
    /// # Errors
    ///
    /// When the params are not an object or a reserved key has the wrong type.
    pub fn from_params(params: Option<&RawValue>) -> Result<Self, serde_json::Error> {
        let Some(params) = params else {
            return Ok(Self::default());
        };
        let only: MetaOnly = serde_json::from_str(params.get())?;
        Ok(only.meta.unwrap_or_default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(params: &str) -> Result<RequestMeta, String> {
        let raw = RawValue::from_string(params.to_owned()).unwrap();
        RequestMeta::from_params(Some(&raw)).map_err(|e| e.to_string())
    }

    #[test]
    fn request_meta_reads_reserved_keys_and_keeps_the_rest() {
        let meta = read(
            r#"{"name":"x","_meta":{"progressToken":7,"io.modelcontextprotocol/protocolVersion":"2026-07-28",
            "io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"debug",
            "io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},
            "vendor\u002fkey":{"a":[1,2]},"io.modelcontextprotocol/logLevelX":null},"arguments":{}}"#,
        )
        .unwrap();
        assert_eq!(meta.progress_token, Some(ProgressToken::Number(7)));
        assert_eq!(meta.protocol_version.as_deref(), Some("2026-07-28"));
        assert_eq!(
            meta.client_capabilities.as_deref(),
            Some(&ClientCapabilities::default())
        );
        assert_eq!(meta.log_level, Some(LoggingLevel::Debug));
        assert_eq!(
            meta.client_info.as_deref(),
            Some(&Implementation::new("c", "1"))
        );
        assert_eq!(
            serde_json::Value::Object(meta.rest.clone()),
            serde_json::json!({"vendor/key": {"a": [1, 2]}, "io.modelcontextprotocol/logLevelX": null})
        );
        // Written back, every key is there once.
        let back = serde_json::to_value(&meta).unwrap();
        assert_eq!(back.as_object().unwrap().len(), 7);
    }

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

    #[test]
    fn request_meta_errors_name_what_is_wrong() {
        assert_eq!(read(r#"{"_meta":null}"#).unwrap(), RequestMeta::default());
        assert_eq!(read(r#"{}"#).unwrap(), RequestMeta::default());
        let err = read(r#"{"_meta":5}"#).unwrap_err();
        assert!(
            err.starts_with("invalid type: integer `5`, expected struct RequestMeta"),
            "{err}"
        );
        let err = read(r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":5}}"#).unwrap_err();
        assert!(
            err.starts_with("invalid type: integer `5`, expected a string"),
            "{err}"
        );
        let err = read(r#"{"_meta":{"progressToken":1,"progressToken":2}}"#).unwrap_err();
        assert!(err.starts_with("duplicate field `progressToken`"), "{err}");
    }
}
