//! The dispatcher: one [`Connection`] per client connection, both eras, every method.
//!
//! Era selection is per message. `initialize` opens a handshake-era session on the connection;
//! a request whose `params._meta` carries `io.modelcontextprotocol/protocolVersion` is served
//! statelessly (2026-07-28), whatever else happened on the connection. A request with neither is
//! answered with -32602, naming what is missing.
//!
//! Cheap methods (lists, `ping`, `initialize`, `server/discover`) are answered inline, in order.
//! Handler methods (`tools/call`, `resources/read`, `prompts/get`, `completion/complete`,
//! `subscriptions/listen`) run as their own tasks on stream transports, so a slow tool never
//! blocks `ping`, cancellation or other calls; on HTTP each POST runs its handler in its own
//! task already, and closing the response stream drops it ([`Connection::dispatch`]).
//!
//! Responses from the client (to elicitation, sampling and roots requests) are routed to the
//! handler waiting for them.

use std::borrow::Cow;
use std::collections::HashMap;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context as TaskContext, Poll};
use std::time::{Duration, Instant};

use mcp_core::jsonrpc::{EnvelopeError, Message, Parsed, error_codes};
use mcp_core::subscriptions::{
    SubscriptionsAcknowledgedNotificationParams, SubscriptionsListenRequestParams,
};
use mcp_core::{
    CallToolResult, ClientCapabilities, CompleteResult, CompletionReference, DiscoverResult,
    EmptyResult, ErrorObject, ForVersion, Implementation, InitializeResult, InputRequiredResult,
    LoggingLevel, Meta, ProtocolVersion, ReadResourceResult, RequestId, RequestMeta, ResultType,
    SubscriptionFilter,
};
use serde::Deserialize;
use serde_json::value::RawValue;
use tokio::sync::mpsc;
use tokio::task::AbortHandle;
use tracing::Instrument;

use crate::completion::CompletionRequest;
use crate::context::{CancellationToken, Context, ContextInner, LogGate, severity};
use crate::error::HandlerError;
use crate::interact::{Interact, Pending};
use crate::mrtr::{Outcome, Round, UntilInput};
use crate::notify::Subscriptions;
use crate::registry::{BoxFuture, ListKind, PromptArguments};
use crate::server::{Server, ValidationErrors};
use crate::wire;

/// A handshake-era session, opened by `initialize`.
struct Session {
    version: ProtocolVersion,
    client_info: Arc<Implementation>,
    client_caps: Arc<ClientCapabilities>,
}

/// A request being handled.
struct Flight {
    /// The task running it, when it has its own.
    abort: Option<AbortHandle>,
    cancel: CancellationToken,
    seq: u64,
}

/// What a request is served with: revision, client, logging, progress.
struct Scope {
    version: ProtocolVersion,
    client_info: Option<Arc<Implementation>>,
    client_caps: Option<Arc<ClientCapabilities>>,
    log_gate: LogGate,
    progress_token: Option<mcp_core::ProgressToken>,
    meta: Option<Meta>,
    /// Where this request's notifications and reply go.
    peer: Sink,
}

/// Where messages for one request (or one connection) are queued.
pub(crate) type Sink = mpsc::Sender<Vec<u8>>;

/// One client connection.
pub(crate) struct Connection {
    server: Server,
    out: mpsc::Sender<Vec<u8>>,
    session: Mutex<Option<Arc<Session>>>,
    log_level: Arc<AtomicU8>,
    in_flight: Mutex<HashMap<RequestId, Flight>>,
    /// One permit per request that may run at once; a request without one waits in its task,
    /// so cancellations and pings are still read meanwhile.
    slots: Arc<tokio::sync::Semaphore>,
    /// One permit per request admitted (running or waiting for a slot); when none is left,
    /// reading waits: back-pressure on the client instead of refused work or unbounded tasks.
    admitted: Arc<tokio::sync::Semaphore>,
    seq: AtomicU64,
    raw_log: bool,
    /// Whether handlers get their first poll on the connection's task (see
    /// `ServerBuilder::inline_first_poll`); cleared for good when one blocks.
    inline: std::sync::atomic::AtomicBool,
    /// Key in the server's notification hub, once registered.
    hub_key: Mutex<Option<u64>>,
    /// Requests sent to the client, awaiting answers.
    pending: Arc<Pending>,
    /// `resources/subscribe` URIs.
    subscriptions: Subscriptions,
    /// Cancelled when the connection closes: ends `subscriptions/listen` gracefully.
    closing: CancellationToken,
}

impl Drop for Connection {
    fn drop(&mut self) {
        if let Some(key) = *self.hub_key.lock().unwrap_or_else(|e| e.into_inner()) {
            self.server.inner.hub.remove_connection(key);
        }
        self.pending.clear();
    }
}

/// Whether `MCP_LOG_MESSAGES` asks for the raw message log on stderr.
pub(crate) fn raw_log_enabled() -> bool {
    std::env::var_os("MCP_LOG_MESSAGES").is_some_and(|v| !v.is_empty() && v != "0")
}

/// Runs a boxed handler future, turning a panic into an error.
struct CatchUnwind<F>(F);

impl<F: Future + Unpin> Future for CatchUnwind<F> {
    type Output = Result<F::Output, String>;
    fn poll(mut self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<Self::Output> {
        let inner = &mut self.0;
        match std::panic::catch_unwind(AssertUnwindSafe(|| Pin::new(inner).poll(cx))) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(v)) => Poll::Ready(Ok(v)),
            Err(payload) => {
                let msg = payload
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "panic".to_owned());
                Poll::Ready(Err(msg))
            }
        }
    }
}

/// A short id tying a masked error to the server log.
fn correlation_id() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    format!("{:08x}", (t ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15)) as u32)
}

#[derive(Deserialize)]
struct NameParams<'a> {
    #[serde(borrow)]
    name: Cow<'a, str>,
    #[serde(default, borrow)]
    arguments: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct PromptParams<'a> {
    #[serde(borrow)]
    name: Cow<'a, str>,
    #[serde(default)]
    arguments: Option<std::collections::BTreeMap<String, serde_json::Value>>,
}

#[derive(Deserialize)]
struct UriParams<'a> {
    #[serde(borrow)]
    uri: Cow<'a, str>,
}

#[derive(Deserialize)]
struct CursorParams<'a> {
    #[serde(default, borrow)]
    cursor: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct CancelParams {
    #[serde(rename = "requestId", default)]
    request_id: Option<RequestId>,
}

fn params_error(e: &serde_json::Error) -> ErrorObject {
    let msg = e.to_string();
    let msg = msg.rfind(" at line ").map_or(msg.as_str(), |i| &msg[..i]);
    ErrorObject::invalid_params(format!("invalid params: {msg}"))
}

fn parse_params<'a, T: Deserialize<'a>>(params: Option<&'a RawValue>) -> Result<T, ErrorObject> {
    let text = params.map_or("{}", RawValue::get);
    // Derived structs would also accept positional arrays; MCP params are always objects.
    if !text.trim_start().starts_with('{') {
        return Err(ErrorObject::invalid_params(
            "invalid params: `params` must be an object",
        ));
    }
    serde_json::from_str(text).map_err(|e| params_error(&e))
}

const STATELESS_ONLY: &[&str] = &["server/discover", "subscriptions/listen"];
const HANDSHAKE_ONLY: &[&str] = &[
    "initialize",
    "ping",
    "logging/setLevel",
    "resources/subscribe",
    "resources/unsubscribe",
];

impl Connection {
    pub(crate) fn new(server: Server, out: mpsc::Sender<Vec<u8>>) -> Arc<Self> {
        let options = &server.inner.options;
        let max_in_flight = options.max_in_flight;
        let inline = options.inline_first_poll;
        let pending = Arc::new(Pending::new(
            options.max_in_flight,
            options.client_request_timeout,
        ));
        Arc::new(Self {
            server,
            out,
            session: Mutex::new(None),
            log_level: Arc::new(AtomicU8::new(severity(LoggingLevel::Info))),
            in_flight: Mutex::new(HashMap::new()),
            slots: Arc::new(tokio::sync::Semaphore::new(max_in_flight)),
            admitted: Arc::new(tokio::sync::Semaphore::new(
                max_in_flight.saturating_mul(4).max(64),
            )),
            seq: AtomicU64::new(0),
            raw_log: raw_log_enabled(),
            inline: std::sync::atomic::AtomicBool::new(inline),
            hub_key: Mutex::new(None),
            pending,
            subscriptions: Subscriptions::default(),
            closing: CancellationToken::new(),
        })
    }

    /// A connection whose handshake happened elsewhere (HTTP without sessions): it serves
    /// handshake-era requests at `version`, with no client capabilities known.
    #[cfg(feature = "http")]
    pub(crate) fn with_session(
        server: Server,
        out: mpsc::Sender<Vec<u8>>,
        version: ProtocolVersion,
    ) -> Arc<Self> {
        let conn = Self::new(server, out);
        *conn.session.lock().unwrap_or_else(|e| e.into_inner()) = Some(Arc::new(Session {
            version,
            client_info: Arc::new(Implementation::new("unknown", "0")),
            client_caps: Arc::new(ClientCapabilities::default()),
        }));
        conn
    }

    /// The protocol revision of the connection's session, if it has one.
    #[cfg(feature = "http")]
    pub(crate) fn session_version(&self) -> Option<ProtocolVersion> {
        self.session().map(|s| s.version)
    }

    /// Queues a server-initiated notification for a session, dropping it when the queue is full.
    pub(crate) fn notify(&self, msg: Vec<u8>) {
        if self.session().is_some() {
            if self.raw_log {
                eprintln!("<-- {}", String::from_utf8_lossy(&msg));
            }
            let _ = self.out.try_send(msg);
        }
    }

    /// Whether the session subscribed to `uri` with `resources/subscribe`.
    pub(crate) fn is_subscribed(&self, uri: &str) -> bool {
        self.subscriptions.contains(uri)
    }

    async fn send(&self, sink: &Sink, msg: Vec<u8>) {
        if self.raw_log {
            eprintln!("<-- {}", String::from_utf8_lossy(&msg));
        }
        let _ = sink.send(msg).await;
    }

    fn session(&self) -> Option<Arc<Session>> {
        self.session
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Handles one inbound message (one JSON text); replies go to the connection's outbound queue.
    pub(crate) async fn handle_text(self: &Arc<Self>, text: &str) {
        let sink = self.out.clone();
        self.handle_text_on(text, &sink).await;
    }

    /// Handles one inbound message; its reply, and the notifications of the request it carries,
    /// go to `sink` (an HTTP response stream, say).
    pub(crate) async fn handle_text_on(self: &Arc<Self>, text: &str, sink: &Sink) {
        if self.raw_log {
            eprintln!("--> {text}");
        }
        match mcp_core::jsonrpc::parse_batch_or_message(text) {
            Ok(Parsed::Single(msg)) => {
                if let Some(reply) = self.handle_message(msg, None, false, sink).await {
                    self.send(sink, reply).await;
                }
            }
            Ok(Parsed::Batch(items)) => self.handle_batch(items, sink).await,
            Err(err) => self.send(sink, envelope_error(&err)).await,
        }
    }

    /// Reports a message that was too large to read.
    pub(crate) async fn reject_oversized(&self, limit: usize) {
        let err =
            ErrorObject::invalid_request(format!("message exceeds the limit of {limit} bytes"));
        self.send(&self.out, wire::error(None, &err)).await;
    }

    async fn handle_batch(
        self: &Arc<Self>,
        items: Vec<Result<Message<'_>, EnvelopeError>>,
        sink: &Sink,
    ) {
        let allowed = self.session().is_some_and(|s| s.version.allows_batches());
        if !allowed || items.is_empty() {
            let msg = if items.is_empty() {
                "empty batch"
            } else {
                "JSON-RPC batches are only accepted in protocol revision 2025-03-26"
            };
            self.send(sink, wire::error(None, &ErrorObject::invalid_request(msg)))
                .await;
            return;
        }
        let mut replies = Vec::new();
        for item in items {
            let reply = match item {
                Ok(Message::Request(req)) if req.method == "initialize" => Some(wire::error(
                    Some(&req.id),
                    &ErrorObject::invalid_request("`initialize` must not be part of a batch"),
                )),
                Ok(msg) => self.handle_message(msg, None, true, sink).await,
                Err(err) => Some(envelope_error(&err)),
            };
            replies.extend(reply);
        }
        if replies.is_empty() {
            return;
        }
        let mut buf =
            Vec::with_capacity(replies.iter().map(Vec::len).sum::<usize>() + replies.len() + 1);
        buf.push(b'[');
        for (i, r) in replies.iter().enumerate() {
            if i > 0 {
                buf.push(b',');
            }
            buf.extend_from_slice(r);
        }
        buf.push(b']');
        self.send(sink, buf).await;
    }

    /// Handles one parsed message in the calling task (HTTP): handler methods run here, so
    /// dropping the future drops the handler. `meta` is the request's `_meta` when the caller
    /// already read it. Returns the reply, if any; notifications and requests to the client go to
    /// `sink` meanwhile.
    #[cfg(feature = "http")]
    pub(crate) async fn dispatch(
        self: &Arc<Self>,
        msg: Message<'_>,
        meta: Option<RequestMeta>,
        sink: &Sink,
    ) -> Option<Vec<u8>> {
        let reply = self.handle_message(msg, meta, true, sink).await;
        if self.raw_log
            && let Some(reply) = &reply
        {
            eprintln!("<-- {}", String::from_utf8_lossy(reply));
        }
        reply
    }

    /// Handles a parsed message; returns the reply to send now, if any. With `wait`, handler
    /// methods run to completion here (batches, HTTP); otherwise they get their own task.
    async fn handle_message(
        self: &Arc<Self>,
        msg: Message<'_>,
        meta: Option<RequestMeta>,
        wait: bool,
        sink: &Sink,
    ) -> Option<Vec<u8>> {
        match msg {
            Message::Notification(n) => {
                self.handle_notification(&n.method, n.params);
                None
            }
            Message::Response(r) => {
                self.pending.complete(r);
                None
            }
            Message::Request(req) => {
                let id = req.id;
                let method: &str = &req.method;
                let scope = match self.resolve(method, req.params, meta, sink) {
                    Ok(scope) => scope,
                    Err(err) => return Some(wire::error(Some(&id), &err)),
                };
                let handler = match method {
                    "tools/call" => Method::CallTool,
                    "resources/read" => Method::ReadResource,
                    "prompts/get" => Method::GetPrompt,
                    "completion/complete" => Method::Complete,
                    "subscriptions/listen" => Method::Listen,
                    _ => return Some(self.handle_inline(method, &id, req.params, scope)),
                };
                let params = req.params.map(RawValue::to_owned);
                if wait {
                    return self.run_here(handler, id, params, scope).await;
                }
                self.spawn_handler(handler, id, params, scope).await
            }
        }
    }

    /// Runs a handler method in the calling task, registered so that `notifications/cancelled`
    /// can stop it.
    async fn run_here(
        self: &Arc<Self>,
        method: Method,
        id: RequestId,
        params: Option<Box<RawValue>>,
        scope: Scope,
    ) -> Option<Vec<u8>> {
        let cancel = CancellationToken::new();
        let seq = self.seq.fetch_add(1, Ordering::Relaxed);
        {
            let mut flights = self.in_flight.lock().unwrap_or_else(|e| e.into_inner());
            if flights.contains_key(&id) {
                return Some(wire::error(
                    Some(&id),
                    &ErrorObject::invalid_request("a request with this id is already in flight"),
                ));
            }
            flights.insert(
                id.clone(),
                Flight {
                    abort: None,
                    cancel: cancel.clone(),
                    seq,
                },
            );
        }
        let _unregister = Unregister {
            conn: self,
            id: &id,
            seq,
        };
        tokio::select! {
            reply = self.run_handler(method, id.clone(), params, scope, cancel.clone()) => reply,
            () = cancel.cancelled() => None,
        }
    }

    fn handle_notification(&self, method: &str, params: Option<&RawValue>) {
        if method == "notifications/cancelled" {
            let Ok(p) = parse_params::<CancelParams>(params) else {
                return;
            };
            let Some(id) = p.request_id else { return };
            let flight = self
                .in_flight
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(&id);
            if let Some(f) = flight {
                tracing::debug!(%id, "request cancelled by the client");
                f.cancel.cancel();
                if let Some(abort) = f.abort {
                    abort.abort();
                }
            }
        }
        // `notifications/initialized`, `notifications/roots/list_changed` and unknown
        // notifications need no action; notifications are never answered.
    }

    /// Picks the era and revision of a request.
    fn resolve(
        &self,
        method: &str,
        params: Option<&RawValue>,
        pre: Option<RequestMeta>,
        sink: &Sink,
    ) -> Result<Scope, ErrorObject> {
        let stateless_initialize =
            method == "initialize" && pre.as_ref().is_some_and(|m| m.protocol_version.is_some());
        if method == "initialize" && !stateless_initialize {
            return Ok(Scope {
                version: ProtocolVersion::LATEST_HANDSHAKE,
                client_info: None,
                client_caps: None,
                log_gate: LogGate::Session(Arc::clone(&self.log_level)),
                progress_token: None,
                meta: None,
                peer: sink.clone(),
            });
        }
        let mut meta = match pre {
            Some(meta) => meta,
            // Most handshake-era requests carry no `_meta`: skip the parse when the text says so.
            None if !params.is_some_and(|p| p.get().contains("\"_meta\"")) => {
                RequestMeta::default()
            }
            None => RequestMeta::from_params(params).map_err(|e| {
                ErrorObject::invalid_params(format!("invalid `_meta`: {}", strip_pos(&e)))
            })?,
        };
        if let Some(requested) = meta.protocol_version.take() {
            return self.resolve_stateless(method, &requested, meta, sink);
        }
        if let Some(session) = self.session() {
            if STATELESS_ONLY.contains(&method) {
                return Err(missing_meta(mcp_core::meta::PROTOCOL_VERSION_KEY));
            }
            return Ok(Scope {
                version: session.version,
                client_info: Some(Arc::clone(&session.client_info)),
                client_caps: Some(Arc::clone(&session.client_caps)),
                log_gate: LogGate::Session(Arc::clone(&self.log_level)),
                progress_token: meta.progress_token.clone(),
                meta: meta_map(&meta),
                peer: sink.clone(),
            });
        }
        if method == "ping" {
            return Ok(Scope {
                version: ProtocolVersion::LATEST_HANDSHAKE,
                client_info: None,
                client_caps: None,
                log_gate: LogGate::Request(None),
                progress_token: None,
                meta: None,
                peer: sink.clone(),
            });
        }
        Err(ErrorObject::invalid_params(format!(
            "missing `_meta[\"{}\"]`: stateless (2026-07-28) requests must carry it; handshake clients must send `initialize` first",
            mcp_core::meta::PROTOCOL_VERSION_KEY
        )))
    }

    fn resolve_stateless(
        &self,
        method: &str,
        requested: &str,
        meta: RequestMeta,
        sink: &Sink,
    ) -> Result<Scope, ErrorObject> {
        let supported = [ProtocolVersion::V2026_07_28.as_str()];
        let version = match ProtocolVersion::parse(requested) {
            Some(v) if v.is_stateless() => v,
            _ => {
                return Err(ErrorObject::new(
                    error_codes::UNSUPPORTED_PROTOCOL_VERSION,
                    format!("unsupported protocol version {requested:?}; this server speaks 2026-07-28 statelessly and 2024-11-05 to 2025-11-25 through `initialize`"),
                )
                .with_data(serde_json::json!({ "supported": supported, "requested": requested })));
            }
        };
        if meta.client_capabilities.is_none() {
            return Err(missing_meta(mcp_core::meta::CLIENT_CAPABILITIES_KEY));
        }
        if HANDSHAKE_ONLY.contains(&method) {
            return Err(ErrorObject::method_not_found(method));
        }
        // The handler sees `_meta` as sent, version included; the typed fields move into the scope.
        let mut map = meta_map(&meta);
        if let Some(m) = &mut map {
            m.insert(
                mcp_core::meta::PROTOCOL_VERSION_KEY.to_owned(),
                serde_json::Value::String(requested.to_owned()),
            );
        }
        Ok(Scope {
            version,
            client_info: meta.client_info.map(Arc::new),
            client_caps: meta.client_capabilities.map(Arc::new),
            log_gate: LogGate::Request(meta.log_level),
            progress_token: meta.progress_token,
            meta: map,
            peer: sink.clone(),
        })
    }

    /// Methods answered in order, without a task.
    fn handle_inline(
        self: &Arc<Self>,
        method: &str,
        id: &RequestId,
        params: Option<&RawValue>,
        scope: Scope,
    ) -> Vec<u8> {
        let inner = &self.server.inner;
        let v = scope.version;
        let live = inner.live();
        let caps = &live.capabilities;
        let list = |kind: ListKind, enabled: bool| -> Vec<u8> {
            if !enabled {
                return wire::error(Some(id), &ErrorObject::method_not_found(method));
            }
            let cursor = match parse_params::<CursorParams<'_>>(params) {
                Ok(p) => p.cursor,
                Err(e) => return wire::error(Some(id), &e),
            };
            match live.catalog.page(v, kind, cursor.as_deref()) {
                Some(page) => wire::response_raw(id, page),
                None => wire::error(Some(id), &ErrorObject::invalid_params("invalid cursor")),
            }
        };
        match method {
            "initialize" => self.initialize(id, params),
            "ping" => wire::response_raw(id, "{}"),
            "server/discover" => {
                let mut r = DiscoverResult::new(
                    vec![ProtocolVersion::V2026_07_28.as_str().to_owned()],
                    caps.clone(),
                )
                .with_cache(inner.options.ttl_ms, mcp_core::CacheScope::Public);
                r.instructions.clone_from(&inner.instructions);
                r.meta = Some(inner.server_info_meta.clone());
                r.for_version(v);
                wire::response(id, &r)
            }
            "tools/list" => list(ListKind::Tools, caps.tools.is_some()),
            "resources/list" => list(ListKind::Resources, caps.resources.is_some()),
            "resources/templates/list" => list(ListKind::Templates, caps.resources.is_some()),
            "prompts/list" => list(ListKind::Prompts, caps.prompts.is_some()),
            "logging/setLevel" => match parse_params::<mcp_core::SetLevelRequestParams>(params) {
                Ok(p) => {
                    self.log_level.store(severity(p.level), Ordering::Relaxed);
                    wire::response(id, &EmptyResult::new().into_version(v))
                }
                Err(e) => wire::error(Some(id), &e),
            },
            "resources/subscribe" | "resources/unsubscribe" if caps.resources.is_some() => {
                match parse_params::<UriParams<'_>>(params) {
                    Ok(p) if method == "resources/subscribe" => {
                        if !self.subscriptions.add(&p.uri) {
                            return wire::error(
                                Some(id),
                                &ErrorObject::invalid_params(
                                    "too many resource subscriptions on this session",
                                ),
                            );
                        }
                        wire::response(id, &EmptyResult::new().into_version(v))
                    }
                    Ok(p) => {
                        self.subscriptions.remove(&p.uri);
                        wire::response(id, &EmptyResult::new().into_version(v))
                    }
                    Err(e) => wire::error(Some(id), &e),
                }
            }
            _ => wire::error(Some(id), &ErrorObject::method_not_found(method)),
        }
    }

    fn initialize(self: &Arc<Self>, id: &RequestId, params: Option<&RawValue>) -> Vec<u8> {
        let p = match parse_params::<mcp_core::InitializeRequestParams>(params) {
            Ok(p) => p,
            Err(e) => return wire::error(Some(id), &e),
        };
        // Echo a supported handshake revision; otherwise answer the newest one (never an error).
        let version = ProtocolVersion::parse(&p.protocol_version)
            .filter(|v| !v.is_stateless())
            .unwrap_or(ProtocolVersion::LATEST_HANDSHAKE);
        let inner = &self.server.inner;
        let mut result = InitializeResult::new(
            version,
            inner.live().capabilities.clone(),
            inner.info.clone(),
        );
        result.instructions.clone_from(&inner.instructions);
        result.for_version(version);
        tracing::info!(client = %p.client_info.name, version = %version, "session initialized");
        *self.session.lock().unwrap_or_else(|e| e.into_inner()) = Some(Arc::new(Session {
            version,
            client_info: Arc::new(p.client_info),
            client_caps: Arc::new(p.capabilities),
        }));
        let mut key = self.hub_key.lock().unwrap_or_else(|e| e.into_inner());
        if key.is_none() {
            let k = inner.hub.key();
            inner.hub.add_connection(k, Arc::downgrade(self));
            *key = Some(k);
        }
        wire::response(id, &result)
    }

    async fn spawn_handler(
        self: &Arc<Self>,
        method: Method,
        id: RequestId,
        params: Option<Box<RawValue>>,
        scope: Scope,
    ) -> Option<Vec<u8>> {
        let Ok(admission) = Arc::clone(&self.admitted).acquire_owned().await else {
            return Some(wire::error(
                Some(&id),
                &ErrorObject::internal("connection closing"),
            ));
        };
        if self
            .in_flight
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains_key(&id)
        {
            return Some(wire::error(
                Some(&id),
                &ErrorObject::invalid_request("a request with this id is already in flight"),
            ));
        }
        let cancel = CancellationToken::new();
        let peer = scope.peer.clone();
        let slot = Arc::clone(&self.slots).try_acquire_owned().ok();
        let slots = Arc::clone(&self.slots);
        let conn = Arc::clone(self);
        let (task_id, task_cancel) = (id.clone(), cancel.clone());
        let mut work: Pin<Box<dyn Future<Output = Option<Vec<u8>>> + Send>> =
            Box::pin(async move {
                let _slot = match slot {
                    Some(slot) => slot,
                    None => slots.acquire_owned().await.ok()?,
                };
                conn.run_handler(method, task_id, params, scope, task_cancel)
                    .await
            });
        // The first poll runs here: most handlers finish without waiting for anything, and then
        // no task, no hand-over to another thread and no table entry are needed. A handler that
        // waits (I/O, timers, the client, a busy slot) continues in a task of its own, so it never
        // holds up the messages behind it.
        if self.inline.load(Ordering::Relaxed) {
            let started = Instant::now();
            let first = std::future::poll_fn(|cx| Poll::Ready(work.as_mut().poll(cx))).await;
            let took = started.elapsed();
            if took > Duration::from_millis(50) && self.inline.swap(false, Ordering::Relaxed) {
                tracing::warn!(
                    method = method.name(),
                    blocked_ms = took.as_millis() as u64,
                    "a handler blocked its thread; this connection now runs every request in a task of its own"
                );
            }
            if let Poll::Ready(reply) = first {
                return reply;
            }
        }
        let seq = self.seq.fetch_add(1, Ordering::Relaxed);
        let flight = Flight {
            abort: None,
            cancel,
            seq,
        };
        self.in_flight
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id.clone(), flight);
        let conn = Arc::clone(self);
        let task_id = id.clone();
        let handle = tokio::spawn(async move {
            let _admission = admission;
            let reply = work.await;
            let finished = {
                let mut flights = conn.in_flight.lock().unwrap_or_else(|e| e.into_inner());
                match flights.get(&task_id) {
                    Some(f) if f.seq == seq => flights.remove(&task_id).is_some(),
                    _ => false,
                }
            };
            // Not in the table any more: cancelled meanwhile; the spec says send nothing.
            if let (true, Some(reply)) = (finished, reply) {
                conn.send(&peer, reply).await;
            }
        });
        let mut flights = self.in_flight.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(f) = flights.get_mut(&id).filter(|f| f.seq == seq) {
            f.abort = Some(handle.abort_handle());
        }
        None
    }

    /// Runs one handler method to its reply.
    async fn run_handler(
        self: &Arc<Self>,
        method: Method,
        id: RequestId,
        params: Option<Box<RawValue>>,
        scope: Scope,
        cancel: CancellationToken,
    ) -> Option<Vec<u8>> {
        let started = tracing::enabled!(tracing::Level::DEBUG).then(Instant::now);
        let span = tracing::info_span!(
            "mcp.request",
            method = method.name(),
            id = %id,
            item = tracing::field::Empty,
            outcome = tracing::field::Empty,
        );
        let reply = async {
            let params = params.as_deref();
            let result = match method {
                Method::CallTool => self.call_tool(&id, params, scope, cancel).await,
                Method::ReadResource => self.read_resource(&id, params, scope, cancel).await,
                Method::GetPrompt => self.get_prompt(&id, params, scope, cancel).await,
                Method::Complete => self.complete(&id, params, scope),
                Method::Listen => self.listen(&id, params, scope).await,
            };
            match result {
                Ok(bytes) => {
                    tracing::Span::current().record("outcome", "ok");
                    bytes
                }
                Err(err) => {
                    tracing::Span::current().record("outcome", err.code);
                    wire::error(Some(&id), &err)
                }
            }
        }
        .instrument(span.clone())
        .await;
        if let Some(started) = started {
            span.in_scope(|| {
                tracing::debug!(
                    elapsed_us = started.elapsed().as_micros() as u64,
                    "request done"
                )
            });
        }
        Some(reply)
    }

    fn context(
        &self,
        id: &RequestId,
        scope: Scope,
        cancel: CancellationToken,
        interact: Interact,
    ) -> Context {
        Context {
            inner: Arc::new(ContextInner {
                request_id: Some(id.clone()),
                version: scope.version,
                progress_token: scope.progress_token,
                meta: scope.meta,
                client_info: scope.client_info,
                client_capabilities: scope.client_caps,
                log_gate: scope.log_gate,
                peer: Some(scope.peer),
                state: Arc::clone(&self.server.inner.state),
                cancel,
                last_progress: Mutex::new(None),
                interact,
                fault: Mutex::new(None),
                server: self.server.clone(),
            }),
        }
    }

    /// The round of a stateless-era request that may answer `input_required`, or the peer of a
    /// handshake-era one.
    fn interaction(
        &self,
        method: Method,
        params: Option<&RawValue>,
        v: ProtocolVersion,
    ) -> Result<Interact, ErrorObject> {
        if v.is_stateless() {
            let round = Round::from_request(&self.server.inner.state_key, method.name(), params)?;
            Ok(Interact::Rounds(Arc::new(round)))
        } else {
            Ok(Interact::Peer(Arc::clone(&self.pending)))
        }
    }

    /// Runs a handler future under its round and timeout.
    async fn drive<T>(
        &self,
        interact: &Interact,
        timeout_ms: Option<u64>,
        fut: BoxFuture<Result<T, HandlerError>>,
    ) -> Driven<T> {
        let round = match interact {
            Interact::Rounds(r) => Some(&**r),
            _ => None,
        };
        let run = UntilInput::new(CatchUnwind(fut), round);
        let outcome = match timeout_ms {
            Some(ms) => match tokio::time::timeout(Duration::from_millis(ms), run).await {
                Ok(o) => o,
                Err(_) => return Driven::TimedOut(ms),
            },
            None => run.await,
        };
        match outcome {
            Outcome::NeedsInput => Driven::NeedsInput,
            Outcome::Done(Ok(r)) => Driven::Done(r),
            Outcome::Done(Err(panic)) => Driven::Done(Err(HandlerError::internal(panic))),
        }
    }

    /// The `input_required` result of a round: its requests, and its answers sealed.
    fn input_required(
        &self,
        id: &RequestId,
        method: Method,
        params: Option<&RawValue>,
        interact: &Interact,
    ) -> Vec<u8> {
        let Interact::Rounds(round) = interact else {
            return wire::error(
                Some(id),
                &ErrorObject::internal("input required outside a round"),
            );
        };
        let inner = &self.server.inner;
        let (missing, used) = round.finish();
        let mut result = InputRequiredResult::new().with_meta(inner.server_info_meta.clone());
        result.input_requests = Some(missing);
        // Always sealed, even with no answers yet: it binds method, params and expiry.
        let digest = crate::mrtr::params_digest(params);
        result.request_state = Some(crate::mrtr::seal(
            &inner.state_key,
            method.name(),
            &digest,
            used,
            inner.options.request_state_ttl,
        ));
        wire::response(id, &result)
    }

    async fn call_tool(
        &self,
        id: &RequestId,
        params: Option<&RawValue>,
        scope: Scope,
        cancel: CancellationToken,
    ) -> Result<Vec<u8>, ErrorObject> {
        let inner = &self.server.inner;
        let live = inner.live();
        if live.capabilities.tools.is_none() {
            return Err(ErrorObject::method_not_found("tools/call"));
        }
        let p: NameParams<'_> = parse_params(params)?;
        let Some(&index) = live.catalog.tool_index.get(p.name.as_ref()) else {
            return Err(ErrorObject::invalid_params(format!(
                "unknown tool '{}'",
                p.name
            )));
        };
        tracing::Span::current().record("item", p.name.as_ref());
        let entry = &live.catalog.tools[index];
        let v = scope.version;
        let interact = self.interaction(Method::CallTool, params, v)?;
        let ctx = self.context(id, scope, cancel, interact.clone());
        let _permit = match &entry.limit {
            Some(sem) => sem.acquire().await.ok(),
            None => None,
        };
        let fut = (entry.record.call)(ctx.clone(), p.arguments.map(RawValue::to_owned));
        let outcome = match self.drive(&interact, entry.record.timeout_ms, fut).await {
            Driven::NeedsInput => {
                return Ok(self.input_required(id, Method::CallTool, params, &interact));
            }
            Driven::TimedOut(ms) => Err(HandlerError::Tool(crate::ToolError::new(format!(
                "tool '{}' timed out after {ms} ms",
                entry.record.name
            )))),
            Driven::Done(r) => r,
        };
        // A failure after an interaction the client could not serve is that protocol error.
        let failed = outcome.as_ref().map_or(true, |r| r.is_error == Some(true));
        if let Some(fault) = ctx.take_fault().filter(|_| failed) {
            return Err(fault);
        }
        let mut result = match outcome {
            Ok(r) => r,
            Err(HandlerError::InvalidArguments(msg)) => {
                let as_result = match inner.options.validation {
                    ValidationErrors::ToolResult => true,
                    ValidationErrors::ProtocolError => false,
                    _ => v >= ProtocolVersion::V2025_11_25,
                };
                let text = format!("invalid arguments for tool '{}': {msg}", entry.record.name);
                if !as_result {
                    return Err(ErrorObject::invalid_params(text));
                }
                CallToolResult::error_text(text)
            }
            Err(HandlerError::Tool(err)) => CallToolResult::error_text(err.message()),
            Err(HandlerError::Protocol(err)) => return Err(err),
            Err(HandlerError::ResourceNotFound) => CallToolResult::error_text("resource not found"),
            Err(HandlerError::Internal(err)) => {
                let cid = correlation_id();
                tracing::error!(tool = entry.record.name, correlation_id = %cid, error = %err, "tool failed");
                CallToolResult::error_text(format!("internal error, id {cid}"))
            }
        };
        result.for_version(v);
        self.stamp(&mut result.result_type, &mut result.meta, v);
        Ok(wire::response(id, &result))
    }

    /// Adds the stateless era's `resultType` and `serverInfo`.
    fn stamp(
        &self,
        result_type: &mut Option<ResultType>,
        meta: &mut Option<Meta>,
        v: ProtocolVersion,
    ) {
        if v.has_result_type() {
            *result_type = Some(ResultType::Complete);
            let m = meta.get_or_insert_with(Meta::new);
            for (k, val) in &self.server.inner.server_info_meta {
                m.entry(k.clone()).or_insert_with(|| val.clone());
            }
        }
    }

    fn handler_error(
        &self,
        what: &str,
        err: HandlerError,
        uri: Option<&str>,
        v: ProtocolVersion,
    ) -> ErrorObject {
        match err {
            HandlerError::InvalidArguments(msg) => ErrorObject::invalid_params(msg),
            HandlerError::Tool(err) => ErrorObject::invalid_params(err.message()),
            HandlerError::Protocol(err) => err,
            HandlerError::ResourceNotFound => not_found(uri.unwrap_or_default(), v),
            HandlerError::Internal(err) => {
                let cid = correlation_id();
                tracing::error!(item = what, correlation_id = %cid, error = %err, "handler failed");
                ErrorObject::internal(format!("internal error, id {cid}"))
            }
        }
    }

    async fn read_resource(
        &self,
        id: &RequestId,
        params: Option<&RawValue>,
        scope: Scope,
        cancel: CancellationToken,
    ) -> Result<Vec<u8>, ErrorObject> {
        let live = self.server.inner.live();
        if live.capabilities.resources.is_none() {
            return Err(ErrorObject::method_not_found("resources/read"));
        }
        let p: UriParams<'_> = parse_params(params)?;
        let v = scope.version;
        let Some((record, request, _limit)) = live.catalog.find_resource(&p.uri) else {
            return Err(not_found(&p.uri, v));
        };
        tracing::Span::current().record("item", record.name);
        let interact = self.interaction(Method::ReadResource, params, v)?;
        let ctx = self.context(id, scope, cancel, interact.clone());
        let contents = match self
            .drive(&interact, None, (record.read)(ctx.clone(), request))
            .await
        {
            Driven::NeedsInput => {
                return Ok(self.input_required(id, Method::ReadResource, params, &interact));
            }
            Driven::Done(Ok(c)) if c.is_empty() => return Err(not_found(&p.uri, v)),
            Driven::Done(Ok(c)) => c,
            Driven::Done(Err(err)) => {
                return Err(ctx
                    .take_fault()
                    .unwrap_or_else(|| self.handler_error(record.name, err, Some(&p.uri), v)));
            }
            Driven::TimedOut(_) => return Err(ErrorObject::internal("timed out")),
        };
        let mut result = ReadResourceResult::new(contents);
        result.for_version(v);
        if v.has_cache_hints() {
            result.ttl_ms = Some(0);
            result.cache_scope = Some(mcp_core::CacheScope::Private);
        }
        self.stamp(&mut result.result_type, &mut result.meta, v);
        Ok(wire::response(id, &result))
    }

    async fn get_prompt(
        &self,
        id: &RequestId,
        params: Option<&RawValue>,
        scope: Scope,
        cancel: CancellationToken,
    ) -> Result<Vec<u8>, ErrorObject> {
        let live = self.server.inner.live();
        if live.capabilities.prompts.is_none() {
            return Err(ErrorObject::method_not_found("prompts/get"));
        }
        let p: PromptParams<'_> = parse_params(params)?;
        let Some(&index) = live.catalog.prompt_index.get(p.name.as_ref()) else {
            return Err(ErrorObject::invalid_params(format!(
                "unknown prompt '{}'",
                p.name
            )));
        };
        tracing::Span::current().record("item", p.name.as_ref());
        let record = &live.catalog.prompts[index].record;
        let mut args = PromptArguments::default();
        for (k, val) in p.arguments.unwrap_or_default() {
            let text = match val {
                serde_json::Value::String(s) => s,
                serde_json::Value::Null => continue,
                other => other.to_string(),
            };
            args.0.insert(k, text);
        }
        let v = scope.version;
        let interact = self.interaction(Method::GetPrompt, params, v)?;
        let ctx = self.context(id, scope, cancel, interact.clone());
        let mut result = match self
            .drive(&interact, None, (record.get)(ctx.clone(), args))
            .await
        {
            Driven::NeedsInput => {
                return Ok(self.input_required(id, Method::GetPrompt, params, &interact));
            }
            Driven::Done(Ok(r)) => r,
            Driven::Done(Err(err)) => {
                return Err(ctx
                    .take_fault()
                    .unwrap_or_else(|| self.handler_error(record.name, err, None, v)));
            }
            Driven::TimedOut(_) => return Err(ErrorObject::internal("timed out")),
        };
        if result.description.is_none() {
            result.description = record.description.map(str::to_owned);
        }
        result.for_version(v);
        self.stamp(&mut result.result_type, &mut result.meta, v);
        Ok(wire::response(id, &result))
    }

    fn complete(
        &self,
        id: &RequestId,
        params: Option<&RawValue>,
        scope: Scope,
    ) -> Result<Vec<u8>, ErrorObject> {
        let live = self.server.inner.live();
        if live.capabilities.completions.is_none() {
            return Err(ErrorObject::method_not_found("completion/complete"));
        }
        let catalog = &live.catalog;
        let p: mcp_core::CompleteRequestParams = parse_params(params)?;
        let hooks = match &p.r#ref {
            CompletionReference::Prompt { name, .. } => {
                match catalog.prompt_index.get(name.as_str()) {
                    Some(&i) => catalog.prompts[i].record.completions,
                    None => {
                        return Err(ErrorObject::invalid_params(format!(
                            "unknown prompt '{name}'"
                        )));
                    }
                }
            }
            CompletionReference::Resource { uri } => {
                match catalog.templates.iter().find(|t| t.record.uri == uri) {
                    Some(t) => t.record.completions,
                    None if catalog.resource_index.contains_key(uri.as_str()) => &[],
                    None => {
                        return Err(ErrorObject::invalid_params(format!(
                            "unknown resource template '{uri}'"
                        )));
                    }
                }
            }
            #[allow(unreachable_patterns)]
            _ => {
                return Err(ErrorObject::invalid_params(
                    "unsupported completion reference",
                ));
            }
        };
        let mut request = CompletionRequest::new(p.argument.name.clone(), p.argument.value.clone());
        if let Some(args) = p.context.and_then(|c| c.arguments) {
            request.context.extend(args);
        }
        let values = match hooks.iter().find(|h| h.argument == p.argument.name) {
            Some(hook) => match std::panic::catch_unwind(|| (hook.complete)(&request)) {
                Ok(values) => values,
                Err(_) => {
                    return Err(self.handler_error(
                        "completion",
                        HandlerError::internal("completion hook panicked"),
                        None,
                        scope.version,
                    ));
                }
            },
            None => Vec::new(),
        };
        let mut result = CompleteResult::new(values);
        result.for_version(scope.version);
        self.stamp(&mut result.result_type, &mut result.meta, scope.version);
        Ok(wire::response(id, &result))
    }

    /// `subscriptions/listen`: acknowledges, then streams the requested notifications until the
    /// client closes the stream (HTTP), cancels the request (stdio) or the connection closes.
    async fn listen(
        &self,
        id: &RequestId,
        params: Option<&RawValue>,
        scope: Scope,
    ) -> Result<Vec<u8>, ErrorObject> {
        let p: SubscriptionsListenRequestParams = parse_params(params)?;
        let live = self.server.inner.live();
        let caps = &live.capabilities;
        let asked = p.notifications;
        let mut honoured = SubscriptionFilter::new();
        if asked.tools_list_changed == Some(true) && caps.tools.is_some() {
            honoured.tools_list_changed = Some(true);
        }
        if asked.prompts_list_changed == Some(true) && caps.prompts.is_some() {
            honoured.prompts_list_changed = Some(true);
        }
        if caps.resources.is_some() {
            if asked.resources_list_changed == Some(true) {
                honoured.resources_list_changed = Some(true);
            }
            if let Some(mut uris) = asked.resource_subscriptions {
                uris.truncate(1024);
                honoured.resource_subscriptions = Some(uris);
            }
        }
        drop(live);
        let mut meta = Meta::new();
        meta.insert(
            mcp_core::meta::SUBSCRIPTION_ID_KEY.to_owned(),
            serde_json::to_value(id).unwrap_or_default(),
        );
        let ack = SubscriptionsAcknowledgedNotificationParams::new(honoured.clone())
            .with_meta(meta.clone());
        self.send(
            &scope.peer,
            wire::notification("notifications/subscriptions/acknowledged", &ack),
        )
        .await;
        let Some(_listener) = self
            .server
            .inner
            .hub
            .add_listener(honoured, id, scope.peer.clone())
        else {
            return Err(ErrorObject::internal("too many open subscriptions"));
        };
        tokio::select! {
            () = scope.peer.closed() => {}
            () = self.closing.cancelled() => {}
        }
        Ok(wire::response(
            id,
            &serde_json::json!({ "resultType": "complete", "_meta": meta }),
        ))
    }

    /// The connection's outbound queue (server-initiated messages).
    #[cfg(feature = "http")]
    pub(crate) fn out(&self) -> Sink {
        self.out.clone()
    }

    /// Cancels everything running on the connection at once (HTTP session ended).
    #[cfg(feature = "http")]
    pub(crate) fn drain_now(&self) {
        self.closing.cancel();
        self.abort_all();
    }

    /// Waits for handlers still running (up to the drain timeout), then aborts the rest.
    pub(crate) async fn drain(&self) {
        self.closing.cancel();
        let deadline = Instant::now() + self.server.inner.options.drain_timeout;
        loop {
            let empty = self
                .in_flight
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .is_empty();
            if empty || Instant::now() >= deadline {
                break;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        self.abort_all();
    }

    /// Cancels and aborts every request still running, and forgets requests sent to the client.
    fn abort_all(&self) {
        let flights: Vec<Flight> = self
            .in_flight
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .drain()
            .map(|(_, f)| f)
            .collect();
        for f in flights {
            f.cancel.cancel();
            if let Some(abort) = f.abort {
                abort.abort();
            }
        }
        self.pending.clear();
    }
}

#[derive(Debug, Clone, Copy)]
enum Method {
    CallTool,
    ReadResource,
    GetPrompt,
    Complete,
    Listen,
}

/// How a handler run ended.
enum Driven<T> {
    Done(Result<T, HandlerError>),
    NeedsInput,
    TimedOut(u64),
}

/// Removes a request run in place from the in-flight table when it ends.
struct Unregister<'a> {
    conn: &'a Connection,
    id: &'a RequestId,
    seq: u64,
}

impl Drop for Unregister<'_> {
    fn drop(&mut self) {
        let mut flights = self
            .conn
            .in_flight
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if flights.get(self.id).is_some_and(|f| f.seq == self.seq) {
            flights.remove(self.id);
        }
    }
}

impl Method {
    fn name(self) -> &'static str {
        match self {
            Method::CallTool => "tools/call",
            Method::ReadResource => "resources/read",
            Method::GetPrompt => "prompts/get",
            Method::Complete => "completion/complete",
            Method::Listen => "subscriptions/listen",
        }
    }
}

fn strip_pos(e: &serde_json::Error) -> String {
    let msg = e.to_string();
    msg.rfind(" at line ")
        .map_or(msg.clone(), |i| msg[..i].to_owned())
}

fn missing_meta(key: &str) -> ErrorObject {
    ErrorObject::invalid_params(format!("missing required `_meta[\"{key}\"]`"))
}

fn meta_map(meta: &RequestMeta) -> Option<Meta> {
    // The common case, no `_meta` at all, costs no serialisation.
    if *meta == RequestMeta::default() {
        return None;
    }
    match serde_json::to_value(meta) {
        Ok(serde_json::Value::Object(m)) if !m.is_empty() => Some(m),
        _ => None,
    }
}

/// The revision's "resource not found".
fn not_found(uri: &str, v: ProtocolVersion) -> ErrorObject {
    let data = serde_json::json!({ "uri": uri });
    if v.is_stateless() {
        ErrorObject::invalid_params(format!("resource not found: {uri}")).with_data(data)
    } else {
        ErrorObject::new(
            error_codes::RESOURCE_NOT_FOUND,
            format!("resource not found: {uri}"),
        )
        .with_data(data)
    }
}

fn envelope_error(err: &EnvelopeError) -> Vec<u8> {
    wire::error(err.id(), &err.to_error_object())
}
