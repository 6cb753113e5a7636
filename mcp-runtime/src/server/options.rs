//! A server's limits and policies.

use std::time::Duration;

use crate::schema::SchemaProfile;

/// How argument validation failures of tools are reported.
///
/// Either way the message is the same, and it tells every problem of the arguments, not only
/// the first: one problem as it is (`invalid arguments for tool 'draft': property 'keep': must
/// be at most 280, got 500`); more as a count and one line each, at most ten, then how many
/// more there are:
///
/// ```text
/// invalid arguments for tool 'draft': 2 problems:
/// - property 'text': expected a string, got integer 5
/// - property 'keep': must be at most 280, got 500
/// ```
///
/// The problems come in the order of the properties in the arguments (the document's order,
/// as the client wrote it), problems of missing required properties last, in the order of the
/// parameters. What a wrong value causes below it is one problem (a string where an object
/// goes is not also missing each of the object's properties). The bounds `#[arg(min, max,
/// pattern)]` set are checked with the rest; unknown properties (where they are refused) are
/// told before anything else, as one problem naming them all. The search is bounded (the
/// arguments are read again at most 48 times); when it stops before the end (at that bound, or
/// at a value of a shape it cannot stand in for, such as a tuple of the wrong length), the
/// count says `at least 3 problems:`.
///
/// `prompts/get` (always -32602) tells every missing required argument at once the same way;
/// a given argument that does not parse is told alone, once none is missing.
///
/// ```
/// use mcp_runtime::ValidationErrors;
/// assert_eq!(ValidationErrors::default(), ValidationErrors::ByRevision);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum ValidationErrors {
    /// `isError: true` results from 2025-11-25 on (SEP-1303), -32602 errors before.
    #[default]
    ByRevision,
    /// Always an `isError: true` result, so the model can correct itself.
    ToolResult,
    /// Always a -32602 protocol error.
    ProtocolError,
}

/// Limits and policies of a server.
#[derive(Debug, Clone)]
pub(crate) struct ServerOptions {
    pub(crate) profile: SchemaProfile,
    pub(crate) page_size: usize,
    pub(crate) ttl_ms: u64,
    pub(crate) validation: ValidationErrors,
    /// Whether tools that do not say accept arguments their schema does not name.
    pub(crate) allow_unknown_args: bool,
    /// Whether structured results are checked against output schemas that are not derived
    /// (tools that do not say, and mounted tools).
    pub(crate) validate_output: bool,
    pub(crate) max_in_flight: usize,
    pub(crate) max_message_bytes: usize,
    pub(crate) outbound_queue: usize,
    pub(crate) drain_timeout: Duration,
    pub(crate) inline_first_poll: bool,
    pub(crate) client_request_timeout: Duration,
    /// Requests to the client waiting for answers, per connection or session.
    pub(crate) max_client_requests: usize,
    /// Requests to the client waiting for answers, server-wide.
    pub(crate) max_client_requests_total: usize,
    /// `subscriptions/listen` streams open at once, server-wide.
    pub(crate) max_listeners: usize,
    pub(crate) request_state_ttl: Duration,
    pub(crate) shutdown_on_signals: bool,
    /// How widgets (MCP Apps) are presented beyond the standard keys.
    pub(crate) apps: crate::apps::AppsOptions,
    /// This replica's name when it is one of several (it tags requests to the client).
    pub(crate) node: Option<std::sync::Arc<str>>,
    /// The middleware layers, outermost first (`ServerBuilder::layer`).
    pub(crate) layers: crate::middleware::Layers,
    /// The metrics the server keeps (`ServerBuilder::metrics`, or the command line's
    /// `--metrics`): its layer is among `layers`; sessions and the HTTP gate record here too.
    pub(crate) metrics: std::sync::OnceLock<crate::metrics::Metrics>,
    /// `ServerBuilder::card`, if called.
    pub(crate) card: Option<crate::card::CardOptions>,
    /// What becomes of the server's own items (`ServerBuilder::transform`).
    pub(crate) transforms: crate::transform::Transforms,
    /// The rule giving each request its view of the tagged items (`ServerBuilder::visibility`).
    pub(crate) visibility: Option<crate::transform::Visibility>,
    /// `ServerBuilder::skills`, if called.
    pub(crate) skills: Option<crate::skills::Skills>,
}

impl Default for ServerOptions {
    fn default() -> Self {
        Self {
            profile: SchemaProfile::Portable,
            page_size: 100,
            ttl_ms: 300_000,
            validation: ValidationErrors::ByRevision,
            allow_unknown_args: false,
            validate_output: true,
            max_in_flight: 256,
            max_message_bytes: 4 * 1024 * 1024,
            outbound_queue: 1024,
            drain_timeout: Duration::from_secs(10),
            inline_first_poll: true,
            client_request_timeout: Duration::from_secs(120),
            max_client_requests: 32,
            max_client_requests_total: 4096,
            max_listeners: 4096,
            request_state_ttl: Duration::from_secs(600),
            shutdown_on_signals: true,
            apps: crate::apps::AppsOptions::new(),
            node: None,
            layers: crate::middleware::Layers::default(),
            metrics: std::sync::OnceLock::new(),
            card: None,
            transforms: crate::transform::Transforms::new(),
            visibility: None,
            skills: None,
        }
    }
}

impl crate::ServerBuilder {
    /// Whether successful results are checked against output schemas that are not derived from
    /// the tool's return type (on unless turned off): a hand-written one
    /// ([`ToolRecord::with_output_schema`](crate::registry::ToolRecord::with_output_schema)),
    /// a mounted server's. The specification's tools page says "Servers **MUST** provide
    /// structured results that conform to this schema", so a result whose `structuredContent`
    /// does not is answered with a JSON-RPC error -32603 naming the tool, the JSON path and the
    /// keyword that failed (`tool 'quote' returned a result that does not conform to its
    /// outputSchema: structuredContent at /items/0/price fails "type": "ten" is not of type
    /// "number"`; the same in `data`: `tool`, `path`, `keyword`). A tool says for itself with
    /// [`ToolRecord::with_output_validation`](crate::registry::ToolRecord::with_output_validation),
    /// a mount with [`MountOptions::validate_output`](crate::transform::MountOptions::validate_output).
    /// Whether a tool is checked is decided once, when the server is built, and its schema
    /// compiled then; `Json<T>` results (a derived schema) are never checked and cost nothing.
    ///
    /// ```
    /// let builder = mcp_runtime::Server::builder(mcp_runtime::server_info!()).validate_output(false);
    /// # let _ = builder;
    /// ```
    pub fn validate_output(mut self, on: bool) -> Self {
        self.options_mut().validate_output = on;
        self
    }

    /// Transforms one of the server's own items (named by its registered name): renamed,
    /// hidden, its arguments renamed, fixed or defaulted, its description and annotations
    /// overridden, tagged; or a resource or a prompt exposed as a tool (see
    /// [`transform`](crate::transform)). Applied once, when the catalog is built (checked by
    /// [`build`](Self::build): a transform naming nothing, or not fitting its item, fails it).
    ///
    /// ```standalone_crate
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use mcp_runtime::prelude::*;
    /// use mcp_runtime::transform::{ArgTransform, ToolTransform};
    ///
    /// /// Searches.
    /// #[tool]
    /// async fn search(q: String, limit: u32) -> String {
    ///     format!("{q} {limit}")
    /// }
    ///
    /// let server = Server::builder(server_info!())
    ///     .tool(search::TOOL)
    ///     .transform(
    ///         ToolTransform::new("search")
    ///             .rename("find")
    ///             .arg("q", ArgTransform::rename("query"))
    ///             .arg("limit", ArgTransform::new().default(serde_json::json!(5))),
    ///     )
    ///     .build()
    ///     .unwrap();
    /// let client = server.connect_client(mcp_runtime::client::Client::builder()).await.unwrap();
    /// let r = client.call_tool("find", serde_json::json!({"query": "cats"})).await.unwrap();
    /// assert_eq!(r.content[0].as_text(), Some("cats 5"));
    /// # });
    /// ```
    pub fn transform(mut self, t: impl Into<crate::transform::Transform>) -> Self {
        self.options_mut().transforms.push(t.into());
        self
    }

    /// The rule that decides, per request, which tagged items a caller sees and may use (see
    /// [`Visibility`](crate::transform::Visibility)); tags come from transforms. An item its view
    /// does not see is left out of the caller's lists and is unknown to its calls (the error of
    /// an item that does not exist). List pages are built once per distinct view.
    ///
    /// ```
    /// use mcp_runtime::prelude::*;
    /// use mcp_runtime::transform::{View, Visibility};
    /// let server = Server::builder(server_info!())
    ///     .visibility(Visibility::new(|_| View::everything().hiding(["admin"])))
    ///     .build()
    ///     .unwrap();
    /// # let _ = server;
    /// ```
    pub fn visibility(mut self, rule: crate::transform::Visibility) -> Self {
        self.options_mut().visibility = Some(rule);
        self
    }

    /// The share of every shared pool one principal may hold (connections and long-lived
    /// streams, sessions, requests to the client awaiting answers); see
    /// [`FairShares`](crate::principal::FairShares) for the defaults.
    ///
    /// ```
    /// use mcp_runtime::prelude::*;
    /// use mcp_runtime::principal::FairShares;
    ///
    /// let builder = Server::builder(server_info!())
    ///     .fair_shares(FairShares::new().connections_per_peer(16).streams(512, 16));
    /// # let _ = builder;
    /// ```
    pub fn fair_shares(self, shares: crate::principal::FairShares) -> Self {
        self.set_fair_shares(shares)
    }

    /// Adds a middleware layer (see [`middleware`](crate::middleware)): it runs around every
    /// message a client sends, on every transport. The first layer added is the outermost (it
    /// sees the request first and the outcome last), as with tower's `ServiceBuilder`.
    ///
    /// ```
    /// use mcp_runtime::middleware::from_fn;
    /// use mcp_runtime::prelude::*;
    ///
    /// let builder = Server::builder(server_info!())
    ///     .layer(from_fn(|_request, next| next.run())) // outermost
    ///     .layer(from_fn(|_request, next| next.run())); // inside it
    /// # let _ = builder;
    /// ```
    pub fn layer(mut self, layer: impl crate::middleware::Layer) -> Self {
        self.options_mut().layers.push(std::sync::Arc::new(layer));
        self
    }

    /// OpenTelemetry by the MCP semantic conventions (feature `otel`): adds the layer
    /// [`otel::Tracing`](crate::otel::Tracing), a SERVER span per request and notification,
    /// outside the layers added after it. Add it first to have it outermost.
    ///
    /// ```
    /// use mcp_runtime::prelude::*;
    ///
    /// let server = Server::builder(server_info!()).otel().build().unwrap();
    /// # let _ = server;
    /// ```
    #[cfg(feature = "otel")]
    #[cfg_attr(docsrs, doc(cfg(feature = "otel")))]
    pub fn otel(mut self) -> Self {
        let options = self.options_mut();
        options
            .layers
            .push(std::sync::Arc::new(crate::otel::Tracing::new()));
        options.layers.otel = true;
        self
    }

    /// Keeps metrics by the OpenTelemetry MCP semantic conventions in `metrics` (see
    /// [`metrics`](crate::metrics)): its layer runs outside every layer of
    /// [`layer`](Self::layer), whenever it is added, so that it counts what they refuse.
    /// Only the first given is kept (a second call is ignored, with a warning).
    ///
    /// ```
    /// use mcp_runtime::metrics::Metrics;
    /// use mcp_runtime::prelude::*;
    ///
    /// let metrics = Metrics::new();
    /// let server = Server::builder(server_info!()).metrics(&metrics).build().unwrap();
    /// # let _ = server;
    /// ```
    pub fn metrics(mut self, metrics: &crate::metrics::Metrics) -> Self {
        let options = self.options_mut();
        if options.metrics.set(metrics.clone()).is_ok() {
            options
                .layers
                .push_outer(std::sync::Arc::new(metrics.clone()));
        } else {
            tracing::warn!("ServerBuilder::metrics given twice: the first metrics are kept");
        }
        self
    }
}
