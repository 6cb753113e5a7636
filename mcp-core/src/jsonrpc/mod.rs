//! The JSON-RPC 2.0 layer: request ids, error objects, envelope parsing and line writers.
//!
//! Incoming text is classified by [`parse_message`] (or [`parse_batch_or_message`] where the
//! negotiated revision allows batches) in a single serde pass that borrows from the input:
//! `params` and `result` stay as raw JSON slices until the dispatcher knows which type to
//! deserialise them into.
//!
//! ```
//! use mcp_runtime_core::jsonrpc::{parse_message, Message, RequestId};
//!
//! let text = r#"{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{}}"#;
//! let Message::Request(req) = parse_message(text).unwrap() else { panic!() };
//! assert_eq!(req.id, RequestId::Number(7));
//! assert_eq!(req.method, "tools/list");
//! assert_eq!(req.params.unwrap().get(), "{}");
//! ```

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, IgnoredAny, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

mod echo;
mod write;

pub use echo::{ECHO_LIMIT, Echo, echo};
pub use write::{write_error, write_notification, write_request, write_response};

/// The value of the `jsonrpc` member of every message.
pub const JSONRPC_VERSION: &str = "2.0";

/// Error codes used by MCP, as `i32` constants.
///
/// The JSON-RPC codes apply to every revision; the others name the revisions that define them.
pub mod error_codes {
    /// Invalid JSON was received.
    pub const PARSE_ERROR: i32 = -32700;
    /// The JSON is not a valid request object.
    pub const INVALID_REQUEST: i32 = -32600;
    /// The method does not exist or is not available (also: capability not supported).
    pub const METHOD_NOT_FOUND: i32 = -32601;
    /// Invalid method parameters (unknown tool or prompt, bad cursor, and so on).
    pub const INVALID_PARAMS: i32 = -32602;
    /// Internal JSON-RPC error.
    pub const INTERNAL_ERROR: i32 = -32603;
    /// Resource not found (2024-11-05 to 2025-11-25; reserved from 2026-07-28 on).
    pub const RESOURCE_NOT_FOUND: i32 = -32002;
    /// A URL-mode elicitation is required first (2025-11-25 only).
    pub const URL_ELICITATION_REQUIRED: i32 = -32042;
    /// An HTTP header disagrees with the body, or is missing (2026-07-28).
    pub const HEADER_MISMATCH: i32 = -32020;
    /// The request needs a client capability it did not declare (2026-07-28).
    pub const MISSING_REQUIRED_CLIENT_CAPABILITY: i32 = -32021;
    /// The requested protocol version is not supported (2026-07-28).
    pub const UNSUPPORTED_PROTOCOL_VERSION: i32 = -32022;
    /// Implementation-defined server error of the Streamable HTTP transport (bad request, bad
    /// `Host`/`Origin`, too many sessions), as the official SDKs send it.
    pub const TRANSPORT_ERROR: i32 = -32000;
    /// The `Mcp-Session-Id` names no live session (HTTP 404), as the official SDKs send it.
    pub const SESSION_NOT_FOUND: i32 = -32001;
}

/// A JSON-RPC request id: a string or an integer, never `null` or a fraction.
///
/// ```
/// use mcp_runtime_core::RequestId;
///
/// let id: RequestId = serde_json::from_str("42").unwrap();
/// assert_eq!(id, RequestId::Number(42));
/// assert_eq!(id.to_string(), "42");
/// assert!(serde_json::from_str::<RequestId>("null").is_err());
/// assert!(serde_json::from_str::<RequestId>("1.5").is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RequestId {
    /// An integer id.
    Number(i64),
    /// A string id.
    String(String),
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Number(n) => write!(f, "{n}"),
            Self::String(s) => f.write_str(s),
        }
    }
}

impl From<i64> for RequestId {
    fn from(n: i64) -> Self {
        Self::Number(n)
    }
}

impl From<String> for RequestId {
    fn from(s: String) -> Self {
        Self::String(s)
    }
}

impl From<&str> for RequestId {
    fn from(s: &str) -> Self {
        Self::String(s.to_owned())
    }
}

impl Serialize for RequestId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Number(n) => serializer.serialize_i64(*n),
            Self::String(s) => serializer.serialize_str(s),
        }
    }
}

impl<'de> Deserialize<'de> for RequestId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct IdVisitor;

        impl Visitor<'_> for IdVisitor {
            type Value = RequestId;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string or an integer")
            }

            fn visit_i64<E: de::Error>(self, v: i64) -> Result<RequestId, E> {
                Ok(RequestId::Number(v))
            }

            fn visit_u64<E: de::Error>(self, v: u64) -> Result<RequestId, E> {
                i64::try_from(v)
                    .map(RequestId::Number)
                    .map_err(|_| E::custom("request id out of range"))
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<RequestId, E> {
                Ok(RequestId::String(v.to_owned()))
            }

            fn visit_string<E: de::Error>(self, v: String) -> Result<RequestId, E> {
                Ok(RequestId::String(v))
            }
        }

        deserializer.deserialize_any(IdVisitor)
    }
}

/// The `error` member of a JSON-RPC error response.
///
/// ```
/// use mcp_runtime_core::ErrorObject;
/// use mcp_runtime_core::jsonrpc::error_codes;
///
/// let err = ErrorObject::method_not_found("tools/frobnicate");
/// assert_eq!(err.code, error_codes::METHOD_NOT_FOUND);
/// let err = ErrorObject::new(-1, "custom").with_data(serde_json::json!({"hint": 1}));
/// assert_eq!(
///     serde_json::to_string(&err).unwrap(),
///     r#"{"code":-1,"message":"custom","data":{"hint":1}}"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, thiserror::Error)]
#[error("JSON-RPC error {code}: {message}")]
pub struct ErrorObject {
    /// The error code, see [`error_codes`].
    pub code: i32,
    /// A short description of the error.
    pub message: String,
    /// Additional information about the error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<serde_json::Value>,
}

impl ErrorObject {
    /// An error with a code and a message and no data.
    pub fn new(code: i32, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            data: None,
        }
    }

    /// Sets the `data` member.
    #[must_use]
    pub fn with_data(mut self, data: serde_json::Value) -> Self {
        self.data = Some(data);
        self
    }

    /// `-32700 Parse error`.
    #[must_use]
    pub fn parse_error() -> Self {
        Self::new(error_codes::PARSE_ERROR, "Parse error")
    }

    /// `-32600` with a reason.
    pub fn invalid_request(message: impl Into<String>) -> Self {
        Self::new(error_codes::INVALID_REQUEST, message)
    }

    /// `-32601` naming the unknown method (shortened when long, see [`echo`]).
    #[must_use]
    pub fn method_not_found(method: &str) -> Self {
        Self::new(
            error_codes::METHOD_NOT_FOUND,
            format!("Method not found: {}", echo(method)),
        )
    }

    /// `-32602` with a reason.
    pub fn invalid_params(message: impl Into<String>) -> Self {
        Self::new(error_codes::INVALID_PARAMS, message)
    }

    /// `-32603` with a message (which must not leak internals to the client).
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(error_codes::INTERNAL_ERROR, message)
    }

    /// `-32002 Resource not found`, with `data: {"uri": ...}` (handshake era only).
    #[must_use]
    pub fn resource_not_found(uri: &str) -> Self {
        Self::new(error_codes::RESOURCE_NOT_FOUND, "Resource not found")
            .with_data(serde_json::json!({ "uri": echo(uri) }))
    }

    /// `-32022` with `data: {"supported": [...], "requested": ...}` (2026-07-28).
    pub fn unsupported_protocol_version<I, S>(requested: &str, supported: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let supported: Vec<String> = supported.into_iter().map(Into::into).collect();
        Self::new(
            error_codes::UNSUPPORTED_PROTOCOL_VERSION,
            format!("Unsupported protocol version: {}", echo(requested)),
        )
        .with_data(serde_json::json!({ "supported": supported, "requested": echo(requested) }))
    }
}

/// A request: it has an `id` and expects a response.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Request<'a> {
    /// The request id, echoed by the response.
    pub id: RequestId,
    /// The method name, borrowed unless it contained escapes.
    pub method: Cow<'a, str>,
    /// The raw `params` (an object or an array), if present.
    pub params: Option<&'a RawValue>,
}

/// A notification: no `id`, never answered.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Notification<'a> {
    /// The method name, borrowed unless it contained escapes.
    pub method: Cow<'a, str>,
    /// The raw `params` (an object or an array), if present.
    pub params: Option<&'a RawValue>,
}

/// A response to a request this side sent.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Response<'a> {
    /// The id of the request answered; `None` for an error about an unreadable request.
    pub id: Option<RequestId>,
    /// The raw `result`, or the error object.
    pub outcome: Result<&'a RawValue, ErrorObject>,
}

/// One JSON-RPC message, borrowing from the text it was parsed from.
#[derive(Debug, Clone)]
pub enum Message<'a> {
    /// A request.
    Request(Request<'a>),
    /// A notification.
    Notification(Notification<'a>),
    /// A result or error response.
    Response(Response<'a>),
}

impl Message<'_> {
    /// The method of a request or notification.
    #[must_use]
    pub fn method(&self) -> Option<&str> {
        match self {
            Self::Request(r) => Some(&r.method),
            Self::Notification(n) => Some(&n.method),
            Self::Response(_) => None,
        }
    }
}

/// The outcome of [`parse_batch_or_message`].
#[derive(Debug, Clone)]
pub enum Parsed<'a> {
    /// A single message.
    Single(Message<'a>),
    /// A non-empty JSON array: one outcome per element, in order.
    Batch(Vec<Result<Message<'a>, EnvelopeError>>),
}

/// Why a text is not a valid JSON-RPC message.
///
/// ```
/// use mcp_runtime_core::jsonrpc::{parse_message, EnvelopeError, RequestId};
///
/// assert_eq!(parse_message("{oops").unwrap_err(), EnvelopeError::Parse);
/// let err = parse_message(r#"{"jsonrpc":"1.0","id":3,"method":"ping"}"#).unwrap_err();
/// assert_eq!(err.id(), Some(&RequestId::Number(3)));
/// assert_eq!(err.to_error_object().code, -32600);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EnvelopeError {
    /// The text is not JSON (`-32700`, answered with a null id).
    #[error("parse error: the message is not valid JSON")]
    Parse,
    /// The text is JSON but not a valid message (`-32600`).
    #[error("invalid request: {reason}")]
    Invalid {
        /// The id of the offending request, when it could be read.
        id: Option<RequestId>,
        /// What is wrong.
        reason: String,
    },
}

impl EnvelopeError {
    /// The id to answer with, if one could be read.
    #[must_use]
    pub fn id(&self) -> Option<&RequestId> {
        match self {
            Self::Parse => None,
            Self::Invalid { id, .. } => id.as_ref(),
        }
    }

    /// The error object to send back.
    #[must_use]
    pub fn to_error_object(&self) -> ErrorObject {
        match self {
            Self::Parse => ErrorObject::parse_error(),
            Self::Invalid { reason, .. } => {
                ErrorObject::invalid_request(format!("Invalid request: {reason}"))
            }
        }
    }

    fn invalid(id: Option<RequestId>, reason: impl Into<String>) -> Self {
        Self::Invalid {
            id,
            reason: reason.into(),
        }
    }
}

/// Every member that matters, as raw slices; `Some(raw null)` differs from absent.
#[derive(Deserialize)]
struct RawEnvelope<'a> {
    #[serde(borrow, default, deserialize_with = "present")]
    jsonrpc: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    id: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    method: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    params: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    result: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    error: Option<&'a RawValue>,
}

fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<&'de RawValue>, D::Error> {
    <&'de RawValue>::deserialize(d).map(Some)
}

/// The id member as read: absent, `null`, valid, or of a wrong type.
enum IdField {
    Absent,
    Null,
    Valid(RequestId),
    Wrong(&'static str),
}

fn read_id(raw: Option<&RawValue>) -> IdField {
    let Some(raw) = raw else {
        return IdField::Absent;
    };
    let text = raw.get();
    match text.as_bytes().first() {
        Some(b'n') => IdField::Null,
        Some(b'"') => match serde_json::from_str::<String>(text) {
            Ok(s) => IdField::Valid(RequestId::String(s)),
            Err(_) => IdField::Wrong("`id` is not a valid string"),
        },
        Some(b'-' | b'0'..=b'9') => match text.parse::<i64>() {
            Ok(n) => IdField::Valid(RequestId::Number(n)),
            Err(_) if text.contains(['.', 'e', 'E']) => {
                IdField::Wrong("`id` must be a string or an integer, not a fraction or an exponent")
            }
            Err(_) => IdField::Wrong("`id` is an integer outside the signed 64-bit range"),
        },
        _ => IdField::Wrong("`id` must be a string or an integer"),
    }
}

/// Reads a JSON string slice, borrowing when it has no escapes.
fn read_str(raw: &RawValue) -> Option<Cow<'_, str>> {
    let text = raw.get();
    let inner = text.strip_prefix('"')?.strip_suffix('"')?;
    if inner.contains('\\') {
        serde_json::from_str::<String>(text).ok().map(Cow::Owned)
    } else {
        Some(Cow::Borrowed(inner))
    }
}

fn first_byte(text: &str) -> Option<u8> {
    text.bytes().find(|b| !b.is_ascii_whitespace())
}

fn is_valid_json(text: &str) -> bool {
    serde_json::from_str::<IgnoredAny>(text).is_ok()
}

/// Parses one message (a JSON object). A JSON array is rejected as `-32600`.
///
/// # Errors
///
/// [`EnvelopeError::Parse`] when `text` is not JSON, [`EnvelopeError::Invalid`] when it is
/// JSON but not a JSON-RPC 2.0 request, notification or response.
pub fn parse_message(text: &str) -> Result<Message<'_>, EnvelopeError> {
    if first_byte(text) != Some(b'{') {
        return Err(if is_valid_json(text) {
            EnvelopeError::invalid(None, "a message must be a JSON object")
        } else {
            EnvelopeError::Parse
        });
    }
    let env: RawEnvelope<'_> = match serde_json::from_str(text) {
        Ok(env) => env,
        Err(e) if e.is_data() && is_valid_json(text) => {
            return Err(EnvelopeError::invalid(
                None,
                echo(&e.to_string()).to_string(),
            ));
        }
        Err(_) => return Err(EnvelopeError::Parse),
    };
    classify(&env)
}

/// Parses a message or, when `text` is a JSON array, a batch (2025-03-26 only).
///
/// An empty array is a single `-32600` error, as JSON-RPC 2.0 specifies.
///
/// # Errors
///
/// As [`parse_message`]; errors of individual batch elements are inside [`Parsed::Batch`].
///
/// ```
/// use mcp_runtime_core::jsonrpc::{parse_batch_or_message, Parsed};
///
/// let text = r#"[{"jsonrpc":"2.0","method":"notifications/initialized"}, 5]"#;
/// let Parsed::Batch(items) = parse_batch_or_message(text).unwrap() else { panic!() };
/// assert!(items[0].is_ok());
/// assert_eq!(items[1].as_ref().unwrap_err().to_error_object().code, -32600);
/// ```
pub fn parse_batch_or_message(text: &str) -> Result<Parsed<'_>, EnvelopeError> {
    if first_byte(text) != Some(b'[') {
        return parse_message(text).map(Parsed::Single);
    }
    let items: Vec<&RawValue> = serde_json::from_str(text).map_err(|_| EnvelopeError::Parse)?;
    if items.is_empty() {
        return Err(EnvelopeError::invalid(None, "an empty batch"));
    }
    Ok(Parsed::Batch(
        items
            .into_iter()
            .map(|raw| parse_message(raw.get()))
            .collect(),
    ))
}

fn classify<'a>(env: &RawEnvelope<'a>) -> Result<Message<'a>, EnvelopeError> {
    let id = match read_id(env.id) {
        IdField::Wrong(reason) => return Err(EnvelopeError::invalid(None, reason)),
        IdField::Absent => None,
        IdField::Null => Some(None),
        IdField::Valid(id) => Some(Some(id)),
    };
    // The id of an invalid message is copied only when there is an error to report.
    let fail = |reason: &str| Err(EnvelopeError::invalid(id.clone().flatten(), reason));

    match env.jsonrpc.map(read_str) {
        None => return fail("`jsonrpc` is missing"),
        Some(Some(v)) if v == JSONRPC_VERSION => {}
        Some(_) => return fail("`jsonrpc` must be \"2.0\""),
    }

    if let Some(method) = env.method {
        if env.result.is_some() || env.error.is_some() {
            return fail("a message cannot have both `method` and `result` or `error`");
        }
        let Some(method) = read_str(method) else {
            return fail("`method` must be a string");
        };
        if let Some(params) = env.params
            && !matches!(params.get().as_bytes().first(), Some(b'{' | b'['))
        {
            return fail("`params` must be an object or an array");
        }
        return match id {
            None => Ok(Message::Notification(Notification {
                method,
                params: env.params,
            })),
            Some(None) => fail("`id` must not be null"),
            Some(Some(id)) => Ok(Message::Request(Request {
                id,
                method,
                params: env.params,
            })),
        };
    }

    match (env.result, env.error) {
        (Some(_), Some(_)) => fail("a response cannot have both `result` and `error`"),
        (Some(result), None) => match id {
            Some(Some(id)) => Ok(Message::Response(Response {
                id: Some(id),
                outcome: Ok(result),
            })),
            _ => fail("a result response needs a string or integer `id`"),
        },
        (None, Some(error)) => {
            // The id may be null or (2025-11-25+) absent when the request was unreadable.
            match serde_json::from_str::<ErrorObject>(error.get()) {
                Ok(err) => Ok(Message::Response(Response {
                    id: id.clone().flatten(),
                    outcome: Err(err),
                })),
                Err(_) => fail("`error` must be an object with an integer `code` and a `message`"),
            }
        }
        (None, None) => fail("a message needs `method`, `result` or `error`"),
    }
}
