//! [`HttpOptions`]: the settings of the Streamable HTTP transport.

use std::sync::Arc;
use std::time::Duration;

use crate::http::event_store::EventStore;
use crate::server::ServerBuilder;

/// Which hosts or origins are allowed.
#[derive(Clone, Debug, Default)]
pub(crate) enum Allow {
    /// Hosts: loopback names when bound to loopback (always for a mounted router), else any.
    /// Origins: the request's own host, and loopback origins when bound to loopback.
    #[default]
    Auto,
    Loopback,
    Any,
    List(Arc<[String]>),
}

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

/// Settings of the Streamable HTTP transport, given to
/// [`ServerBuilder::http`](crate::ServerBuilder::http).
///
/// ```
/// use mcp_runtime::http::HttpOptions;
/// use std::time::Duration;
///
/// let options = HttpOptions::new()
///     .allowed_hosts(["mcp.example.com"])
///     .allowed_origins(["https://app.example.com"])
///     .keep_alive(Duration::from_secs(20));
/// # let _ = options;
/// ```
#[derive(Clone)]
#[non_exhaustive]
pub struct HttpOptions {
    pub(crate) hosts: Allow,
    pub(crate) origins: Allow,
    pub(crate) sessions: bool,
    pub(crate) json_response: bool,
    pub(crate) stream_after: Duration,
    pub(crate) keep_alive: Duration,
    pub(crate) retry: Duration,
    pub(crate) max_sessions: usize,
    pub(crate) session_idle: Duration,
    pub(crate) event_store: Option<Arc<dyn EventStore>>,
    pub(crate) max_connections: usize,
    pub(crate) header_read_timeout: Duration,
    pub(crate) body_read_timeout: Duration,
    pub(crate) idle_timeout: Duration,
    pub(crate) health: Health,
}

/// Where the health endpoints are served.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) enum Health {
    /// `/healthz` and `/readyz` on the standalone server, none on a mounted router.
    #[default]
    Auto,
    Off,
    /// These paths (liveness, readiness), standalone and mounted.
    Paths(String, String),
}

/// The default paths of the health endpoints.
pub(crate) const LIVENESS: &str = "/healthz";
pub(crate) const READINESS: &str = "/readyz";

impl std::fmt::Debug for HttpOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpOptions")
            .field("hosts", &self.hosts)
            .field("origins", &self.origins)
            .field("sessions", &self.sessions)
            .field("json_response", &self.json_response)
            .field("stream_after", &self.stream_after)
            .field("keep_alive", &self.keep_alive)
            .field("retry", &self.retry)
            .field("max_sessions", &self.max_sessions)
            .field("session_idle", &self.session_idle)
            .field("max_connections", &self.max_connections)
            .field("header_read_timeout", &self.header_read_timeout)
            .field("body_read_timeout", &self.body_read_timeout)
            .field("idle_timeout", &self.idle_timeout)
            .field("health", &self.health)
            .finish_non_exhaustive()
    }
}

impl Default for HttpOptions {
    fn default() -> Self {
        Self {
            hosts: Allow::Auto,
            origins: Allow::Auto,
            sessions: true,
            json_response: false,
            stream_after: Duration::from_millis(500),
            keep_alive: Duration::from_secs(15),
            retry: Duration::from_secs(1),
            max_sessions: 10_000,
            session_idle: Duration::from_secs(10 * 60),
            event_store: None,
            max_connections: 512,
            header_read_timeout: Duration::from_secs(10),
            body_read_timeout: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(60),
            health: Health::Auto,
        }
    }
}

impl HttpOptions {
    /// The defaults: loopback-only `Host` on loopback binds, same-host `Origin`, sessions on,
    /// SSE when a reply is not ready at once, the connection limits and timeouts below.
    pub fn new() -> Self {
        Self::default()
    }

    /// Accepts only these `Host` names (with or without port; compared case-insensitively).
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
    pub fn http(self, options: HttpOptions) -> Self {
        self.extension(options)
    }
}
