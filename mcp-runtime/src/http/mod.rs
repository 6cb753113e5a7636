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
//! `Host` and `Origin` are checked before anything else (403): by default `Host` must be a
//! loopback name when the server is bound to a loopback address (always for a mounted
//! [`Server::router`]), and an `Origin` must be the server's own (or, on loopback, any loopback
//! origin); requests without `Origin` are served. Set [`HttpOptions::allowed_hosts`] /
//! [`HttpOptions::allowed_origins`] when serving a public name. A `POST` must be
//! `application/json` when it says (415) and accept JSON or SSE when it says (406); bodies over
//! the server's message limit get 413, bodies slower than [`HttpOptions::body_read_timeout`]
//! 408. Every queue is bounded: a slow client's stream is cut (it can resume), never buffered
//! without end.
//!
//! The standalone server runs its own accept loop: at most
//! [`HttpOptions::max_connections`] connections, where the one stalled longest makes room for a
//! newcomer; header, body and idle timeouts; `/healthz` and `/readyz`; and a graceful drain on
//! [`ShutdownHandle`](crate::ShutdownHandle), SIGTERM or SIGINT.

mod accept;
mod ahead;
#[cfg(feature = "auth")]
pub mod auth;
mod card;
mod conns;
pub(crate) mod endpoint;
mod event_store;
mod get_delete;
mod guard;
mod health;
#[cfg(feature = "legacy-sse")]
mod legacy;
pub(crate) mod options;
mod post;
mod scrape;
mod session;
mod shared;
mod sse;
mod stream;

use std::sync::Arc;

use axum::Router;

pub use event_store::{EventStore, InMemoryEventStore, Replay};
pub use options::HttpOptions;

use crate::error::Error;
use crate::handler::context::Cancellation;
use crate::server::Server;
use endpoint::Http;
use get_delete::{handle_delete, handle_get};
use post::handle_post;

/// The paths besides `path` that the endpoint's routes take (the Server Card's among them).
fn taken(server: &Server, path: &str, standalone: bool) -> Vec<String> {
    let mut taken = vec![path.to_owned()];
    if cfg!(feature = "legacy-sse") {
        taken.extend(["/sse".to_owned(), "/messages".to_owned()]);
    }
    taken.extend(card::paths(&server.inner, path, standalone));
    taken
}

/// The endpoint's routes at `path` (and the legacy ones), with the health endpoints when
/// `health` names them; `stop` ends the endpoint along with the server's shutdown.
fn build_router(
    server: &Server,
    path: &str,
    loopback: bool,
    health: Option<&(String, String)>,
    standalone: bool,
    stop: Cancellation,
) -> (Router, Arc<Http>) {
    let state = Arc::new(Http::new(Arc::clone(&server.inner), loopback, stop));
    state.start_bus();
    let router = Router::new()
        .route(
            path,
            axum::routing::post(handle_post)
                .get(handle_get)
                .delete(handle_delete),
        )
        .with_state(Arc::clone(&state));
    #[cfg(feature = "legacy-sse")]
    let router = router.merge(legacy::router(Arc::clone(&state)));
    #[cfg(feature = "auth")]
    let router = auth::protect(router, &state, path != "/");
    let router = card::routes(router, &server.inner, path, standalone);
    let router = match health {
        Some(paths) => health::routes(router, &state, paths),
        None => router,
    };
    (router, state)
}

/// The router to mount at a path of the user's choosing; health endpoints only when asked for
/// (a bad path is logged and skipped: mounting cannot fail).
fn mounted(server: &Server, path: &str) -> Router {
    let health = health::paths(
        &server.inner.http.options.health,
        false,
        &taken(server, path, false),
    )
    .unwrap_or_else(|e| {
        tracing::warn!(error = %e, "health endpoints not served");
        None
    });
    build_router(
        server,
        path,
        true,
        health.as_ref(),
        false,
        Cancellation::new(),
    )
    .0
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
        mounted(self, "/")
    }

    /// The MCP endpoint as an axum [`Router`] serving `path`, to merge into your app with
    /// `Router::merge`. Unlike a nested [`router`](Self::router), it also serves what belongs
    /// at the root beside the endpoint (with feature `auth`, the RFC 9728 metadata at
    /// `/.well-known/oauth-protected-resource{path}`).
    ///
    /// ```
    /// use mcp_runtime::prelude::*;
    ///
    /// let server = Server::builder(server_info!()).build().unwrap();
    /// let app: axum::Router = axum::Router::new()
    ///     .route("/health", axum::routing::get(|| async { "ok" }))
    ///     .merge(server.router_at("/mcp"));
    /// # let _ = app;
    /// ```
    pub fn router_at(&self, path: &str) -> Router {
        mounted(self, path)
    }

    /// Serves Streamable HTTP at `http://ADDR/mcp` (with `/healthz` and `/readyz`) until the
    /// server is shut down ([`ShutdownHandle`](crate::ShutdownHandle), SIGTERM or SIGINT), then
    /// drains gracefully and returns `Ok(())`.
    ///
    /// Bound to a loopback address, only loopback `Host` values are accepted (DNS-rebinding
    /// protection); see [`HttpOptions`] for public deployments, connection limits and timeouts.
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

    /// Serves Streamable HTTP at `/mcp` on a listener you bound (port 0 in tests, say), like
    /// [`serve_http`](Self::serve_http).
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
    ///
    /// The future is boxed here, in the runtime: a server's crate polls one `Box<dyn Future>`
    /// instead of compiling this state machine, everything it awaits and their drop glue again
    /// on every build (BENCHMARKS.md, "Fourth round: build time").
    pub fn serve_http_on(
        &self,
        listener: tokio::net::TcpListener,
    ) -> impl Future<Output = Result<(), Error>> + Send + '_ {
        let serving: crate::server::Serving<'_> = Box::pin(async move {
            let _signals = self.inner.listen_for_signals();
            self.serve_http_until(listener, Cancellation::new(), None)
                .await
        });
        serving
    }

    /// [`serve_http_on`](Self::serve_http_on) with the metrics served at `metrics` instead of
    /// where the options say (the command line's `--metrics` and `--metrics-address`).
    #[cfg(feature = "cli")]
    pub(crate) fn serve_http_metrics(
        &self,
        listener: tokio::net::TcpListener,
        metrics: options::MetricsAt,
    ) -> crate::server::Serving<'_> {
        Box::pin(async move {
            let _signals = self.inner.listen_for_signals();
            self.serve_http_until(listener, Cancellation::new(), Some(metrics))
                .await
        })
    }

    /// [`serve_http_on`](Self::serve_http_on) until the server shuts down or `stop` is
    /// cancelled.
    async fn serve_http_until(
        &self,
        listener: tokio::net::TcpListener,
        stop: Cancellation,
        metrics: Option<options::MetricsAt>,
    ) -> Result<(), Error> {
        let local = listener.local_addr()?;
        options::check_serving(&self.inner, gated(&self.inner))?;
        let mut paths = taken(self, "/mcp", true);
        let health = health::paths(&self.inner.http.options.health, true, &paths)?;
        if let Some((live, ready)) = &health {
            paths.extend([live.clone(), ready.clone()]);
        }
        let at = metrics.as_ref().unwrap_or(&self.inner.http.options.metrics);
        let scrape = scrape::prepare(&self.inner, at, &paths).await?;
        let (router, http) = build_router(
            self,
            "/mcp",
            local.ip().is_loopback(),
            health.as_ref(),
            true,
            stop,
        );
        // Behind no gate, a POST to the endpoint goes straight to its handler (the router's
        // matching, extractors and boxed futures cost a one-connection request measurably:
        // BENCHMARKS.md, "Fifth round"); everything else goes through the router.
        #[cfg(feature = "auth")]
        let direct = (!auth::gated(&self.inner)).then_some("/mcp");
        #[cfg(not(feature = "auth"))]
        let direct = Some("/mcp");
        tracing::info!(%local, "serving MCP over Streamable HTTP at /mcp");
        let live = health.map(|(live, _)| live);
        match scrape {
            scrape::Scrape::Off => accept::serve(listener, router, http, live, direct).await,
            scrape::Scrape::Here(routes) => {
                let router = router.merge(routes);
                accept::serve(listener, router, http, live, direct).await
            }
            scrape::Scrape::Apart(apart, routes) => {
                let served = accept::serve(listener, router, http, live, direct);
                tokio::pin!(served);
                tokio::select! {
                    biased;
                    result = &mut served => result,
                    () = scrape::serve_apart(apart, routes) => served.await,
                }
            }
        }
    }

    /// Serves stdio and Streamable HTTP (`http://ADDR/mcp`) from one process, until stdin closes
    /// or the server is shut down; then both drain gracefully.
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
        self.serve_both(listener).await
    }

    /// [`serve_stdio_and_http`](Self::serve_stdio_and_http) once bound, boxed (see
    /// [`serve_http_on`](Self::serve_http_on)).
    fn serve_both(&self, listener: tokio::net::TcpListener) -> crate::server::Serving<'_> {
        Box::pin(self.serve_both_inner(listener))
    }

    async fn serve_both_inner(&self, listener: tokio::net::TcpListener) -> Result<(), Error> {
        let _signals = self.inner.listen_for_signals();
        let stop = Cancellation::new();
        let stdio = async {
            let (shutdown, local) = (self.inner.shutdown.clone(), stop.clone());
            let served = self
                .serve_stdio_until(async move {
                    crate::server::shutdown::either(&shutdown, &local).await;
                })
                .await;
            stop.cancel();
            served
        };
        let http = async {
            let served = self.serve_http_until(listener, stop.clone(), None).await;
            stop.cancel();
            served
        };
        let (stdio, http) = tokio::join!(stdio, http);
        stdio.and(http)
    }
}

/// Whether the server's endpoint is protected by authorization (feature `auth`; never without
/// it).
pub(crate) fn gated(server: &crate::server::ServerInner) -> bool {
    #[cfg(feature = "auth")]
    return auth::gated(server);
    #[cfg(not(feature = "auth"))]
    {
        let _ = server;
        false
    }
}
