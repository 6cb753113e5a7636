//! The `_meta` member: the free-form [`Meta`] object and the reserved keys.
//!
//! In the stateless era (2026-07-28) every request carries its protocol version, the client's
//! capabilities and, optionally, the client's identity and log level in `params._meta`
//! under the reserved keys below; `RequestMeta` (in the `lifecycle` module, next to the
//! capability types it holds) is their typed view.
//!
//! This module is a leaf: every other module of the crate may use it, it uses none of them (not
//! even in doc links).

/// A `_meta` object: free-form keys to JSON values.
pub type Meta = serde_json::Map<String, serde_json::Value>;

/// Request `_meta` key of the protocol revision the request is written in (2026-07-28).
pub const PROTOCOL_VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";
/// Request `_meta` key of the client's capabilities for this request (2026-07-28).
pub const CLIENT_CAPABILITIES_KEY: &str = "io.modelcontextprotocol/clientCapabilities";
/// Request `_meta` key of the client's `Implementation` (2026-07-28).
pub const CLIENT_INFO_KEY: &str = "io.modelcontextprotocol/clientInfo";
/// Request `_meta` key of the minimum log level wanted for this request (2026-07-28).
pub const LOG_LEVEL_KEY: &str = "io.modelcontextprotocol/logLevel";
/// Result `_meta` key of the server's `Implementation` (2026-07-28).
pub const SERVER_INFO_KEY: &str = "io.modelcontextprotocol/serverInfo";
/// Notification and result `_meta` key naming the `subscriptions/listen` request (2026-07-28).
pub const SUBSCRIPTION_ID_KEY: &str = "io.modelcontextprotocol/subscriptionId";
/// Request `_meta` key of the token that opts a request into progress notifications.
pub const PROGRESS_TOKEN_KEY: &str = "progressToken";
