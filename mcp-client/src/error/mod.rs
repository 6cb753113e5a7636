//! What can go wrong on the client side.

use std::sync::Arc;
use std::time::Duration;

use mcp_core::ErrorObject;
use mcp_core::typed::OutputError;

#[cfg(feature = "oauth")]
mod oauth;
#[cfg(feature = "oauth")]
pub use oauth::OAuthError;

/// Why a client request failed.
///
/// ```
/// use mcp_runtime_client::ClientError;
/// use mcp_runtime_client::protocol::ErrorObject;
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
    #[error(transparent)]
    Transport(TransportError),
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
    /// The server's answer does not deserialise into the type it has by the protocol.
    ///
    /// ```
    /// use mcp_runtime_client::ClientError;
    ///
    /// let source = serde_json::from_str::<i64>("{}").unwrap_err();
    /// let err = ClientError::Decode { what: "tools/list".into(), source };
    /// assert_eq!(err.to_string(), "unexpected answer: the answer to tools/list does not fit");
    /// ```
    #[error("unexpected answer: the answer to {what} does not fit")]
    Decode {
        /// The request answered.
        what: String,
        /// What `serde_json` reported.
        #[source]
        source: serde_json::Error,
    },
    /// The params or arguments given to a request do not serialise as JSON.
    ///
    /// ```
    /// use std::collections::HashMap;
    /// use mcp_runtime_client::ClientError;
    ///
    /// // A map with keys that are not strings is no JSON object.
    /// let source = serde_json::to_value(HashMap::from([((1, 2), 3)])).unwrap_err();
    /// let err = ClientError::Encode(source);
    /// assert_eq!(err.to_string(), "the request's params do not serialise");
    /// ```
    #[error("the request's params do not serialise")]
    Encode(#[source] serde_json::Error),
    /// A typed call ([`Client::call`](crate::Client::call)) got an `isError` result: the tool's
    /// text.
    #[error("the tool failed: {0}")]
    Tool(String),
    /// A typed call ([`Client::call`](crate::Client::call)) got a successful result that does
    /// not hold what the tool's declared return type promises.
    ///
    /// ```
    /// use mcp_runtime_client::{ClientError, OutputError};
    ///
    /// let source = OutputError::DoesNotFit(serde_json::from_str::<i64>("\"x\"").unwrap_err());
    /// let err = ClientError::Output { tool: "add", source };
    /// assert_eq!(err.to_string(), "the result of add does not read as its declared return type");
    /// ```
    #[error("the result of {tool} does not read as its declared return type")]
    Output {
        /// The tool called.
        tool: &'static str,
        /// What did not fit.
        source: OutputError,
    },
    /// A `tools/call` result whose `structuredContent` does not conform to the `outputSchema`
    /// the server listed for the tool, with
    /// [`ClientBuilder::validate_output`](crate::ClientBuilder::validate_output): `mismatch`
    /// names the JSON path and the schema keyword that failed.
    ///
    /// ```
    /// use mcp_runtime_client::ClientError;
    /// use mcp_runtime_client::protocol::CallToolResult;
    /// use mcp_runtime_client::protocol::output::OutputValidator;
    ///
    /// let schema = serde_json::json!({"type": "object", "properties": {"n": {"type": "integer"}}});
    /// let bad = CallToolResult::structured(serde_json::json!({"n": "one"}), "one");
    /// let mismatch = OutputValidator::new(&schema).unwrap().check(&bad).unwrap_err();
    /// let err = ClientError::OutputSchema { tool: "count".into(), mismatch };
    /// assert_eq!(
    ///     err.to_string(),
    ///     r#"the result of tool 'count' does not conform to its outputSchema: structuredContent at /n fails "type": "one" is not of type "integer""#
    /// );
    /// ```
    #[error("the result of tool '{tool}' does not conform to its outputSchema: {mismatch}")]
    OutputSchema {
        /// The tool called.
        tool: String,
        /// Where the result breaks the schema.
        mismatch: mcp_core::output::OutputMismatch,
    },
    /// Content did not match what the server listed for it (a skill's size, digest or
    /// frontmatter).
    #[error("verification failed: {0}")]
    Verification(String),
    /// The server did not declare a capability the request needs.
    #[error("the server does not support {0}")]
    Unsupported(&'static str),
    /// A message from the server (a stdio line, an HTTP JSON body, an SSE event) is larger
    /// than [`ClientBuilder::max_message_bytes`](crate::ClientBuilder::max_message_bytes).
    /// Over HTTP the request it answered fails; over a message transport (stdio, in-memory)
    /// the connection is closed, since what the message answered cannot be known.
    ///
    /// ```
    /// use mcp_runtime_client::ClientError;
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
    /// use mcp_runtime_client::ClientError;
    ///
    /// let err = ClientError::InvalidUtf8 { offset: 17 };
    /// assert_eq!(err.to_string(), "unexpected answer: a message from the server is not UTF-8 (byte 17)");
    /// ```
    #[error("unexpected answer: a message from the server is not UTF-8 (byte {offset})")]
    InvalidUtf8 {
        /// Where the first byte that is not UTF-8 is, counted from the start of the message.
        offset: usize,
    },
    /// The pages of one list operation ([`Client::list_tools`](crate::Client::list_tools) and
    /// the other "every page" methods) would hold more than
    /// [`ClientBuilder::max_list_bytes`](crate::ClientBuilder::max_list_bytes): the page that
    /// would pass the bound is dropped, and so is everything read before it.
    ///
    /// ```
    /// use mcp_runtime_client::ClientError;
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
    /// use mcp_runtime_client::ClientError;
    ///
    /// let err = ClientError::InvalidConfig("max_message_bytes must be at least 1".into());
    /// assert!(err.to_string().contains("max_message_bytes"));
    /// ```
    #[error("invalid client configuration: {0}")]
    InvalidConfig(String),
    /// The server refused a request for want of authorization (401, or 403 with
    /// `insufficient_scope`), and the OAuth client (feature `oauth`) could not get a token.
    #[cfg(feature = "oauth")]
    #[cfg_attr(docsrs, doc(cfg(feature = "oauth")))]
    #[error("HTTP {status}, and authorization failed")]
    Unauthorized {
        /// The status of the refusal.
        status: u16,
        /// Why no token was had.
        #[source]
        source: OAuthError,
    },
}

/// Why the transport failed: what the client was doing, and the error underneath when there was
/// one (an I/O error, `reqwest`'s), as its [`source`](std::error::Error::source).
///
/// ```
/// use std::error::Error as _;
/// use mcp_runtime_client::{ClientError, TransportError};
///
/// let io = std::io::Error::from(std::io::ErrorKind::BrokenPipe);
/// let err = ClientError::Transport(TransportError::with_source("writing to the server", io));
/// assert_eq!(err.to_string(), "transport: writing to the server");
/// assert_eq!(err.source().unwrap().to_string(), "broken pipe");
/// ```
#[derive(Debug, Clone, thiserror::Error)]
#[error("transport: {what}")]
pub struct TransportError {
    what: String,
    #[source]
    source: Option<Arc<dyn std::error::Error + Send + Sync>>,
}

impl TransportError {
    /// A failure with nothing underneath (an HTTP status, a stream that ended).
    ///
    /// ```
    /// let err = mcp_runtime_client::TransportError::new("HTTP 502");
    /// assert_eq!(err.to_string(), "transport: HTTP 502");
    /// ```
    pub fn new(what: impl Into<String>) -> Self {
        Self {
            what: what.into(),
            source: None,
        }
    }

    /// A failure of `source` while the client did `what`.
    ///
    /// ```
    /// let io = std::io::Error::from(std::io::ErrorKind::NotFound);
    /// let err = mcp_runtime_client::TransportError::with_source("could not start the server", io);
    /// assert_eq!(err.what(), "could not start the server");
    /// ```
    pub fn with_source(
        what: impl Into<String>,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> Self {
        Self {
            what: what.into(),
            source: Some(Arc::new(source)),
        }
    }

    /// What the client was doing, or what went wrong when nothing is underneath.
    ///
    /// ```
    /// assert_eq!(mcp_runtime_client::TransportError::new("HTTP 502").what(), "HTTP 502");
    /// ```
    #[must_use]
    pub fn what(&self) -> &str {
        &self.what
    }
}

impl From<TransportError> for ClientError {
    fn from(e: TransportError) -> Self {
        Self::Transport(e)
    }
}

impl ClientError {
    /// The JSON-RPC error, when the server answered with one.
    ///
    /// ```
    /// use mcp_runtime_client::ClientError;
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

    /// The answer to `what` does not deserialise.
    pub(crate) fn decode(what: impl Into<String>, source: serde_json::Error) -> Self {
        Self::Decode {
            what: what.into(),
            source,
        }
    }
}
