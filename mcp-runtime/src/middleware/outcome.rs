//! What a request came to, as a layer sees it ([`Outcome`]), and the typed result payload the
//! dispatcher and the layers share ([`Payload`]).

use std::sync::Arc;

use mcp_core::{CallToolResult, ErrorObject, ForVersion, RequestId};
use serde::Serialize;

use super::request::Request;

/// A successful result, serialised once (a framed result is the whole response message).
#[derive(Debug)]
pub(crate) enum Payload {
    /// The whole response message of the request this payload was made for: a typed result is
    /// serialised once, straight into the buffer the transport writes (see [`Payload::framed`]).
    Framed(Vec<u8>),
    /// Like `Framed`, for a tool's result with `isError: true` (a business error): the method
    /// that made it says so, nobody reads it back from the bytes.
    ToolError(Vec<u8>),
    /// Like `Framed`, for an interim result (`resultType: "input_required"`): the request is
    /// not over, its retry carries the answers. Never cached.
    Interim(Vec<u8>),
    /// A prepared list page, shared with the catalog (or made for one caller who does not see
    /// every item), or a result a layer gave; framed when written.
    Shared(Arc<str>),
    /// `{}`.
    Empty,
}

impl Payload {
    /// The response to request `id` with a typed result, serialised now; a result that cannot
    /// be serialised is an internal error. The reply carrying it must have the same `id`.
    pub(crate) fn framed<T: Serialize + ?Sized>(
        id: &RequestId,
        result: &T,
    ) -> Result<Self, ErrorObject> {
        crate::wire::response(id, result)
            .map(Payload::Framed)
            .ok_or_else(|| ErrorObject::internal("failed to serialise the result"))
    }

    /// `{}`: the empty result.
    pub(crate) fn empty() -> Self {
        Payload::Empty
    }

    /// This framed result marked as an interim one (`input_required`).
    pub(crate) fn interim(self) -> Self {
        match self {
            Payload::Framed(message) => Payload::Interim(message),
            other => other,
        }
    }

    /// The result's JSON text: the `result` member of a framed message (`{"jsonrpc":"2.0",
    /// "id":…,"result":…}`, as `wire::response` writes it: the first `,"result":` is the
    /// member's, since a JSON string holds no bare `"`), or the text as it is.
    fn result_text(&self) -> Option<&str> {
        match self {
            Payload::Framed(m) | Payload::ToolError(m) | Payload::Interim(m) => {
                const MEMBER: &[u8] = br#","result":"#;
                let at = m.windows(MEMBER.len()).position(|w| w == MEMBER)? + MEMBER.len();
                let body = m.get(at..m.len().checked_sub(1)?)?;
                std::str::from_utf8(body).ok()
            }
            Payload::Shared(text) => Some(text),
            Payload::Empty => Some("{}"),
        }
    }

    /// This framed result marked as a tool's business error when `is_error`.
    pub(crate) fn tool_error_if(self, is_error: bool) -> Self {
        match self {
            Payload::Framed(message) if is_error => Payload::ToolError(message),
            other => other,
        }
    }
}

/// How a request ended, by kind: what a metrics layer counts.
///
/// ```
/// use mcp_runtime::middleware::{Outcome, OutcomeKind};
/// use mcp_runtime::protocol::ErrorObject;
///
/// assert_eq!(Outcome::error(ErrorObject::internal("x")).kind(), OutcomeKind::Error);
/// assert_eq!(Outcome::cancelled().kind(), OutcomeKind::Cancelled);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum OutcomeKind {
    /// A result.
    Result,
    /// A tool's result with `isError: true`: the tool failed in a way the model sees.
    ToolError,
    /// A JSON-RPC error (an [`ErrorObject`]): a protocol error, a refusal, a masked fault.
    Error,
    /// The request was cancelled; nothing is sent. A request served in the task that read it
    /// (HTTP) ends this way through its layers; on a stream transport a cancelled request's
    /// own task is aborted, and its layers' futures are dropped with it (a layer that must
    /// know holds a guard whose `Drop` tells it).
    Cancelled,
    /// A notification was handled (notifications are never answered).
    Notified,
}

/// What one request came to: its result, a tool's business error, a protocol error or its
/// cancellation; for a notification, that it was handled. A layer returns the one its `next`
/// gave, or makes its own to answer instead (a short-circuit).
///
/// ```
/// use mcp_runtime::middleware::{Outcome, OutcomeKind};
///
/// let outcome = Outcome::result(&serde_json::json!({"cached": true})).unwrap();
/// assert_eq!(outcome.kind(), OutcomeKind::Result);
/// assert!(outcome.error_object().is_none());
/// ```
#[derive(Debug)]
pub struct Outcome(pub(crate) Repr);

#[derive(Debug)]
pub(crate) enum Repr {
    Reply(Result<Payload, ErrorObject>),
    Cancelled,
    Notified,
}

impl Outcome {
    /// A JSON-RPC error answers the request (the client receives `error`).
    ///
    /// ```
    /// use mcp_runtime::middleware::Outcome;
    /// use mcp_runtime::protocol::ErrorObject;
    ///
    /// let refused = Outcome::error(ErrorObject::new(-32000, "slow down"));
    /// assert_eq!(refused.error_object().map(|e| e.code), Some(-32000));
    /// ```
    pub fn error(error: ErrorObject) -> Self {
        Self(Repr::Reply(Err(error)))
    }

    /// `result` answers the request, as it is (it must be what the request's method and
    /// revision return).
    ///
    /// ```
    /// use mcp_runtime::middleware::Outcome;
    ///
    /// let empty = Outcome::result(&serde_json::json!({})).unwrap();
    /// # let _ = empty;
    /// ```
    pub fn result<T: Serialize + ?Sized>(result: &T) -> Result<Self, serde_json::Error> {
        let text = serde_json::to_string(result)?;
        Ok(Self(Repr::Reply(Ok(Payload::Shared(text.into())))))
    }

    /// A `tools/call` result with `isError: true` and `text`, shaped for the request's
    /// revision: a refusal the model sees instead of a protocol error (for `tools/call` only:
    /// other methods have no such result).
    ///
    /// ```
    /// use mcp_runtime::middleware::{Outcome, OutcomeKind, Request};
    ///
    /// fn refuse(request: &Request<'_>) -> Outcome {
    ///     Outcome::tool_error(request, "rate limited: try again in 1 s")
    /// }
    /// # let _ = refuse;
    /// assert_eq!(OutcomeKind::ToolError, OutcomeKind::ToolError);
    /// ```
    pub fn tool_error(request: &Request<'_>, text: impl Into<String>) -> Self {
        let mut result = CallToolResult::error_text(text);
        if let Some(v) = request.version() {
            result.for_version(v);
            if v.has_result_type() {
                result.result_type = Some(mcp_core::ResultType::Complete);
            }
        }
        let framed = match request.id() {
            Some(id) => Payload::framed(id, &result).map(|p| p.tool_error_if(true)),
            None => Err(ErrorObject::internal("a notification has no result")),
        };
        Self(Repr::Reply(framed))
    }

    /// The request was cancelled: nothing is sent.
    ///
    /// ```
    /// use mcp_runtime::middleware::{Outcome, OutcomeKind};
    ///
    /// assert_eq!(Outcome::cancelled().kind(), OutcomeKind::Cancelled);
    /// ```
    pub fn cancelled() -> Self {
        Self(Repr::Cancelled)
    }

    /// A notification was handled.
    ///
    /// ```
    /// use mcp_runtime::middleware::{Outcome, OutcomeKind};
    ///
    /// assert_eq!(Outcome::notified().kind(), OutcomeKind::Notified);
    /// ```
    pub fn notified() -> Self {
        Self(Repr::Notified)
    }

    /// What kind of outcome this is.
    ///
    /// ```
    /// use mcp_runtime::middleware::{Outcome, OutcomeKind};
    ///
    /// assert_eq!(Outcome::notified().kind(), OutcomeKind::Notified);
    /// ```
    #[inline]
    pub fn kind(&self) -> OutcomeKind {
        match &self.0 {
            Repr::Reply(Ok(Payload::ToolError(_))) => OutcomeKind::ToolError,
            Repr::Reply(Ok(_)) => OutcomeKind::Result,
            Repr::Reply(Err(_)) => OutcomeKind::Error,
            Repr::Cancelled => OutcomeKind::Cancelled,
            Repr::Notified => OutcomeKind::Notified,
        }
    }

    /// The JSON-RPC error, when the outcome is one (its `code` is what a metrics layer reports
    /// as the error type).
    ///
    /// ```
    /// use mcp_runtime::middleware::Outcome;
    /// use mcp_runtime::protocol::ErrorObject;
    ///
    /// let e = Outcome::error(ErrorObject::method_not_found("x"));
    /// assert_eq!(e.error_object().map(|e| e.code), Some(-32601));
    /// ```
    #[inline]
    pub fn error_object(&self) -> Option<&ErrorObject> {
        match &self.0 {
            Repr::Reply(Err(e)) => Some(e),
            _ => None,
        }
    }

    /// The result's JSON text, when the outcome is a result (a tool's `isError` result
    /// included): what a layer that keeps results (the [`Cache`](crate::cache::Cache)) stores,
    /// and gives back later with [`Outcome::result`] (or as the cache does).
    ///
    /// ```
    /// use mcp_runtime::middleware::Outcome;
    /// use mcp_runtime::protocol::ErrorObject;
    ///
    /// let outcome = Outcome::result(&serde_json::json!({"contents": []})).unwrap();
    /// assert_eq!(outcome.result_json(), Some(r#"{"contents":[]}"#));
    /// assert_eq!(Outcome::error(ErrorObject::internal("x")).result_json(), None);
    /// assert_eq!(Outcome::cancelled().result_json(), None);
    /// ```
    pub fn result_json(&self) -> Option<&str> {
        match &self.0 {
            Repr::Reply(Ok(payload)) => payload.result_text(),
            _ => None,
        }
    }

    /// Whether the outcome is an interim result (`resultType: "input_required"`, 2026-07-28):
    /// the request is not over, and its retry (with `inputResponses` / `requestState`)
    /// depends on answers a cache key does not hold. Its [`kind`](Self::kind) is
    /// [`OutcomeKind::Result`].
    ///
    /// ```
    /// use mcp_runtime::middleware::Outcome;
    ///
    /// let outcome = Outcome::result(&serde_json::json!({})).unwrap();
    /// assert!(!outcome.is_interim());
    /// ```
    pub fn is_interim(&self) -> bool {
        matches!(&self.0, Repr::Reply(Ok(Payload::Interim(_))))
    }

    /// A cached result's text, answering as it is.
    pub(crate) fn shared(text: Arc<str>) -> Self {
        Self(Repr::Reply(Ok(Payload::Shared(text))))
    }

    pub(crate) fn reply(outcome: Result<Payload, ErrorObject>) -> Self {
        Self(Repr::Reply(outcome))
    }

    /// The reply this outcome makes, `None` when nothing is sent.
    pub(crate) fn into_reply(self) -> Option<Result<Payload, ErrorObject>> {
        match self.0 {
            Repr::Reply(r) => Some(r),
            Repr::Cancelled | Repr::Notified => None,
        }
    }
}
