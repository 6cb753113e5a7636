//! Errors: what handlers return, what the runtime reports, and how each reaches the client.

mod returned;

pub use returned::{
    BoxError, HandlerError, IntoHandlerError, PromptError, ResourceError, ToolError,
};

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
    /// A handler (or a completion hook) takes a `State<T>` that was not given to the builder.
    #[error(
        "{item} ({location}) takes a `State<{type_name}>`, but the server was not given one: add `.state(value)` with a `{type_name}` to the builder"
    )]
    MissingState {
        /// The item, in words: "tool `greet`", "the completion hook of `id` in resource `note`".
        item: String,
        /// Its declaration site.
        location: String,
        /// The state type, as `std::any::type_name` spells it.
        type_name: &'static str,
    },
    /// A setting is out of range.
    #[error("invalid configuration: {0}")]
    Config(String),
    /// I/O on a transport.
    #[error("transport I/O: {0}")]
    Io(#[from] std::io::Error),
    /// A setting could not be read (a malformed URL in an environment variable, say).
    ///
    /// ```
    /// use mcp_runtime::Error;
    /// let err = Error::InvalidSetting {
    ///     setting: "MCP_REDIS_URL",
    ///     source: "not a URL".into(),
    /// };
    /// assert_eq!(err.to_string(), "invalid configuration: `MCP_REDIS_URL`: not a URL");
    /// assert_eq!(std::error::Error::source(&err).unwrap().to_string(), "not a URL");
    /// ```
    #[error("invalid configuration: `{setting}`: {source}")]
    InvalidSetting {
        /// The setting (an environment variable, a builder method).
        setting: &'static str,
        /// Why it could not be read.
        #[source]
        source: BoxError,
    },
    /// The operating system's random source failed when the server was built.
    ///
    /// The server needs it for the key that seals `requestState`, session ids and elicitation
    /// ids, and does not fall back to anything weaker.
    ///
    /// ```
    /// use mcp_runtime::Error;
    /// let cause = std::io::Error::other("getrandom: operation not supported");
    /// let err = Error::RandomUnavailable(cause);
    /// assert_eq!(
    ///     err.to_string(),
    ///     "the operating system's random source is unavailable: getrandom: operation not supported"
    /// );
    /// assert!(std::error::Error::source(&err).is_some());
    /// ```
    #[error("the operating system's random source is unavailable: {0}")]
    RandomUnavailable(#[source] std::io::Error),
}
