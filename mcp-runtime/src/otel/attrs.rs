//! The conventions' attribute names, and the `tracing` subscriber layer that exports a
//! handler's own spans.

use opentelemetry::global;
use tracing::Subscriber;
use tracing_subscriber::Layer;
use tracing_subscriber::filter::filter_fn;
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
/// dispatcher's own `mcp.request` span (the log context of stderr lines) is left out.
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
        .with_filter(filter_fn(|meta| {
            !(meta.is_span()
                && meta.name() == "mcp.request"
                && meta.target().starts_with("mcp_runtime"))
        }))
}
