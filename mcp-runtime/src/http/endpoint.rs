//! One HTTP endpoint's shared state, and the responses every handler of it writes.

use std::sync::Arc;

use axum::body::Body;
use axum::response::{IntoResponse, Response};
use http::{HeaderMap, HeaderValue, StatusCode, header};
use mcp_core::jsonrpc::error_codes;
use mcp_core::{ErrorObject, RequestId};

use crate::dispatch::reply::Reply;
use crate::http::event_store::{EventStore, InMemoryEventStore};
use crate::http::guard::{Guard, Refusal};
use crate::http::options::HttpOptions;
use crate::http::session::Sessions;
use crate::http::sse::SseBody;
use crate::server::ServerInner;

/// The shared state of one HTTP endpoint.
pub(crate) struct Http {
    pub(crate) server: Arc<ServerInner>,
    guard: Guard,
    pub(crate) opts: Arc<HttpOptions>,
    pub(crate) sessions: Sessions,
    pub(crate) store: Arc<dyn EventStore>,
    pub(crate) raw_log: bool,
}

impl Http {
    /// The endpoint of `server`; `loopback` when it is bound to a loopback address or mounted.
    pub(crate) fn new(server: Arc<ServerInner>, loopback: bool) -> Self {
        let opts = server.extension::<HttpOptions>().unwrap_or_default();
        let store = opts
            .event_store
            .clone()
            .unwrap_or_else(|| Arc::new(InMemoryEventStore::default()));
        Self {
            guard: Guard::new(&opts.hosts, &opts.origins, loopback),
            sessions: Sessions::new(opts.max_sessions, opts.session_idle),
            server,
            store,
            raw_log: crate::connection::raw_log_enabled(),
            opts,
        }
    }

    /// DNS-rebinding protection: the 403 for a bad `Host` or `Origin`, if any.
    pub(crate) fn reject(&self, headers: &HeaderMap) -> Option<Response> {
        let message = match self.guard.check(headers) {
            Ok(()) => return None,
            Err(Refusal::Host) => "Forbidden: Host header not allowed",
            Err(Refusal::Origin) => "Forbidden: Origin not allowed",
        };
        let err = ErrorObject::new(error_codes::TRANSPORT_ERROR, message);
        Some(rpc_error(StatusCode::FORBIDDEN, None, err))
    }

    /// The `retry` delay of priming events, in milliseconds.
    pub(crate) fn retry_ms(&self) -> u64 {
        u64::try_from(self.opts.retry.as_millis()).unwrap_or(u64::MAX)
    }
}

/// A JSON body with a status, and the session id when one was minted.
pub(crate) fn json_response(status: StatusCode, body: Vec<u8>, session: Option<&str>) -> Response {
    let mut r = (
        status,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response();
    if let Some(id) = session.and_then(|s| HeaderValue::from_str(s).ok()) {
        r.headers_mut().insert("mcp-session-id", id);
    }
    r
}

/// A JSON-RPC error as the whole response.
pub(crate) fn rpc_error(status: StatusCode, id: Option<&RequestId>, err: ErrorObject) -> Response {
    json_response(status, Reply::error(id.cloned(), err).into_bytes(), None)
}

/// -32000 with a status: the transport's own refusals.
pub(crate) fn transport_error(status: StatusCode, message: &str) -> Response {
    rpc_error(
        status,
        None,
        ErrorObject::new(error_codes::TRANSPORT_ERROR, message),
    )
}

/// 404 with -32001: the `Mcp-Session-Id` names no live session.
pub(crate) fn session_not_found(id: Option<&RequestId>) -> Response {
    let err = ErrorObject::new(error_codes::SESSION_NOT_FOUND, "Session not found");
    rpc_error(StatusCode::NOT_FOUND, id, err)
}

/// An SSE stream.
pub(crate) fn sse_response(body: SseBody) -> Response {
    let mut r = Response::new(Body::from_stream(body));
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert("x-accel-buffering", HeaderValue::from_static("no"));
    r
}

/// 405 with `Allow: POST`.
pub(crate) fn method_not_allowed() -> Response {
    let mut r = transport_error(StatusCode::METHOD_NOT_ALLOWED, "Method Not Allowed");
    r.headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static("POST"));
    r
}

/// What the client accepts: (JSON, SSE).
pub(crate) fn accepts(headers: &HeaderMap) -> (bool, bool) {
    let Some(accept) = headers.get(header::ACCEPT).and_then(|a| a.to_str().ok()) else {
        return (true, true);
    };
    let any = accept.contains("*/*");
    let json = any || accept.contains("application/json") || accept.contains("application/*");
    let sse = any || accept.contains("text/event-stream") || accept.contains("text/*");
    (json || !sse, sse)
}

/// The `Mcp-Session-Id` header, trimmed.
pub(crate) fn session_id(headers: &HeaderMap) -> Option<&str> {
    headers
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
}

/// The stateless era's HTTP status of a reply: errors map to 400 and 404, the rest is 200.
pub(crate) fn status_of(reply: &Reply) -> StatusCode {
    match reply.error_code() {
        Some(error_codes::METHOD_NOT_FOUND) => StatusCode::NOT_FOUND,
        Some(
            error_codes::INVALID_PARAMS
            | error_codes::HEADER_MISMATCH
            | error_codes::MISSING_REQUIRED_CLIENT_CAPABILITY
            | error_codes::UNSUPPORTED_PROTOCOL_VERSION
            | error_codes::INVALID_REQUEST
            | error_codes::PARSE_ERROR,
        ) => StatusCode::BAD_REQUEST,
        _ => StatusCode::OK,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_come_from_the_typed_reply() {
        let id = RequestId::String("a\"b,".into());
        let reply = |e| Reply::error(Some(id.clone()), e);
        assert_eq!(
            status_of(&reply(ErrorObject::method_not_found("x"))),
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            status_of(&reply(ErrorObject::new(-32021, "x"))),
            StatusCode::BAD_REQUEST
        );
        assert_eq!(
            status_of(&reply(ErrorObject::internal("x"))),
            StatusCode::OK
        );
        let id = RequestId::Number(3);
        let result = serde_json::json!({"error": {"code": 1}});
        let ok = Reply::new(
            id.clone(),
            crate::dispatch::reply::Payload::framed(&id, &result),
        );
        assert_eq!(status_of(&ok), StatusCode::OK);
    }

    #[test]
    fn accept_header() {
        let mut h = HeaderMap::new();
        assert_eq!(accepts(&h), (true, true));
        h.insert(header::ACCEPT, HeaderValue::from_static("application/json"));
        assert_eq!(accepts(&h), (true, false));
        h.insert(
            header::ACCEPT,
            HeaderValue::from_static("application/json, text/event-stream"),
        );
        assert_eq!(accepts(&h), (true, true));
    }
}
