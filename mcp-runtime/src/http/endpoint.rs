//! One HTTP endpoint's shared state, and the responses every handler of it writes.

use std::future::Future;
use std::sync::Arc;

use axum::body::Body;
use axum::response::{IntoResponse, Response};
use http::{HeaderMap, HeaderValue, StatusCode, header};
use mcp_core::jsonrpc::error_codes;
use mcp_core::{ErrorObject, RequestId};

use crate::dispatch::reply::Reply;
use crate::handler::context::Cancellation;
use crate::http::event_store::{EventStore, InMemoryEventStore};
use crate::http::guard::{Guard, Refusal};
use crate::http::options::HttpOptions;
use crate::http::session::Sessions;
use crate::http::sse::SseBody;
use crate::outbound::{Outbound, Sink};
use crate::server::ServerInner;
use crate::sync::lock;
use tokio::sync::mpsc;

/// The shared state of one HTTP endpoint.
pub(crate) struct Http {
    pub(crate) server: Arc<ServerInner>,
    guard: Guard,
    pub(crate) opts: Arc<HttpOptions>,
    /// What each principal may hold of the endpoint's pools.
    pub(crate) shares: crate::principal::FairShares,
    pub(crate) sessions: Sessions,
    pub(crate) store: Arc<dyn EventStore>,
    pub(crate) raw_log: bool,
    /// Cancelled when the serve function running this endpoint stops on its own account (stdin
    /// closed under `serve_stdio_and_http`); the server-wide shutdown is the server's token.
    stop: Cancellation,
    /// Whether this replica listens to the scale-out bus yet.
    pub(crate) bus_started: std::sync::atomic::AtomicBool,
    /// Connections a stateless request left as it found them, for the next ones (at most
    /// [`SPARE_CONNECTIONS`]).
    spare: std::sync::Mutex<Vec<Arc<crate::connection::Connection>>>,
    /// Request queues that ended empty and unshared, for the next requests (at most
    /// [`SPARE_QUEUES`]): a request answered in plain JSON allocates no queue of its own.
    queues: std::sync::Mutex<Vec<RequestQueue>>,
}

/// A request's queue of messages before its reply: both ends.
pub(crate) type RequestQueue = (Sink, mpsc::Receiver<Outbound>);

/// Messages a request may queue before the response stream takes them.
pub(crate) const REQUEST_QUEUE: usize = 64;

/// How many request queues the endpoint keeps for its next requests.
const SPARE_QUEUES: usize = 64;

/// How many idle connections the stateless era keeps for its next requests.
const SPARE_CONNECTIONS: usize = 64;

impl Http {
    /// The endpoint of `server`; `loopback` when it is bound to a loopback address or mounted;
    /// `stop` ends it along with the server's shutdown.
    pub(crate) fn new(server: Arc<ServerInner>, loopback: bool, stop: Cancellation) -> Self {
        let opts = Arc::new(server.http.options.clone());
        // The options' store, else one a scale-out backend installed, else memory.
        let store = (opts.event_store.clone())
            .or_else(|| server.http.events.clone())
            .unwrap_or_else(|| Arc::new(InMemoryEventStore::default()));
        let shares = server.fair_shares;
        Self {
            guard: Guard::new(&opts.hosts, &opts.origins, loopback),
            sessions: Sessions::new(opts.max_sessions, opts.session_idle, &shares),
            shares,
            server,
            store,
            raw_log: crate::connection::raw_log_enabled(),
            opts,
            stop,
            bus_started: std::sync::atomic::AtomicBool::new(false),
            spare: std::sync::Mutex::new(Vec::new()),
            queues: std::sync::Mutex::new(Vec::new()),
        }
    }

    /// A queue for one request's messages: a spare one, else a new one.
    pub(crate) fn request_queue(&self) -> RequestQueue {
        let spare = lock(&self.queues).pop();
        spare.unwrap_or_else(|| mpsc::channel(REQUEST_QUEUE))
    }

    /// Keeps a request's queue for the next request when nothing else can send on it any more
    /// (its only sender is this one, no weak ones), it is empty with its whole capacity, and
    /// fewer than [`SPARE_QUEUES`] are kept.
    pub(crate) fn spare_queue(&self, (tx, rx): RequestQueue) {
        let unshared = tx.strong_count() == 1 && tx.weak_count() == 0;
        if !unshared || tx.capacity() != tx.max_capacity() || !rx.is_empty() || rx.is_closed() {
            return;
        }
        let mut queues = lock(&self.queues);
        if queues.len() < SPARE_QUEUES {
            queues.push((tx, rx));
        }
    }

    /// A connection for one stateless request: a spare one, else a new one. A stateless request
    /// needs no state of the connection beyond its own flight (no session, no questions to the
    /// client, no subscriptions), so one that finished leaves its connection as it found it.
    /// `out` is where a new one sends server-initiated messages.
    pub(crate) fn stateless_conn(
        &self,
        out: crate::outbound::Sink,
    ) -> Arc<crate::connection::Connection> {
        let spare = lock(&self.spare).pop();
        spare.unwrap_or_else(|| {
            crate::connection::Connection::with_raw_log(
                Arc::clone(&self.server),
                out,
                self.raw_log,
                crate::middleware::TransportKind::StreamableHttp,
            )
        })
    }

    /// Keeps `conn` for the next stateless request if it holds nothing of the last one (see
    /// `Connection::is_spare`) and fewer than [`SPARE_CONNECTIONS`] are kept.
    pub(crate) fn recycle(&self, conn: Arc<crate::connection::Connection>) {
        if !conn.is_spare() {
            return;
        }
        let mut spare = lock(&self.spare);
        if spare.len() < SPARE_CONNECTIONS {
            spare.push(conn);
        }
    }

    /// Whether the endpoint is shutting down: new MCP requests get 503, readiness is false.
    pub(crate) fn draining(&self) -> bool {
        self.server.shutdown.is_cancelled() || self.stop.is_cancelled()
    }

    /// Resolves once the endpoint is shutting down.
    pub(crate) fn stopped(&self) -> impl Future<Output = ()> + Send + 'static {
        let (server, local) = (self.server.shutdown.clone(), self.stop.clone());
        async move { crate::server::shutdown::either(&server, &local).await }
    }

    /// What every MCP request passes first: `Host`/`Origin` (403), then the server must not be
    /// shutting down (503).
    pub(crate) fn admit(&self, headers: &HeaderMap) -> Option<Response> {
        if let Some(r) = self.reject(headers) {
            return Some(r);
        }
        self.draining().then(|| {
            let mut r = transport_error(
                StatusCode::SERVICE_UNAVAILABLE,
                "Service Unavailable: the server is shutting down",
            );
            r.headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
            r
        })
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

/// What the client accepts: (JSON, SSE). A missing `Accept` accepts both; media ranges with
/// `q=0` accept nothing.
pub(crate) fn accepts(headers: &HeaderMap) -> (bool, bool) {
    let mut values = headers.get_all(header::ACCEPT).iter().peekable();
    if values.peek().is_none() {
        return (true, true);
    }
    let (mut json, mut sse) = (false, false);
    for range in values
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
    {
        let (media, params) = range.split_once(';').unwrap_or((range, ""));
        let media = media.trim();
        let refused = !params.is_empty()
            && params.split(';').any(|p| {
                p.trim()
                    .strip_prefix("q=")
                    .and_then(|q| q.trim().parse::<f32>().ok())
                    .is_some_and(|q| q <= 0.0)
            });
        if refused {
            continue;
        }
        let is = |name: &str| media.eq_ignore_ascii_case(name);
        if is("*/*") {
            (json, sse) = (true, true);
        } else if is("application/*") || is("application/json") {
            json = true;
        } else if is("text/*") || is("text/event-stream") {
            sse = true;
        }
    }
    (json, sse)
}

/// 406 when an `Accept` header admits neither JSON nor SSE (a missing one admits both), from
/// what [`accepts`] found.
pub(crate) fn not_acceptable(accepted: (bool, bool)) -> Option<Response> {
    (accepted == (false, false)).then(|| {
        transport_error(
            StatusCode::NOT_ACCEPTABLE,
            "Not Acceptable: the client must accept application/json and text/event-stream",
        )
    })
}

/// 415 when a `POST` declares a `Content-Type` other than `application/json` (parameters such as
/// `charset` allowed; a missing `Content-Type` is read as JSON).
pub(crate) fn unsupported_media_type(headers: &HeaderMap) -> Option<Response> {
    let value = headers.get(header::CONTENT_TYPE)?;
    let media = value
        .to_str()
        .unwrap_or_default()
        .split(';')
        .next()
        .unwrap_or_default()
        .trim();
    (!media.eq_ignore_ascii_case("application/json")).then(|| {
        transport_error(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Unsupported Media Type: the body must be application/json",
        )
    })
}

/// Reads a request body: 413 past `limit` bytes, 408 when it does not arrive within `timeout`.
pub(crate) async fn read_body(
    body: Body,
    limit: usize,
    timeout: std::time::Duration,
) -> Result<bytes::Bytes, Response> {
    let mut read = std::pin::pin!(axum::body::to_bytes(body, limit));
    // A body that arrived with its head (the usual small POST) is read without a timer.
    let first = std::future::poll_fn(|cx| {
        std::task::Poll::Ready(match read.as_mut().poll(cx) {
            std::task::Poll::Ready(r) => Some(r),
            std::task::Poll::Pending => None,
        })
    })
    .await;
    let read = match first {
        Some(r) => Ok(r),
        None => tokio::time::timeout(timeout, read).await,
    };
    match read {
        Ok(Ok(bytes)) => Ok(bytes),
        Ok(Err(_)) => Err(too_large(limit)),
        Err(_) => {
            let mut r = transport_error(
                StatusCode::REQUEST_TIMEOUT,
                &format!(
                    "Request Timeout: the body did not arrive within {} ms",
                    timeout.as_millis()
                ),
            );
            r.headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
            Err(r)
        }
    }
}

/// 413: a message over the server's limit.
pub(crate) fn too_large(limit: usize) -> Response {
    let err = ErrorObject::invalid_request(format!("message exceeds the limit of {limit} bytes"));
    rpc_error(StatusCode::PAYLOAD_TOO_LARGE, None, err)
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

    #[tokio::test]
    async fn a_request_queue_is_kept_only_when_nothing_else_can_use_it() {
        let server = crate::Server::builder(crate::server_info!())
            .build()
            .unwrap();
        let h = Http::new(Arc::clone(&server.inner), true, Cancellation::new());
        let spares = |h: &Http| h.queues.lock().unwrap().len();
        // A sender still held elsewhere (a handler's task): not kept.
        let (tx, rx) = h.request_queue();
        let held = tx.clone();
        h.spare_queue((tx, rx));
        assert_eq!(spares(&h), 0);
        // A weak sender could come back: not kept.
        let (tx, rx) = h.request_queue();
        let weak = tx.downgrade();
        h.spare_queue((tx, rx));
        assert_eq!(spares(&h), 0);
        drop(weak);
        // A message left on it, or a reserved slot: not kept.
        let (tx, rx) = h.request_queue();
        tx.try_send(Outbound::CloseStream).unwrap();
        h.spare_queue((tx, rx));
        let (tx, rx) = h.request_queue();
        let permit = tx.clone().try_reserve_owned().unwrap();
        h.spare_queue((tx, rx));
        assert_eq!(spares(&h), 0);
        drop(permit);
        // Empty and unshared: kept, and the next request gets it with its whole capacity.
        let (tx, rx) = h.request_queue();
        h.spare_queue((tx, rx));
        assert_eq!(spares(&h), 1);
        let (tx, mut rx) = h.request_queue();
        assert_eq!(spares(&h), 0);
        assert_eq!(tx.capacity(), REQUEST_QUEUE);
        tx.try_send(Outbound::CloseStream).unwrap();
        assert!(matches!(rx.recv().await, Some(Outbound::CloseStream)));
        // At most SPARE_QUEUES are kept.
        let queues: Vec<_> = (0..SPARE_QUEUES + 3).map(|_| h.request_queue()).collect();
        for q in queues {
            h.spare_queue(q);
        }
        assert_eq!(spares(&h), SPARE_QUEUES);
        drop(held);
    }

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
        assert_eq!(accepts(&h), (true, true), "missing: lenient");
        for (value, expected) in [
            ("application/json", (true, false)),
            ("application/json, text/event-stream", (true, true)),
            ("text/event-stream", (false, true)),
            ("*/*", (true, true)),
            ("application/*;q=0.5, text/*", (true, true)),
            ("Application/JSON; charset=utf-8", (true, false)),
            ("text/html", (false, false)),
            ("application/json-seq, text/event-streams", (false, false)),
            ("application/json;q=0, text/html", (false, false)),
            ("", (false, false)),
        ] {
            h.insert(header::ACCEPT, HeaderValue::from_static(value));
            assert_eq!(accepts(&h), expected, "{value:?}");
            assert_eq!(
                not_acceptable(accepts(&h)).is_some(),
                expected == (false, false)
            );
        }
    }

    #[test]
    fn content_type_header() {
        let mut h = HeaderMap::new();
        assert!(unsupported_media_type(&h).is_none(), "missing: lenient");
        for ok in [
            "application/json",
            "application/json; charset=utf-8",
            "APPLICATION/Json",
        ] {
            h.insert(header::CONTENT_TYPE, HeaderValue::from_static(ok));
            assert!(unsupported_media_type(&h).is_none(), "{ok}");
        }
        for bad in [
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data",
            "application/jsonx",
            "",
        ] {
            h.insert(header::CONTENT_TYPE, HeaderValue::from_static(bad));
            let r = unsupported_media_type(&h).expect(bad);
            assert_eq!(r.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
        }
    }
}
