//! `GET` (the session's stream of server-initiated messages, or the resumption of any stream of
//! the session with `Last-Event-ID`) and `DELETE` (ends a session).

use std::sync::Arc;

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use http::{HeaderMap, StatusCode};
use tokio::sync::mpsc;

use crate::http::endpoint::{
    Http, accepts, method_not_allowed, session_id, session_not_found, sse_response, transport_error,
};
use crate::http::shared::{Found, unavailable};
use crate::http::sse::{self, SseBody};
use crate::http::stream::SSE_QUEUE;

pub(crate) async fn handle_get(State(h): State<Arc<Http>>, headers: HeaderMap) -> Response {
    if let Some(r) = h.admit(&headers) {
        return r;
    }
    let Some(sid) = session_id(&headers).filter(|_| h.opts.sessions) else {
        return method_not_allowed();
    };
    let session = match h.find_session(sid).await {
        Found::Session(s) => s,
        Found::Gone => return session_not_found(None),
        Found::Unavailable => return unavailable(None),
    };
    if !accepts(&headers).1 {
        return transport_error(
            StatusCode::NOT_ACCEPTABLE,
            "Not Acceptable: the client must accept text/event-stream",
        );
    }
    let unknown = || {
        transport_error(
            StatusCode::BAD_REQUEST,
            "Bad Request: unknown Last-Event-ID",
        )
    };
    let (tx, rx) = mpsc::channel::<Bytes>(SSE_QUEUE);
    let retry = h.retry_ms();
    // The stream of server-initiated messages never ends by itself: it ends at shutdown.
    let mut standalone = true;
    match headers.get("last-event-id").and_then(|v| v.to_str().ok()) {
        Some(last) => {
            let Some((stream, seq)) = sse::parse_event_id(last) else {
                return unknown();
            };
            standalone = stream == 0;
            match session.stream(stream) {
                Some(open) => {
                    open.attach(Some(seq), tx, retry, session.next_priming())
                        .await
                }
                None => {
                    let Some(replay) = session.store().replay(&session.id, stream, seq).await
                    else {
                        return unknown();
                    };
                    let id = sse::priming_id(stream, seq, session.next_priming());
                    let _ = tx.try_send(sse::priming(&id, retry));
                    for (_, frame) in replay.events {
                        if tx.try_send(frame).is_err() {
                            break;
                        }
                    }
                }
            }
        }
        None => {
            let unique = session.next_priming();
            session.standalone.attach(None, tx, retry, unique).await;
        }
    }
    // Attached first: messages queued before any `GET` go to this stream.
    session.start_pump();
    let body = SseBody::new(rx, None);
    let body = if standalone {
        body.until(h.stopped()).keep_alive(h.opts.keep_alive)
    } else {
        body
    };
    sse_response(body)
}

pub(crate) async fn handle_delete(State(h): State<Arc<Http>>, headers: HeaderMap) -> Response {
    // Ending a session is served while the server shuts down too.
    if let Some(r) = h.reject(&headers) {
        return r;
    }
    let Some(sid) = session_id(&headers).filter(|_| h.opts.sessions) else {
        return method_not_allowed();
    };
    match h.end_session(sid).await {
        Ok(true) => StatusCode::OK.into_response(),
        Ok(false) => session_not_found(None),
        Err(()) => unavailable(None),
    }
}
