//! `POST`: one JSON-RPC message (or a 2025-03-26 batch), classified by era and served.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use axum::body::Body;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use http::{HeaderMap, StatusCode, header};
use mcp_core::jsonrpc::{Message, Parsed, error_codes};
use mcp_core::{Era, ErrorObject, ProtocolVersion, RequestMeta};
use tokio::sync::{mpsc, oneshot};

use crate::connection::Connection;
use crate::dispatch::headers as mirror;
use crate::dispatch::route::Route;
use crate::dispatch::scope::{self, Retry};
use crate::handler::invoke::CatchUnwind;
use crate::http::ahead::{Ahead, check_headers};
use crate::http::endpoint::{
    Http, REQUEST_QUEUE, accepts, json_response, not_acceptable, read_body, rpc_error, session_id,
    sse_response, too_large, unsupported_media_type,
};
use crate::http::session::{SESSION_QUEUE, Session};
use crate::http::shared::{Found, unavailable_error};
use crate::http::sse::{AbortOnDrop, SseBody};
use crate::http::stream::{Head, HeadTx, Request, nowhere, run_request};
use crate::outbound::Outbound;

/// `POST` as an axum handler (the routers of [`Server::router`](crate::Server::router) and
/// [`Server::router_at`](crate::Server::router_at), and the standalone server behind an
/// authorization gate).
pub(crate) async fn handle_post(
    State(h): State<Arc<Http>>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    post(h, headers, body).await
}

/// `POST`: what [`handle_post`] answers; the standalone server calls it directly for its
/// endpoint's path.
pub(crate) async fn post(h: Arc<Http>, headers: HeaderMap, body: Body) -> Response {
    let accepted = accepts(&headers);
    if let Some(r) = h
        .admit(&headers)
        .or_else(|| unsupported_media_type(&headers))
        .or_else(|| not_acceptable(accepted))
    {
        return r;
    }
    let limit = h.server.options.max_message_bytes;
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|n| n > limit) {
        return too_large(limit);
    }
    let bytes = match read_body(body, limit, h.opts.body_read_timeout).await {
        Ok(bytes) => bytes,
        Err(refusal) => return refusal,
    };
    let Ok(text) = String::from_utf8(Vec::from(bytes)) else {
        return rpc_error(StatusCode::BAD_REQUEST, None, ErrorObject::parse_error());
    };
    let (head_tx, mut head_rx) = oneshot::channel();
    let armed = Arc::new(AtomicBool::new(false));
    // The request runs here, in the connection's task, until its head is known: most requests
    // are answered by then (plain JSON, 202), and no task is spawned for them. A request that
    // answers with an SSE stream continues in a task of its own (the body reads its queue), as
    // does whatever a request still does after its JSON head. A panic ends the request like an
    // aborted task would: 500 when no head was sent.
    let work = post_task(
        Arc::clone(&h),
        Arc::new(headers),
        text,
        HeadTx(Some(head_tx)),
        Arc::clone(&armed),
        accepted.1,
    );
    // The caller the auth gate verified goes along, also into the task the rest may move to.
    #[cfg(feature = "auth")]
    let work = crate::caller::carry(work);
    let work = crate::principal::carry(work);
    let mut task: Option<Pin<Box<dyn Future<Output = ()> + Send>>> = Some(Box::pin(work));
    let head = std::future::poll_fn(|cx| {
        if let Some(running) = task.as_mut()
            && Pin::new(&mut CatchUnwind(running)).poll(cx).is_ready()
        {
            task = None;
        }
        Pin::new(&mut head_rx).poll(cx)
    })
    .await;
    // The stateless era's stream ends its request when the client goes away.
    let abort = task
        .map(|rest| crate::background::spawn_boxed(rest).abort_handle())
        .filter(|_| armed.load(Ordering::Acquire));
    match head {
        Ok(Head::Json {
            status,
            body,
            session,
        }) => {
            let mut r = json_response(status, body, session.as_deref());
            if status == StatusCode::SERVICE_UNAVAILABLE {
                crate::http::shared::retry_after(&mut r);
            }
            r
        }
        Ok(Head::Accepted) => StatusCode::ACCEPTED.into_response(),
        #[cfg(feature = "auth")]
        Ok(Head::Refused { body, scopes }) => {
            crate::http::auth::insufficient_scope(&h.server, body, &scopes)
        }
        #[cfg(not(feature = "auth"))]
        Ok(Head::Refused { body, .. }) => json_response(StatusCode::FORBIDDEN, body, None),
        Ok(Head::Sse(rx)) => {
            let guard = abort.map(|a| AbortOnDrop(Some(a)));
            sse_response(SseBody::new(rx, guard))
        }
        Err(_) => rpc_error(
            StatusCode::INTERNAL_SERVER_ERROR,
            None,
            ErrorObject::internal("internal error"),
        ),
    }
}

/// Whether a protocol-version header names a handshake-era revision (a date up to 2025-11-25).
fn is_handshake_date(v: &str) -> bool {
    v.len() == 10
        && v.as_bytes()[4] == b'-'
        && v.as_bytes()[7] == b'-'
        && v <= ProtocolVersion::LATEST_HANDSHAKE.as_str()
}

/// -32000 with 400.
fn bad_request(message: impl Into<String>) -> ErrorObject {
    ErrorObject::new(error_codes::TRANSPORT_ERROR, message)
}

async fn post_task(
    h: Arc<Http>,
    headers: Arc<HeaderMap>,
    text: String,
    mut head: HeadTx,
    armed: Arc<AtomicBool>,
    sse_ok: bool,
) {
    let parsed = match mcp_core::jsonrpc::parse_batch_or_message(&text) {
        Ok(p) => p,
        Err(err) => {
            return head.error(StatusCode::BAD_REQUEST, err.id(), err.to_error_object());
        }
    };
    let msg = match parsed {
        Parsed::Single(m) => m,
        Parsed::Batch(_) => return Box::pin(batch(&h, &headers, &text, head)).await,
    };
    let sid = session_id(&headers);
    let hv = match mirror::text(&headers, "mcp-protocol-version") {
        Ok(v) => v,
        Err(e) => return head.error(StatusCode::BAD_REQUEST, None, e),
    };
    let (route, params) = match &msg {
        Message::Request(r) => (Some(Route::client_request(&r.method)), r.params),
        Message::Notification(n) => (Some(Route::client_notification(&n.method)), n.params),
        Message::Response(_) => (None, None),
    };
    // Most handshake-era requests carry no `_meta`: skip the parse when the text says so.
    let ahead = match params.filter(|p| p.get().contains("\"_meta\"")) {
        Some(p) => Ahead::read(p),
        None => Ahead {
            meta: None,
            mirrored: None,
            retry: Retry::Unknown,
        },
    };
    let meta = ahead.meta;
    let meta_version = meta.as_ref().and_then(|m| m.protocol_version.as_deref());
    if h.raw_log {
        crate::outbound::log_in(&text);
    }
    let announced = scope::announced_era(route, meta_version);
    let era = if announced == Some(Era::Handshake)
        || sid.is_some()
        || (meta_version.is_none() && hv.is_some_and(is_handshake_date))
    {
        Some(Era::Handshake)
    } else if announced == Some(Era::Stateless) || hv.is_some() {
        Some(Era::Stateless)
    } else if !h.opts.sessions {
        Some(Era::Handshake)
    } else {
        None
    };
    match era {
        Some(Era::Handshake) => {
            let post = Post {
                h: &h,
                sid,
                hv,
                sse_ok,
                text: &text,
            };
            handshake_post(post, msg, meta, route, head).await;
        }
        Some(_) => {
            armed.store(true, Ordering::Release);
            let ahead = Ahead { meta, ..ahead };
            stateless_post(&h, &headers, msg, ahead, hv, sse_ok, head).await;
        }
        None => {
            let id = match &msg {
                Message::Request(r) => Some(&r.id),
                _ => None,
            };
            let err = bad_request(
                "Bad Request: Mcp-Session-Id header is required (send `initialize` first), or give the request `_meta` with a protocol version",
            );
            head.error(StatusCode::BAD_REQUEST, id, err);
        }
    }
}

/// What a handshake-era POST is read with.
struct Post<'a> {
    h: &'a Arc<Http>,
    sid: Option<&'a str>,
    hv: Option<&'a str>,
    /// Whether the client accepts SSE.
    sse_ok: bool,
    /// The message as the client sent it (forwarded to another replica as is).
    text: &'a str,
}

/// Requests without a response stream (`initialize`, notifications) are dispatched in a box of
/// their own, so that this future stays small.
async fn handshake_post(
    post: Post<'_>,
    msg: Message<'_>,
    meta: Option<Box<RequestMeta>>,
    route: Option<Route>,
    mut head: HeadTx,
) {
    let Post {
        h,
        sid,
        hv,
        sse_ok,
        text,
    } = post;
    let server = &h.server;
    if let (Message::Request(_), Some(Route::Initialize)) = (&msg, route) {
        if !h.opts.sessions {
            let conn = Connection::new(
                Arc::clone(server),
                nowhere(),
                crate::middleware::TransportKind::StreamableHttp,
            );
            let reply = conn
                .dispatch_boxed(msg, meta, Retry::Unknown, None, &nowhere())
                .await;
            return head.reply(reply, false);
        }
        let queue = server.options.outbound_queue.min(SESSION_QUEUE);
        let (out_tx, out_rx) = mpsc::channel(queue);
        let conn = Connection::new(
            Arc::clone(server),
            out_tx,
            crate::middleware::TransportKind::StreamableHttp,
        );
        let Some(reply) = conn
            .dispatch_boxed(msg, meta, Retry::Unknown, None, &nowhere())
            .await
        else {
            return head.send(Head::Accepted);
        };
        if reply.error_code().is_some() {
            return head.json(StatusCode::OK, reply.into_bytes());
        }
        let id: Arc<str> = crate::random::token().into();
        let session = h.new_session(Arc::clone(&id), conn, out_rx);
        Http::bind_to_caller(&session);
        // A replica hands out a session only once the others can find it.
        if h.share_session(&session, false).await.is_err() {
            let id = reply.id.as_ref();
            return head.error(StatusCode::SERVICE_UNAVAILABLE, id, unavailable_error());
        }
        if h.sessions.insert(session).is_err() {
            let err = bad_request("Service Unavailable: every session is busy");
            return head.error(StatusCode::SERVICE_UNAVAILABLE, None, err);
        }
        return head.send(Head::Json {
            status: StatusCode::OK,
            body: reply.into_bytes(),
            session: Some(id),
        });
    }
    let request_id = match &msg {
        Message::Request(r) => Some(r.id.clone()),
        _ => None,
    };
    let session = if h.opts.sessions {
        let Some(sid) = sid else {
            let err = bad_request("Bad Request: Mcp-Session-Id header is required");
            return head.error(StatusCode::BAD_REQUEST, request_id.as_ref(), err);
        };
        match h.find_session(sid).await {
            Found::Session(s) => Some(s),
            Found::Gone => {
                let err = ErrorObject::new(error_codes::SESSION_NOT_FOUND, "Session not found");
                return head.error(StatusCode::NOT_FOUND, request_id.as_ref(), err);
            }
            Found::Unavailable => {
                let err = unavailable_error();
                return head.error(StatusCode::SERVICE_UNAVAILABLE, request_id.as_ref(), err);
            }
        }
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
            let err = bad_request(format!(
                "Bad Request: unsupported MCP-Protocol-Version \"{}\"",
                mcp_core::jsonrpc::echo(hv.unwrap_or_default())
            ));
            return head.error(StatusCode::BAD_REQUEST, request_id.as_ref(), err);
        }
    };
    let conn = match &session {
        Some(s) => Arc::clone(&s.conn),
        None => Connection::with_session(
            Arc::clone(server),
            nowhere(),
            if version.is_stateless() {
                ProtocolVersion::V2025_03_26
            } else {
                version
            },
        ),
    };
    if let Some(s) = session.as_ref().filter(|_| h.server.scale.is_some())
        && let Some(shared) = replica_message(h, s, &msg, route, text).await
    {
        return shared(head);
    }
    match msg {
        Message::Request(_) => {
            let req = Request {
                conn,
                msg,
                meta,
                retry: Retry::Unknown,
                headers: None,
                session,
                modern: false,
                sse_ok,
            };
            run_request(h, req, head).await;
        }
        _ => {
            conn.dispatch_boxed(msg, meta, Retry::Unknown, None, &nowhere())
                .await;
            head.send(Head::Accepted);
        }
    }
}

/// How a handshake-era message is answered once it went through the shared state.
type Answered = Box<dyn FnOnce(HeadTx) + Send>;

/// What a replica does beyond serving a message: an answer to another replica's request goes
/// there; a cancellation goes to every replica too; a change of the session's level or
/// subscriptions is shared before the reply. `None` when the message is served as usual.
async fn replica_message(
    h: &Arc<Http>,
    session: &Arc<Session>,
    msg: &Message<'_>,
    route: Option<Route>,
    text: &str,
) -> Option<Answered> {
    match (msg, route) {
        (Message::Response(r), _) => {
            let forwarded = h
                .forward_response(&session.id, r.id.as_ref()?, text)
                .await?;
            Some(match forwarded {
                Ok(()) => Box::new(|mut head: HeadTx| head.send(Head::Accepted)),
                Err(()) => Box::new(|mut head: HeadTx| {
                    head.error(StatusCode::SERVICE_UNAVAILABLE, None, unavailable_error());
                }),
            })
        }
        (Message::Notification(_), Some(Route::Cancelled)) => {
            h.share_cancel(&session.id, text).await;
            None
        }
        (Message::Request(_), Some(Route::SetLevel | Route::Subscribe | Route::Unsubscribe)) => {
            let again = mcp_core::jsonrpc::parse_batch_or_message(text).ok()?;
            let Parsed::Single(msg) = again else {
                return None;
            };
            let reply = session
                .conn
                .dispatch_boxed(msg, None, Retry::Unknown, None, &nowhere())
                .await;
            let changed = reply.as_ref().is_some_and(|r| r.error_code().is_none());
            if changed && h.share_session(session, true).await.is_err() {
                let id = reply.map(|r| r.id.clone());
                return Some(Box::new(move |mut head: HeadTx| {
                    head.error(
                        StatusCode::SERVICE_UNAVAILABLE,
                        id.flatten().as_ref(),
                        unavailable_error(),
                    );
                }));
            }
            Some(Box::new(move |mut head: HeadTx| head.reply(reply, false)))
        }
        _ => None,
    }
}

async fn stateless_post(
    h: &Arc<Http>,
    headers: &Arc<HeaderMap>,
    msg: Message<'_>,
    ahead: Ahead<'_>,
    hv: Option<&str>,
    sse_ok: bool,
    mut head: HeadTx,
) {
    let Ahead {
        meta,
        mirrored,
        retry,
    } = ahead;
    let (id, method, params) = match &msg {
        Message::Request(r) => (Some(r.id.clone()), &*r.method, r.params),
        Message::Notification(n) => (None, &*n.method, n.params),
        Message::Response(_) => {
            let err = ErrorObject::invalid_request(
                "clients must not send responses in protocol revision 2026-07-28",
            );
            return head.error(StatusCode::BAD_REQUEST, None, err);
        }
    };
    let id = id.as_ref();
    // 1. The version header is required.
    let Some(hv) = hv else {
        let err = mirror::mismatch("Header mismatch: the MCP-Protocol-Version header is required");
        return head.error(StatusCode::BAD_REQUEST, id, err);
    };
    // 2. `_meta` with the version and the client's capabilities.
    let Some(meta) = meta.filter(|m| scope::has_stateless_meta(m)) else {
        return head.error(StatusCode::BAD_REQUEST, id, scope::missing_stateless_meta());
    };
    let requested = meta.protocol_version.as_deref().unwrap_or_default();
    // 3. Header and body agree.
    if hv != requested {
        let err = mirror::mismatch(format!(
            "Header mismatch: MCP-Protocol-Version header value '{}' does not match body value '{}'",
            mcp_core::jsonrpc::echo(hv),
            mcp_core::jsonrpc::echo(requested)
        ));
        return head.error(StatusCode::BAD_REQUEST, id, err);
    }
    // 4. A revision served statelessly.
    if let Err(err) = scope::stateless_version(requested) {
        return head.error(StatusCode::BAD_REQUEST, id, err);
    }
    // 5. Standard headers (`Mcp-Param-*` are checked by `tools/call` against the tool).
    if id.is_some()
        && let Err(err) = check_headers(headers, method, params, mirrored)
    {
        return head.error(StatusCode::BAD_REQUEST, id, err);
    }
    let conn = h.stateless_conn(nowhere());
    if id.is_none() {
        conn.dispatch_boxed(msg, Some(meta), Retry::Unknown, None, &nowhere())
            .await;
        h.recycle(conn);
        return head.send(Head::Accepted);
    }
    let req = Request {
        conn: Arc::clone(&conn),
        msg,
        meta: Some(meta),
        retry,
        headers: Some(Arc::clone(headers)),
        session: None,
        modern: true,
        sse_ok,
    };
    run_request(h, req, head).await;
    // Finished here (not continuing as a stream): the connection may serve the next request.
    h.recycle(conn);
}

/// A JSON-RPC batch: protocol revision 2025-03-26 only (a session of that revision, or without
/// sessions that revision's header or none); 400 everywhere else. Answered with one JSON array.
async fn batch(h: &Arc<Http>, headers: &HeaderMap, text: &str, mut head: HeadTx) {
    let refuse = |mut head: HeadTx| {
        let err = ErrorObject::invalid_request(
            "JSON-RPC batches are only accepted in protocol revision 2025-03-26",
        );
        head.error(StatusCode::BAD_REQUEST, None, err);
    };
    // The session stays held (busy) while its batch runs.
    let mut session = None;
    let conn = if h.opts.sessions {
        let found = match session_id(headers) {
            Some(sid) => h.find_session(sid).await,
            None => Found::Gone,
        };
        let s = match found {
            Found::Session(s) => s,
            Found::Gone => return refuse(head),
            Found::Unavailable => {
                return head.error(StatusCode::SERVICE_UNAVAILABLE, None, unavailable_error());
            }
        };
        session.insert(s).conn.clone()
    } else {
        let version = match mirror::text(headers, "mcp-protocol-version") {
            Ok(None) => Some(ProtocolVersion::V2025_03_26),
            Ok(Some(v)) => ProtocolVersion::parse(v),
            Err(_) => None,
        };
        match version {
            Some(v) if v.allows_batches() => {
                Connection::with_session(Arc::clone(&h.server), nowhere(), v)
            }
            _ => return refuse(head),
        }
    };
    if !conn.session_version().is_some_and(|v| v.allows_batches()) {
        return refuse(head);
    }
    let (tx, mut rx) = mpsc::channel::<Outbound>(REQUEST_QUEUE);
    // The batch's notifications have no stream to go to.
    let discard = async { while rx.recv().await.is_some() {} };
    let work = async {
        let answer = conn.receive_boxed(text, &tx).await;
        drop(tx);
        answer
    };
    let (answer, ()) = tokio::join!(work, discard);
    drop(session);
    match answer {
        Some(answer) => head.json(StatusCode::OK, answer.into_bytes()),
        None => head.send(Head::Accepted),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handshake_dates() {
        assert!(is_handshake_date("2025-03-26"));
        assert!(is_handshake_date("2025-11-25"));
        assert!(!is_handshake_date("2026-07-28"));
        assert!(!is_handshake_date("garbage"));
    }
}
