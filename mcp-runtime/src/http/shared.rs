//! The endpoint as one replica of several ([`ScaleOut`]): sessions found locally first, restored
//! from the shared store on a miss and revalidated now and then; what this replica learns from
//! the others on the bus (list changes, sessions changed or closed, cancellations, answers to
//! its requests to the client).

use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};

use axum::response::Response;
use http::{HeaderValue, StatusCode, header};
use mcp_core::jsonrpc::{Message, Parsed, error_codes};
use mcp_core::{ErrorObject, RequestId};
use serde_json::json;
use tokio::sync::{broadcast, mpsc};

use crate::connection::Connection;
use crate::http::endpoint::{Http, rpc_error};
use crate::http::session::{Owner, SESSION_QUEUE, Session};
use crate::http::stream::nowhere;
use crate::registry::ListKind;
use crate::scale::{BusMessage, Envelope, ScaleError, ScaleOut};

/// What a session id names.
pub(crate) enum Found {
    /// A live session, held here (perhaps just restored).
    Session(Arc<Session>),
    /// No such session (never made, deleted, expired): 404.
    Gone,
    /// The shared store could not say in time, or this replica has no room: 503.
    Unavailable,
}

/// The JSON-RPC error of a request refused because the session store is out of reach.
pub(crate) fn unavailable_error() -> ErrorObject {
    ErrorObject::new(
        error_codes::INTERNAL_ERROR,
        "Service Unavailable: the session store cannot be reached; retry shortly",
    )
    .with_data(json!({ "reason": "session_store_unavailable" }))
}

/// 503 with `Retry-After: 1` (never 404: the session may well exist).
pub(crate) fn unavailable(id: Option<&RequestId>) -> Response {
    let mut r = rpc_error(StatusCode::SERVICE_UNAVAILABLE, id, unavailable_error());
    retry_after(&mut r);
    r
}

/// Adds `Retry-After: 1` to a 503.
pub(crate) fn retry_after(r: &mut Response) {
    r.headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
}

/// Runs a store call within the replica's timeout.
pub(crate) async fn bounded<T>(
    scale: &ScaleOut,
    call: impl Future<Output = Result<T, ScaleError>>,
) -> Result<T, ScaleError> {
    match tokio::time::timeout(scale.timeout, call).await {
        Ok(result) => result,
        Err(_) => Err(ScaleError::Unavailable("timed out".into())),
    }
}

/// A number that starts the request streams of one session object: random, so that stream
/// numbers (and so SSE event ids and event-log keys) of one session never collide between
/// replicas, nor between two restorations of the session on one replica.
fn stream_base() -> u64 {
    let b = crate::random::bytes();
    let n = u64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) & 0x7fff_ffff);
    (n + 1) << 32
}

impl Http {
    /// The session `sid` names: held here, or restored from the shared store.
    pub(crate) async fn find_session(self: &Arc<Self>, sid: &str) -> Found {
        self.start_bus();
        let scale = self.server.scale.as_ref();
        if let Some(session) = self.sessions.get(sid) {
            let Some(scale) = scale else {
                return Found::Session(session);
            };
            if session.due_check(scale.revalidate) {
                match bounded(scale, scale.sessions.touch(sid, self.opts.session_idle)).await {
                    Ok(Some(record)) => {
                        session.checked();
                        session.conn.apply(&record);
                    }
                    Ok(None) => {
                        self.sessions.remove(sid);
                        return Found::Gone;
                    }
                    // Stale if error: a session held here is served while the store is away.
                    Err(err) => tracing::debug!(%err, "scale-out: session not revalidated"),
                }
            }
            return Found::Session(session);
        }
        let Some(scale) = scale else {
            return Found::Gone;
        };
        let record = match bounded(scale, scale.sessions.load(sid)).await {
            Ok(Some(record)) => record,
            Ok(None) => return Found::Gone,
            Err(err) => {
                tracing::warn!(%err, "scale-out: session store unavailable");
                return Found::Unavailable;
            }
        };
        let queue = self.server.options.outbound_queue.min(SESSION_QUEUE);
        let (out_tx, out_rx) = mpsc::channel(queue);
        let Some(conn) = Connection::restore(Arc::clone(&self.server), out_tx, sid, &record) else {
            tracing::warn!("scale-out: unusable session record, treated as unknown");
            return Found::Gone;
        };
        let session = self.new_session(sid.into(), conn, out_rx);
        if let Some(subject) = &record.subject {
            session.bind_owner(Owner {
                subject: subject.clone(),
                issuer: record.issuer.clone(),
            });
        }
        match self.sessions.insert_or_get(session) {
            Ok(session) => {
                tracing::debug!(node = %scale.node, "scale-out: session restored");
                Found::Session(session)
            }
            Err(_) => Found::Unavailable,
        }
    }

    /// A session of this endpoint around `conn` (its streams numbered per replica).
    pub(crate) fn new_session(
        &self,
        id: Arc<str>,
        conn: Arc<Connection>,
        out: mpsc::Receiver<crate::outbound::Outbound>,
    ) -> Arc<Session> {
        let session = Session::new(id, conn, out, Arc::clone(&self.store));
        if self.server.scale.is_some() {
            session.number_streams_from(stream_base());
            session.conn.own_tasks_as(&session.id);
        }
        session
    }

    /// Shares a session's current state (after `initialize`, `logging/setLevel`,
    /// `resources/subscribe` or `unsubscribe`); `changed` tells the other replicas holding it.
    pub(crate) async fn share_session(&self, session: &Session, changed: bool) -> Result<(), ()> {
        let Some(scale) = &self.server.scale else {
            return Ok(());
        };
        let Some(mut record) = session.conn.record() else {
            return Ok(());
        };
        if let Some(owner) = session.owner() {
            record = record.bound_to(&*owner.subject, owner.issuer.as_deref());
        }
        let saved = scale
            .sessions
            .save(&session.id, &record, self.opts.session_idle);
        if let Err(err) = bounded(scale, saved).await {
            tracing::warn!(%err, "scale-out: session not shared");
            return Err(());
        }
        session.checked();
        if changed {
            let sid = session.id.to_string();
            scale
                .announce_now(BusMessage::SessionChanged { sid, record })
                .await;
        }
        Ok(())
    }

    /// Binds a session just opened to the caller whose token opened it (feature `auth`; a
    /// session opened without a verified caller stays unbound).
    pub(crate) fn bind_to_caller(session: &Session) {
        #[cfg(feature = "auth")]
        if let Some(caller) = crate::caller::current() {
            session.bind_owner(Owner {
                subject: caller.subject.clone(),
                issuer: caller.issuer.clone(),
            });
        }
        #[cfg(not(feature = "auth"))]
        let _ = session;
    }

    /// Ends a session everywhere: `Ok(true)` when it existed here or in the store.
    pub(crate) async fn end_session(&self, sid: &str) -> Result<bool, ()> {
        let here = self.sessions.remove(sid);
        let Some(scale) = &self.server.scale else {
            return Ok(here);
        };
        let there = match bounded(scale, scale.sessions.delete(sid)).await {
            Ok(existed) => existed,
            Err(_) if here => false,
            Err(_) => return Err(()),
        };
        let sid = sid.to_owned();
        scale.announce_now(BusMessage::SessionClosed { sid }).await;
        Ok(here || there)
    }

    /// Sends a client's answer to the replica whose request it answers, when that is another
    /// one; `None` when it is for this replica. `Some(Err)` when the bus is out of reach.
    pub(crate) async fn forward_response(
        &self,
        sid: &str,
        id: &RequestId,
        text: &str,
    ) -> Option<Result<(), ()>> {
        let scale = self.server.scale.as_ref()?;
        let node = crate::handler::peer::node_of(id)?;
        if node == &*scale.node {
            return None;
        }
        let message = BusMessage::ClientResponse {
            sid: sid.to_owned(),
            message: text.to_owned(),
        };
        let envelope = Envelope::to_node(&*scale.node, node, message);
        Some(
            bounded(scale, scale.bus.publish(envelope))
                .await
                .map_err(|err| tracing::warn!(%err, "scale-out: answer not forwarded")),
        )
    }

    /// Tells the other replicas of a `notifications/cancelled` (the request may run there),
    /// before the client hears back.
    pub(crate) async fn share_cancel(&self, sid: &str, text: &str) {
        if let Some(scale) = &self.server.scale {
            let message = BusMessage::Cancel {
                sid: sid.to_owned(),
                message: text.to_owned(),
            };
            scale.announce_now(message).await;
        }
    }

    /// Starts listening to the bus (once; needs a Tokio runtime, so it is retried on requests).
    pub(crate) fn start_bus(self: &Arc<Self>) {
        let Some(scale) = &self.server.scale else {
            return;
        };
        if self.bus_started.load(Ordering::Acquire) {
            return;
        }
        let Ok(rt) = tokio::runtime::Handle::try_current() else {
            return;
        };
        if self.bus_started.swap(true, Ordering::AcqRel) {
            return;
        }
        let rx = scale.bus.subscribe();
        let node = Arc::clone(&scale.node);
        crate::background::spawn_on(&rt, listen(Arc::downgrade(self), rx, node, self.stopped()));
    }
}

/// Applies what the other replicas say until the endpoint stops.
async fn listen(
    h: Weak<Http>,
    mut rx: broadcast::Receiver<Arc<Envelope>>,
    node: Arc<str>,
    stopped: impl Future<Output = ()>,
) {
    let mut stopped = std::pin::pin!(stopped);
    loop {
        let envelope = tokio::select! {
            () = &mut stopped => return,
            got = rx.recv() => match got {
                Ok(e) => e,
                Err(broadcast::error::RecvError::Lagged(n)) => {
                    tracing::warn!(missed = n, "scale-out: bus messages missed");
                    continue;
                }
                Err(broadcast::error::RecvError::Closed) => return,
            },
        };
        if envelope.origin == *node || envelope.target.as_deref().is_some_and(|t| t != &*node) {
            continue;
        }
        let Some(h) = h.upgrade() else { return };
        apply(&h, &envelope.message).await;
    }
}

async fn apply(h: &Arc<Http>, message: &BusMessage) {
    match message {
        BusMessage::ListChanged { kind } => {
            let kind = match kind.as_str() {
                "tools" => ListKind::Tools,
                "prompts" => ListKind::Prompts,
                "resources" => ListKind::Resources,
                _ => return,
            };
            h.server.hub.list_changed(kind);
        }
        BusMessage::ResourceUpdated { uri } => h.server.hub.resource_updated(uri),
        BusMessage::SessionChanged { sid, record } => {
            if let Some(s) = h.sessions.get(sid) {
                s.conn.apply(record);
            }
        }
        BusMessage::SessionClosed { sid } => {
            h.sessions.remove(sid);
        }
        BusMessage::TaskCancelled { id } => {
            let manager = &h.server.tasks;
            if let Some(running) = manager.local(id) {
                running.cancel().await;
                manager.forget(id);
            }
        }
        BusMessage::Cancel { sid, message } | BusMessage::ClientResponse { sid, message } => {
            // Only a session held here can have the request running or waiting.
            let Some(s) = h.sessions.get(sid) else { return };
            let Ok(Parsed::Single(msg)) = mcp_core::jsonrpc::parse_batch_or_message(message) else {
                return;
            };
            if matches!(msg, Message::Request(_)) {
                return;
            }
            s.conn
                .dispatch_boxed(
                    msg,
                    None,
                    crate::dispatch::scope::Retry::Unknown,
                    None,
                    &nowhere(),
                )
                .await;
        }
    }
}
