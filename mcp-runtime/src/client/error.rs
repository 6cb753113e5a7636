//! What can go wrong on the client side.

use std::time::Duration;

use mcp_core::ErrorObject;

/// Why a client request failed.
///
/// ```
/// use mcp_runtime::client::ClientError;
/// use mcp_runtime::protocol::ErrorObject;
///
/// let err = ClientError::Rpc(ErrorObject::method_not_found("tools/frobnicate"));
/// assert_eq!(err.rpc().map(|e| e.code), Some(-32601));
/// assert!(err.to_string().contains("-32601"));
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ClientError {
    /// The server answered with a JSON-RPC error.
    #[error("the server answered error {}: {}", .0.code, .0.message)]
    Rpc(ErrorObject),
    /// The transport failed (the process exited, the HTTP request failed, …).
    #[error("transport: {0}")]
    Transport(String),
    /// The connection is closed.
    #[error("the connection is closed")]
    Closed,
    /// No answer came within the request's time limit.
    #[error("no answer within {0:?}")]
    Timeout(Duration),
    /// The limit of requests in flight on this connection is reached.
    #[error("too many requests in flight (at most {0})")]
    TooManyInFlight(usize),
    /// The server's answer does not have the expected shape.
    #[error("unexpected answer: {0}")]
    Protocol(String),
    /// A typed call ([`Client::call`](super::Client::call)) got an `isError` result: the tool's
    /// text.
    #[error("the tool failed: {0}")]
    Tool(String),
    /// Content did not match what the server listed for it (a skill's size, digest or
    /// frontmatter).
    #[error("verification failed: {0}")]
    Verification(String),
    /// The server did not declare a capability the request needs.
    #[error("the server does not support {0}")]
    Unsupported(&'static str),
}

impl ClientError {
    /// The JSON-RPC error, when the server answered with one.
    ///
    /// ```
    /// use mcp_runtime::client::ClientError;
    ///
    /// assert!(ClientError::Closed.rpc().is_none());
    /// ```
    #[must_use]
    pub fn rpc(&self) -> Option<&ErrorObject> {
        match self {
            Self::Rpc(e) => Some(e),
            _ => None,
        }
    }

    pub(crate) fn protocol(what: impl std::fmt::Display) -> Self {
        Self::Protocol(what.to_string())
    }
}
