//! The same metrics recorded into OpenTelemetry instruments (feature `otel`), made from the
//! global meter provider when [`Metrics::opentelemetry`](super::Metrics::opentelemetry) is
//! called: the provider is used, never installed or replaced.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use opentelemetry::metrics::{BoundHistogram, Counter, Histogram, ObservableUpDownCounter};
use opentelemetry::{InstrumentationScope, KeyValue, global};

use super::registry::SECONDS;

/// The conventions' attribute names of the operation histogram's labels, in their order.
pub(super) const OPERATION_ATTRIBUTES: &[&str] = &[
    "mcp.method.name",
    "error.type",
    "rpc.response.status_code",
    "gen_ai.tool.name",
    "gen_ai.prompt.name",
    "gen_ai.operation.name",
    "mcp.protocol.version",
    "network.transport",
    "network.protocol.name",
];
/// The session histogram's.
pub(super) const SESSION_ATTRIBUTES: &[&str] = &[
    "mcp.protocol.version",
    "network.transport",
    "network.protocol.name",
];

pub(super) struct Instruments {
    operation: Histogram<f64>,
    session: Histogram<f64>,
    /// Observed at each export from the registry's own count (a request adds nothing here).
    _in_flight: ObservableUpDownCounter<i64>,
    refusals: Counter<u64>,
}

impl Instruments {
    /// The instruments, the in-flight gauge reading `in_flight`.
    pub(super) fn new(in_flight: Arc<AtomicI64>) -> Self {
        let scope = InstrumentationScope::builder("mcp-runtime")
            .with_version(env!("CARGO_PKG_VERSION"))
            .build();
        let meter = global::meter_with_scope(scope);
        let histogram = |name: &'static str, description: &'static str| {
            meter
                .f64_histogram(name)
                .with_unit("s")
                .with_description(description)
                .with_boundaries(SECONDS.to_vec())
                .build()
        };
        Self {
            operation: histogram(
                "mcp.server.operation.duration",
                "The duration of MCP requests and notifications as observed on the server.",
            ),
            session: histogram(
                "mcp.server.session.duration",
                "The duration of MCP sessions as observed on the server.",
            ),
            _in_flight: meter
                .i64_observable_up_down_counter("mcp.server.requests.in_flight")
                .with_description("MCP requests being served now.")
                .with_callback(move |observer| {
                    observer.observe(in_flight.load(Ordering::Relaxed).max(0), &[]);
                })
                .build(),
            refusals: meter
                .u64_counter("mcp.server.refusals")
                .with_description("MCP requests refused, by cause (rate_limit, quota, auth).")
                .build(),
        }
    }

    /// Records one operation of the label values `values`.
    pub(super) fn operation(&self, seconds: f64, values: &[&str]) {
        self.operation
            .record(seconds, &attributes(OPERATION_ATTRIBUTES, values));
    }

    /// The operation histogram bound to the attributes of the label values `values` (kept by
    /// their series).
    pub(super) fn bind_operation(&self, values: &[&str]) -> BoundHistogram<f64> {
        self.operation
            .bind(&attributes(OPERATION_ATTRIBUTES, values))
    }

    pub(super) fn session(&self, seconds: f64, values: &[&str]) {
        self.session
            .record(seconds, &attributes(SESSION_ATTRIBUTES, values));
    }

    pub(super) fn refused(&self, cause: &'static str) {
        self.refusals.add(1, &[KeyValue::new("cause", cause)]);
    }
}

/// The attributes of the values that are there (an empty value is absent).
fn attributes(names: &[&'static str], values: &[&str]) -> Vec<KeyValue> {
    names
        .iter()
        .zip(values)
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| KeyValue::new(*k, (*v).to_owned()))
        .collect()
}
