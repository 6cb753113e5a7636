//! A POST's answer: the head (plain JSON, 202, or an SSE stream) decided by the request's task,
//! and the stream that carries a request's notifications, requests to the client and reply.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use bytes::Bytes;
use http::StatusCode;
use mcp_core::jsonrpc::Message;
use mcp_core::{ErrorObject, RequestId, RequestMeta};
use tokio::sync::{mpsc, oneshot};

use crate::connection::Connection;
use crate::dispatch::reply::Reply;
use crate::dispatch::scope::{RequestHeaders, Retry};
use crate::http::endpoint::{Http, RequestQueue, status_of};
use crate::http::session::Session;
use crate::http::sse::{self, Resumable};
use crate::outbound::{Outbound, Sink};

/// SSE frames queued for one response before a slow client is cut off.
pub(crate) const SSE_QUEUE: usize = 256;

/// A sink whose messages go nowhere.
pub(crate) fn nowhere() -> Sink {
    // One closed channel for the whole process: a request without a stream to send to does not
    // allocate a channel of its own.
    static NOWHERE: std::sync::OnceLock<Sink> = std::sync::OnceLock::new();
    NOWHERE.get_or_init(|| mpsc::channel(1).0).clone()
}

/// How a POST is answered, decided by its task.
pub(crate) enum Head {
    Json {
        status: StatusCode,
        body: Vec<u8>,
        session: Option<Arc<str>>,
    },
    Accepted,
    Sse(mpsc::Receiver<Bytes>),
    /// The dispatcher refused the request for want of these scopes (space-separated): 403 with
    /// the `insufficient_scope` challenge, `body` the reply (feature `auth`).
    Refused {
        body: Vec<u8>,
        #[cfg_attr(not(feature = "auth"), allow(dead_code))]
        scopes: String,
    },
}

/// Sends the head once.
pub(crate) struct HeadTx(pub(crate) Option<oneshot::Sender<Head>>);

impl HeadTx {
    pub(crate) fn send(&mut self, head: Head) {
        if let Some(tx) = self.0.take() {
            let _ = tx.send(head);
        }
    }

    pub(crate) fn json(&mut self, status: StatusCode, body: Vec<u8>) {
        self.send(Head::Json {
            status,
            body,
            session: None,
        });
    }

    pub(crate) fn error(&mut self, status: StatusCode, id: Option<&RequestId>, err: ErrorObject) {
        self.json(status, Reply::error(id.cloned(), err).into_bytes());
    }

    /// A reply as plain JSON (the stateless era maps errors to statuses), or 202 for none; in
    /// either era 403 for a request the dispatcher refused for want of scopes.
    pub(crate) fn reply(&mut self, reply: Option<Reply>, modern: bool) {
        match reply {
            None => self.send(Head::Accepted),
            Some(reply) => {
                if let Some(scopes) = reply.refused_scopes().map(str::to_owned) {
                    return self.send(Head::Refused {
                        body: reply.into_bytes(),
                        scopes,
                    });
                }
                let status = if modern {
                    status_of(&reply)
                } else {
                    StatusCode::OK
                };
                self.json(status, reply.into_bytes());
            }
        }
    }
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

    /// Sends a message, or cuts the connection on
    /// [`Context::close_stream`](crate::Context::close_stream).
    async fn deliver(&self, item: &Outbound) {
        match item {
            Outbound::Message(msg) => self.send(msg).await,
            Outbound::CloseStream => {
                if let Out::Resumable(stream, _) = self {
                    stream.disconnect().await;
                }
            }
            // A control signal of a kind this stream does not know (`Outbound` may grow).
            _ => {}
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

/// What one POSTed request is dispatched with.
pub(crate) struct Request<'a> {
    pub(crate) conn: Arc<Connection>,
    pub(crate) msg: Message<'a>,
    pub(crate) meta: Option<Box<RequestMeta>>,
    /// What the POST saw of a retry's members while it read `_meta`.
    pub(crate) retry: Retry,
    pub(crate) headers: RequestHeaders,
    /// The handshake-era session the request belongs to, if any.
    pub(crate) session: Option<Arc<Session>>,
    /// Stateless era: statuses from errors, no resumable streams.
    pub(crate) modern: bool,
    /// Whether the client accepts SSE.
    pub(crate) sse_ok: bool,
}

/// Runs `dispatch`; when the endpoint starts shutting down meanwhile, the connection closes
/// gracefully (a `subscriptions/listen` ends with its result, questions to the client fail) and
/// the reply is still awaited and delivered.
async fn closing_on_stop(
    h: &Http,
    conn: &Connection,
    mut dispatch: Pin<&mut (dyn Future<Output = Option<Reply>> + Send + '_)>,
) -> Option<Reply> {
    tokio::select! {
        biased;
        reply = &mut dispatch => return reply,
        () = h.stopped() => {}
    }
    conn.close_gracefully();
    dispatch.await
}

/// Dispatches a request and streams its answer: plain JSON when the reply comes first, SSE when
/// something else does (or the reply takes longer than `stream_after`).
pub(crate) async fn run_request(h: &Arc<Http>, req: Request<'_>, mut head: HeadTx) {
    let Request {
        conn,
        msg,
        meta,
        retry,
        headers,
        session,
        modern,
        sse_ok,
    } = req;
    let sse_ok = sse_ok && !h.opts.json_response;
    // A client that accepts SSE gets its request's messages on a queue of the request's own,
    // one the endpoint kept from an earlier request when it can.
    let mut queue = sse_ok.then(|| Queue::take(h));
    let sink = match (&session, &queue) {
        (
            _,
            Some(Queue {
                pair: Some((tx, _)),
                ..
            }),
        ) => tx.clone(),
        (Some(s), _) => {
            s.start_pump();
            s.conn.out()
        }
        (None, _) => nowhere(),
    };
    // The dispatch goes to the heap once: every future around it (the POST's, the
    // connection's task) stays small and cheap to move.
    let mut work = conn.dispatch_boxed(msg, meta, retry, headers, &sink);
    let dispatch = closing_on_stop(h, &conn, work.as_mut());
    tokio::pin!(dispatch);
    let Some(Queue {
        pair: Some((_, rx)),
        reuse,
        ..
    }) = queue.as_mut()
    else {
        let reply = dispatch.await;
        return head.reply(reply, modern);
    };
    let mut first = Vec::new();
    let mut done: Option<Option<Reply>> = None;
    tokio::select! {
        biased;
        reply = &mut dispatch => {
            while let Ok(m) = rx.try_recv() {
                first.push(m);
            }
            if first.is_empty() {
                // Answered in plain JSON: the queue may serve the next request.
                *reuse = true;
                return head.reply(reply, modern);
            }
            done = Some(reply);
        }
        Some(m) = rx.recv() => first.push(m),
        () = tokio::time::sleep(h.opts.stream_after) => {}
    }
    // The stream's state is boxed: most requests never get here, and the POST's future (boxed
    // per request) stays small.
    let rest = Continue {
        h,
        session: session.as_ref(),
        modern,
        first,
        done,
    };
    Box::pin(stream_rest(rest, head, rx, dispatch)).await;
}

/// Where a request's answer becomes an SSE stream: what [`run_request`] saw so far.
struct Continue<'a> {
    h: &'a Http,
    session: Option<&'a Arc<Session>>,
    modern: bool,
    /// The messages the request sent before this.
    first: Vec<Outbound>,
    /// The reply, if it came already.
    done: Option<Option<Reply>>,
}

/// Streams the rest of a request's answer (see [`run_request`]).
async fn stream_rest<F: Future<Output = Option<Reply>>>(
    rest: Continue<'_>,
    mut head: HeadTx,
    rx: &mut mpsc::Receiver<Outbound>,
    mut dispatch: Pin<&mut F>,
) {
    let Continue {
        h,
        session,
        modern,
        first,
        mut done,
    } = rest;
    let (body_tx, body_rx) = mpsc::channel::<Bytes>(SSE_QUEUE);
    let out = match session {
        Some(s) if !modern => {
            let stream = s.open_stream();
            stream
                .attach(None, body_tx, h.retry_ms(), s.next_priming())
                .await;
            Out::Resumable(stream, Arc::clone(s))
        }
        _ => Out::Plain(body_tx),
    };
    head.send(Head::Sse(body_rx));
    for m in &first {
        out.deliver(m).await;
    }
    let period = h.opts.keep_alive;
    let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
    loop {
        if let Some(reply) = done.take() {
            while let Ok(m) = rx.try_recv() {
                if let Outbound::Message(m) = m {
                    out.send(&m).await;
                }
            }
            if let Some(reply) = reply {
                out.send(&reply.into_bytes()).await;
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
    out.finish().await;
}

/// A request's queue of the messages it sends before its reply (SSE), and whether it may go
/// back to the endpoint's spares when the request ends (it was answered in plain JSON).
struct Queue<'a> {
    h: &'a Http,
    pair: Option<RequestQueue>,
    reuse: bool,
}

impl<'a> Queue<'a> {
    fn take(h: &'a Http) -> Self {
        Self {
            h,
            pair: Some(h.request_queue()),
            reuse: false,
        }
    }
}

impl Drop for Queue<'_> {
    /// Dropped after everything of the request that held its sender.
    fn drop(&mut self) {
        if self.reuse
            && let Some(pair) = self.pair.take()
        {
            self.h.spare_queue(pair);
        }
    }
}
