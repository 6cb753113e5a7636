//! The standalone server's accept loop: HTTP/1.1 connections served by hyper under the
//! connection limit and timeouts of [`HttpOptions`](super::HttpOptions), and the graceful drain
//! at shutdown.
//!
//! Shutdown runs in three steps. (1) The endpoint starts draining: new MCP requests get 503 and
//! readiness turns 503, open connections stop keeping alive (idle ones close at once), streams
//! that only wait for server messages end. New connections are still accepted, one request
//! each, so that health probes are answered. (2) Once no request is in flight, or at the drain
//! deadline, the listener closes and the remaining connections finish writing and close. (3)
//! Whatever is left is cut.

use std::convert::Infallible;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::response::{IntoResponse, Response};
use http::{HeaderValue, Method, Request, StatusCode, header};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio::time::Instant;
use tower_service::Service;

use crate::error::Error;
use crate::handler::context::Cancellation;
use crate::http::conns::{RequestBody, ResponseBody, Stream, Table, TrackedIo, Tracker};
use crate::http::endpoint::{Http, transport_error};
use crate::http::health;
use crate::http::post::post;

/// Connections over the limit being answered 503 at once; more are closed without an answer.
const REFUSING: usize = 64;
/// How long finished connections get to flush their last bytes after the drain.
const FLUSH_GRACE: Duration = Duration::from_secs(1);
/// Pause after an accept error that is not about one connection (out of file descriptors).
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// What every connection task shares.
struct Shared {
    router: Router,
    http: Arc<Http>,
    table: Arc<Table>,
    /// Step 1 of the shutdown: stop keeping connections alive.
    draining: Cancellation,
    /// Step 2: close every connection once its response is written.
    closing: Cancellation,
    refusing: Arc<Semaphore>,
    /// The liveness path, answered even on refused connections.
    liveness: Option<String>,
    /// The endpoint's path when its `POST`s are served without the router (no gate in front).
    direct: Option<&'static str>,
}

/// Serves `router` on `listener` until the endpoint stops, then drains. A `POST` to `direct`
/// goes to the endpoint's handler without the router.
pub(crate) async fn serve(
    listener: TcpListener,
    router: Router,
    http: Arc<Http>,
    liveness: Option<String>,
    direct: Option<&'static str>,
) -> Result<(), Error> {
    let shared = Arc::new(Shared {
        router,
        table: Arc::new(Table::new(http.opts.max_connections, http.shares)),
        http,
        draining: Cancellation::new(),
        closing: Cancellation::new(),
        refusing: Arc::new(Semaphore::new(REFUSING)),
        liveness,
        direct,
    });
    let mut backoff = Backoff::default();
    let stopped = shared.http.stopped();
    tokio::pin!(stopped);
    loop {
        tokio::select! {
            biased;
            () = &mut stopped => break,
            accepted = listener.accept() => match accepted {
                Ok((tcp, peer)) => admit(&shared, tcp, peer.ip(), false),
                Err(e) => backoff.after(e).await,
            },
        }
    }
    shared.draining.cancel();
    let deadline = Instant::now() + shared.http.server.options.drain_timeout;
    let quiet = loop {
        tokio::select! {
            biased;
            () = shared.table.quiet() => break true,
            () = tokio::time::sleep_until(deadline) => break false,
            accepted = listener.accept() => match accepted {
                Ok((tcp, peer)) => admit(&shared, tcp, peer.ip(), true),
                Err(e) => backoff.after(e).await,
            },
        }
    };
    drop(listener);
    shared.closing.cancel();
    if quiet {
        let _ = tokio::time::timeout(FLUSH_GRACE, shared.table.empty()).await;
    } else {
        tracing::warn!("drain timeout: cutting the requests still in flight");
    }
    shared.table.evict_all();
    let _ = tokio::time::timeout(FLUSH_GRACE, shared.table.empty()).await;
    Ok(())
}

/// Accept errors: those of one connection are skipped, others (out of file descriptors) pause
/// accepting a little, logged at most every ten seconds.
#[derive(Default)]
struct Backoff {
    logged: Option<Instant>,
}

impl Backoff {
    async fn after(&mut self, e: std::io::Error) {
        use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
        if matches!(
            e.kind(),
            ConnectionAborted | ConnectionRefused | ConnectionReset
        ) {
            return;
        }
        if self
            .logged
            .is_none_or(|at| at.elapsed() >= Duration::from_secs(10))
        {
            tracing::warn!(error = %e, "accepting connections failed; retrying");
            self.logged = Some(Instant::now());
        }
        tokio::time::sleep(ACCEPT_BACKOFF).await;
    }
}

/// Admits a connection (making room if needed) or refuses it.
fn admit(shared: &Arc<Shared>, tcp: TcpStream, peer: IpAddr, during_drain: bool) {
    let _ = tcp.set_nodelay(true);
    match shared.table.admit(peer.to_canonical()) {
        Some(tracker) => {
            crate::background::spawn(connection(Arc::clone(shared), tcp, tracker, during_drain));
        }
        None => refuse(shared, tcp),
    }
}

/// One connection, until it closes, stalls, is evicted or the server stops.
async fn connection(
    shared: Arc<Shared>,
    tcp: TcpStream,
    tracker: Arc<Tracker>,
    during_drain: bool,
) {
    let io = TokioIo::new(TrackedIo {
        tcp,
        tracker: Arc::clone(&tracker),
    });
    let service = {
        let (shared, tracker) = (Arc::clone(&shared), Arc::clone(&tracker));
        service_fn(move |req| {
            let peer = tracker.peer;
            let served = serve_request(Arc::clone(&shared), Arc::clone(&tracker), req);
            crate::principal::serve_from(peer, served)
        })
    };
    let mut builder = http1::Builder::new();
    // Header and idle timeouts are the tracker's: hyper's header timer also runs while idle.
    builder.header_read_timeout(None).keep_alive(!during_drain);
    let conn = builder.serve_connection(io, service);
    tokio::pin!(conn);
    let opts = &shared.http.opts;
    let (mut draining, mut closing) = (during_drain, false);
    loop {
        tokio::select! {
            _ = conn.as_mut() => break,
            () = tracker.evicted() => break,
            () = tracker.stalled(opts.idle_timeout, opts.header_read_timeout) => break,
            () = shared.draining.cancelled(), if !draining => {
                draining = true;
                conn.as_mut().graceful_shutdown();
            }
            () = shared.closing.cancelled(), if !closing => {
                closing = true;
                conn.as_mut().graceful_shutdown();
            }
        }
    }
    shared.table.remove(&tracker);
}

/// One request: tracked from its headers to the last frame of its response.
async fn serve_request(
    shared: Arc<Shared>,
    tracker: Arc<Tracker>,
    req: Request<Incoming>,
) -> Result<Response<ResponseBody<Body>>, Infallible> {
    let receiving = !http_body::Body::is_end_stream(req.body());
    let flight = tracker.begin(&shared.table, receiving);
    let receiving = receiving.then(|| flight.receiving());
    let req = req.map(|inner| Body::new(RequestBody { inner, receiving }));
    if req.method() == Method::POST && shared.direct == Some(req.uri().path()) {
        let (parts, body) = req.into_parts();
        let mut response = post(Arc::clone(&shared.http), parts.headers, body).await;
        content_length(&mut response);
        return Ok(finish(&shared, &tracker, response, flight));
    }
    let mut router = shared.router.clone();
    let ready =
        std::future::poll_fn(|cx| Service::<Request<Body>>::poll_ready(&mut router, cx)).await;
    let response = match ready {
        Ok(()) => match router.call(req).await {
            Ok(response) => response,
            Err(never) => match never {},
        },
        Err(never) => match never {},
    };
    Ok(finish(&shared, &tracker, response, flight))
}

/// A response as the connection writes it: a long-lived stream (an SSE body: a `GET` stream, a
/// `subscriptions/listen`, a request answered as a stream) takes a place in the stream bounds of
/// the server and its peer, apart from requests, or is answered 503 instead.
fn finish(
    shared: &Shared,
    tracker: &Tracker,
    response: Response,
    flight: crate::http::conns::Flight,
) -> Response<ResponseBody<Body>> {
    let streams = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"text/event-stream"));
    let (response, stream) = match streams.then(|| tracker.stream(&shared.table)) {
        None => (response, None),
        Some(Some(place)) => (response, Some(place)),
        // Dropping the stream's body ends a stateless request; a handshake-era request goes on
        // and its stream can be resumed with `GET` and `Last-Event-ID` later.
        Some(None) => (too_many_streams(), None::<Stream>),
    };
    response.map(|inner| ResponseBody {
        inner,
        _flight: flight,
        _stream: stream,
    })
}

/// 503: the server, or this peer, has as many streams open as it allows.
fn too_many_streams() -> Response {
    let mut r = transport_error(
        StatusCode::SERVICE_UNAVAILABLE,
        "Service Unavailable: too many open streams",
    );
    r.headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    r
}

/// What the router adds to a response of a top-level route, so that a `POST` served without it
/// is written byte for byte the same: `Content-Length` from a body of known size.
fn content_length(response: &mut Response) {
    if response.headers().contains_key(header::CONTENT_LENGTH) {
        return;
    }
    if let Some(size) = http_body::Body::size_hint(response.body()).exact() {
        response
            .headers_mut()
            .insert(header::CONTENT_LENGTH, HeaderValue::from(size));
    }
}

/// A connection over the limit while every connection serves a request: 503 (the liveness
/// endpoint still answers 200), then closed.
fn refuse(shared: &Arc<Shared>, tcp: TcpStream) {
    let Ok(permit) = Arc::clone(&shared.refusing).try_acquire_owned() else {
        return;
    };
    let liveness = shared.liveness.clone();
    let timeout = shared.http.opts.header_read_timeout;
    crate::background::spawn(async move {
        let _permit = permit;
        let service = service_fn(move |req: Request<Incoming>| {
            let alive = liveness.as_deref() == Some(req.uri().path());
            async move { Ok::<_, Infallible>(if alive { health::liveness() } else { full() }) }
        });
        let conn = http1::Builder::new()
            .keep_alive(false)
            .header_read_timeout(None)
            .serve_connection(TokioIo::new(tcp), service);
        let _ = tokio::time::timeout(timeout, conn).await;
    });
}

/// 503: every connection is serving a request.
fn full() -> Response {
    let mut r = transport_error(
        StatusCode::SERVICE_UNAVAILABLE,
        "Service Unavailable: too many connections",
    );
    let h = r.headers_mut();
    h.insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    h.insert(header::CONNECTION, HeaderValue::from_static("close"));
    r.into_response()
}
