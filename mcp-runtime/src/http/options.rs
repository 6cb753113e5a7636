//! [`HttpOptions`]: the settings of the Streamable HTTP transport.

use std::sync::Arc;
use std::time::Duration;

use crate::http::event_store::EventStore;
use crate::server::ServerBuilder;

/// Which hosts or origins are allowed.
#[derive(Clone, Debug, Default)]
pub(crate) enum Allow {
    /// Loopback when bound to loopback (always for a mounted router), else anything.
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
}

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
            session_idle: Duration::from_secs(30 * 60),
            event_store: None,
        }
    }
}

impl HttpOptions {
    /// The defaults: loopback-only `Host`/`Origin` on loopback binds, sessions on, SSE when a
    /// reply is not ready at once.
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

    /// Accepts requests whose `Origin`, when present, is one of these (`https://app.example.com`).
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

    /// Most sessions at once (default 10 000) and how long an idle one lives once that many
    /// exist (default 30 minutes).
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

    /// Where SSE events are kept for resumption (default: a bounded [`InMemoryEventStore`](crate::http::InMemoryEventStore)).
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
