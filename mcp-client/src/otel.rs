//! OpenTelemetry by the MCP semantic conventions (feature `otel`): a CLIENT span per request
//! the client sends, its context injected into the request's `params._meta` so that the
//! server's span is its child.
//!
//! ```
//! use mcp_runtime_client::Client;
//!
//! let builder = Client::builder().otel(); // the layer `otel::Tracing`
//! # let _ = builder;
//! ```
//!
//! The span is named `{mcp.method.name} {target}` (`tools/call suggest_gifts`, `prompts/get
//! brief`), else `{mcp.method.name}` (a resource URI is an attribute, not part of the name:
//! the conventions' "SHOULD NOT include it by default to avoid high cardinality span names");
//! its kind is `CLIENT`; its parent is the current OpenTelemetry context
//! (`opentelemetry::Context::current()`: inside a server's handler, the request's SERVER span
//! or the handler's own `tracing` span). Attributes: `mcp.method.name`, `mcp.protocol.version`,
//! `jsonrpc.request.id` (the id the request is sent with), `mcp.session.id` (an HTTP session's
//! `Mcp-Session-Id`), `network.transport` (`pipe` to a spawned server, `tcp` with
//! `network.protocol.name = http` over Streamable HTTP; none over another transport),
//! `gen_ai.tool.name` and `gen_ai.operation.name = execute_tool` (`tools/call`),
//! `gen_ai.prompt.name` (`prompts/get`), `mcp.resource.uri` (`resources/read`,
//! `resources/subscribe`, `resources/unsubscribe`); on a JSON-RPC error `error.type` and
//! `rpc.response.status_code` (its code, `-32602`) and the status `ERROR` with its message; on
//! a tool's `isError` result `error.type = tool_error`; on another failure (transport, time
//! limit) `error.type` names it (`transport`, `timeout`, `closed`, `_OTHER`).
//!
//! Propagation, as the conventions say: "Instrumentations SHOULD propagate context using the
//! configured OpenTelemetry propagators by injecting it into the MCP request `params._meta`
//! property bag", with the unprefixed W3C keys `traceparent`, `tracestate` and `baggage`
//! (SEP-414). This layer uses the W3C Trace Context and Baggage propagators and writes them
//! over the caller's own keys of the same names. Spans are made with the global tracer
//! provider as it is at each request (scope `mcp-runtime-client`); none is installed here.

use std::borrow::Cow;

use opentelemetry::propagation::{Injector, TextMapCompositePropagator, TextMapPropagator};
use opentelemetry::trace::{FutureExt, SpanKind, Status, TraceContextExt, Tracer, TracerProvider};
use opentelemetry::{Context, InstrumentationScope, KeyValue, global};
use opentelemetry_sdk::propagation::{BaggagePropagator, TraceContextPropagator};
use serde_json::{Map, Value};

use crate::ClientError;
use crate::middleware::{Layer, Next, Outcome, Request, TransportKind};
use mcp_core::Method;
use mcp_io::BoxFuture;

/// The client layer of the conventions' CLIENT spans (see the [module docs](self)).
///
/// ```
/// use mcp_runtime_client::Client;
/// use mcp_runtime_client::otel::Tracing;
///
/// let builder = Client::builder().layer(Tracing::new());
/// # let _ = builder;
/// ```
#[non_exhaustive]
pub struct Tracing {
    propagator: TextMapCompositePropagator,
    scope: InstrumentationScope,
}

impl std::fmt::Debug for Tracing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tracing").finish_non_exhaustive()
    }
}

impl Default for Tracing {
    fn default() -> Self {
        Self::new()
    }
}

impl Tracing {
    /// The layer, writing `traceparent`, `tracestate` and `baggage` with the W3C propagators.
    ///
    /// ```
    /// let layer = mcp_runtime_client::otel::Tracing::new();
    /// # let _ = layer;
    /// ```
    pub fn new() -> Self {
        Self {
            propagator: TextMapCompositePropagator::new(vec![
                Box::new(TraceContextPropagator::new()),
                Box::new(BaggagePropagator::new()),
            ]),
            scope: InstrumentationScope::builder("mcp-runtime-client")
                .with_version(env!("CARGO_PKG_VERSION"))
                .build(),
        }
    }
}

/// `params._meta` written as a carrier.
struct MetaCarrier<'a>(&'a mut Map<String, Value>);

impl Injector for MetaCarrier<'_> {
    fn set(&mut self, key: &str, value: String) {
        self.0.insert(key.to_owned(), Value::String(value));
    }
}

impl Layer for Tracing {
    fn call<'a>(&'a self, request: &'a Request<'a>, mut next: Next<'a>) -> BoxFuture<'a, Outcome> {
        let parent = Context::current();
        let tracer = global::tracer_provider().tracer_with_scope(self.scope.clone());
        let (name, attributes) = describe(request);
        let span = tracer
            .span_builder(name)
            .with_kind(SpanKind::Client)
            .with_attributes(attributes)
            .start_with_context(&tracer, &parent);
        let cx = parent.with_span(span);
        self.propagator
            .inject_context(&cx, &mut MetaCarrier(next.meta_mut()));
        Box::pin(async move {
            let outcome = next.run().with_context(cx.clone()).await;
            record(&cx, &outcome);
            outcome
        })
    }
}

fn describe(request: &Request<'_>) -> (Cow<'static, str>, Vec<KeyValue>) {
    let method = request.method_name().to_owned();
    let mut attributes = Vec::with_capacity(9);
    attributes.push(KeyValue::new("mcp.method.name", method.clone()));
    attributes.push(KeyValue::new(
        "mcp.protocol.version",
        request.version().as_str(),
    ));
    attributes.push(KeyValue::new(
        "jsonrpc.request.id",
        request.id().map(ToString::to_string).unwrap_or_default(),
    ));
    if let Some(session) = request.session_id() {
        attributes.push(KeyValue::new("mcp.session.id", session.to_owned()));
    }
    match request.transport() {
        TransportKind::Stdio => attributes.push(KeyValue::new("network.transport", "pipe")),
        TransportKind::StreamableHttp => {
            attributes.push(KeyValue::new("network.transport", "tcp"));
            attributes.push(KeyValue::new("network.protocol.name", "http"));
        }
        _ => {}
    }
    let name = match (request.method(), request.target()) {
        (Method::CallTool, Some(tool)) => {
            attributes.push(KeyValue::new("gen_ai.tool.name", tool.to_owned()));
            attributes.push(KeyValue::new("gen_ai.operation.name", "execute_tool"));
            Cow::Owned(format!("{method} {tool}"))
        }
        (Method::CallTool, None) => {
            attributes.push(KeyValue::new("gen_ai.operation.name", "execute_tool"));
            Cow::Owned(method)
        }
        (Method::GetPrompt, Some(prompt)) => {
            attributes.push(KeyValue::new("gen_ai.prompt.name", prompt.to_owned()));
            Cow::Owned(format!("{method} {prompt}"))
        }
        (Method::ReadResource | Method::Subscribe | Method::Unsubscribe, Some(uri)) => {
            attributes.push(KeyValue::new("mcp.resource.uri", uri.to_owned()));
            Cow::Owned(method)
        }
        _ => Cow::Owned(method),
    };
    (name, attributes)
}

/// Whether a successful answer is a tool's `isError` result.
pub(crate) fn is_tool_error(text: &str) -> bool {
    #[derive(serde::Deserialize)]
    struct Envelope {
        result: Option<Flag>,
    }
    #[derive(serde::Deserialize)]
    struct Flag {
        #[serde(rename = "isError", default)]
        is_error: bool,
    }
    serde_json::from_str::<Envelope>(text)
        .ok()
        .and_then(|e| e.result)
        .is_some_and(|f| f.is_error)
}

fn record(cx: &Context, outcome: &Outcome) {
    let span = cx.span();
    match outcome.failure() {
        Some(ClientError::Rpc(error)) => {
            let code = error.code.to_string();
            span.set_attribute(KeyValue::new("error.type", code.clone()));
            span.set_attribute(KeyValue::new("rpc.response.status_code", code));
            span.set_status(Status::error(error.message.clone()));
        }
        Some(other) => {
            let kind = match other {
                ClientError::Transport(_) => "transport",
                ClientError::Timeout(_) => "timeout",
                ClientError::Closed => "closed",
                _ => "_OTHER",
            };
            span.set_attribute(KeyValue::new("error.type", kind));
            span.set_status(Status::error(other.to_string()));
        }
        None => {
            if outcome.text().is_some_and(is_tool_error) {
                span.set_attribute(KeyValue::new("error.type", "tool_error"));
                span.set_status(Status::error("tool_error"));
            }
        }
    }
    span.end();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_is_error_result_is_a_tool_error() {
        assert!(is_tool_error(
            r#"{"jsonrpc":"2.0","id":1,"result":{"isError":true}}"#
        ));
        assert!(!is_tool_error(
            r#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#
        ));
        assert!(!is_tool_error(
            r#"{"jsonrpc":"2.0","id":1,"result":{"isError":false}}"#
        ));
    }
}
