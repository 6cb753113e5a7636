//! [`HttpOptions`]'s setters (the type is declared in `settings/http`), the builder's HTTP settings
//! ([`ServerBuilder::http`], [`ServerBuilder::allow_unprotected`]) and what serving checks first.

use std::sync::Arc;
use std::time::Duration;

use crate::http::event_store::EventStore;
use crate::server::{ServerBuilder, ServerInner};
pub use crate::settings::http::HttpOptions;
pub(crate) use crate::settings::http::{Allow, Health, MetricsAt};

/// The default paths of the health endpoints.
pub(crate) const LIVENESS: &str = "/healthz";
pub(crate) const READINESS: &str = "/readyz";

impl Allow {
    /// An allow-list, compared case-insensitively.
    pub(crate) fn list<I: IntoIterator<Item = S>, S: Into<String>>(items: I) -> Self {
        Allow::List(
            items
                .into_iter()
                .map(|i| i.into().to_ascii_lowercase())
                .collect(),
        )
    }
}

impl HttpOptions {
    /// The defaults: loopback-only `Host` on loopback binds, same-host `Origin`, sessions on,
    /// SSE when a reply is not ready at once, the connection limits and timeouts below.
    pub fn new() -> Self {
        Self::default()
    }

    /// Accepts only these `Host` names (with or without port; compared case-insensitively);
    /// any other `Host` gets 403, whatever the bind address (health endpoints excepted).
    ///
    /// Without a list, a server bound to loopback accepts loopback names (`localhost`, `127.0.0.1`, `[::1]`), and
    /// a server bound to any other address (`0.0.0.0`, `::`, a public IP) accepts only IP
    /// addresses and loopback names: a DNS-rebinding page's requests carry its own host
    /// name, which is refused. A server reached under a name (behind a reverse proxy that
    /// keeps the client's `Host`, say) must list that name. On the command line
    /// (`ServerBuilder::run`), `MCP_ALLOWED_HOSTS` (comma-separated, `*` for any host) gives the
    /// list when none is given here; the library itself reads no environment variable.
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

    /// Accepts requests whose `Origin`, when present, is one of these (`https://app.example.com`,
    /// compared case-insensitively); any other `Origin` gets 403, whatever the bind address.
    ///
    /// Without a list, an `Origin` is accepted when it names the host the request was sent to
    /// (its host and port equal the `Host` header: pages of the server's own origin), and on
    /// loopback binds and mounted routers also when it is a loopback origin
    /// (`http://localhost:3000`). Requests without `Origin` (clients that are not browsers) are
    /// always served.
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

    /// Most sessions at once (default 10 000) and how long a session lives unused (default 10
    /// minutes).
    ///
    /// When the table is full, a new `initialize` evicts the least recently used session that has
    /// nothing running and no `GET` stream attached: its client gets 404 on its next request and
    /// initializes again, as the spec provides. Only when every session is busy is the newcomer
    /// refused (503). A session unused for longer than `idle` is ended the same way; ten minutes
    /// frees abandoned sessions quickly while a session in use is never cut, and a client whose
    /// session expired during a long pause simply re-initializes.
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

    /// Where SSE events are kept for resumption (default: a bounded
    /// [`InMemoryEventStore`](crate::http::InMemoryEventStore)).
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

    /// Most TCP connections the standalone server keeps open (default 512; keep it below the
    /// process's file-descriptor limit).
    ///
    /// When a connection arrives and all are taken, the server closes the open connection that
    /// has made no progress for the longest time among those with no request being served (idle
    /// keep-alive connections, requests whose headers or body are still arriving) and admits the
    /// newcomer: a client holding connections open cannot lock others out. When every connection
    /// is serving a request, the newcomer is answered `503 Service Unavailable` (JSON-RPC -32000,
    /// `Retry-After: 1`) and closed. The liveness endpoint still answers 200 on such a
    /// connection.
    ///
    /// ```
    /// # use mcp_runtime::http::HttpOptions;
    /// let o = HttpOptions::new().max_connections(2048);
    /// # let _ = o;
    /// ```
    pub fn max_connections(mut self, max: usize) -> Self {
        self.max_connections = max.max(1);
        self
    }

    /// How long a request's headers may take to arrive once its first byte did (default 10 s);
    /// a slower client (slowloris) is disconnected. Standalone server only.
    ///
    /// ```
    /// # use mcp_runtime::http::HttpOptions;
    /// let o = HttpOptions::new().header_read_timeout(std::time::Duration::from_secs(5));
    /// # let _ = o;
    /// ```
    pub fn header_read_timeout(mut self, timeout: Duration) -> Self {
        self.header_read_timeout = timeout;
        self
    }

    /// How long a `POST` body may take to arrive once the headers did (default 30 s); a slower
    /// body (a chunked body that never ends, a `Content-Length` larger than what is sent) is
    /// answered `408 Request Timeout` and the connection closed. Applies to mounted routers too.
    ///
    /// ```
    /// # use mcp_runtime::http::HttpOptions;
    /// let o = HttpOptions::new().body_read_timeout(std::time::Duration::from_secs(10));
    /// # let _ = o;
    /// ```
    pub fn body_read_timeout(mut self, timeout: Duration) -> Self {
        self.body_read_timeout = timeout;
        self
    }

    /// How long a keep-alive connection may stay open with no request (default 60 s).
    /// Standalone server only.
    ///
    /// ```
    /// # use mcp_runtime::http::HttpOptions;
    /// let o = HttpOptions::new().idle_timeout(std::time::Duration::from_secs(120));
    /// # let _ = o;
    /// ```
    pub fn idle_timeout(mut self, timeout: Duration) -> Self {
        self.idle_timeout = timeout;
        self
    }

    /// Serves the liveness and readiness endpoints at these paths, on the standalone server and
    /// on mounted routers (relative to where the router is mounted). By default the standalone
    /// server serves `/healthz` and `/readyz` and a mounted router serves none.
    ///
    /// Liveness answers `200 {"status":"ok"}` while the process serves. Readiness answers
    /// `200 {"status":"ready"}`, and `503 {"status":"draining"}` once the server is shutting
    /// down. Both answer `GET` and `HEAD`, skip the `Host`/`Origin` checks (they reveal nothing)
    /// and are never refused for lack of sessions. A path must start with `/`, differ from the
    /// MCP endpoint and use only letters, digits and `/-._~`; serving fails otherwise.
    ///
    /// ```
    /// # use mcp_runtime::http::HttpOptions;
    /// let o = HttpOptions::new().health_endpoints("/livez", "/ready");
    /// # let _ = o;
    /// ```
    pub fn health_endpoints(
        mut self,
        liveness: impl Into<String>,
        readiness: impl Into<String>,
    ) -> Self {
        self.health = Health::Paths(liveness.into(), readiness.into());
        self
    }

    /// Serves no health endpoints, not even on the standalone server.
    ///
    /// ```
    /// # use mcp_runtime::http::HttpOptions;
    /// let o = HttpOptions::new().without_health_endpoints();
    /// # let _ = o;
    /// ```
    pub fn without_health_endpoints(mut self) -> Self {
        self.health = Health::Off;
        self
    }

    /// Serves the server's metrics ([`ServerBuilder::metrics`], see
    /// [`metrics`](crate::metrics)) as Prometheus text at `path` on the standalone server's
    /// listener (`GET`; off by default). Like the health endpoints it skips the `Host`/`Origin`
    /// checks and the authorization gate: put it on a [separate
    /// address](Self::metrics_address) to keep it off the public listener. The path follows the
    /// health endpoints' rules; serving fails when it is taken or the server keeps no metrics.
    ///
    /// ```
    /// # use mcp_runtime::http::HttpOptions;
    /// let o = HttpOptions::new().metrics("/metrics");
    /// # let _ = o;
    /// ```
    pub fn metrics(mut self, path: impl Into<String>) -> Self {
        self.metrics = MetricsAt::Path(path.into());
        self
    }

    /// Serves the server's metrics at `path` on a listener of their own, bound to `addr`
    /// (`127.0.0.1:9464`) when the standalone server starts; serving fails when `addr` cannot
    /// be bound, or the server keeps no metrics.
    ///
    /// ```
    /// # use mcp_runtime::http::HttpOptions;
    /// let o = HttpOptions::new().metrics_address("127.0.0.1:9464", "/metrics");
    /// # let _ = o;
    /// ```
    pub fn metrics_address(mut self, addr: impl Into<String>, path: impl Into<String>) -> Self {
        self.metrics = MetricsAt::Address(addr.into(), path.into());
        self
    }
}

impl ServerBuilder {
    /// Settings of the Streamable HTTP transport (allowed hosts and origins, sessions, SSE).
    ///
    /// ```
    /// use mcp_runtime::prelude::*;
    /// use mcp_runtime::http::HttpOptions;
    ///
    /// let builder = Server::builder(server_info!())
    ///     .http(HttpOptions::new().allowed_hosts(["mcp.example.com"]).json_response(true));
    /// # let _ = builder;
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    pub fn http(mut self, options: HttpOptions) -> Self {
        self.http.options = options;
        self
    }

    /// Says the server is meant to serve HTTP without authorization although its items declare
    /// scopes (`#[tool(scopes = [..])]`, on resources and prompts too): without it, and without
    /// [`ServerBuilder::auth`](crate::ServerBuilder::auth) (or `MCP_AUTH_ISSUER` /
    /// `MCP_AUTH_AUDIENCE` on the command line, feature `auth`), serving HTTP fails (the command
    /// line's `http` exits with code 6), because every client could call the scoped items.
    /// On the command line (`ServerBuilder::run`), `MCP_ALLOW_UNPROTECTED=1` says the same; the
    /// library itself reads no environment variable. A server behind a gateway
    /// that checks tokens itself is such a case. stdio is always served: it carries no tokens,
    /// and the process that spawned the server is its only client.
    ///
    /// ```
    /// use mcp_runtime::prelude::*;
    ///
    /// let builder = Server::builder(server_info!()).allow_unprotected(true);
    /// # let _ = builder;
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    pub fn allow_unprotected(mut self, yes: bool) -> Self {
        self.http.unprotected = yes;
        self
    }
}

/// Whether a server bound to a public address would accept only IP-address `Host` values (no
/// list given): the command line says so when it starts.
#[cfg(feature = "cli")]
pub(crate) fn hosts_unlisted(server: &ServerInner) -> bool {
    matches!(server.http.options.hosts, Allow::Auto)
}

/// What serving HTTP checks first: items that declare scopes are not served to everyone by
/// mistake (see [`ServerBuilder::allow_unprotected`]).
///
/// `gated`: whether the server's endpoint is protected by authorization (`http::gated`).
pub(crate) fn check_serving(server: &ServerInner, gated: bool) -> Result<(), crate::error::Error> {
    match unprotected_scopes(server, gated) {
        Some(why) => Err(crate::error::Error::Config(why)),
        None => Ok(()),
    }
}

/// Why the server must not serve HTTP as configured: the items that declare scopes, when no
/// authorization checks them (`gated` is false) and nothing said it is meant so.
pub(crate) fn unprotected_scopes(server: &ServerInner, gated: bool) -> Option<String> {
    if gated {
        return None;
    }
    if server.http.unprotected {
        return None;
    }
    let live = server.live();
    let c = &live.catalog;
    let scoped: Vec<String> = (c.tools.iter().filter(|t| !t.record.scopes.is_empty()))
        .map(|t| format!("tool {}", t.record.name))
        .chain(
            (c.resources.iter().filter(|r| !r.record.scopes.is_empty()))
                .map(|r| format!("resource {}", r.record.uri)),
        )
        .chain(
            (c.templates.iter().filter(|r| !r.record.scopes.is_empty()))
                .map(|r| format!("resource template {}", r.record.uri)),
        )
        .chain(
            (c.prompts.iter().filter(|p| !p.record.scopes.is_empty()))
                .map(|p| format!("prompt {}", p.record.name)),
        )
        .collect();
    let first = scoped.first()?;
    let more = match scoped.len() {
        1 => String::new(),
        n => format!(" and {} more", n - 1),
    };
    let configure = if cfg!(feature = "auth") {
        "configure authorization (ServerBuilder::auth, or MCP_AUTH_ISSUER and MCP_AUTH_AUDIENCE)"
    } else {
        "build with the `auth` feature of mcp-runtime and configure authorization"
    };
    Some(format!(
        "{first}{more} declare(s) scopes, but no authorization is configured: every client could use them. \
         To serve HTTP, {configure}, or say the server is meant to run unprotected \
         (ServerBuilder::allow_unprotected(true), or MCP_ALLOW_UNPROTECTED=1)"
    ))
}
