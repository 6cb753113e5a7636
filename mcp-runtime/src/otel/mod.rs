//! OpenTelemetry by the MCP semantic conventions (feature `otel`): a SERVER span per request
//! and per notification a client sends, named and attributed as the conventions'
//! `docs/gen-ai/mcp.md` (repository `open-telemetry/semantic-conventions-genai`) says, its
//! parent read from the request's `params._meta`.
//!
//! ```
//! use mcp_runtime::prelude::*;
//!
//! // The one-liner: the layer `mcp_runtime::otel::Tracing`, outermost.
//! let server = Server::builder(server_info!()).otel().build().unwrap();
//! # let _ = server;
//! ```
//!
//! # The span
//!
//! Its name is `{mcp.method.name} {target}` (`tools/call suggest_gifts`, `prompts/get brief`),
//! or `{mcp.method.name}` alone (`initialize`, `tools/list`, `resources/read`,
//! `notifications/initialized`): the conventions say "target SHOULD match `{gen_ai.tool.name}`
//! or `{gen_ai.prompt.name}` when applicable" and that instrumentation "SHOULD NOT include
//! `{mcp.resource.uri}` by default to avoid high cardinality span names", so a resource URI
//! is an attribute, never part of the name. Its kind is `SERVER`.
//!
//! | attribute | value |
//! |---|---|
//! | `mcp.method.name` | the method (`tools/call`); `_OTHER` for a name outside the method table |
//! | `mcp.protocol.version` | the revision the request is served in (none for `initialize`) |
//! | `mcp.session.id` | the session, when the request is part of one |
//! | `jsonrpc.request.id` | the id, as text (none for a notification) |
//! | `gen_ai.tool.name` | `tools/call`: the tool |
//! | `gen_ai.operation.name` | `execute_tool`, on `tools/call` only ("SHOULD NOT be set otherwise") |
//! | `gen_ai.prompt.name` | `prompts/get`: the prompt |
//! | `mcp.resource.uri` | `resources/read`, `resources/subscribe`, `resources/unsubscribe`: the URI |
//! | `network.transport` | `pipe` over stdio, `tcp` over HTTP ("SHOULD be set to `tcp` or `quic` if the transport protocol is HTTP. It SHOULD be set to `pipe` if the transport is stdio"); none in memory |
//! | `network.protocol.name` | `http` over HTTP |
//! | `error.type` | a JSON-RPC error: its code (`-32602`); a tool's `isError` result: `tool_error`; a cancellation: `cancelled` |
//! | `rpc.response.status_code` | a JSON-RPC error: its code (`-32602`) |
//!
//! "Span status SHOULD be set to `ERROR` when `error.type` attribute is present. The status
//! description SHOULD match the `JSONRPCError.message`": it is, and the description of a
//! tool error is `tool_error`.
//!
//! # Context propagation
//!
//! "The receiver extracts the context from `params._meta` and uses it as the remote parent",
//! with the unprefixed W3C keys `traceparent`, `tracestate` and `baggage` (SEP-414): this layer
//! reads them with the W3C Trace Context and Baggage propagators, so a request carrying
//! `"_meta": {"traceparent": "00-4bf9…-00f0…-01"}` gets a span of trace `4bf9…` whose parent
//! is span `00f0…`. Without one the parent is the ambient context (the task's current
//! OpenTelemetry context, for instance an HTTP framework's span), else the span is a root. When
//! both exist and differ, the ambient span is linked ("SHOULD link current ambient context, if
//! it's present"). The extracted baggage is in the handler's current context.
//!
//! # The handler's own spans
//!
//! The layer runs the rest of the chain, the method and so the handler, with the span's
//! context current (`opentelemetry::Context::current()`). A handler's `tracing` spans are
//! exported, as children of it, by a `tracing-opentelemetry` layer of the application's
//! subscriber; [`subscriber_layer`] is one that uses the global tracer provider and leaves out
//! the dispatcher's own `mcp.request` span (its log context on stderr), so that it does not
//! stand between the SERVER span and the handler's spans.
//!
//! # The provider
//!
//! Spans are made with the global tracer provider (`opentelemetry::global`, scope
//! `mcp-runtime`) as it is when the request comes: the library never installs or replaces
//! one. With the global no-op provider (nothing installed) the layer costs a context
//! extraction and a no-op span. `Server::run` (feature `cli`) installs an OTLP exporter when
//! `OTEL_EXPORTER_OTLP_ENDPOINT` is set, and turns this layer on then.

mod attrs;

use std::borrow::Cow;

use opentelemetry::propagation::{Extractor, TextMapCompositePropagator, TextMapPropagator};
use opentelemetry::trace::{
    FutureExt, Link, SpanKind, Status, TraceContextExt, Tracer, TracerProvider,
};
use opentelemetry::{Context, InstrumentationScope, KeyValue, global};
use opentelemetry_sdk::propagation::{BaggagePropagator, TraceContextPropagator};
use serde_json::{Map, Value};

use crate::future::BoxFuture;
use crate::middleware::{Kind, Layer, Next, Outcome, OutcomeKind, Request, TransportKind};

pub use attrs::subscriber_layer;

/// The instrumentation scope of the spans (`mcp-runtime`, this crate's version).
fn scope() -> InstrumentationScope {
    InstrumentationScope::builder("mcp-runtime")
        .with_version(env!("CARGO_PKG_VERSION"))
        .build()
}

/// The middleware layer of the conventions' SERVER spans (see the [module docs](self)); what
/// [`ServerBuilder::otel`](crate::ServerBuilder::otel) adds, outermost.
///
/// ```
/// use mcp_runtime::otel::Tracing;
/// use mcp_runtime::prelude::*;
///
/// let server = Server::builder(server_info!()).layer(Tracing::new()).build().unwrap();
/// # let _ = server;
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
    /// The layer, reading `traceparent`, `tracestate` and `baggage` from `params._meta` with
    /// the W3C propagators.
    ///
    /// ```
    /// let layer = mcp_runtime::otel::Tracing::new();
    /// # let _ = layer;
    /// ```
    pub fn new() -> Self {
        Self {
            propagator: w3c(),
            scope: scope(),
        }
    }
}

/// The W3C Trace Context and Baggage propagators, together.
pub(crate) fn w3c() -> TextMapCompositePropagator {
    TextMapCompositePropagator::new(vec![
        Box::new(TraceContextPropagator::new()),
        Box::new(BaggagePropagator::new()),
    ])
}

/// `params._meta` read as a carrier: string members only.
struct MetaCarrier<'a>(&'a Map<String, Value>);

impl Extractor for MetaCarrier<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key)?.as_str()
    }

    fn keys(&self) -> Vec<&str> {
        self.0.keys().map(String::as_str).collect()
    }
}

impl Layer for Tracing {
    fn call<'a>(&'a self, request: &'a Request<'a>, next: Next<'a>) -> BoxFuture<'a, Outcome> {
        let ambient = Context::current();
        let extracted = request.meta().map(|meta| {
            self.propagator
                .extract_with_context(&ambient, &MetaCarrier(meta))
        });
        let remote = extracted
            .as_ref()
            .is_some_and(|cx| cx.span().span_context().is_remote());
        let ambient_span = ambient.span().span_context().clone();
        // Extracted over the ambient context: without a `traceparent` the ambient span stays
        // the parent (and the baggage, if any, is added to it).
        let parent = extracted.unwrap_or(ambient);
        let tracer = global::tracer_provider().tracer_with_scope(self.scope.clone());
        let (name, attributes) = describe(request);
        let mut builder = tracer
            .span_builder(name)
            .with_kind(SpanKind::Server)
            .with_attributes(attributes);
        if remote && ambient_span.is_valid() {
            builder = builder.with_links(vec![Link::with_context(ambient_span)]);
        }
        let span = builder.start_with_context(&tracer, &parent);
        let cx = parent.with_span(span);
        Box::pin(async move {
            let outcome = next.run().with_context(cx.clone()).await;
            record(&cx, &outcome);
            outcome
        })
    }
}

/// The span's name and its attributes known before the outcome.
fn describe(request: &Request<'_>) -> (Cow<'static, str>, Vec<KeyValue>) {
    use mcp_core::Method;
    let method = request.method().name().unwrap_or("_OTHER");
    let mut attributes = Vec::with_capacity(8);
    attributes.push(KeyValue::new(attrs::METHOD, method));
    if let Some(version) = request.version() {
        attributes.push(KeyValue::new(attrs::PROTOCOL_VERSION, version.as_str()));
    }
    if let Some(session) = request.session_id() {
        attributes.push(KeyValue::new(attrs::SESSION_ID, session.to_owned()));
    }
    if request.kind() == Kind::Request
        && let Some(id) = request.id()
    {
        attributes.push(KeyValue::new(attrs::REQUEST_ID, id.to_string()));
    }
    match request.transport() {
        TransportKind::Stdio => attributes.push(KeyValue::new(attrs::TRANSPORT, "pipe")),
        TransportKind::StreamableHttp | TransportKind::LegacySse => {
            attributes.push(KeyValue::new(attrs::TRANSPORT, "tcp"));
            attributes.push(KeyValue::new(attrs::PROTOCOL_NAME, "http"));
        }
        _ => {}
    }
    let target = request.target();
    let name = match (request.method(), target) {
        (Method::CallTool, Some(tool)) => {
            attributes.push(KeyValue::new(attrs::TOOL_NAME, tool.to_owned()));
            attributes.push(KeyValue::new(attrs::OPERATION, "execute_tool"));
            Cow::Owned(format!("{method} {tool}"))
        }
        (Method::CallTool, None) => {
            attributes.push(KeyValue::new(attrs::OPERATION, "execute_tool"));
            Cow::Borrowed(method)
        }
        (Method::GetPrompt, Some(prompt)) => {
            attributes.push(KeyValue::new(attrs::PROMPT_NAME, prompt.to_owned()));
            Cow::Owned(format!("{method} {prompt}"))
        }
        (Method::ReadResource | Method::Subscribe | Method::Unsubscribe, Some(uri)) => {
            attributes.push(KeyValue::new(attrs::RESOURCE_URI, uri.to_owned()));
            Cow::Borrowed(method)
        }
        _ => Cow::Borrowed(method),
    };
    (name, attributes)
}

/// The outcome's attributes and status on the span, which then ends.
fn record(cx: &Context, outcome: &Outcome) {
    let span = cx.span();
    match (outcome.kind(), outcome.error_object()) {
        (_, Some(error)) => {
            let code = error.code.to_string();
            span.set_attribute(KeyValue::new(attrs::ERROR_TYPE, code.clone()));
            span.set_attribute(KeyValue::new(attrs::STATUS_CODE, code));
            span.set_status(Status::error(error.message.clone()));
        }
        (OutcomeKind::ToolError, None) => {
            span.set_attribute(KeyValue::new(attrs::ERROR_TYPE, "tool_error"));
            span.set_status(Status::error("tool_error"));
        }
        (OutcomeKind::Cancelled, None) => {
            span.set_attribute(KeyValue::new(attrs::ERROR_TYPE, "cancelled"));
            span.set_status(Status::error("cancelled"));
        }
        _ => {}
    }
    span.end();
}
