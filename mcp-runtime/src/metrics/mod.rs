//! Server metrics by the OpenTelemetry MCP semantic conventions (`docs/gen-ai/mcp.md` of
//! `open-telemetry/semantic-conventions-genai`), kept in process and rendered as Prometheus
//! text (exposition format 0.0.4).
//!
//! ```
//! use mcp_runtime::metrics::Metrics;
//! use mcp_runtime::prelude::*;
//!
//! let metrics = Metrics::new();
//! let server = Server::builder(server_info!()).metrics(&metrics).build().unwrap();
//! // Later, for a scrape:
//! let text = metrics.render();
//! assert!(text.contains("# TYPE mcp_server_operation_duration_seconds histogram"));
//! # let _ = server;
//! ```
//!
//! # The metrics
//!
//! | Prometheus name | convention | what |
//! |---|---|---|
//! | `mcp_server_operation_duration_seconds` | `mcp.server.operation.duration` | histogram of every request and notification a client sends, from the time the layer sees it until its outcome |
//! | `mcp_server_session_duration_seconds` | `mcp.server.session.duration` | histogram of handshake sessions (from the connection's start to its end; stateless requests are not sessions) |
//! | `mcp_server_requests_in_flight` | — | gauge: requests being served now |
//! | `mcp_server_refusals_total` | — | counter by `cause`: `rate_limit`, `quota`, `auth` |
//!
//! The histograms have the conventions' boundaries, `[0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2,
//! 5, 10, 30, 60, 120, 300]` seconds. Their labels are the conventions' attributes with dots
//! made underscores: `mcp_method_name` (`_OTHER` for a method outside the table),
//! `error_type` (when it failed: the JSON-RPC error code, `tool_error` for a tool's `isError`
//! result, `cancelled`), `rpc_response_status_code` (the JSON-RPC error code),
//! `gen_ai_tool_name` (`tools/call`), `gen_ai_prompt_name` (`prompts/get`),
//! `gen_ai_operation_name` (`execute_tool` on `tools/call`), `mcp_protocol_version`,
//! `network_transport` (`pipe` over stdio, `tcp` over HTTP) and `network_protocol_name`
//! (`http`). Resource URIs are left out: the conventions make `mcp.resource.uri` opt-in for
//! the duration metric, and a label of unbounded values would be one series per URI.
//!
//! A refusal is a JSON-RPC error whose `data.reason` is `rate_limited` (`rate_limit`),
//! `quota_exceeded` (`quota`) or `insufficient_scope` (`auth`), whichever layer or method
//! answered it, and (feature `auth`) each 401 or 403 of the HTTP authorization gate (`auth`).
//!
//! # Bounded
//!
//! Each metric keeps at most [`Metrics::max_series`] label sets (1000 by default); past it,
//! new label sets are counted in one series whose labels are all `_OTHER`. A tool name comes
//! from the client's request, so a client calling made-up tools fills the bound, not memory.
//!
//! # Cost
//!
//! The layer boxes one future (none when it and the tracing layer are the whole chain: the
//! connection then runs it inline) and reads the clock twice per message. A request whose label
//! set was seen before finds its series by a short key (the method, revision and transport,
//! the outcome's code and the target: one short hash and one comparison) and adds to
//! atomics: no lock, no allocation; a new one hashes its borrowed label values once, in a
//! fixed table of `OnceLock` slots. Recorded into OpenTelemetry too (`Metrics::opentelemetry`,
//! feature `otel`), each series keeps the histogram bound to its attributes (made on its
//! first call): a call allocates no attribute and the SDK does not look the set up again;
//! the in-flight gauge is an observable one, read from the registry's count at each export
//! (a request adds nothing to it).

#[cfg(feature = "otel")]
mod otel;
mod registry;
#[cfg(feature = "http")]
pub(crate) mod router;
mod shortcut;

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::future::BoxFuture;
use crate::middleware::{Kind, Layer, Next, Outcome, OutcomeKind, Request, TransportKind};
use registry::{Histogram, Table};

#[cfg(feature = "http")]
pub use router::router;

/// The Prometheus name of `mcp.server.operation.duration`.
const OPERATION: &str = "mcp_server_operation_duration_seconds";
/// The Prometheus name of `mcp.server.session.duration`.
const SESSION: &str = "mcp_server_session_duration_seconds";
const IN_FLIGHT: &str = "mcp_server_requests_in_flight";
const REFUSALS: &str = "mcp_server_refusals_total";

/// The operation histogram's labels, in the order of the values [`describe`] fills.
const OPERATION_LABELS: &[&str] = &[
    "mcp_method_name",
    "error_type",
    "rpc_response_status_code",
    "gen_ai_tool_name",
    "gen_ai_prompt_name",
    "gen_ai_operation_name",
    "mcp_protocol_version",
    "network_transport",
    "network_protocol_name",
];
const SESSION_LABELS: &[&str] = &[
    "mcp_protocol_version",
    "network_transport",
    "network_protocol_name",
];
const CAUSE_LABELS: &[&str] = &["cause"];

/// Why a request was refused (the `cause` label of `mcp_server_refusals_total`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cause {
    RateLimit,
    Quota,
    Auth,
}

impl Cause {
    fn as_str(self) -> &'static str {
        match self {
            Self::RateLimit => "rate_limit",
            Self::Quota => "quota",
            Self::Auth => "auth",
        }
    }

    /// The cause a JSON-RPC error's `data.reason` names, if any.
    fn of(error: &mcp_core::ErrorObject) -> Option<Self> {
        let reason = error.data.as_ref()?.get("reason")?.as_str()?;
        match reason {
            "rate_limited" => Some(Self::RateLimit),
            "quota_exceeded" => Some(Self::Quota),
            "insufficient_scope" => Some(Self::Auth),
            _ => None,
        }
    }
}

/// A server's metrics (see the [module docs](self)): cheap to clone (the clones share one
/// registry), installed with [`ServerBuilder::metrics`](crate::ServerBuilder::metrics) and
/// rendered with [`render`](Self::render) (or served by [`router`], or on the standalone HTTP
/// server with [`HttpOptions::metrics`](crate::http::HttpOptions::metrics)).
///
/// ```
/// use mcp_runtime::metrics::Metrics;
///
/// let metrics = Metrics::new();
/// let shared = metrics.clone();
/// assert_eq!(metrics.render(), shared.render());
/// ```
#[derive(Clone)]
pub struct Metrics(Arc<Inner>);

struct Inner {
    max_series: usize,
    operations: Table<Operation>,
    /// The operation series by a small key (see `shortcut.rs`).
    shortcuts: shortcut::Shortcuts,
    sessions: Table<Histogram>,
    /// Shared with the OpenTelemetry gauge's callback, which reads it at each export.
    in_flight: Arc<AtomicI64>,
    refusals: Table<AtomicU64>,
    /// The OpenTelemetry instruments, once [`Metrics::opentelemetry`] made them.
    #[cfg(feature = "otel")]
    otel: std::sync::OnceLock<otel::Instruments>,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics")
            .field("max_series", &self.0.max_series)
            .finish_non_exhaustive()
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

impl Metrics {
    /// Empty metrics, at most 1000 label sets per metric.
    ///
    /// ```
    /// let metrics = mcp_runtime::metrics::Metrics::new();
    /// assert!(metrics.render().contains("mcp_server_requests_in_flight 0\n"));
    /// ```
    pub fn new() -> Self {
        Self::with_max_series(1000)
    }

    /// Empty metrics keeping at most `max` label sets per metric (past it, new ones are
    /// counted in the `_OTHER` series).
    ///
    /// ```
    /// let metrics = mcp_runtime::metrics::Metrics::with_max_series(50);
    /// assert_eq!(metrics.max_series(), 50);
    /// ```
    pub fn with_max_series(max: usize) -> Self {
        let refusals = Table::new(CAUSE_LABELS, 3);
        for cause in [Cause::Auth, Cause::Quota, Cause::RateLimit] {
            refusals.get(&[cause.as_str()]);
        }
        Self(Arc::new(Inner {
            max_series: max,
            operations: Table::new(OPERATION_LABELS, max),
            shortcuts: shortcut::Shortcuts::new(),
            sessions: Table::new(SESSION_LABELS, max),
            in_flight: Arc::new(AtomicI64::new(0)),
            refusals,
            #[cfg(feature = "otel")]
            otel: std::sync::OnceLock::new(),
        }))
    }

    /// The bound on label sets per metric.
    ///
    /// ```
    /// assert_eq!(mcp_runtime::metrics::Metrics::new().max_series(), 1000);
    /// ```
    pub fn max_series(&self) -> usize {
        self.0.max_series
    }

    /// The metrics as Prometheus text (exposition format 0.0.4, served as `text/plain;
    /// version=0.0.4`), series in a stable order.
    ///
    /// ```
    /// let text = mcp_runtime::metrics::Metrics::new().render();
    /// assert!(text.contains("mcp_server_refusals_total{cause=\"rate_limit\"} 0\n"));
    /// ```
    pub fn render(&self) -> String {
        let inner = &*self.0;
        let mut out = String::with_capacity(4096);
        registry::render_histograms(
            &mut out,
            OPERATION,
            "The duration of MCP requests and notifications as observed on the server.",
            &inner.operations,
        );
        registry::render_histograms(
            &mut out,
            SESSION,
            "The duration of MCP sessions as observed on the server.",
            &inner.sessions,
        );
        registry::header(
            &mut out,
            IN_FLIGHT,
            "gauge",
            "MCP requests being served now.",
        );
        let in_flight = inner.in_flight.load(Ordering::Relaxed).max(0);
        out.push_str(&format!("{IN_FLIGHT} {in_flight}\n"));
        registry::render_counters(
            &mut out,
            REFUSALS,
            "MCP requests refused, by cause (rate_limit, quota, auth).",
            &inner.refusals,
        );
        out
    }

    /// Also records every measurement into OpenTelemetry instruments (feature `otel`) made
    /// now from the global meter provider (install yours first; it is never replaced), under
    /// the conventions' names (`mcp.server.operation.duration`, `mcp.server.session.duration`,
    /// in seconds, with the conventions' bucket boundaries and attributes) and
    /// `mcp.server.requests.in_flight`, `mcp.server.refusals`: so that a stdio server exports
    /// them over OTLP. `Server::run` calls it when `OTEL_EXPORTER_OTLP_ENDPOINT` is set. A
    /// second call changes nothing.
    ///
    /// ```
    /// let metrics = mcp_runtime::metrics::Metrics::new().opentelemetry();
    /// # let _ = metrics;
    /// ```
    #[cfg(feature = "otel")]
    #[cfg_attr(docsrs, doc(cfg(feature = "otel")))]
    #[must_use]
    pub fn opentelemetry(self) -> Self {
        self.0
            .otel
            .get_or_init(|| otel::Instruments::new(self.0.in_flight.clone()));
        self
    }

    /// Counts one refusal of `cause` (the HTTP authorization gate's 401 and 403).
    pub(crate) fn refused(&self, cause: Cause) {
        self.0
            .refusals
            .get(&[cause.as_str()])
            .fetch_add(1, Ordering::Relaxed);
        #[cfg(feature = "otel")]
        if let Some(otel) = self.0.otel.get() {
            otel.refused(cause.as_str());
        }
    }

    /// Records a session that lasted `elapsed`, in revision `version`, over `transport`.
    pub(crate) fn session_ended(
        &self,
        elapsed: Duration,
        version: mcp_core::ProtocolVersion,
        transport: TransportKind,
    ) {
        let (network, protocol) = network(transport);
        let values = [version.as_str(), network, protocol];
        self.0.sessions.get(&values).observe(elapsed);
        #[cfg(feature = "otel")]
        if let Some(otel) = self.0.otel.get() {
            otel.session(elapsed.as_secs_f64(), &values);
        }
    }

    fn observe(&self, request: &Request<'_>, outcome: &Outcome, elapsed: Duration) {
        use mcp_core::Method;
        let method = request.method().name().unwrap_or(registry::OTHER);
        let code;
        let ((error_type, status), class) = match (outcome.kind(), outcome.error_object()) {
            (_, Some(error)) => {
                if let Some(cause) = Cause::of(error) {
                    self.refused(cause);
                }
                code = Code::new(error.code);
                ((code.as_str(), code.as_str()), i64::from(error.code))
            }
            (OutcomeKind::ToolError, None) => (("tool_error", ""), shortcut::TOOL_ERROR),
            (OutcomeKind::Cancelled, None) => (("cancelled", ""), shortcut::CANCELLED),
            _ => (("", ""), 0),
        };
        let target = match request.method() {
            Method::CallTool | Method::GetPrompt => request.target().unwrap_or(""),
            _ => "",
        };
        let (tool, prompt, operation) = match request.method() {
            Method::CallTool => (target, "", "execute_tool"),
            Method::GetPrompt => ("", target, ""),
            _ => ("", "", ""),
        };
        let version = request.version().map_or("", |v| v.as_str());
        let transport = request.transport();
        let (network, protocol) = network(transport);
        let values = [
            method, error_type, status, tool, prompt, operation, version, network, protocol,
        ];
        // The names are static strings: their addresses tell them apart.
        let key = shortcut::Key {
            method: method.as_ptr() as usize,
            version: version.as_ptr() as usize,
            transport: transport as u8,
            outcome: class,
        };
        let inner = &*self.0;
        let series = match inner.shortcuts.find(key, target) {
            Some(index) => inner.operations.at(index),
            None => None,
        };
        let series = series.unwrap_or_else(|| {
            let (index, series) = inner.operations.find(&values);
            if let Some(index) = index {
                inner.shortcuts.remember(key, target, index);
            }
            series
        });
        series.histogram.observe(elapsed);
        #[cfg(feature = "otel")]
        if let Some(otel) = inner.otel.get() {
            let seconds = elapsed.as_secs_f64();
            if inner.operations.is_overflow(series) {
                // Its labels are `_OTHER`; OpenTelemetry has the values (and a bound of its own).
                otel.operation(seconds, &values);
            } else {
                series
                    .bound
                    .get_or_init(|| otel.bind_operation(&values))
                    .record(seconds);
            }
        }
    }
}

/// One series of the operation histogram: the histogram and, once recorded into
/// OpenTelemetry, the instrument bound to its attributes (made once per series, so that a
/// call neither allocates them nor has them hashed and looked up again).
#[derive(Default)]
struct Operation {
    histogram: Histogram,
    #[cfg(feature = "otel")]
    bound: std::sync::OnceLock<opentelemetry::metrics::BoundHistogram<f64>>,
}

impl AsRef<Histogram> for Operation {
    fn as_ref(&self) -> &Histogram {
        &self.histogram
    }
}

/// `network.transport` and `network.protocol.name` of a transport ("SHOULD be set to `tcp`
/// or `quic` if the transport protocol is HTTP. It SHOULD be set to `pipe` if the transport
/// is stdio"); neither in memory or over a custom transport.
#[inline]
fn network(transport: TransportKind) -> (&'static str, &'static str) {
    match transport {
        TransportKind::Stdio => ("pipe", ""),
        TransportKind::StreamableHttp | TransportKind::LegacySse => ("tcp", "http"),
        _ => ("", ""),
    }
}

/// A JSON-RPC error code as text, on the stack.
struct Code {
    buf: [u8; 12],
    len: usize,
}

impl Code {
    fn new(code: i32) -> Self {
        use std::io::Write as _;
        let mut buf = [0u8; 12];
        let mut cursor = &mut buf[..];
        let _ = write!(cursor, "{code}");
        let len = 12 - cursor.len();
        Self { buf, len }
    }

    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.buf[..self.len]).unwrap_or("_OTHER")
    }
}

/// Decrements the in-flight gauge when the request ends, however it ends.
struct InFlight<'a>(&'a Inner);

impl<'a> InFlight<'a> {
    #[inline]
    fn enter(inner: &'a Inner) -> Self {
        // OpenTelemetry's gauge reads the same atomic when it exports.
        inner.in_flight.fetch_add(1, Ordering::Relaxed);
        Self(inner)
    }
}

impl Drop for InFlight<'_> {
    #[inline]
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The layer: [`ServerBuilder::metrics`](crate::ServerBuilder::metrics) puts it outside the
/// application's layers, so that it sees what they refuse.
impl Layer for Metrics {
    fn call<'a>(&'a self, request: &'a Request<'a>, next: Next<'a>) -> BoxFuture<'a, Outcome> {
        Box::pin(self.around(request, move || next.run()))
    }
}

impl Metrics {
    /// The layer's work around the rest of the chain, which `inner` makes once the clock
    /// runs: [`Layer::call`]'s, and what the connection runs inline (without a box) when the
    /// crate's own layers are the whole chain.
    pub(crate) async fn around<F, Fut>(&self, request: &Request<'_>, inner: F) -> Outcome
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Outcome>,
    {
        let _flight = (request.kind() == Kind::Request).then(|| InFlight::enter(&self.0));
        let started = Instant::now();
        let outcome = inner().await;
        self.observe(request, &outcome, started.elapsed());
        outcome
    }
}
