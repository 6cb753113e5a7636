//! The errors handlers return, and how each reaches the client: strings are shown, every other
//! error is masked with a correlation id (see [`IntoHandlerError`]).
//!
//! Their `Display` is written by hand, not derived with `thiserror`: they do not implement
//! `std::error::Error`, on purpose, because each accepts every `E: Into<BoxError>` through `?`
//! (a blanket `From` or [`IntoHandlerError`]), which an error type of their own would collide
//! with. The cause of an internal error is kept (as a [`BoxError`]), never flattened to text.

use std::any::Any;
use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use mcp_core::ErrorObject;

/// A boxed error of any kind; returned by a handler, it is masked and logged like any other
/// internal error.
///
/// ```standalone_crate
/// use mcp_runtime::prelude::*;
///
/// /// Reads the answer from a file.
/// #[tool]
/// fn answer() -> Result<String, mcp_runtime::BoxError> {
///     let text = std::fs::read_to_string("/no/such/answer")?; // masked: "internal error, id …"
///     Ok(text)
/// }
/// # let _ = answer::TOOL;
/// ```
pub type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// An internal error shared by clones of the error that holds it.
type SharedError = Arc<dyn std::error::Error + Send + Sync + 'static>;

/// The text written for the client when `error` is one: a `String`, a `&'static str` or a
/// `Cow<'static, str>`; otherwise the error itself, untouched.
///
/// This is what lets `?` and `Result<T, E>` tell a message written for the model (shown) from
/// an error of the program (masked): both arrive as an `E: Into<BoxError>`.
fn message_of<E: 'static>(error: E) -> Result<String, E> {
    let any: &dyn Any = &error;
    if let Some(text) = any.downcast_ref::<String>() {
        return Ok(text.clone());
    }
    if let Some(text) = any.downcast_ref::<&'static str>() {
        return Ok((*text).to_owned());
    }
    if let Some(text) = any.downcast_ref::<Cow<'static, str>>() {
        return Ok(text.clone().into_owned());
    }
    Err(error)
}

/// Hands an [`SharedError`] on as a [`BoxError`] (the cause, its `Display` and its sources).
struct Shared(SharedError);

impl fmt::Debug for Shared {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl fmt::Display for Shared {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl std::error::Error for Shared {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

fn unshare(error: SharedError) -> BoxError {
    Box::new(Shared(error))
}

/// The text a masked error shows before the runtime adds its correlation id.
const INTERNAL: &str = "internal error";

/// A tool's failure: a business error shown to the model as a result with `isError: true`, or
/// an internal error, masked.
///
/// Return [`ToolError::new`] when the call was understood but cannot succeed ("nothing fits a $5
/// budget"): the model reads the text and can try again differently.
///
/// # What reaches the model
///
/// | the error | the model sees |
/// |---|---|
/// | `ToolError::new(text)`, a `String`, a `&'static str` | the text, as an `isError` result |
/// | any `std::error::Error + Send + Sync`, a [`BoxError`], an `anyhow::Error` | `internal error, id 1a2b3c4d`; the error is logged in full with that id |
///
/// Strings are messages someone wrote for the model; every other error comes from the program
/// (an I/O error, a parse error) and may carry what the model must not see (paths, SQL,
/// secrets), so it is masked. The same rule holds whether the tool returns `Result<T, E>` with
/// one of these as `E`, or `Result<T, ToolError>` and converts them with `?`:
///
/// ```standalone_crate
/// use mcp_runtime::prelude::*;
///
/// /// Doubles a number given as text.
/// #[tool]
/// fn double(text: String) -> Result<String, ToolError> {
///     if text.is_empty() {
///         return Err("give a number, e.g. \"21\"".into()); // shown to the model
///     }
///     let n: u32 = text.trim().parse()?; // a `ParseIntError`: masked and logged
///     Ok((2 * n).to_string())
/// }
///
/// let err = double(String::new()).unwrap_err();
/// assert_eq!(err.message(), "give a number, e.g. \"21\"");
/// let err = double("x".into()).unwrap_err();
/// assert!(err.is_internal());
/// assert_eq!(err.message(), "internal error");
/// ```
///
/// To show an error of your own type to the model, say so where it happens:
/// `.map_err(|e| ToolError::new(e.to_string()))`.
#[derive(Clone)]
pub struct ToolError {
    repr: Repr,
}

/// A handler error: a message for the client, or a masked internal error.
#[derive(Clone)]
enum Repr {
    Shown {
        message: Cow<'static, str>,
        structured: Option<serde_json::Value>,
    },
    Internal(SharedError),
}

impl Repr {
    fn from_error<E: Into<BoxError> + 'static>(error: E) -> Self {
        match message_of(error) {
            Ok(message) => Repr::Shown {
                message: message.into(),
                structured: None,
            },
            Err(error) => Repr::Internal(Arc::from(error.into())),
        }
    }

    fn message(&self) -> &str {
        match self {
            Repr::Shown { message, .. } => message,
            Repr::Internal(_) => INTERNAL,
        }
    }

    fn same(&self, other: &Repr) -> bool {
        match (self, other) {
            (
                Repr::Shown {
                    message: a,
                    structured: x,
                },
                Repr::Shown {
                    message: b,
                    structured: y,
                },
            ) => a == b && x == y,
            (Repr::Internal(a), Repr::Internal(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }

    fn debug(&self, name: &str, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Repr::Shown {
                message,
                structured,
            } => f
                .debug_struct(name)
                .field("message", message)
                .field("structured", structured)
                .finish(),
            Repr::Internal(error) => f.debug_tuple(name).field(error).finish(),
        }
    }
}

impl ToolError {
    /// A business error with this text, shown to the model.
    pub fn new(message: impl Into<Cow<'static, str>>) -> Self {
        Self {
            repr: Repr::Shown {
                message: message.into(),
                structured: None,
            },
        }
    }

    /// An internal error: masked for the model (`internal error, id …`) and logged in full.
    ///
    /// ```
    /// use mcp_runtime::ToolError;
    /// let err = ToolError::internal(std::io::Error::other("disk full"));
    /// assert!(err.is_internal());
    /// assert_eq!(err.to_string(), "internal error");
    /// ```
    pub fn internal(error: impl Into<BoxError>) -> Self {
        Self {
            repr: Repr::Internal(Arc::from(error.into())),
        }
    }

    /// Attaches structured details, sent as `structuredContent` where the revision has it (an
    /// internal error stays as it is).
    ///
    /// ```
    /// use mcp_runtime::ToolError;
    /// let err = ToolError::new("over budget").with_structured(serde_json::json!({"cheapest": 12.5}));
    /// assert!(err.structured().is_some());
    /// ```
    #[must_use]
    pub fn with_structured(mut self, value: serde_json::Value) -> Self {
        if let Repr::Shown { structured, .. } = &mut self.repr {
            *structured = Some(value);
        }
        self
    }

    /// The text shown to the model; `internal error` for an internal one (the runtime adds the
    /// correlation id).
    pub fn message(&self) -> &str {
        self.repr.message()
    }

    /// Structured details, if any.
    pub fn structured(&self) -> Option<&serde_json::Value> {
        match &self.repr {
            Repr::Shown { structured, .. } => structured.as_ref(),
            Repr::Internal(_) => None,
        }
    }

    /// Whether this is an internal error, masked for the model.
    pub fn is_internal(&self) -> bool {
        matches!(self.repr, Repr::Internal(_))
    }
}

impl fmt::Debug for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.repr.debug("ToolError", f)
    }
}

/// The text shown to the model: never the cause of an internal error (see `Debug` for that).
impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl PartialEq for ToolError {
    fn eq(&self, other: &Self) -> bool {
        self.repr.same(&other.repr)
    }
}

impl Eq for ToolError {}

/// `String`, `&'static str` and `Cow<'static, str>` become the text shown to the model; any
/// other error (`std::error::Error + Send + Sync`, [`BoxError`], `anyhow::Error`) becomes an
/// internal error, masked. This is what makes `?` work in a tool returning `ToolError`.
///
/// ```
/// use mcp_runtime::ToolError;
/// assert_eq!(ToolError::from(format!("no {} left", "gifts")).message(), "no gifts left");
/// assert!(ToolError::from(std::fmt::Error).is_internal());
/// ```
#[diagnostic::do_not_recommend]
impl<E: Into<BoxError> + 'static> From<E> for ToolError {
    fn from(error: E) -> Self {
        Self {
            repr: Repr::from_error(error),
        }
    }
}

/// Why a resource read failed.
///
/// `NotFound` reaches the client as the revision's "resource not found" error (-32002 up to
/// 2025-11-25, -32602 from 2026-07-28, both with `data.uri`); `Invalid` as an invalid-params
/// error (-32602) with its text; `Other` is masked and logged.
///
/// `?` converts: a `String` or `&'static str` becomes `Invalid` (a message written for the
/// client), any other error `Other`.
///
/// ```
/// use mcp_runtime::ResourceError;
/// let err = ResourceError::not_found();
/// assert!(matches!(err, ResourceError::NotFound));
/// assert!(matches!(ResourceError::from("no such year"), ResourceError::Invalid(_)));
/// assert!(matches!(ResourceError::from(std::fmt::Error), ResourceError::Other(_)));
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

#[diagnostic::do_not_recommend]
impl<E: Into<BoxError> + 'static> From<E> for ResourceError {
    fn from(error: E) -> Self {
        match message_of(error) {
            Ok(message) => Self::Invalid(message),
            Err(error) => Self::Other(error.into()),
        }
    }
}

/// A prompt's failure: its text shown to the client as an invalid-params error (-32602), or an
/// internal error, masked.
///
/// `?` converts as for [`ToolError`]: a `String` or `&'static str` is shown, any other error is
/// masked and logged.
///
/// ```
/// use mcp_runtime::PromptError;
/// let err = PromptError::new("unknown tone 'grumpy'");
/// assert_eq!(err.to_string(), "unknown tone 'grumpy'");
/// assert!(PromptError::from("x".parse::<u8>().unwrap_err()).is_internal());
/// ```
#[derive(Clone)]
pub struct PromptError {
    repr: Repr,
}

impl PromptError {
    /// A prompt error with this text, shown to the client.
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            repr: Repr::Shown {
                message: Cow::Owned(message.into()),
                structured: None,
            },
        }
    }

    /// An internal error: masked for the client and logged in full.
    ///
    /// ```
    /// use mcp_runtime::PromptError;
    /// assert!(PromptError::internal("template store offline").is_internal());
    /// ```
    pub fn internal(error: impl Into<BoxError>) -> Self {
        Self {
            repr: Repr::Internal(Arc::from(error.into())),
        }
    }

    /// The text shown to the client; `internal error` for an internal one.
    pub fn message(&self) -> &str {
        self.repr.message()
    }

    /// Whether this is an internal error, masked for the client.
    pub fn is_internal(&self) -> bool {
        matches!(self.repr, Repr::Internal(_))
    }
}

impl fmt::Debug for PromptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.repr.debug("PromptError", f)
    }
}

/// The text shown to the client: never the cause of an internal error.
impl fmt::Display for PromptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl PartialEq for PromptError {
    fn eq(&self, other: &Self) -> bool {
        self.repr.same(&other.repr)
    }
}

impl Eq for PromptError {}

#[diagnostic::do_not_recommend]
impl<E: Into<BoxError> + 'static> From<E> for PromptError {
    fn from(error: E) -> Self {
        Self {
            repr: Repr::from_error(error),
        }
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
    /// A message for the client: a tool's `isError` result, an invalid-params error (-32602)
    /// for a resource or a prompt. (A [`ToolError`] holding an internal error is never here:
    /// it converts to `Internal`.)
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

/// Errors a handler may return in its `Result<T, E>`, and how each reaches the client.
///
/// | `E` | the client sees |
/// |---|---|
/// | [`ToolError`], [`PromptError`] | their text (tool: an `isError` result; prompt: -32602), or `internal error, id …` for their internal form |
/// | [`ResourceError`] | not found (the revision's code), -32602 with the text, or masked |
/// | `String`, `&'static str`, `Cow<'static, str>` | the text: they are messages written for the client |
/// | any `std::error::Error + Send + Sync + 'static`, [`BoxError`], `anyhow::Error` | `internal error, id 1a2b3c4d`, logged in full with that id |
/// | [`HandlerError`] | as its variant says |
///
/// Everything that converts into a [`BoxError`] is accepted, so `anyhow::Error` needs no
/// feature. `Box<dyn Error>` without `Send + Sync` is not: it cannot be logged from another
/// thread.
///
/// ```
/// use mcp_runtime::{HandlerError, IntoHandlerError, ToolError};
/// let err = ToolError::new("over budget").into_handler_error();
/// assert!(matches!(err, HandlerError::Tool(_)));
/// let err = "over budget".into_handler_error();
/// assert!(matches!(err, HandlerError::Tool(e) if e.message() == "over budget"));
/// let err = std::io::Error::other("disk on fire").into_handler_error();
/// assert!(matches!(err, HandlerError::Internal(_)));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned as a handler's error",
    label = "not an error type the runtime can report",
    note = "use `ToolError`, `PromptError` or `ResourceError`, a `String` or `&'static str` (shown to the client), or any `std::error::Error + Send + Sync + 'static`, `BoxError` or `anyhow::Error` (masked with a correlation id and logged)"
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
        match self.repr {
            Repr::Internal(error) => HandlerError::Internal(unshare(error)),
            Repr::Shown { .. } => HandlerError::Tool(self),
        }
    }
}

impl IntoHandlerError for PromptError {
    fn into_handler_error(self) -> HandlerError {
        match self.repr {
            Repr::Shown { message, .. } => HandlerError::InvalidArguments(message.into_owned()),
            Repr::Internal(error) => HandlerError::Internal(unshare(error)),
        }
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

/// Strings are shown, every other error is masked: see the table above.
#[diagnostic::do_not_recommend]
impl<E: Into<BoxError> + 'static> IntoHandlerError for E {
    fn into_handler_error(self) -> HandlerError {
        ToolError::from(self).into_handler_error()
    }
}
