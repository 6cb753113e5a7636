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
//! The sampler is asked with the span's kind, the method as its name (`tools/call`) and the
//! attributes that are fixed text (`mcp.method.name`, `mcp.protocol.version`,
//! `network.transport`, `network.protocol.name`, `gen_ai.operation.name`); the target in the
//! name and the attributes copied from the request (`mcp.session.id`, `jsonrpc.request.id`,
//! `gen_ai.tool.name`, `gen_ai.prompt.name`, `mcp.resource.uri`) are set once it decided to
//! record, so a request left out by a ratio sampler allocates none of them.
//!
//! When the provider is the command line's (`Server::run` with `OTEL_EXPORTER_OTLP_ENDPOINT`,
//! or `cli::Telemetry::from_env`), the layer knows its sampler's ratio for root spans
//! (`parentbased_traceidratio`, `parentbased_always_off`, `always_off`) and decides a request
//! that starts a trace (no `_meta`, no ambient span) itself, by the SDK's own rule on 64
//! random bits: a request left out then costs that draw and a mark on the thread while its
//! future is polled, no span, no context. The command line's sampler leaves out the roots
//! started under the mark (the handler's own spans: children of a left-out root, left out as
//! a parent-based sampler would), and samples the roots the layer chose without drawing
//! again. A request with `_meta` or inside an ambient span, and any other provider, go
//! through the SDK as described above.
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
pub(crate) mod root;

use opentelemetry::propagation::{Extractor, TextMapCompositePropagator, TextMapPropagator};
use opentelemetry::trace::{
    FutureExt, Link, Span, SpanKind, Status, TraceContextExt, Tracer, TracerProvider,
};
use opentelemetry::{Context, InstrumentationScope, KeyValue, global};
use opentelemetry_sdk::propagation::{BaggagePropagator, TraceContextPropagator};
use opentelemetry_sdk::trace::{IdGenerator, RandomIdGenerator};
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
        match self.enter(request) {
            // The rest of the chain made now, polled with the thread marked.
            Entered::LeftOut => Box::pin(root::LeftOut(next.run())),
            traced => Box::pin(traced.run(move || next.run())),
        }
    }
}

/// What [`Tracing::enter`] decided for a request.
pub(crate) enum Entered {
    /// Left out by the layer's own root decision: no span, the thread marked while the rest
    /// of the chain is polled.
    LeftOut,
    /// The span's context, current while the rest of the chain is polled.
    Traced(Context),
}

impl Entered {
    /// The rest of the chain (made by `inner`) run as decided; a span ends with the outcome's
    /// attributes and status.
    pub(crate) async fn run<F, Fut>(self, inner: F) -> Outcome
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Outcome>,
    {
        match self {
            Self::LeftOut => root::LeftOut(std::pin::pin!(inner())).await,
            Self::Traced(cx) => {
                let outcome = inner().with_context(cx.clone()).await;
                record(&cx, &outcome);
                outcome
            }
        }
    }
}

impl Tracing {
    /// The layer's decision for `request`, and its span started when it is traced:
    /// [`Layer::call`]'s, and what the connection runs inline (without a box) when the crate's
    /// own layers are the whole chain.
    pub(crate) fn enter(&self, request: &Request<'_>) -> Entered {
        // A request that starts a trace (no `_meta` to carry a parent, no ambient span), when
        // the provider's root ratio is known: the layer draws the trace id and decides.
        let mut decided = false;
        if root::known()
            && request.meta_text().is_none()
            && !Context::map_current(|cx| cx.span().span_context().is_valid())
        {
            // One random draw: the bits a trace id's ratio decision reads (none inside a
            // left-out request: a mounted server's call is its child).
            let low = u64::from_be_bytes(RandomIdGenerator::default().new_span_id().to_bytes());
            match root::decide(low).map(|sampled| sampled && !root::inside_left_out()) {
                // Left out: no span and no context, the thread marked while it is served (so
                // that what the handler starts is left out too, as a child of a left-out root
                // is).
                Some(false) => return Entered::LeftOut,
                Some(true) => decided = true,
                None => {}
            }
        }
        let ambient = Context::current();
        let extracted = request.meta().map(|meta| {
            self.propagator
                .extract_with_context(&ambient, &MetaCarrier(meta))
        });
        let remote = extracted
            .as_ref()
            .is_some_and(|cx| cx.span().span_context().is_remote());
        // Extracted over the ambient context: without a `traceparent` the ambient span stays
        // the parent (and the baggage, if any, is added to it).
        let link = (remote && ambient.span().span_context().is_valid())
            .then(|| Link::with_context(ambient.span().span_context().clone()));
        let parent = extracted.unwrap_or(ambient);
        let tracer = global::tracer_provider().tracer_with_scope(self.scope.clone());
        // The sampler sees the method's name and the attributes that cost no allocation; the
        // rest (the target in the name, the ids) is added only to a span that records.
        let method = request.method().name().unwrap_or("_OTHER");
        let mut builder = tracer
            .span_builder(method)
            .with_kind(SpanKind::Server)
            .with_attributes(fixed(request, method));
        if let Some(link) = link {
            builder = builder.with_links(vec![link]);
        }
        let mut span = if decided {
            root::sampled(|| builder.start_with_context(&tracer, &parent))
        } else {
            builder.start_with_context(&tracer, &parent)
        };
        if span.is_recording() {
            describe(request, method, &mut span);
        }
        Entered::Traced(parent.with_span(span))
    }
}

/// The attributes of the span known before the outcome that are static text.
fn fixed(request: &Request<'_>, method: &'static str) -> Vec<KeyValue> {
    let mut attributes = Vec::with_capacity(5);
    attributes.push(KeyValue::new(attrs::METHOD, method));
    if let Some(version) = request.version() {
        attributes.push(KeyValue::new(attrs::PROTOCOL_VERSION, version.as_str()));
    }
    match request.transport() {
        TransportKind::Stdio => attributes.push(KeyValue::new(attrs::TRANSPORT, "pipe")),
        TransportKind::StreamableHttp | TransportKind::LegacySse => {
            attributes.push(KeyValue::new(attrs::TRANSPORT, "tcp"));
            attributes.push(KeyValue::new(attrs::PROTOCOL_NAME, "http"));
        }
        _ => {}
    }
    if request.method() == mcp_core::Method::CallTool {
        attributes.push(KeyValue::new(attrs::OPERATION, "execute_tool"));
    }
    attributes
}

/// A recording span's name (`{mcp.method.name} {target}` where the conventions want the
/// target) and the attributes that are the request's own text.
fn describe(request: &Request<'_>, method: &'static str, span: &mut impl Span) {
    use mcp_core::Method;
    if let Some(session) = request.session_id() {
        span.set_attribute(KeyValue::new(attrs::SESSION_ID, session.to_owned()));
    }
    if request.kind() == Kind::Request
        && let Some(id) = request.id()
    {
        span.set_attribute(KeyValue::new(attrs::REQUEST_ID, id.to_string()));
    }
    let Some(target) = request.target() else {
        return;
    };
    match request.method() {
        Method::CallTool => {
            span.set_attribute(KeyValue::new(attrs::TOOL_NAME, target.to_owned()));
            span.update_name(format!("{method} {target}"));
        }
        Method::GetPrompt => {
            span.set_attribute(KeyValue::new(attrs::PROMPT_NAME, target.to_owned()));
            span.update_name(format!("{method} {target}"));
        }
        Method::ReadResource | Method::Subscribe | Method::Unsubscribe => {
            span.set_attribute(KeyValue::new(attrs::RESOURCE_URI, target.to_owned()));
        }
        _ => {}
    }
}

/// The outcome's attributes and status on the span, which then ends.
fn record(cx: &Context, outcome: &Outcome) {
    let span = cx.span();
    if !span.is_recording() {
        span.end();
        return;
    }
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
