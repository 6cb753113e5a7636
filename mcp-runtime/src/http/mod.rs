//! Streamable HTTP: both protocol eras on one endpoint, standalone or mounted into an axum app.
//!
//! ```no_run
//! use mcp_runtime::prelude::*;
//!
//! # async fn demo() -> Result<(), mcp_runtime::Error> {
//! let server = Server::from_registry(server_info!()).build()?;
//! server.serve_http("127.0.0.1:8000").await // POST/GET/DELETE http://127.0.0.1:8000/mcp
//! # }
//! ```
//!
//! Mounted next to the routes of an existing app (the MCP router is a tower `Service`):
//!
//! ```no_run
//! use mcp_runtime::prelude::*;
//!
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! let server = Server::from_registry(server_info!()).build()?;
//! let app = axum::Router::new()
//!     .route("/health", axum::routing::get(|| async { "ok" }))
//!     .nest("/mcp", server.router());
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8000").await?;
//! axum::serve(listener, app).await?;
//! # Ok(())
//! # }
//! ```
//!
//! # Eras
//!
//! Every POST is classified on its own. It is served in the **handshake era** (2025-03-26 to
//! 2025-11-25) when its body is `initialize`, when it carries `Mcp-Session-Id`, or when it has no
//! `_meta` protocol version and its `MCP-Protocol-Version` header names a revision up to
//! 2025-11-25. It is served in the **stateless era** (2026-07-28) when it has no session and
//! carries the per-request `_meta` or another `MCP-Protocol-Version`. A POST with no signal at
//! all is a 400.
//!
//! Handshake era: `initialize` mints a cryptographically random `Mcp-Session-Id`; later requests
//! without it get 400, with an unknown or ended one 404; `DELETE` ends a session. A request's
//! reply is plain JSON when it is ready before anything else is sent, and otherwise an SSE
//! stream (primed with an event id and a `retry` delay) carrying the request's notifications and
//! requests to the client, then the reply. `GET` opens the session's stream of server-initiated
//! messages; `GET` with `Last-Event-ID` resumes any stream of the session from an
//! [`EventStore`]. Answers to requests the server sent come back as separate POSTs.
//!
//! Stateless era: POST only (`GET` and `DELETE` are 405); the `MCP-Protocol-Version`,
//! `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*` headers are checked against the body (-32020);
//! errors map to HTTP statuses (400 for -32602/-32020/-32021/-32022, 404 for -32601); closing
//! the response stream cancels the request.
//!
//! # Security and limits
//!
//! `Host` and `Origin` are checked before anything else (403): by default only loopback names
//! are allowed when the server is bound to a loopback address, and always for a mounted
//! [`Server::router`]; set [`HttpOptions::allowed_hosts`] / [`HttpOptions::allowed_origins`]
//! when serving a public name. Bodies over the server's message limit get 413. Every queue is
//! bounded: a slow client's stream is cut (it can resume), never buffered without end.

mod event_store;
pub(crate) mod headers;
#[cfg(feature = "legacy-sse")]
mod legacy;
mod session;
mod sse;

use std::borrow::Cow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use http::{HeaderMap, HeaderValue, StatusCode, header};
use mcp_core::jsonrpc::{Message, Parsed, error_codes};
use mcp_core::{ErrorObject, ProtocolVersion, RequestId, RequestMeta};
use serde::Deserialize;
use serde_json::value::RawValue;
use tokio::sync::{mpsc, oneshot};

pub use event_store::{EventStore, InMemoryEventStore, Replay, StoreFuture};

use crate::dispatch::Connection;
use crate::error::Error;
use crate::server::Server;
use crate::wire;
use session::{Session, Sessions};
use sse::{AbortOnDrop, Resumable, SseBody};

/// Messages a request may queue before the response stream takes them.
const REQUEST_QUEUE: usize = 64;
/// SSE frames queued for one response before a slow client is cut off.
const SSE_QUEUE: usize = 256;

/// Which hosts or origins are allowed.
#[derive(Clone, Debug, Default)]
enum Allow {
    /// Loopback when bound to loopback (always for a mounted router), else anything.
    #[default]
    Auto,
    Loopback,
    Any,
    List(Arc<[String]>),
}

impl Allow {
    /// An allow-list, compared case-insensitively.
    fn list<I: IntoIterator<Item = S>, S: Into<String>>(items: I) -> Self {
        Allow::List(
            items
                .into_iter()
                .map(|i| i.into().to_ascii_lowercase())
                .collect(),
        )
    }
}

/// Settings of the Streamable HTTP transport, given to
/// [`ServerBuilder::http`](crate::ServerBuilder::http).
///
/// ```
/// use mcp_runtime::http::HttpOptions;
/// use std::time::Duration;
///
/// let options = HttpOptions::new()
///     .allowed_hosts(["mcp.example.com"])
///     .allowed_origins(["https://app.example.com"])
///     .keep_alive(Duration::from_secs(20));
/// # let _ = options;
/// ```
#[derive(Clone)]
#[non_exhaustive]
pub struct HttpOptions {
    hosts: Allow,
    origins: Allow,
    sessions: bool,
    json_response: bool,
    stream_after: Duration,
    keep_alive: Duration,
    retry: Duration,
    max_sessions: usize,
    session_idle: Duration,
    event_store: Option<Arc<dyn EventStore>>,
}

impl std::fmt::Debug for HttpOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpOptions")
            .field("hosts", &self.hosts)
            .field("origins", &self.origins)
            .field("sessions", &self.sessions)
            .field("json_response", &self.json_response)
            .field("stream_after", &self.stream_after)
            .field("keep_alive", &self.keep_alive)
            .field("retry", &self.retry)
            .field("max_sessions", &self.max_sessions)
            .field("session_idle", &self.session_idle)
            .finish_non_exhaustive()
    }
}

impl Default for HttpOptions {
    fn default() -> Self {
        Self {
            hosts: Allow::Auto,
            origins: Allow::Auto,
            sessions: true,
            json_response: false,
            stream_after: Duration::from_millis(500),
            keep_alive: Duration::from_secs(15),
            retry: Duration::from_secs(1),
            max_sessions: 10_000,
            session_idle: Duration::from_secs(30 * 60),
            event_store: None,
        }
    }
}

impl HttpOptions {
    /// The defaults: loopback-only `Host`/`Origin` on loopback binds, sessions on, SSE when a
    /// reply is not ready at once.
    pub fn new() -> Self {
        Self::default()
    }

    /// Accepts only these `Host` names (with or without port; compared case-insensitively).
    ///
    /// ```
    /// # use mcp_runtime::http::HttpOptions;
    /// let o = HttpOptions::new().allowed_hosts(["localhost", "mcp.example.com"]);
    /// # let _ = o;
    /// ```
    pub fn allowed_hosts<I: IntoIterator<Item = S>, S: Into<String>>(mut self, hosts: I) -> Self {
        self.hosts = Allow::list(hosts);
        self
    }

    /// Accepts any `Host` (no DNS-rebinding protection on the host name).
    ///
    /// ```
    /// # use mcp_runtime::http::HttpOptions;
    /// let o = HttpOptions::new().allow_any_host();
    /// # let _ = o;
    /// ```
    pub fn allow_any_host(mut self) -> Self {
        self.hosts = Allow::Any;
        self
    }

    /// Accepts requests whose `Origin`, when present, is one of these (`https://app.example.com`).
    ///
    /// ```
    /// # use mcp_runtime::http::HttpOptions;
    /// let o = HttpOptions::new().allowed_origins(["https://app.example.com"]);
    /// # let _ = o;
    /// ```
    pub fn allowed_origins<I: IntoIterator<Item = S>, S: Into<String>>(
        mut self,
        origins: I,
    ) -> Self {
        self.origins = Allow::list(origins);
        self
    }

    /// Accepts any `Origin`.
    ///
    /// ```
    /// # use mcp_runtime::http::HttpOptions;
    /// let o = HttpOptions::new().allow_any_origin();
    /// # let _ = o;
    /// ```
    pub fn allow_any_origin(mut self) -> Self {
        self.origins = Allow::Any;
        self
    }

    /// Handshake-era sessions (default on). Off, the server mints no `Mcp-Session-Id`, offers no
    /// `GET` stream, and serves each handshake-era POST on its own (the revision from the
    /// `MCP-Protocol-Version` header, 2025-03-26 when absent); requests to the client are then
    /// impossible.
    ///
    /// ```
    /// # use mcp_runtime::http::HttpOptions;
    /// let o = HttpOptions::new().sessions(false);
    /// # let _ = o;
    /// ```
    pub fn sessions(mut self, on: bool) -> Self {
        self.sessions = on;
        self
    }

    /// Always answer with one JSON object, never SSE (default off). Notifications of a request
    /// then go to the session's `GET` stream, or nowhere.
    ///
    /// ```
    /// # use mcp_runtime::http::HttpOptions;
    /// let o = HttpOptions::new().json_response(true);
    /// # let _ = o;
    /// ```
    pub fn json_response(mut self, on: bool) -> Self {
        self.json_response = on;
        self
    }

    /// How long a reply may take before the response turns into an SSE stream even though
    /// nothing was sent yet (default 500 ms), so that long calls are primed for resumption.
    ///
    /// ```
    /// # use mcp_runtime::http::HttpOptions;
    /// let o = HttpOptions::new().stream_after(std::time::Duration::from_millis(100));
    /// # let _ = o;
    /// ```
    pub fn stream_after(mut self, after: Duration) -> Self {
        self.stream_after = after;
        self
    }

    /// Interval of `:` keep-alive comments on quiet SSE streams (default 15 s).
    ///
    /// ```
    /// # use mcp_runtime::http::HttpOptions;
    /// let o = HttpOptions::new().keep_alive(std::time::Duration::from_secs(30));
    /// # let _ = o;
    /// ```
    pub fn keep_alive(mut self, every: Duration) -> Self {
        self.keep_alive = every.max(Duration::from_millis(10));
        self
    }

    /// The `retry` delay sent in priming events (default 1 s).
    ///
    /// ```
    /// # use mcp_runtime::http::HttpOptions;
    /// let o = HttpOptions::new().sse_retry(std::time::Duration::from_millis(250));
    /// # let _ = o;
    /// ```
    pub fn sse_retry(mut self, delay: Duration) -> Self {
        self.retry = delay;
        self
    }

    /// Most sessions at once (default 10 000) and how long an idle one lives once that many
    /// exist (default 30 minutes).
    ///
    /// ```
    /// # use mcp_runtime::http::HttpOptions;
    /// let o = HttpOptions::new().session_limits(100, std::time::Duration::from_secs(600));
    /// # let _ = o;
    /// ```
    pub fn session_limits(mut self, max: usize, idle: Duration) -> Self {
        self.max_sessions = max.max(1);
        self.session_idle = idle;
        self
    }

    /// Where SSE events are kept for resumption (default: a bounded [`InMemoryEventStore`]).
    ///
    /// ```
    /// # use mcp_runtime::http::{HttpOptions, InMemoryEventStore};
    /// let o = HttpOptions::new().event_store(std::sync::Arc::new(InMemoryEventStore::new(64, 1024)));
    /// # let _ = o;
    /// ```
    pub fn event_store(mut self, store: Arc<dyn EventStore>) -> Self {
        self.event_store = Some(store);
        self
    }
}

/// The shared state of one HTTP endpoint.
pub(crate) struct Http {
    server: Server,
    hosts: Allow,
    origins: Allow,
    opts: HttpOptions,
    sessions: Sessions,
    store: Arc<dyn EventStore>,
    raw_log: bool,
    #[cfg(feature = "legacy-sse")]
    legacy: legacy::LegacySessions,
}

impl Http {
    fn new(server: Server, loopback: bool) -> Self {
        let opts = server.inner.http.clone();
        let resolve = |a: &Allow| match a {
            Allow::Auto if loopback => Allow::Loopback,
            Allow::Auto => Allow::Any,
            other => other.clone(),
        };
        let hosts = resolve(&opts.hosts);
        let origins = match (&opts.origins, &hosts) {
            (Allow::Auto, Allow::Any | Allow::List(_)) => Allow::Any,
            (o, _) => resolve(o),
        };
        let store = opts
            .event_store
            .clone()
            .unwrap_or_else(|| Arc::new(InMemoryEventStore::default()));
        Self {
            sessions: Sessions::new(opts.max_sessions, opts.session_idle),
            server,
            hosts,
            origins,
            store,
            raw_log: crate::dispatch::raw_log_enabled(),
            opts,
            #[cfg(feature = "legacy-sse")]
            legacy: legacy::LegacySessions::default(),
        }
    }

    /// DNS-rebinding protection: the 403 for a bad `Host` or `Origin`, if any.
    fn reject(&self, headers: &HeaderMap) -> Option<Response> {
        let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
        let host_ok = match &self.hosts {
            Allow::Any | Allow::Auto => true,
            Allow::Loopback => host.is_some_and(is_loopback_host),
            Allow::List(list) => host.is_some_and(|h| {
                let h = h.to_ascii_lowercase();
                list.iter().any(|a| *a == h || *a == strip_port(&h))
            }),
        };
        if !host_ok {
            return Some(forbidden("Forbidden: Host header not allowed"));
        }
        if let Some(origin) = headers.get(header::ORIGIN) {
            let origin = origin.to_str().unwrap_or_default().to_ascii_lowercase();
            let ok = match &self.origins {
                Allow::Any | Allow::Auto => true,
                Allow::Loopback => origin_is_loopback(&origin),
                Allow::List(list) => list.contains(&origin),
            };
            if !ok {
                return Some(forbidden("Forbidden: Origin not allowed"));
            }
        }
        None
    }

    fn retry_ms(&self) -> u64 {
        u64::try_from(self.opts.retry.as_millis()).unwrap_or(u64::MAX)
    }
}

fn strip_port(host: &str) -> &str {
    if host.starts_with('[') {
        return host.find(']').map_or(host, |i| &host[..=i]);
    }
    match host.rsplit_once(':') {
        Some((h, port)) if port.bytes().all(|b| b.is_ascii_digit()) => h,
        _ => host,
    }
}

fn is_loopback_host(host: &str) -> bool {
    let h = strip_port(host.trim()).to_ascii_lowercase();
    matches!(h.as_str(), "localhost" | "127.0.0.1" | "[::1]")
}

fn origin_is_loopback(origin: &str) -> bool {
    let Some(rest) = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
    else {
        return false;
    };
    is_loopback_host(rest.split('/').next().unwrap_or_default())
}

fn forbidden(message: &str) -> Response {
    json_response(
        StatusCode::FORBIDDEN,
        wire::error(None, &ErrorObject::new(-32000, message)),
        None,
    )
}

fn json_response(status: StatusCode, body: Vec<u8>, session: Option<&str>) -> Response {
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

fn rpc_error(status: StatusCode, id: Option<&RequestId>, err: &ErrorObject) -> Response {
    json_response(status, wire::error(id, err), None)
}

fn sse_response(body: SseBody) -> Response {
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

/// What the client accepts: (JSON, SSE).
fn accepts(headers: &HeaderMap) -> (bool, bool) {
    let Some(accept) = headers.get(header::ACCEPT).and_then(|a| a.to_str().ok()) else {
        return (true, true);
    };
    let any = accept.contains("*/*");
    let json = any || accept.contains("application/json") || accept.contains("application/*");
    let sse = any || accept.contains("text/event-stream") || accept.contains("text/*");
    (json || !sse, sse)
}

/// The error code of a reply built by [`wire`], if it is an error.
fn error_code(reply: &[u8]) -> Option<i32> {
    let rest = reply.strip_prefix(br#"{"jsonrpc":"2.0","id":"#)?;
    let after_id = if rest.first() == Some(&b'"') {
        let mut i = 1;
        let mut escaped = false;
        loop {
            let c = *rest.get(i)?;
            if escaped {
                escaped = false;
            } else if c == b'\\' {
                escaped = true;
            } else if c == b'"' {
                break;
            }
            i += 1;
        }
        &rest[i + 1..]
    } else {
        &rest[rest.iter().position(|c| *c == b',')?..]
    };
    let code = after_id.strip_prefix(br#","error":{"code":"#)?;
    let end = code
        .iter()
        .position(|c| !(c.is_ascii_digit() || *c == b'-'))?;
    std::str::from_utf8(&code[..end]).ok()?.parse().ok()
}

/// The stateless era's HTTP status of a JSON-RPC error.
fn status_for(code: Option<i32>) -> StatusCode {
    match code {
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

/// Whether a protocol-version header names a handshake-era revision (a date up to 2025-11-25).
fn is_legacy_date(v: &str) -> bool {
    v.len() == 10
        && v.as_bytes()[4] == b'-'
        && v.as_bytes()[7] == b'-'
        && v <= ProtocolVersion::LATEST_HANDSHAKE.as_str()
}

/// How a POST is answered, decided by its task.
enum Head {
    Json {
        status: StatusCode,
        body: Vec<u8>,
        session: Option<Arc<str>>,
    },
    Accepted,
    Sse(mpsc::Receiver<Bytes>),
}

/// Sends the head once.
struct HeadTx(Option<oneshot::Sender<Head>>);

impl HeadTx {
    fn send(&mut self, head: Head) {
        if let Some(tx) = self.0.take() {
            let _ = tx.send(head);
        }
    }

    fn json(&mut self, status: StatusCode, body: Vec<u8>) {
        self.send(Head::Json {
            status,
            body,
            session: None,
        });
    }

    fn error(&mut self, status: StatusCode, id: Option<&RequestId>, err: &ErrorObject) {
        self.json(status, wire::error(id, err));
    }

    /// A reply as plain JSON (the stateless era maps errors to statuses).
    fn reply(&mut self, reply: Option<Vec<u8>>, modern: bool) {
        match reply {
            None => self.send(Head::Accepted),
            Some(body) => {
                let status = if modern {
                    status_for(error_code(&body))
                } else {
                    StatusCode::OK
                };
                self.json(status, body);
            }
        }
    }
}

/// The params members the stateless era mirrors in headers.
#[derive(Deserialize, Default)]
struct Mirrored<'a> {
    #[serde(default, borrow)]
    name: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    uri: Option<Cow<'a, str>>,
    #[serde(rename = "taskId", default, borrow)]
    task_id: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    arguments: Option<&'a RawValue>,
}

async fn handle_post(State(h): State<Arc<Http>>, headers: HeaderMap, body: Body) -> Response {
    if let Some(r) = h.reject(&headers) {
        return r;
    }
    let limit = h.server.inner.options.max_message_bytes;
    let too_large = || {
        let err =
            ErrorObject::invalid_request(format!("message exceeds the limit of {limit} bytes"));
        rpc_error(StatusCode::PAYLOAD_TOO_LARGE, None, &err)
    };
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|n| n > limit) {
        return too_large();
    }
    let Ok(bytes) = axum::body::to_bytes(body, limit).await else {
        return too_large();
    };
    let Ok(text) = String::from_utf8(Vec::from(bytes)) else {
        return rpc_error(StatusCode::BAD_REQUEST, None, &ErrorObject::parse_error());
    };
    let (head_tx, head_rx) = oneshot::channel();
    let armed = Arc::new(AtomicBool::new(false));
    let task = tokio::spawn(post_task(
        Arc::clone(&h),
        headers,
        text,
        HeadTx(Some(head_tx)),
        Arc::clone(&armed),
    ));
    let mut guard = AbortOnDrop(Some(task.abort_handle()));
    let head = head_rx.await;
    if !armed.load(Ordering::Acquire) {
        guard.0 = None;
    }
    match head {
        Ok(Head::Json {
            status,
            body,
            session,
        }) => {
            guard.0 = None;
            json_response(status, body, session.as_deref())
        }
        Ok(Head::Accepted) => {
            guard.0 = None;
            StatusCode::ACCEPTED.into_response()
        }
        Ok(Head::Sse(rx)) => {
            let guard = guard.0.is_some().then_some(guard);
            sse_response(SseBody::new(rx, guard))
        }
        Err(_) => {
            guard.0 = None;
            rpc_error(
                StatusCode::INTERNAL_SERVER_ERROR,
                None,
                &ErrorObject::internal("internal error"),
            )
        }
    }
}

/// The era of a POST.
enum Era {
    Handshake,
    Stateless,
    Unknown,
}

async fn post_task(
    h: Arc<Http>,
    headers: HeaderMap,
    text: String,
    mut head: HeadTx,
    armed: Arc<AtomicBool>,
) {
    let parsed = match mcp_core::jsonrpc::parse_batch_or_message(&text) {
        Ok(p) => p,
        Err(err) => return head.error(StatusCode::BAD_REQUEST, err.id(), &err.to_error_object()),
    };
    let msg = match parsed {
        Parsed::Single(m) => m,
        Parsed::Batch(_) => return batch(&h, &headers, &text, head).await,
    };
    let sid = headers
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .map(str::trim);
    let hv = match headers::text(&headers, "mcp-protocol-version") {
        Ok(v) => v,
        Err(e) => return head.error(StatusCode::BAD_REQUEST, None, &e),
    };
    let (method, params) = match &msg {
        Message::Request(r) => (Some(&*r.method), r.params),
        Message::Notification(n) => (Some(&*n.method), n.params),
        Message::Response(_) => (None, None),
    };
    let meta = RequestMeta::from_params(params).ok();
    let meta_version = meta.as_ref().and_then(|m| m.protocol_version.as_deref());
    if h.raw_log {
        eprintln!("--> {text}");
    }
    let era = if (method == Some("initialize") && meta_version.is_none())
        || sid.is_some()
        || (meta_version.is_none() && hv.is_some_and(is_legacy_date))
    {
        Era::Handshake
    } else if meta_version.is_some() || hv.is_some() {
        Era::Stateless
    } else if !h.opts.sessions {
        Era::Handshake
    } else {
        Era::Unknown
    };
    match era {
        Era::Handshake => handshake_post(&h, &headers, msg, meta, sid, hv, head).await,
        Era::Stateless => {
            armed.store(true, Ordering::Release);
            stateless_post(&h, &headers, msg, meta, hv, head).await;
        }
        Era::Unknown => {
            let id = match &msg {
                Message::Request(r) => Some(&r.id),
                _ => None,
            };
            let err = ErrorObject::new(
                -32000,
                "Bad Request: Mcp-Session-Id header is required (send `initialize` first), or give the request `_meta` with a protocol version",
            );
            head.error(StatusCode::BAD_REQUEST, id, &err);
        }
    }
}

/// A sink whose messages go nowhere.
fn nowhere() -> mpsc::Sender<Vec<u8>> {
    mpsc::channel(1).0
}

async fn handshake_post(
    h: &Arc<Http>,
    headers: &HeaderMap,
    msg: Message<'_>,
    meta: Option<RequestMeta>,
    sid: Option<&str>,
    hv: Option<&str>,
    mut head: HeadTx,
) {
    let server = &h.server;
    if let Message::Request(r) = &msg
        && r.method == "initialize"
    {
        if !h.opts.sessions {
            let conn = Connection::new(server.clone(), nowhere());
            let reply = conn.dispatch(msg, meta, &nowhere()).await;
            return head.reply(reply, false);
        }
        let (out_tx, out_rx) = mpsc::channel(server.inner.options.outbound_queue);
        let conn = Connection::new(server.clone(), out_tx);
        let Some(reply) = conn.dispatch(msg, meta, &nowhere()).await else {
            return head.send(Head::Accepted);
        };
        if error_code(&reply).is_some() {
            return head.json(StatusCode::OK, reply);
        }
        let id: Arc<str> = crate::random::token().into();
        let session = Session::new(
            Arc::clone(&id),
            conn,
            out_rx,
            Arc::clone(&h.store),
            h.opts.keep_alive,
        );
        if !h.sessions.insert(session) {
            let err = ErrorObject::new(-32000, "Service Unavailable: too many sessions");
            return head.error(StatusCode::SERVICE_UNAVAILABLE, None, &err);
        }
        return head.send(Head::Json {
            status: StatusCode::OK,
            body: reply,
            session: Some(id),
        });
    }
    let request_id = match &msg {
        Message::Request(r) => Some(r.id.clone()),
        _ => None,
    };
    let session = if h.opts.sessions {
        let Some(sid) = sid else {
            let err = ErrorObject::new(-32000, "Bad Request: Mcp-Session-Id header is required");
            return head.error(StatusCode::BAD_REQUEST, request_id.as_ref(), &err);
        };
        let Some(s) = h.sessions.get(sid) else {
            let err = ErrorObject::new(-32001, "Session not found");
            return head.error(StatusCode::NOT_FOUND, request_id.as_ref(), &err);
        };
        Some(s)
    } else {
        None
    };
    let version = match hv.map(ProtocolVersion::parse) {
        None => session
            .as_ref()
            .and_then(|s| s.conn.session_version())
            .unwrap_or(ProtocolVersion::V2025_03_26),
        Some(Some(v)) => v,
        Some(None) => {
            let err = ErrorObject::new(
                -32000,
                format!(
                    "Bad Request: unsupported MCP-Protocol-Version {:?}",
                    hv.unwrap_or_default()
                ),
            );
            return head.error(StatusCode::BAD_REQUEST, request_id.as_ref(), &err);
        }
    };
    let conn = match &session {
        Some(s) => Arc::clone(&s.conn),
        None => Connection::with_session(
            server.clone(),
            nowhere(),
            if version.is_stateless() {
                ProtocolVersion::V2025_03_26
            } else {
                version
            },
        ),
    };
    match msg {
        Message::Request(_) => {
            let (_, sse_ok) = accepts(headers);
            run_request(h, conn, msg, meta, session, false, sse_ok, head).await;
        }
        _ => {
            conn.dispatch(msg, meta, &nowhere()).await;
            head.send(Head::Accepted);
        }
    }
}

async fn stateless_post(
    h: &Arc<Http>,
    headers: &HeaderMap,
    msg: Message<'_>,
    meta: Option<RequestMeta>,
    hv: Option<&str>,
    mut head: HeadTx,
) {
    let (id, method, params) = match &msg {
        Message::Request(r) => (Some(r.id.clone()), &*r.method, r.params),
        Message::Notification(n) => (None, &*n.method, n.params),
        Message::Response(_) => {
            let err = ErrorObject::invalid_request(
                "clients must not send responses in protocol revision 2026-07-28",
            );
            return head.error(StatusCode::BAD_REQUEST, None, &err);
        }
    };
    let id = id.as_ref();
    // 1. The version header is required.
    let Some(hv) = hv else {
        let err = headers::mismatch("Header mismatch: the MCP-Protocol-Version header is required");
        return head.error(StatusCode::BAD_REQUEST, id, &err);
    };
    // 2. `_meta` with the version and the client's capabilities.
    let meta_ok = meta
        .as_ref()
        .is_some_and(|m| m.protocol_version.is_some() && m.client_capabilities.is_some());
    let Some(meta) = meta.filter(|_| meta_ok) else {
        let err = ErrorObject::invalid_params(format!(
            "missing required `_meta[\"{}\"]` and `_meta[\"{}\"]`",
            mcp_core::meta::PROTOCOL_VERSION_KEY,
            mcp_core::meta::CLIENT_CAPABILITIES_KEY
        ));
        return head.error(StatusCode::BAD_REQUEST, id, &err);
    };
    let requested = meta.protocol_version.as_deref().unwrap_or_default();
    // 3. Header and body agree.
    if hv != requested {
        let err = headers::mismatch(format!(
            "Header mismatch: MCP-Protocol-Version header value '{hv}' does not match body value '{requested}'"
        ));
        return head.error(StatusCode::BAD_REQUEST, id, &err);
    }
    // 4. A revision served statelessly.
    if !ProtocolVersion::parse(requested).is_some_and(ProtocolVersion::is_stateless) {
        let err = ErrorObject::unsupported_protocol_version(
            requested,
            [ProtocolVersion::V2026_07_28.as_str()],
        );
        return head.error(StatusCode::BAD_REQUEST, id, &err);
    }
    // 5. Standard and custom headers.
    if id.is_some()
        && let Err(err) = check_headers(h, headers, method, params)
    {
        return head.error(StatusCode::BAD_REQUEST, id, &err);
    }
    let conn = Connection::new(h.server.clone(), nowhere());
    if id.is_none() {
        conn.dispatch(msg, Some(meta), &nowhere()).await;
        return head.send(Head::Accepted);
    }
    let (_, sse_ok) = accepts(headers);
    run_request(h, conn, msg, Some(meta), None, true, sse_ok, head).await;
}

/// Step 5 of the stateless era's validation: `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`.
fn check_headers(
    h: &Http,
    headers: &HeaderMap,
    method: &str,
    params: Option<&RawValue>,
) -> Result<(), ErrorObject> {
    match headers::text(headers, "mcp-method")? {
        None => {
            return Err(headers::mismatch(
                "Header mismatch: the Mcp-Method header is required",
            ));
        }
        Some(m) if m != method => {
            return Err(headers::mismatch(format!(
                "Header mismatch: Mcp-Method header value '{m}' does not match body value '{method}'"
            )));
        }
        Some(_) => {}
    }
    let named = matches!(method, "tools/call" | "prompts/get" | "resources/read")
        || method.starts_with("tasks/");
    if !named {
        return Ok(());
    }
    let mirrored: Mirrored<'_> = match params {
        Some(p) => serde_json::from_str(p.get())
            .map_err(|_| ErrorObject::invalid_params("invalid params"))?,
        None => Mirrored::default(),
    };
    let body_name = match method {
        "resources/read" => mirrored.uri.as_deref(),
        "tools/call" | "prompts/get" => mirrored.name.as_deref(),
        _ => mirrored.task_id.as_deref(),
    };
    if let Some(expected) = body_name {
        headers::check_name(headers, expected)?;
    } else if headers.get("mcp-name").is_none() {
        return Err(headers::mismatch(
            "Header mismatch: the Mcp-Name header is required for this method",
        ));
    }
    if method == "tools/call" {
        let live = h.server.inner.live();
        if let Some(params) = mirrored.name.as_deref().and_then(|n| live.headers.get(n)) {
            let arguments: Option<serde_json::Value> = mirrored
                .arguments
                .and_then(|a| serde_json::from_str(a.get()).ok());
            headers::check_params(headers, params, arguments.as_ref())?;
        }
    }
    Ok(())
}

/// Where a request's stream goes.
enum Out {
    Plain(mpsc::Sender<Bytes>),
    Resumable(Arc<Resumable>, Arc<Session>),
}

impl Out {
    async fn send(&self, msg: &[u8]) {
        match self {
            Out::Plain(tx) => {
                let _ = tx.send(sse::frame(None, None, msg)).await;
            }
            Out::Resumable(stream, _) => stream.push(msg).await,
        }
    }

    /// Sends a message, or cuts the connection on the empty control message of
    /// [`Context::close_stream`](crate::Context::close_stream).
    async fn deliver(&self, msg: &[u8]) {
        if !msg.is_empty() {
            return self.send(msg).await;
        }
        if let Out::Resumable(stream, _) = self {
            stream.disconnect().await;
        }
    }

    async fn keep_alive(&self) {
        match self {
            Out::Plain(tx) => {
                let _ = tx.try_send(Bytes::from_static(sse::KEEPALIVE));
            }
            Out::Resumable(stream, _) => stream.keep_alive().await,
        }
    }

    async fn finish(self) {
        if let Out::Resumable(stream, session) = self {
            stream.finish().await;
            session.close_stream(stream.stream);
        }
    }
}

/// Dispatches a request and streams its answer: plain JSON when the reply comes first, SSE when
/// something else does (or the reply takes longer than `stream_after`).
#[allow(clippy::too_many_arguments)]
async fn run_request(
    h: &Arc<Http>,
    conn: Arc<Connection>,
    msg: Message<'_>,
    meta: Option<RequestMeta>,
    session: Option<Arc<Session>>,
    modern: bool,
    sse_ok: bool,
    mut head: HeadTx,
) {
    let sse_ok = sse_ok && !h.opts.json_response;
    let (tx, mut rx) = mpsc::channel::<Vec<u8>>(REQUEST_QUEUE);
    let sink = match (&session, sse_ok) {
        (Some(s), false) => s.conn.out(),
        (None, false) => nowhere(),
        _ => tx.clone(),
    };
    let dispatch = conn.dispatch(msg, meta, &sink);
    tokio::pin!(dispatch);
    if !sse_ok {
        let reply = dispatch.await;
        return head.reply(reply, modern);
    }
    let mut first = Vec::new();
    let mut done: Option<Option<Vec<u8>>> = None;
    tokio::select! {
        biased;
        reply = &mut dispatch => {
            while let Ok(m) = rx.try_recv() {
                first.push(m);
            }
            if first.is_empty() {
                return head.reply(reply, modern);
            }
            done = Some(reply);
        }
        Some(m) = rx.recv() => first.push(m),
        () = tokio::time::sleep(h.opts.stream_after) => {}
    }
    let (body_tx, body_rx) = mpsc::channel::<Bytes>(SSE_QUEUE);
    let out = match &session {
        Some(s) if !modern => {
            let stream = s.open_stream();
            stream.attach(None, body_tx, h.retry_ms()).await;
            Out::Resumable(stream, Arc::clone(s))
        }
        _ => Out::Plain(body_tx),
    };
    head.send(Head::Sse(body_rx));
    for m in first {
        out.deliver(&m).await;
    }
    let period = h.opts.keep_alive;
    let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
    loop {
        if let Some(reply) = done.take() {
            while let Ok(m) = rx.try_recv() {
                out.send(&m).await;
            }
            if let Some(reply) = reply {
                out.send(&reply).await;
            }
            break;
        }
        tokio::select! {
            biased;
            Some(m) = rx.recv() => out.deliver(&m).await,
            reply = &mut dispatch => done = Some(reply),
            _ = ticks.tick() => out.keep_alive().await,
        }
    }
    drop(tx);
    out.finish().await;
}

/// A JSON-RPC batch (2025-03-26 only, in a session): answered with one JSON array.
async fn batch(h: &Arc<Http>, headers: &HeaderMap, text: &str, mut head: HeadTx) {
    let sid = headers
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .map(str::trim);
    let Some(session) = sid.and_then(|s| h.sessions.get(s)) else {
        let err = ErrorObject::invalid_request(
            "JSON-RPC batches are only accepted in a 2025-03-26 session",
        );
        return head.error(StatusCode::BAD_REQUEST, None, &err);
    };
    let (tx, mut rx) = mpsc::channel::<Vec<u8>>(REQUEST_QUEUE);
    let collect = async {
        let mut last = None;
        while let Some(m) = rx.recv().await {
            last = Some(m);
        }
        last
    };
    let work = async {
        session.conn.handle_text_on(text, &tx).await;
        drop(tx);
    };
    let ((), last) = tokio::join!(work, collect);
    match last.filter(|m| m.first() == Some(&b'[') || error_code(m).is_some()) {
        Some(body) => head.json(StatusCode::OK, body),
        None => head.send(Head::Accepted),
    }
}

async fn handle_get(State(h): State<Arc<Http>>, headers: HeaderMap) -> Response {
    if let Some(r) = h.reject(&headers) {
        return r;
    }
    let sid = headers
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .map(str::trim);
    let Some(sid) = sid.filter(|_| h.opts.sessions) else {
        return method_not_allowed();
    };
    let Some(session) = h.sessions.get(sid) else {
        return rpc_error(
            StatusCode::NOT_FOUND,
            None,
            &ErrorObject::new(-32001, "Session not found"),
        );
    };
    if !accepts(&headers).1 {
        let err = ErrorObject::new(
            -32000,
            "Not Acceptable: the client must accept text/event-stream",
        );
        return rpc_error(StatusCode::NOT_ACCEPTABLE, None, &err);
    }
    let (tx, rx) = mpsc::channel::<Bytes>(SSE_QUEUE);
    match headers.get("last-event-id").and_then(|v| v.to_str().ok()) {
        Some(last) => {
            let Some((stream, seq)) = sse::parse_event_id(last) else {
                return rpc_error(
                    StatusCode::BAD_REQUEST,
                    None,
                    &ErrorObject::new(-32000, "Bad Request: unknown Last-Event-ID"),
                );
            };
            match session.stream(stream) {
                Some(open) => open.attach(Some(seq), tx, h.retry_ms()).await,
                None => {
                    let Some(replay) = session.store().replay(&session.id, stream, seq).await
                    else {
                        return rpc_error(
                            StatusCode::BAD_REQUEST,
                            None,
                            &ErrorObject::new(-32000, "Bad Request: unknown Last-Event-ID"),
                        );
                    };
                    let _ = tx.try_send(sse::priming(last, h.retry_ms()));
                    for (_, frame) in replay.events {
                        if tx.try_send(frame).is_err() {
                            break;
                        }
                    }
                }
            }
        }
        None => session.standalone.attach(None, tx, h.retry_ms()).await,
    }
    sse_response(SseBody::new(rx, None))
}

async fn handle_delete(State(h): State<Arc<Http>>, headers: HeaderMap) -> Response {
    if let Some(r) = h.reject(&headers) {
        return r;
    }
    let sid = headers
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .map(str::trim);
    let Some(sid) = sid.filter(|_| h.opts.sessions) else {
        return method_not_allowed();
    };
    if h.sessions.remove(sid) {
        StatusCode::OK.into_response()
    } else {
        rpc_error(
            StatusCode::NOT_FOUND,
            None,
            &ErrorObject::new(-32001, "Session not found"),
        )
    }
}

fn method_not_allowed() -> Response {
    let mut r = rpc_error(
        StatusCode::METHOD_NOT_ALLOWED,
        None,
        &ErrorObject::new(-32000, "Method Not Allowed"),
    );
    r.headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static("POST"));
    r
}

fn build_router(server: Server, path: &str, loopback: bool) -> Router {
    let state = Arc::new(Http::new(server, loopback));
    let router = Router::new().route(
        path,
        axum::routing::post(handle_post)
            .get(handle_get)
            .delete(handle_delete),
    );
    #[cfg(feature = "legacy-sse")]
    let router = legacy::routes(router);
    router.with_state(state)
}

impl Server {
    /// The MCP endpoint as an axum [`Router`] serving `/`, to mount at a path of your choosing
    /// with `Router::nest`; it is a tower `Service` like any router. With the `legacy-sse`
    /// feature it also serves the 2024-11-05 HTTP+SSE transport at `/sse` and `/messages`.
    ///
    /// `Host` and `Origin` must be loopback names unless [`HttpOptions`] say otherwise.
    ///
    /// ```
    /// use mcp_runtime::prelude::*;
    ///
    /// let server = Server::builder(server_info!()).build().unwrap();
    /// let app: axum::Router = axum::Router::new()
    ///     .route("/", axum::routing::get(|| async { "home" }))
    ///     .nest("/mcp", server.router());
    /// # let _ = app;
    /// ```
    pub fn router(&self) -> Router {
        build_router(self.clone(), "/", true)
    }

    /// The MCP endpoint as an axum [`Router`] serving `path` (merge it into your app with
    /// `Router::merge`).
    ///
    /// ```
    /// use mcp_runtime::prelude::*;
    ///
    /// let server = Server::builder(server_info!()).build().unwrap();
    /// let app: axum::Router = axum::Router::new()
    ///     .route("/health", axum::routing::get(|| async { "ok" }))
    ///     .merge(server.into_router("/mcp"));
    /// # let _ = app;
    /// ```
    pub fn into_router(self, path: &str) -> Router {
        build_router(self, path, true)
    }

    /// Serves Streamable HTTP at `http://ADDR/mcp` until the process ends.
    ///
    /// Bound to a loopback address, only loopback `Host` and `Origin` values are accepted
    /// (DNS-rebinding protection); see [`HttpOptions`] for public deployments.
    ///
    /// ```no_run
    /// use mcp_runtime::prelude::*;
    ///
    /// # async fn demo() -> Result<(), mcp_runtime::Error> {
    /// Server::from_registry(server_info!()).build()?.serve_http("127.0.0.1:8000").await
    /// # }
    /// ```
    pub async fn serve_http(&self, addr: impl tokio::net::ToSocketAddrs) -> Result<(), Error> {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        self.serve_http_on(listener).await
    }

    /// Serves Streamable HTTP at `/mcp` on a listener you bound (port 0 in tests, say).
    ///
    /// ```no_run
    /// use mcp_runtime::prelude::*;
    ///
    /// # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
    /// let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    /// println!("http://{}/mcp", listener.local_addr()?);
    /// Server::from_registry(server_info!()).build()?.serve_http_on(listener).await?;
    /// # Ok(())
    /// # }
    /// ```
    pub async fn serve_http_on(&self, listener: tokio::net::TcpListener) -> Result<(), Error> {
        use axum::serve::ListenerExt as _;
        let local = listener.local_addr()?;
        let router = build_router(self.clone(), "/mcp", local.ip().is_loopback());
        tracing::info!(%local, "serving MCP over Streamable HTTP at /mcp");
        let listener = listener.tap_io(|tcp| {
            let _ = tcp.set_nodelay(true);
        });
        axum::serve(listener, router).await?;
        Ok(())
    }

    /// Serves stdio and Streamable HTTP (`http://ADDR/mcp`) from one process, until stdin closes
    /// or the HTTP server fails.
    ///
    /// ```no_run
    /// use mcp_runtime::prelude::*;
    ///
    /// # async fn demo() -> Result<(), mcp_runtime::Error> {
    /// Server::from_registry(server_info!()).build()?.serve_stdio_and_http("127.0.0.1:8000").await
    /// # }
    /// ```
    pub async fn serve_stdio_and_http(
        &self,
        addr: impl tokio::net::ToSocketAddrs,
    ) -> Result<(), Error> {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        tokio::select! {
            r = self.serve_stdio() => r,
            r = self.serve_http_on(listener) => r,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_names() {
        for ok in [
            "localhost",
            "localhost:8000",
            "127.0.0.1:1",
            "[::1]:80",
            "LOCALHOST",
        ] {
            assert!(is_loopback_host(ok), "{ok}");
        }
        for bad in ["evil.com", "127.0.0.2", "localhost.evil.com:80", ""] {
            assert!(!is_loopback_host(bad), "{bad}");
        }
        assert!(origin_is_loopback("http://localhost:3000"));
        assert!(origin_is_loopback("https://127.0.0.1"));
        assert!(!origin_is_loopback("http://evil.com"));
        assert!(!origin_is_loopback("null"));
    }

    #[test]
    fn error_codes_of_replies() {
        let id = RequestId::String("a\"b,".into());
        assert_eq!(
            error_code(&wire::error(Some(&id), &ErrorObject::method_not_found("x"))),
            Some(-32601)
        );
        assert_eq!(
            error_code(&wire::error(None, &ErrorObject::invalid_params("x"))),
            Some(-32602)
        );
        assert_eq!(
            error_code(&wire::response_raw(
                &RequestId::Number(3),
                r#"{"error":{"code":1}}"#
            )),
            None
        );
        assert_eq!(status_for(Some(-32601)), StatusCode::NOT_FOUND);
        assert_eq!(status_for(Some(-32021)), StatusCode::BAD_REQUEST);
        assert_eq!(status_for(Some(-32603)), StatusCode::OK);
    }

    #[test]
    fn legacy_dates() {
        assert!(is_legacy_date("2025-03-26"));
        assert!(is_legacy_date("2025-11-25"));
        assert!(!is_legacy_date("2026-07-28"));
        assert!(!is_legacy_date("garbage"));
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
