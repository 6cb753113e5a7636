//! The `_meta` member: reserved keys and the typed view of a request's `_meta`.
//!
//! In the stateless era (2026-07-28) every request carries its protocol version, the client's
//! capabilities and, optionally, the client's identity and log level in `params._meta`
//! under the reserved keys below. [`RequestMeta::from_params`] reads just that member.

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::lifecycle::{ClientCapabilities, Implementation};
use crate::logging::LoggingLevel;
use crate::progress::ProgressToken;

/// A `_meta` object: free-form keys to JSON values.
pub type Meta = serde_json::Map<String, serde_json::Value>;

/// Request `_meta` key of the protocol revision the request is written in (2026-07-28).
pub const PROTOCOL_VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";
/// Request `_meta` key of the client's capabilities for this request (2026-07-28).
pub const CLIENT_CAPABILITIES_KEY: &str = "io.modelcontextprotocol/clientCapabilities";
/// Request `_meta` key of the client's [`Implementation`] (2026-07-28).
pub const CLIENT_INFO_KEY: &str = "io.modelcontextprotocol/clientInfo";
/// Request `_meta` key of the minimum log level wanted for this request (2026-07-28).
pub const LOG_LEVEL_KEY: &str = "io.modelcontextprotocol/logLevel";
/// Result `_meta` key of the server's [`Implementation`] (2026-07-28).
pub const SERVER_INFO_KEY: &str = "io.modelcontextprotocol/serverInfo";
/// Notification and result `_meta` key naming the `subscriptions/listen` request (2026-07-28).
pub const SUBSCRIPTION_ID_KEY: &str = "io.modelcontextprotocol/subscriptionId";
/// Request `_meta` key of the token that opts a request into progress notifications.
pub const PROGRESS_TOKEN_KEY: &str = "progressToken";

/// The typed contents of a request's `params._meta`.
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
/// assert!(meta.progress_token.is_some());
/// assert_eq!(meta.rest["vendor.example/trace"], "abc");
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RequestMeta {
    /// `progressToken`: send progress notifications tagged with this token.
    #[serde(
        rename = "progressToken",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub progress_token: Option<ProgressToken>,
    /// [`PROTOCOL_VERSION_KEY`], raw (it may name an unknown revision).
    #[serde(
        rename = "io.modelcontextprotocol/protocolVersion",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub protocol_version: Option<String>,
    /// [`CLIENT_CAPABILITIES_KEY`].
    #[serde(
        rename = "io.modelcontextprotocol/clientCapabilities",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub client_capabilities: Option<ClientCapabilities>,
    /// [`CLIENT_INFO_KEY`].
    #[serde(
        rename = "io.modelcontextprotocol/clientInfo",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub client_info: Option<Implementation>,
    /// [`LOG_LEVEL_KEY`].
    #[serde(
        rename = "io.modelcontextprotocol/logLevel",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub log_level: Option<LoggingLevel>,
    /// Every other key, untouched.
    #[serde(flatten)]
    pub rest: Meta,
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
