//! Client metrics by the OpenTelemetry MCP semantic conventions (feature `otel`): the layer
//! [`Metrics`] records `mcp.client.operation.duration` (each request the client sends, from
//! the time the layer sees it until its answer or failure) and `mcp.client.session.duration`
//! (a handshake session, from its `initialize` until the client is dropped) into histograms
//! made from the global meter provider (used, never installed; scope `mcp-runtime-client`).
//!
//! ```
//! use mcp_runtime_client::Client;
//! use mcp_runtime_client::metrics::Metrics;
//!
//! let builder = Client::builder().layer(Metrics::new());
//! # let _ = builder;
//! ```
//!
//! Both histograms are in seconds with the conventions' boundaries, `[0.01, 0.02, 0.05, 0.1,
//! 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]`. An operation's attributes: `mcp.method.name`,
//! `mcp.protocol.version`, `gen_ai.tool.name` and `gen_ai.operation.name = execute_tool`
//! (`tools/call`), `gen_ai.prompt.name` (`prompts/get`), `network.transport` (`pipe` to a
//! spawned server, `tcp` with `network.protocol.name = http` over Streamable HTTP; none over
//! another transport) and, when it failed, `error.type` (a JSON-RPC error's code, also
//! `rpc.response.status_code`; `tool_error` for a tool's `isError` result; `transport`,
//! `timeout`, `closed`, else `_OTHER`). A session's: `mcp.protocol.version` (the one
//! `initialize` agreed), `network.transport`, `network.protocol.name`. No request id, session
//! id or resource URI: each would be a series of its own. The stateless era has no sessions.
//!
//! Give each client a layer of its own: the session it records is its client's, and it is
//! recorded when the layer is dropped with the client.

use std::sync::OnceLock;
use std::time::Instant;

use mcp_core::Method;
use mcp_io::BoxFuture;
use opentelemetry::metrics::Histogram;
use opentelemetry::{InstrumentationScope, KeyValue, global};

use crate::ClientError;
use crate::middleware::{Layer, Next, Outcome, Request, TransportKind};
use crate::otel::is_tool_error;

/// The conventions' bucket boundaries of the MCP duration histograms, in seconds.
const SECONDS: [f64; 14] = [
    0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0,
];

/// The client layer of the conventions' metrics (see the [module docs](self)).
///
/// ```
/// use mcp_runtime_client::Client;
/// use mcp_runtime_client::metrics::Metrics;
///
/// let client = Client::builder().layer(Metrics::new());
/// # let _ = client;
/// ```
#[non_exhaustive]
pub struct Metrics {
    operation: Histogram<f64>,
    session: Histogram<f64>,
    /// The session, once `initialize` succeeded: when, and its attributes.
    started: OnceLock<(Instant, Vec<KeyValue>)>,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics")
            .field("session", &self.started.get().is_some())
            .finish_non_exhaustive()
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

impl Metrics {
    /// The layer, with histograms made now from the global meter provider (install yours
    /// first).
    ///
    /// ```
    /// let layer = mcp_runtime_client::metrics::Metrics::new();
    /// # let _ = layer;
    /// ```
    pub fn new() -> Self {
        let scope = InstrumentationScope::builder("mcp-runtime-client")
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
                "mcp.client.operation.duration",
                "The duration of MCP requests as observed on the client.",
            ),
            session: histogram(
                "mcp.client.session.duration",
                "The duration of MCP sessions as observed on the client.",
            ),
            started: OnceLock::new(),
        }
    }
}

impl Layer for Metrics {
    fn call<'a>(&'a self, request: &'a Request<'a>, next: Next<'a>) -> BoxFuture<'a, Outcome> {
        Box::pin(async move {
            let started = Instant::now();
            let outcome = next.run().await;
            let seconds = started.elapsed().as_secs_f64();
            self.operation
                .record(seconds, &operation_attributes(request, &outcome));
            if request.method() == Method::Initialize
                && let Some(version) = outcome.text().and_then(agreed_version)
            {
                let mut attributes = vec![KeyValue::new("mcp.protocol.version", version)];
                network(request.transport(), &mut attributes);
                let _ = self.started.set((started, attributes));
            }
            outcome
        })
    }
}

impl Drop for Metrics {
    fn drop(&mut self) {
        if let Some((at, attributes)) = self.started.get() {
            self.session.record(at.elapsed().as_secs_f64(), attributes);
        }
    }
}

/// The `protocolVersion` an `initialize` answer agreed on.
fn agreed_version(text: &str) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Envelope {
        result: Agreed,
    }
    #[derive(serde::Deserialize)]
    struct Agreed {
        #[serde(rename = "protocolVersion")]
        version: String,
    }
    serde_json::from_str::<Envelope>(text)
        .ok()
        .map(|e| e.result.version)
}

/// `network.transport` and `network.protocol.name`, when the transport has them.
fn network(transport: TransportKind, attributes: &mut Vec<KeyValue>) {
    match transport {
        TransportKind::Stdio => attributes.push(KeyValue::new("network.transport", "pipe")),
        TransportKind::StreamableHttp => {
            attributes.push(KeyValue::new("network.transport", "tcp"));
            attributes.push(KeyValue::new("network.protocol.name", "http"));
        }
        _ => {}
    }
}

fn operation_attributes(request: &Request<'_>, outcome: &Outcome) -> Vec<KeyValue> {
    let mut attributes = Vec::with_capacity(8);
    attributes.push(KeyValue::new(
        "mcp.method.name",
        request.method_name().to_owned(),
    ));
    attributes.push(KeyValue::new(
        "mcp.protocol.version",
        request.version().as_str(),
    ));
    match (request.method(), request.target()) {
        (Method::CallTool, Some(tool)) => {
            attributes.push(KeyValue::new("gen_ai.tool.name", tool.to_owned()));
            attributes.push(KeyValue::new("gen_ai.operation.name", "execute_tool"));
        }
        (Method::GetPrompt, Some(prompt)) => {
            attributes.push(KeyValue::new("gen_ai.prompt.name", prompt.to_owned()));
        }
        _ => {}
    }
    network(request.transport(), &mut attributes);
    match outcome.failure() {
        Some(ClientError::Rpc(error)) => {
            let code = error.code.to_string();
            attributes.push(KeyValue::new("error.type", code.clone()));
            attributes.push(KeyValue::new("rpc.response.status_code", code));
        }
        Some(other) => {
            let kind = match other {
                ClientError::Transport(_) => "transport",
                ClientError::Timeout(_) => "timeout",
                ClientError::Closed => "closed",
                _ => "_OTHER",
            };
            attributes.push(KeyValue::new("error.type", kind));
        }
        None if outcome.text().is_some_and(is_tool_error) => {
            attributes.push(KeyValue::new("error.type", "tool_error"));
        }
        None => {}
    }
    attributes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_agreed_version_is_read_from_the_answer() {
        let text = r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25"}}"#;
        assert_eq!(agreed_version(text).as_deref(), Some("2025-11-25"));
        assert_eq!(
            agreed_version(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
            None
        );
    }
}
