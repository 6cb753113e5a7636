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
    /// A message from the server (a stdio line, an HTTP JSON body, an SSE event) is larger
    /// than [`ClientBuilder::max_message_bytes`](super::ClientBuilder::max_message_bytes).
    /// Over HTTP the request it answered fails; over a message transport (stdio, in-memory)
    /// the connection is closed, since what the message answered cannot be known.
    ///
    /// ```
    /// use mcp_runtime::client::ClientError;
    ///
    /// let err = ClientError::MessageTooLarge { limit: 1024 };
    /// assert_eq!(err.to_string(), "a message from the server is larger than 1024 bytes");
    /// ```
    #[error("a message from the server is larger than {limit} bytes")]
    MessageTooLarge {
        /// The bound, in bytes.
        limit: usize,
    },
    /// A message from the server is not UTF-8: nothing is repaired. Over HTTP the request it
    /// answered fails with it (a JSON body, or an SSE event of the request's stream, which is
    /// dropped); `offset` is where the first byte that is not UTF-8 is, in the body or in the
    /// event's data. On the standalone stream such an event is skipped, as a line that is not
    /// UTF-8 is over stdio (logged, like a line that is not JSON).
    ///
    /// ```
    /// use mcp_runtime::client::ClientError;
    ///
    /// let err = ClientError::InvalidUtf8 { offset: 17 };
    /// assert_eq!(err.to_string(), "unexpected answer: a message from the server is not UTF-8 (byte 17)");
    /// ```
    #[error("unexpected answer: a message from the server is not UTF-8 (byte {offset})")]
    InvalidUtf8 {
        /// Where the first byte that is not UTF-8 is, counted from the start of the message.
        offset: usize,
    },
    /// The pages of one list operation ([`Client::list_tools`](super::Client::list_tools) and
    /// the other "every page" methods) would hold more than
    /// [`ClientBuilder::max_list_bytes`](super::ClientBuilder::max_list_bytes): the page that
    /// would pass the bound is dropped, and so is everything read before it.
    ///
    /// ```
    /// use mcp_runtime::client::ClientError;
    ///
    /// let err = ClientError::ListTooLarge {
    ///     method: "tools/list".into(),
    ///     limit: 1000,
    ///     held: 900,
    ///     pages: 3,
    /// };
    /// assert_eq!(
    ///     err.to_string(),
    ///     "tools/list: the pages would hold more than 1000 bytes (900 bytes in 3 pages read)"
    /// );
    /// ```
    #[error(
        "{method}: the pages would hold more than {limit} bytes ({held} bytes in {pages} pages read)"
    )]
    ListTooLarge {
        /// The list method.
        method: String,
        /// The bound, in bytes.
        limit: usize,
        /// The bytes of the pages read and kept before the refused one (at most `limit`).
        held: usize,
        /// How many pages were read and kept before the refused one.
        pages: usize,
    },
    /// The client's configuration is not usable (a bound of zero, …): nothing was connected.
    ///
    /// ```
    /// use mcp_runtime::client::ClientError;
    ///
    /// let err = ClientError::InvalidConfig("max_message_bytes must be at least 1".into());
    /// assert!(err.to_string().contains("max_message_bytes"));
    /// ```
    #[error("invalid client configuration: {0}")]
    InvalidConfig(String),
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
