//! The conventions' attribute names, and the `tracing` subscriber layer that exports a
//! handler's own spans.

use opentelemetry::global;
use tracing::Subscriber;
use tracing::level_filters::LevelFilter;
use tracing::subscriber::Interest;
use tracing::{Level, Metadata};
use tracing_subscriber::Layer;
use tracing_subscriber::layer::{Context, Filter};
use tracing_subscriber::registry::LookupSpan;

pub(super) const METHOD: &str = "mcp.method.name";
pub(super) const PROTOCOL_VERSION: &str = "mcp.protocol.version";
pub(super) const SESSION_ID: &str = "mcp.session.id";
pub(super) const REQUEST_ID: &str = "jsonrpc.request.id";
pub(super) const TOOL_NAME: &str = "gen_ai.tool.name";
pub(super) const PROMPT_NAME: &str = "gen_ai.prompt.name";
pub(super) const RESOURCE_URI: &str = "mcp.resource.uri";
pub(super) const OPERATION: &str = "gen_ai.operation.name";
pub(super) const TRANSPORT: &str = "network.transport";
pub(super) const PROTOCOL_NAME: &str = "network.protocol.name";
pub(super) const ERROR_TYPE: &str = "error.type";
pub(super) const STATUS_CODE: &str = "rpc.response.status_code";

/// A `tracing-opentelemetry` layer for the application's `tracing` subscriber: it exports the
/// `tracing` spans (a handler's own, for instance) through the global tracer provider as it is
/// when this is called (install the provider first), each the child of the OpenTelemetry
/// context current where it was made (inside a handler: the request's SERVER span). The
/// dispatcher's own `mcp.request` span (the log context of stderr lines) is left out, and so
/// are spans and events below `INFO` (`#[tracing::instrument]`'s default level is `INFO`) and
/// the raw message log: a disabled call site costs nothing, where a layer without a level would
/// have every `debug!` and `trace!` of the process recorded, per call.
///
/// ```
/// use tracing_subscriber::layer::SubscriberExt;
///
/// // After the global tracer provider is installed:
/// let subscriber = tracing_subscriber::registry().with(mcp_runtime::otel::subscriber_layer());
/// # let _ = subscriber;
/// ```
pub fn subscriber_layer<S>() -> impl Layer<S> + Send + Sync + 'static
where
    S: Subscriber + for<'span> LookupSpan<'span> + Send + Sync,
{
    tracing_opentelemetry::layer()
        .with_tracer(global::tracer("mcp-runtime"))
        .with_filter(Exported)
}

/// What [`subscriber_layer`] exports, decided from a call site's metadata alone, so that a call
/// site it leaves out is disabled once (its `Interest` is `never`) instead of asked per call.
struct Exported;

impl Exported {
    fn keeps(meta: &Metadata<'_>) -> bool {
        *meta.level() <= Level::INFO
            && meta.target() != crate::transport::WIRE_TARGET
            && !(meta.is_span()
                && meta.name() == "mcp.request"
                && meta.target().starts_with("mcp_runtime"))
    }
}

impl<S> Filter<S> for Exported {
    fn enabled(&self, meta: &Metadata<'_>, _: &Context<'_, S>) -> bool {
        Self::keeps(meta)
    }

    fn callsite_enabled(&self, meta: &'static Metadata<'static>) -> Interest {
        if Self::keeps(meta) {
            Interest::always()
        } else {
            Interest::never()
        }
    }

    fn max_level_hint(&self) -> Option<LevelFilter> {
        Some(LevelFilter::INFO)
    }
}
