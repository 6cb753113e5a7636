//! Errors: what handlers return, what the runtime reports, and how each reaches the client.

use std::borrow::Cow;
use std::fmt;

use mcp_core::ErrorObject;

/// A boxed error of any kind.
pub type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// A business error of a tool, shown to the model as a result with `isError: true`.
///
/// Return it when the call was understood but cannot succeed ("nothing fits a $5 budget"): the
/// model reads the text and can try again differently. Any other error type returned by a tool is
/// masked as an internal error and logged on the server instead.
///
/// ```
/// use mcp_runtime::ToolError;
/// let err = ToolError::new("no gift fits a budget of $1");
/// assert_eq!(err.to_string(), "no gift fits a budget of $1");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError {
    message: Cow<'static, str>,
    structured: Option<serde_json::Value>,
}

impl ToolError {
    /// A tool error with this text.
    pub fn new(message: impl Into<Cow<'static, str>>) -> Self {
        Self {
            message: message.into(),
            structured: None,
        }
    }

    /// Attaches structured details, sent as `structuredContent` where the revision has it.
    ///
    /// ```
    /// use mcp_runtime::ToolError;
    /// let err = ToolError::new("over budget").with_structured(serde_json::json!({"cheapest": 12.5}));
    /// assert!(err.structured().is_some());
    /// ```
    #[must_use]
    pub fn with_structured(mut self, value: serde_json::Value) -> Self {
        self.structured = Some(value);
        self
    }

    /// The text shown to the model.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Structured details, if any.
    pub fn structured(&self) -> Option<&serde_json::Value> {
        self.structured.as_ref()
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<String> for ToolError {
    fn from(message: String) -> Self {
        Self::new(message)
    }
}

impl From<&'static str> for ToolError {
    fn from(message: &'static str) -> Self {
        Self::new(message)
    }
}

/// Why a resource read failed.
///
/// `NotFound` reaches the client as the revision's "resource not found" error (-32002 up to
/// 2025-11-25, -32602 from 2026-07-28, both with `data.uri`); `Other` is masked and logged.
///
/// ```
/// use mcp_runtime::ResourceError;
/// let err = ResourceError::not_found();
/// assert!(matches!(err, ResourceError::NotFound));
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum ResourceError {
    /// No resource at the URI.
    NotFound,
    /// The URI was understood but is not valid (bad variable value): an invalid-params error.
    Invalid(String),
    /// Anything else; masked for the client and logged in full.
    Other(BoxError),
}

impl ResourceError {
    /// No resource at this URI.
    pub fn not_found() -> Self {
        Self::NotFound
    }

    /// Wraps any error as an internal one.
    pub fn other(err: impl Into<BoxError>) -> Self {
        Self::Other(err.into())
    }
}

impl fmt::Display for ResourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotFound => f.write_str("resource not found"),
            Self::Invalid(msg) => write!(f, "invalid resource request: {msg}"),
            Self::Other(err) => write!(f, "{err}"),
        }
    }
}

/// A prompt's own failure: shown to the client as an invalid-params error with this text.
///
/// ```
/// use mcp_runtime::PromptError;
/// let err = PromptError::new("unknown tone 'grumpy'");
/// assert_eq!(err.to_string(), "unknown tone 'grumpy'");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptError(pub String);

impl PromptError {
    /// A prompt error with this text.
    pub fn new(message: impl Into<String>) -> Self {
        Self(message.into())
    }
}

impl fmt::Display for PromptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What a generated handler can fail with; the dispatcher maps each kind to the wire.
///
/// Users meet it when writing their own [`FromContext`](crate::FromContext) extractors.
///
/// ```
/// use mcp_runtime::HandlerError;
/// let err = HandlerError::invalid_arguments("missing required property 'budget'");
/// assert_eq!(err.to_string(), "missing required property 'budget'");
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum HandlerError {
    /// Arguments did not fit the schema: `isError` result (tools, 2025-11-25 on) or -32602.
    InvalidArguments(String),
    /// A tool's business error: an `isError` result (an invalid-params error elsewhere).
    Tool(ToolError),
    /// The resource does not exist.
    ResourceNotFound,
    /// A JSON-RPC error to send as it is.
    Protocol(ErrorObject),
    /// An internal failure: masked with a correlation id, logged in full.
    Internal(BoxError),
}

impl HandlerError {
    /// Invalid arguments with a message naming the path and the expectation.
    pub fn invalid_arguments(message: impl Into<String>) -> Self {
        Self::InvalidArguments(message.into())
    }

    /// An internal failure.
    pub fn internal(err: impl Into<BoxError>) -> Self {
        Self::Internal(err.into())
    }
}

impl fmt::Display for HandlerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InvalidArguments(msg) => f.write_str(msg),
            Self::Tool(err) => f.write_str(err.message()),
            Self::ResourceNotFound => f.write_str("resource not found"),
            Self::Protocol(err) => write!(f, "{} ({})", err.message, err.code),
            Self::Internal(err) => write!(f, "{err}"),
        }
    }
}

/// Errors a handler may return in its `Result`: how each reaches the client.
///
/// [`ToolError`], [`ResourceError`], [`PromptError`] and [`HandlerError`] keep their meaning; any
/// other `std::error::Error` is an internal error: masked for the client (`internal error, id
/// …`) and logged in full on stderr. These four types deliberately do not implement
/// `std::error::Error`, so that they are not swallowed as internal errors.
///
/// ```
/// use mcp_runtime::{HandlerError, IntoHandlerError, ToolError};
/// let err = ToolError::new("over budget").into_handler_error();
/// assert!(matches!(err, HandlerError::Tool(_)));
/// let err = std::io::Error::other("disk on fire").into_handler_error();
/// assert!(matches!(err, HandlerError::Internal(_)));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned as a handler's error",
    note = "use `ToolError` (shown to the model), `ResourceError`, `PromptError`, or any type implementing `std::error::Error` (masked and logged)"
)]
pub trait IntoHandlerError {
    /// Converts the error.
    fn into_handler_error(self) -> HandlerError;
}

impl IntoHandlerError for HandlerError {
    fn into_handler_error(self) -> HandlerError {
        self
    }
}

impl IntoHandlerError for ToolError {
    fn into_handler_error(self) -> HandlerError {
        HandlerError::Tool(self)
    }
}

impl IntoHandlerError for PromptError {
    fn into_handler_error(self) -> HandlerError {
        HandlerError::InvalidArguments(self.0)
    }
}

impl IntoHandlerError for ResourceError {
    fn into_handler_error(self) -> HandlerError {
        match self {
            ResourceError::NotFound => HandlerError::ResourceNotFound,
            ResourceError::Invalid(msg) => HandlerError::InvalidArguments(msg),
            ResourceError::Other(err) => HandlerError::Internal(err),
        }
    }
}

impl<E: std::error::Error + Send + Sync + 'static> IntoHandlerError for E {
    fn into_handler_error(self) -> HandlerError {
        HandlerError::Internal(Box::new(self))
    }
}

/// Errors of the runtime itself: building a server, serving a transport.
///
/// ```
/// use mcp_runtime::Error;
/// let err = Error::Config("page size must be at least 1".into());
/// assert!(err.to_string().contains("page size"));
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Two items share a name (or URI).
    #[error("duplicate {kind} `{name}`: declared at {first} and at {second}")]
    Duplicate {
        /// `tool`, `prompt`, `resource` or `resource template`.
        kind: &'static str,
        /// The shared name or URI.
        name: String,
        /// First declaration site.
        first: String,
        /// Second declaration site.
        second: String,
    },
    /// An item's declaration is not usable (bad raw schema, bad `meta` JSON, bad URI template).
    #[error("invalid {kind} `{name}` ({location}): {reason}")]
    InvalidItem {
        /// Item kind.
        kind: &'static str,
        /// Item name.
        name: String,
        /// Declaration site.
        location: String,
        /// What is wrong.
        reason: String,
    },
    /// A setting is out of range.
    #[error("invalid configuration: {0}")]
    Config(String),
    /// I/O on a transport.
    #[error("transport I/O: {0}")]
    Io(#[from] std::io::Error),
    /// Command-line usage error.
    #[error("{0}")]
    Usage(String),
    /// The operating system's random source failed when the server was built.
    ///
    /// The server needs it for the key that seals `requestState`, session ids and elicitation
    /// ids, and does not fall back to anything weaker.
    ///
    /// ```
    /// use mcp_runtime::Error;
    /// let err = Error::RandomUnavailable("getrandom: operation not supported".into());
    /// assert_eq!(
    ///     err.to_string(),
    ///     "the operating system's random source is unavailable: getrandom: operation not supported"
    /// );
    /// ```
    #[error("the operating system's random source is unavailable: {0}")]
    RandomUnavailable(String),
}
