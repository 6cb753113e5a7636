//! The errors of reading a document and of building a request from a call's arguments.

/// What went wrong reading or mapping an OpenAPI document. Each variant that concerns a part
/// of the document names it by its JSON pointer (RFC 6901, `#/paths/~1pets/get`).
///
/// ```
/// use mcp_runtime_openapi::{Api, OpenApiError, Options};
///
/// let err = Api::from_text(r#"{"openapi": "2.0", "paths": {}}"#, &Options::new()).unwrap_err();
/// assert!(matches!(err, OpenApiError::Version { .. }));
/// assert_eq!(err.to_string(), "unsupported OpenAPI version '2.0' at #/openapi (3.0 and 3.1 are read)");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OpenApiError {
    /// The text is neither JSON nor YAML.
    #[error("the document is not valid {format}: {message}")]
    Parse {
        /// `JSON` or `YAML`.
        format: &'static str,
        /// The parser's message.
        message: String,
    },
    /// The document is longer than [`MAX_DOCUMENT`](crate::MAX_DOCUMENT) bytes, or its
    /// schemas expand to more than [`MAX_NODES`](crate::MAX_NODES) values.
    #[error("the document is too large at {pointer}: {what}")]
    TooLarge {
        /// Where the limit was reached.
        pointer: String,
        /// Which limit.
        what: String,
    },
    /// The `openapi` member is missing or not 3.0.x / 3.1.x.
    #[error("unsupported OpenAPI version '{found}' at #/openapi (3.0 and 3.1 are read)")]
    Version {
        /// What the document says (empty when it says nothing).
        found: String,
    },
    /// A `$ref` that is not a local pointer, or points at nothing.
    #[error("unresolvable $ref '{reference}' at {pointer}")]
    Ref {
        /// Where the `$ref` is.
        pointer: String,
        /// Its value.
        reference: String,
    },
    /// A part of the document that has no tool equivalent.
    #[error("cannot map {pointer}: {reason}")]
    Unmappable {
        /// What could not be mapped.
        pointer: String,
        /// Why.
        reason: String,
    },
}

impl OpenApiError {
    /// The JSON pointer of the part of the document the error is about, if any.
    ///
    /// ```
    /// use mcp_runtime_openapi::OpenApiError;
    ///
    /// let err = OpenApiError::Unmappable { pointer: "#/paths/~1a/get".into(), reason: "x".into() };
    /// assert_eq!(err.pointer(), Some("#/paths/~1a/get"));
    /// ```
    pub fn pointer(&self) -> Option<&str> {
        match self {
            Self::TooLarge { pointer, .. }
            | Self::Ref { pointer, .. }
            | Self::Unmappable { pointer, .. } => Some(pointer),
            Self::Version { .. } => Some("#/openapi"),
            Self::Parse { .. } => None,
        }
    }

    pub(crate) fn unmappable(pointer: &str, reason: impl Into<String>) -> Self {
        Self::Unmappable {
            pointer: pointer.to_owned(),
            reason: reason.into(),
        }
    }
}

/// What went wrong building an HTTP request from a call's arguments
/// ([`RequestPlan::build`](crate::RequestPlan::build)).
///
/// ```
/// use mcp_runtime_openapi::BuildError;
///
/// let err = BuildError::Missing { argument: "petId".into() };
/// assert_eq!(err.to_string(), "missing required argument 'petId'");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// The arguments are not a JSON object.
    #[error("the arguments must be a JSON object")]
    NotObject,
    /// A required argument is absent (or null).
    #[error("missing required argument '{argument}'")]
    Missing {
        /// The argument's name.
        argument: String,
    },
    /// An argument's value cannot be sent the way its parameter is serialised.
    #[error("argument '{argument}' cannot be sent: {reason}")]
    Invalid {
        /// The argument's name.
        argument: String,
        /// Why.
        reason: String,
    },
}
