//! One client connection: reads messages, routes each once, answers cheap methods in order and
//! runs handler methods concurrently, within bounds.
//!
//! Handler methods (`tools/call`, `resources/read`, `prompts/get`, `completion/complete`,
//! `subscriptions/listen`) get their first poll in place and, if they wait, a task of their own
//! on stream transports, so a slow tool never blocks `ping`, cancellation or other calls; on HTTP
//! each POST runs its handler in the task serving that POST (one per HTTP connection, or one of
//! its own once it answers with a stream), and closing the response stream drops it
//! ([`Connection::dispatch`]). Responses from the client (to elicitation, sampling and roots
//! requests) are routed to the handler waiting for them.

mod blocking;
mod close;
pub(crate) mod erased;
mod flights;
mod inline;
mod layered;
#[cfg(feature = "http")]
mod replica;
mod spanned;
#[cfg(feature = "http")]
mod spare;

use std::pin::Pin;
use std::sync::{Arc, Mutex, Weak};
use std::task::Poll;
use std::time::Instant;

use mcp_core::jsonrpc::{EnvelopeError, Message, Parsed};
use mcp_core::{ErrorObject, RequestId, RequestMeta};
use serde_json::value::RawValue;

use crate::dispatch::call::{MethodCall, parse_params};
use crate::dispatch::link::LinkState;
use crate::dispatch::methods;
use crate::dispatch::reply::{Answer, Reply, duplicate, invalid_utf8, oversized};
use crate::dispatch::route::{Route, runs_handler};
use crate::dispatch::scope::{RequestHeaders, Resolver, Retry, Scoping, mentions_meta};
use crate::future::BoxFuture;
use crate::handler::context::Cancellation;
use crate::middleware::TransportKind;
use crate::notify::Member;
use crate::outbound::{Outbound, Sink};
use crate::server::ServerInner;
use crate::sync::lock;
use blocking::{Blocking, Watched};
use flights::{Flights, Leave};
use spanned::Spanned;

/// One client connection.
pub(crate) struct Connection {
    server: Arc<ServerInner>,
    out: Sink,
    link: LinkState,
    flights: Flights,
    raw_log: bool,
    /// Whether handlers get their first poll on the connection's task (see
    /// `ServerBuilder::inline_first_poll`), from how long those polls take.
    blocking: Arc<Blocking>,
    /// Key in the server's notification hub, once registered.
    hub_key: Mutex<Option<u64>>,
    /// Where the hub's notifications wait for the layers, when the server has some (see
    /// `layered.rs`).
    notices: std::sync::OnceLock<tokio::sync::mpsc::Sender<Vec<u8>>>,
    /// What the messages come over (the layers see it).
    transport: TransportKind,
    /// When the connection began, if the server keeps metrics (its session's duration).
    started: Option<Instant>,
}

impl Drop for Connection {
    fn drop(&mut self) {
        if let Some(key) = *lock(&self.hub_key) {
            self.server.hub.remove_connection(key);
            // A session that `initialize` opened here (not a stateless request's) ends.
            let metrics = self.server.options.metrics.get();
            if let (Some(m), Some(at), Some(s)) = (metrics, self.started, self.link.session()) {
                m.session_ended(at.elapsed(), s.version, self.transport);
            }
        }
        self.link.pending.close();
    }
}

impl Member for Connection {
    fn notify(&self, message: Vec<u8>) {
        // (Logged once, where the hub built it: `wire::notification`.)
        if self.link.session().is_some() {
            let _ = match self.notices.get() {
                Some(layered) => layered.try_send(message).is_ok(),
                None => self.out.try_send(Outbound::Message(message)).is_ok(),
            };
        }
    }

    fn is_subscribed(&self, uri: &str) -> bool {
        self.link.subscriptions.contains(uri)
    }
    fn log_level(&self) -> Option<u8> {
        self.link.set_level()
    }
}

pub(crate) use crate::outbound::raw_log_enabled;

#[derive(serde::Deserialize)]
struct CancelParams {
    #[serde(rename = "requestId", default)]
    request_id: Option<RequestId>,
}

/// A handler's reply on its way: `None` when the request was cancelled.
type Work = BoxFuture<'static, Option<Reply>>;

impl Connection {
    /// Records the session id the transport handed out (once; later calls are ignored).
    #[cfg(feature = "http")]
    pub(crate) fn set_session_id(&self, id: Arc<str>) {
        let _ = self.link.session_id.set(id);
    }

    /// The session id, when the transport has one.
    pub(crate) fn session_id(&self) -> Option<&str> {
        self.link.session_id.get().map(|id| &**id)
    }

    /// A connection whose server-initiated messages go to `out`.
    pub(crate) fn new(server: Arc<ServerInner>, out: Sink, transport: TransportKind) -> Arc<Self> {
        Self::with_raw_log(server, out, raw_log_enabled(), transport)
    }

    /// [`new`](Self::new), with the raw message log on or off as the caller read it once (a
    /// stateless HTTP request has a connection of its own: the environment is not read again
    /// for each).
    pub(crate) fn with_raw_log(
        server: Arc<ServerInner>,
        out: Sink,
        raw_log: bool,
        transport: TransportKind,
    ) -> Arc<Self> {
        let options = &server.options;
        let link = LinkState::new(
            options.max_client_requests,
            Arc::clone(&server.client_requests),
            options.client_request_timeout,
        )
        .with_out(out.clone())
        .with_node(options.node.clone())
        .with_transport(transport);
        let flights = Flights::new(options.max_in_flight);
        let blocking = Arc::new(Blocking::new(options.inline_first_poll));
        let started = options.metrics.get().map(|_| Instant::now());
        Arc::new(Self {
            server,
            out,
            link,
            flights,
            raw_log,
            blocking,
            hub_key: Mutex::new(None),
            notices: std::sync::OnceLock::new(),
            transport,
            started,
        })
    }

    /// A connection whose handshake happened elsewhere (HTTP without sessions).
    #[cfg(feature = "http")]
    pub(crate) fn with_session(
        server: Arc<ServerInner>,
        out: Sink,
        version: mcp_core::ProtocolVersion,
    ) -> Arc<Self> {
        let conn = Self::new(server, out, TransportKind::StreamableHttp);
        conn.link
            .open(crate::dispatch::scope::Negotiated::assumed(version));
        conn
    }

    /// The protocol revision of the connection's session, if it has one.
    #[cfg(feature = "http")]
    pub(crate) fn session_version(&self) -> Option<mcp_core::ProtocolVersion> {
        self.link.session().map(|s| s.version)
    }

    /// The connection's outbound queue (server-initiated messages).
    #[cfg(feature = "http")]
    pub(crate) fn out(&self) -> Sink {
        self.out.clone()
    }

    async fn send(&self, sink: &Sink, msg: Vec<u8>) {
        if self.raw_log {
            crate::outbound::log_out(&msg);
        }
        let _ = sink.send(Outbound::Message(msg)).await;
    }

    /// Handles one inbound message (one JSON text); replies go to the connection's outbound queue.
    pub(crate) async fn handle_text(self: &Arc<Self>, text: &str) {
        let out = self.out.clone();
        if let Some(answer) = self.receive(text, &out).await {
            self.send(&out, answer.into_bytes()).await;
        }
    }

    /// Handles one inbound message like [`handle_text`](Self::handle_text), but appends what
    /// answers it now to `buf` (newline-terminated) instead of queueing it: a stream transport
    /// collects the answers of every message it read at once and writes them in one piece.
    /// Notifications and replies that come later still go to the outbound queue.
    pub(crate) async fn answer_into(self: &Arc<Self>, text: &str, buf: &mut Vec<u8>) {
        let out = self.out.clone();
        if let Some(answer) = self.receive(text, &out).await {
            self.append(buf, &answer.into_bytes());
        }
    }

    /// Appends one message to `buf` (newline-terminated), logging it if asked.
    pub(crate) fn append(&self, buf: &mut Vec<u8>, msg: &[u8]) {
        if self.raw_log {
            crate::outbound::log_out(msg);
        }
        buf.extend_from_slice(msg);
        buf.push(b'\n');
    }

    /// Handles one inbound message and returns what answers it now, if anything; the
    /// notifications of the requests it carries, and replies that come later, go to `sink`.
    pub(crate) async fn receive(self: &Arc<Self>, text: &str, sink: &Sink) -> Option<Answer> {
        if self.raw_log {
            crate::outbound::log_in(text);
        }
        match mcp_core::jsonrpc::parse_batch_or_message(text) {
            Ok(Parsed::Single(msg)) => self
                .route(msg, None, Retry::Unknown, None, false, sink)
                .await
                .map(Answer::One),
            Ok(Parsed::Batch(items)) => self.batch(items, sink).await,
            Err(err) => Some(Answer::One(Reply::envelope(&err))),
        }
    }

    /// Reports a message that is not UTF-8: -32700 with a `null` id (its id cannot be trusted:
    /// any id read from it would be a guess).
    pub(crate) async fn reject_invalid_utf8(&self, offset: usize) {
        self.send(&self.out, invalid_utf8(offset).into_bytes())
            .await;
    }

    /// Reports a message that was too large to read.
    pub(crate) async fn reject_oversized(&self, limit: usize) {
        self.send(&self.out, oversized(limit).into_bytes()).await;
    }

    /// [`reject_invalid_utf8`](Self::reject_invalid_utf8), appended to `buf` like
    /// [`answer_into`](Self::answer_into).
    pub(crate) fn invalid_utf8_into(&self, offset: usize, buf: &mut Vec<u8>) {
        self.append(buf, &invalid_utf8(offset).into_bytes());
    }

    /// [`reject_oversized`](Self::reject_oversized), appended to `buf` like
    /// [`answer_into`](Self::answer_into).
    pub(crate) fn oversized_into(&self, limit: usize, buf: &mut Vec<u8>) {
        self.append(buf, &oversized(limit).into_bytes());
    }

    async fn batch(
        self: &Arc<Self>,
        items: Vec<Result<Message<'_>, EnvelopeError>>,
        sink: &Sink,
    ) -> Option<Answer> {
        let allowed = self
            .link
            .session()
            .is_some_and(|s| s.version.allows_batches());
        if !allowed || items.is_empty() {
            let msg = if items.is_empty() {
                "empty batch"
            } else {
                "JSON-RPC batches are only accepted in protocol revision 2025-03-26"
            };
            return Some(Answer::One(Reply::error(
                None,
                ErrorObject::invalid_request(msg),
            )));
        }
        let mut replies = Vec::new();
        for item in items {
            let reply = match item {
                Ok(Message::Request(req))
                    if Route::client_request(&req.method) == Route::Initialize =>
                {
                    Some(Reply::error(
                        Some(req.id),
                        ErrorObject::invalid_request("`initialize` must not be part of a batch"),
                    ))
                }
                Ok(msg) => {
                    self.route(msg, None, Retry::Unknown, None, true, sink)
                        .await
                }
                Err(err) => Some(Reply::envelope(&err)),
            };
            replies.extend(reply);
        }
        (!replies.is_empty()).then_some(Answer::Batch(replies))
    }

    /// Handles one parsed message in the calling task (HTTP): handler methods run here, so
    /// dropping the future drops the handler. `meta` is the request's `_meta` when the caller
    /// already read it (and `retry` what it saw of a retry's members meanwhile); `headers` are
    /// the HTTP request's. Notifications and requests to the client go to `sink` meanwhile.
    #[cfg(feature = "http")]
    pub(crate) async fn dispatch(
        self: &Arc<Self>,
        msg: Message<'_>,
        meta: Option<Box<RequestMeta>>,
        retry: Retry,
        headers: RequestHeaders,
        sink: &Sink,
    ) -> Option<Reply> {
        let reply = self.route(msg, meta, retry, headers, true, sink).await;
        if self.raw_log
            && let Some(reply) = &reply
        {
            crate::outbound::log_out(&reply.to_bytes());
        }
        reply
    }

    /// Handles a parsed message; returns the reply to send now, if any. With `wait`, handler
    /// methods run to completion here (batches, HTTP); otherwise they may get their own task.
    async fn route(
        self: &Arc<Self>,
        msg: Message<'_>,
        meta: Option<Box<RequestMeta>>,
        retry: Retry,
        headers: RequestHeaders,
        wait: bool,
        sink: &Sink,
    ) -> Option<Reply> {
        let req = match msg {
            Message::Notification(n) => {
                let notice = Route::client_notification(&n.method);
                if self.server.options.layers.is_empty() {
                    self.notice(notice, n.params);
                } else {
                    self.notice_layered(notice, n.params).await;
                }
                return None;
            }
            Message::Response(r) => {
                self.link.pending.complete(r);
                return None;
            }
            Message::Request(req) => req,
        };
        let route = Route::client_request(&req.method);
        let id = req.id;
        let resolver = Resolver {
            session: self.link.session(),
            log_level: Arc::clone(&self.link.log_level),
            peer: sink.clone(),
            headers,
            #[cfg(feature = "auth")]
            caller: crate::caller::current(),
            retry,
        };
        // `tools/call` (a handler method) reads `_meta` in the same pass as its params, in its
        // method (see `dispatch::call::Open`); every other request's scope is resolved here.
        let layered = !self.server.options.layers.is_empty();
        let deferred = route == Route::CallTool && meta.is_none() && !layered;
        let scoping = if deferred && mentions_meta(req.params) {
            Scoping::Deferred(resolver)
        } else {
            // (Without `_meta` in its text, `tools/call` has none to read: one scan is enough.)
            let resolved = if deferred {
                resolver.resolve_read(route, None)
            } else {
                resolver.resolve(route, req.params, meta)
            };
            let scope = match resolved {
                Ok(scope) => scope,
                Err(err) => return Some(Reply::error(Some(id), err)),
            };
            if layered && !runs_handler(route) {
                return self
                    .answer_layered(route, id, req.params, &req.method, scope)
                    .await;
            }
            if route == Route::Unknown {
                let err = ErrorObject::method_not_found(&req.method);
                return Some(Reply::error(Some(id), err));
            }
            if !runs_handler(route) {
                let call = self.call(route, &id, req.params, scope, None);
                let outcome = methods::answer_now(&call);
                if route == Route::Initialize && outcome.is_ok() {
                    self.join_hub();
                }
                return Some(Reply::new(id, outcome));
            }
            Scoping::Resolved(scope)
        };
        let params = req.params.map(RawValue::to_owned);
        if wait {
            return self.run_here(route, id, params, scoping).await;
        }
        self.spawn(route, id, params, scoping).await
    }

    fn call<'a, S>(
        &'a self,
        route: Route,
        id: &'a RequestId,
        params: Option<&'a RawValue>,
        scope: S,
        cancel: Option<Cancellation>,
    ) -> MethodCall<'a, S> {
        MethodCall {
            server: &self.server,
            link: &self.link,
            route,
            id,
            params,
            scope,
            cancel,
        }
    }

    /// Registers the connection for server-initiated notifications (after `initialize`).
    fn join_hub(self: &Arc<Self>) {
        let mut key = lock(&self.hub_key);
        if key.is_none() {
            let hub = &self.server.hub;
            let k = hub.key();
            let member: Weak<dyn Member> = Arc::downgrade(self) as Weak<dyn Member>;
            if self.server.sends_through_layers() {
                self.start_notices();
            }
            hub.add_connection(k, member);
            *key = Some(k);
        }
    }

    /// A client's notification: `notifications/cancelled` stops its request;
    /// `notifications/initialized`, `notifications/roots/list_changed` and unknown notifications
    /// need no action (notifications are never answered).
    fn notice(&self, notice: Route, params: Option<&RawValue>) {
        if notice != Route::Cancelled {
            return;
        }
        let Ok(p) = parse_params::<CancelParams>(params) else {
            return;
        };
        if let Some(id) = p.request_id
            && self.flights.cancel(&id)
        {
            tracing::debug!(%id, "request cancelled by the client");
        }
    }

    /// Runs a handler method in the calling task, registered so that `notifications/cancelled`
    /// can stop it.
    async fn run_here(
        self: &Arc<Self>,
        route: Route,
        id: RequestId,
        params: Option<Box<RawValue>>,
        scope: Scoping,
    ) -> Option<Reply> {
        let cancel = Cancellation::new();
        let Some(seq) = self.flights.enter(&id, cancel.clone()) else {
            return Some(duplicate(id));
        };
        let flights = &self.flights;
        let _leave = Leave {
            flights,
            id: &id,
            seq,
        };
        tokio::select! {
            // The handler first: with layers, they see the cancellation it stopped at.
            biased;
            reply = self.run_handler(route, id.clone(), params, scope, cancel.clone()) => reply,
            () = cancel.cancelled() => None,
        }
    }

    /// Runs a handler method: its first poll here, and if it waits, a task of its own.
    async fn spawn(
        self: &Arc<Self>,
        route: Route,
        id: RequestId,
        params: Option<Box<RawValue>>,
        scope: Scoping,
    ) -> Option<Reply> {
        let Some(admission) = self.flights.admit().await else {
            return Some(Reply::error(
                Some(id),
                ErrorObject::internal("connection closing"),
            ));
        };
        if self.flights.contains(&id) {
            return Some(duplicate(id));
        }
        let cancel = Cancellation::new();
        let peer = scope.peer().clone();
        let slot = self.flights.try_slot();
        let slots = self.flights.slots();
        let conn = Arc::clone(self);
        let (task_id, task_cancel) = (id.clone(), cancel.clone());
        let work = conn.work(slot, slots, route, task_id, params, scope, task_cancel);
        let method = route.name().unwrap_or_default();
        let mut work = Watched::new(work, &self.blocking, method);
        // The first poll runs here: most handlers finish without waiting for anything, and then
        // no task, no hand-over to another thread and no table entry are needed. A handler that
        // waits (I/O, timers, the client, a busy slot) continues in a task of its own, so it never
        // holds up the messages behind it. Handlers that keep blocking their thread switch the
        // connection to a task per request (see `blocking`).
        if self.blocking.inline() {
            let first = std::future::poll_fn(|cx| Poll::Ready(Pin::new(&mut work).poll(cx))).await;
            if let Poll::Ready(reply) = first {
                return reply;
            }
        }
        let seq = self.flights.track(&id, cancel);
        let conn = Arc::clone(self);
        let task_id = id.clone();
        let handle = crate::background::spawn(async move {
            let _admission = admission;
            let reply = work.await;
            // Not in the table any more: cancelled meanwhile; the spec says send nothing.
            if conn.flights.leave(&task_id, seq)
                && let Some(reply) = reply
            {
                conn.send(&peer, reply.into_bytes()).await;
            }
        });
        self.flights.set_task(&id, seq, handle.abort_handle());
        None
    }

    /// Runs one handler method to its reply, in a span that records the item and the outcome.
    async fn run_handler(
        self: &Arc<Self>,
        route: Route,
        id: RequestId,
        params: Option<Box<RawValue>>,
        scope: Scoping,
        cancel: Cancellation,
    ) -> Option<Reply> {
        let started = tracing::enabled!(tracing::Level::DEBUG).then(Instant::now);
        let span = tracing::info_span!(
            "mcp.request",
            method = route.name().unwrap_or_default(),
            id = %id,
            item = tracing::field::Empty,
            outcome = tracing::field::Empty,
        );
        let outcome = {
            // Pinned where it is built and polled in the span there (not moved into a wrapper).
            let work = std::pin::pin!(Some(async {
                let params = params.as_deref();
                if !self.server.options.layers.is_empty() {
                    return self.run_layered(route, &id, params, scope, cancel).await;
                }
                let outcome = match scope {
                    Scoping::Resolved(scope) => {
                        methods::run_handler(self.call(route, &id, params, scope, Some(cancel)))
                            .await
                    }
                    Scoping::Deferred(resolver) => {
                        let call = self.call(route, &id, params, resolver, Some(cancel));
                        methods::call_tool_with_meta(call).await
                    }
                };
                match &outcome {
                    Ok(_) => tracing::Span::current().record("outcome", "ok"),
                    Err(err) => tracing::Span::current().record("outcome", err.code),
                };
                Some(outcome)
            }));
            Spanned {
                span: &span,
                fut: work,
            }
            .await
        };
        if let Some(started) = started {
            span.in_scope(|| {
                tracing::debug!(
                    elapsed_us = started.elapsed().as_micros() as u64,
                    "request done"
                )
            });
        }
        Some(Reply::new(id, outcome?))
    }
}
