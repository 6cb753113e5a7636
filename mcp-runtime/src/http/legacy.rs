//! The deprecated HTTP+SSE transport of 2024-11-05, for old clients: `GET /sse` opens a stream
//! whose first event (`endpoint`) names the URL to POST messages to; every server message is a
//! `message` event on that stream.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Body;
use axum::extract::{OriginalUri, Query, State};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use http::{HeaderMap, StatusCode};
use tokio::sync::mpsc;

use crate::connection::Connection;
use crate::http::endpoint::{
    Http, read_body, session_not_found, sse_response, transport_error, unsupported_media_type,
};
use crate::http::sse::{self, SseBody};
use crate::http::stream::SSE_QUEUE;
use crate::outbound::Outbound;
use crate::sync::lock;

/// Most legacy SSE connections at once.
const MAX_LEGACY: usize = 1024;

/// The legacy routes' state: the endpoint's, and the open connections by session id.
pub(crate) struct Legacy {
    http: Arc<Http>,
    sessions: Mutex<HashMap<String, Arc<Connection>>>,
}

impl std::ops::Deref for Legacy {
    type Target = Http;
    fn deref(&self) -> &Http {
        &self.http
    }
}

/// Forgets a legacy session when its stream closes.
struct Closer(Arc<Legacy>, String);

impl Drop for Closer {
    fn drop(&mut self) {
        let conn = lock(&self.0.sessions).remove(&self.1);
        if let Some(conn) = conn {
            conn.drain_now();
        }
    }
}

/// `GET /sse` and `POST /messages` of the endpoint `http`.
pub(crate) fn router(http: Arc<Http>) -> Router {
    let state = Arc::new(Legacy {
        http,
        sessions: Mutex::new(HashMap::new()),
    });
    Router::new()
        .route("/sse", axum::routing::get(open))
        .route("/messages", axum::routing::post(message))
        .with_state(state)
}

async fn open(
    State(h): State<Arc<Legacy>>,
    OriginalUri(uri): OriginalUri,
    headers: HeaderMap,
) -> Response {
    if let Some(r) = h.admit(&headers) {
        return r;
    }
    if lock(&h.sessions).len() >= MAX_LEGACY {
        return transport_error(StatusCode::SERVICE_UNAVAILABLE, "too many connections");
    }
    let (out_tx, mut out_rx) = mpsc::channel::<Outbound>(h.server.options.outbound_queue);
    let conn = Connection::new(
        Arc::clone(&h.server),
        out_tx,
        crate::middleware::TransportKind::LegacySse,
    );
    let id = crate::random::token();
    conn.set_session_id(id.as_str().into());
    lock(&h.sessions).insert(id.clone(), Arc::clone(&conn));
    // At shutdown the stream stays open until the requests in flight have sent their replies.
    let stopped = h.stopped();
    let drained = async move {
        stopped.await;
        conn.close_gracefully();
        conn.drain().await;
    };
    let base = uri.path().strip_suffix("/sse").unwrap_or_default();
    let endpoint = format!("{base}/messages?sessionId={id}");
    let (tx, rx) = mpsc::channel::<Bytes>(SSE_QUEUE);
    let _ = tx.try_send(sse::frame(Some("endpoint"), None, endpoint.as_bytes()));
    let period = h.opts.keep_alive;
    crate::background::spawn(async move {
        let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
        tokio::pin!(drained);
        loop {
            tokio::select! {
                () = &mut drained => {
                    while let Ok(msg) = out_rx.try_recv() {
                        if let Outbound::Message(msg) = msg {
                            let _ = tx.try_send(sse::frame(Some("message"), None, &msg));
                        }
                    }
                    break;
                }
                msg = out_rx.recv() => {
                    let Some(msg) = msg else { break };
                    let Outbound::Message(msg) = msg else { continue };
                    // A client that cannot keep up is cut off.
                    if tx.try_send(sse::frame(Some("message"), None, &msg)).is_err() {
                        break;
                    }
                }
                _ = ticks.tick() => {
                    if tx.try_send(Bytes::from_static(sse::KEEPALIVE)).is_err() {
                        break;
                    }
                }
                () = tx.closed() => break,
            }
        }
    });
    sse_response(SseBody::new(rx, None).holding(Closer(Arc::clone(&h), id)))
}

async fn message(
    State(h): State<Arc<Legacy>>,
    Query(q): Query<HashMap<String, String>>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    if let Some(r) = h
        .admit(&headers)
        .or_else(|| unsupported_media_type(&headers))
    {
        return r;
    }
    let Some(conn) = q
        .get("sessionId")
        .and_then(|id| lock(&h.sessions).get(id).cloned())
    else {
        return session_not_found(None);
    };
    let limit = h.server.options.max_message_bytes;
    let bytes = match read_body(body, limit, h.opts.body_read_timeout).await {
        Ok(bytes) => bytes,
        Err(refusal) => return refusal,
    };
    // JSON text is UTF-8: anything else is a parse error on the stream, never a guess.
    match String::from_utf8(bytes.to_vec()) {
        Ok(text) => {
            let work = async move { conn.handle_text_boxed(&text).await };
            #[cfg(feature = "auth")]
            let work = crate::caller::carry(work);
            crate::background::spawn(work);
        }
        Err(e) => {
            let offset = e.utf8_error().valid_up_to();
            crate::background::spawn(async move { conn.reject_invalid_utf8(offset).await });
        }
    }
    StatusCode::ACCEPTED.into_response()
}
