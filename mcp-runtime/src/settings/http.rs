//! The HTTP transport's settings (feature `http`): [`HttpOptions`] and the [`EventStore`]
//! seam, declared here for the server to keep; their setters and their uses are `http`'s
//! (`http/options`, `http/event_store`).

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;

use crate::future::BoxFuture;

/// Which hosts or origins are allowed.
#[derive(Clone, Debug, Default)]
pub(crate) enum Allow {
    /// Hosts: loopback names when bound to loopback (always for a mounted router), else IP
    /// addresses and loopback names (the command line's `MCP_ALLOWED_HOSTS` replaces it).
    /// Origins: the request's own host, and loopback origins when bound to loopback.
    #[default]
    Auto,
    Any,
    List(Arc<[String]>),
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
    /// Where the standalone server serves `/metrics` (setters in `http/options`).
    pub(crate) metrics: MetricsAt,
}

/// Where the standalone server serves the server's metrics as Prometheus text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) enum MetricsAt {
    /// Nowhere (the default).
    #[default]
    Off,
    /// On the MCP endpoint's listener, at this path.
    Path(String),
    /// On a listener of its own: the address, the path.
    Address(String, String),
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
            .field("metrics", &self.metrics)
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
            metrics: MetricsAt::Off,
        }
    }
}

/// The events of one stream after a given event, as [`EventStore::replay`] returns them.
///
/// ```
/// use mcp_runtime::http::Replay;
/// let r = Replay::new(vec![(2, bytes::Bytes::from_static(b"id: 1-2\ndata: {}\n\n"))], true);
/// assert!(r.finished);
/// ```
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Replay {
    /// `(sequence number, SSE frame)` in order.
    pub events: Vec<(u64, Bytes)>,
    /// Whether the stream ended (its final response is among the events, or was before).
    pub finished: bool,
}

/// Storage of SSE events for resumption (handshake era, 2025-03-26 to 2025-11-25).
///
/// Streams are numbered within a session (0 is the session's `GET` stream); events are numbered
/// from 1 within a stream. Implementations must be bounded: dropping old events is fine, the
/// client then simply misses them. [`InMemoryEventStore`](crate::http::InMemoryEventStore) is the default; a deployment with
/// several replicas plugs in a shared store (Redis streams, say) through
/// [`HttpOptions::event_store`](crate::http::HttpOptions::event_store).
///
/// ```
/// use mcp_runtime::http::{EventStore, InMemoryEventStore};
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let store = InMemoryEventStore::new(100, 10);
/// store.append("s", 1, 1, bytes::Bytes::from_static(b"a")).await;
/// store.append("s", 1, 2, bytes::Bytes::from_static(b"b")).await;
/// let replay = store.replay("s", 1, 1).await.unwrap();
/// assert_eq!(replay.events.len(), 1);
/// # });
/// ```
pub trait EventStore: Send + Sync + 'static {
    /// Stores event `seq` (an SSE frame) of stream `stream` of `session`.
    fn append<'a>(
        &'a self,
        session: &'a str,
        stream: u64,
        seq: u64,
        frame: Bytes,
    ) -> BoxFuture<'a, ()>;
    /// Marks a stream as ended.
    fn finish<'a>(&'a self, session: &'a str, stream: u64) -> BoxFuture<'a, ()>;
    /// The events of a stream after `after`; `None` when the stream is unknown.
    fn replay<'a>(
        &'a self,
        session: &'a str,
        stream: u64,
        after: u64,
    ) -> BoxFuture<'a, Option<Replay>>;
    /// Forgets everything of a session.
    fn remove_session<'a>(&'a self, session: &'a str) -> BoxFuture<'a, ()>;
}
