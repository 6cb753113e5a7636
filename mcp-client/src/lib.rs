//! An MCP client: connect to any [Model Context Protocol](https://modelcontextprotocol.io)
//! server (a spawned process over stdio, a Streamable HTTP endpoint of either protocol era, or
//! any message [`Transport`](transport::Transport)), call its tools, read its resources, get its prompts, and answer
//! its questions.
//!
//! ```no_run
//! # async fn f() -> Result<(), mcp_runtime_client::ClientError> {
//! use mcp_runtime_client::Client;
//!
//! let client = Client::builder().connect_http("http://127.0.0.1:8000/mcp").await?;
//! let tools = client.list_tools().await?;
//! println!("{} tools, the first is {}", tools.len(), tools[0].name);
//! let result = client.call_tool("add", serde_json::json!({"a": 2, "b": 3})).await?;
//! assert_eq!(result.content[0].as_text(), Some("5"));
//! # Ok(()) }
//! ```
//!
//! This crate is the client of [`mcp-runtime`](https://docs.rs/mcp-runtime), which re-exports it
//! as `mcp_runtime::client` behind its `client` feature (and the OAuth client behind
//! `client-oauth`); there, `Server::connect_client` connects a client to a server in the same
//! process. Depend on `mcp-runtime-client` alone for a client-only program: it compiles no
//! server code and no HTTP server stack.
//!
//! ```toml
//! [dependencies]
//! mcp-runtime-client = { version = "0.1", features = ["oauth"] }
//! ```
//!
//! # Cargo features
//!
//! - `oauth`: the OAuth 2.1 client of the MCP authorization specification (the `oauth`
//!   module, `ClientBuilder::oauth`): discovery from the server's 401, registration, PKCE,
//!   scopes and step-up, DPoP, refresh.
//! - `otel`: OpenTelemetry by the MCP semantic conventions (the `otel` module,
//!   `ClientBuilder::otel`): a CLIENT span per request, its W3C context in `params._meta`;
//!   and the client metrics (the `metrics` module: `mcp.client.operation.duration`,
//!   `mcp.client.session.duration`).
//!
//! # Eras
//!
//! By default the client asks `server/discover` first and speaks the stateless era
//! (2026-07-28: every request carries its `_meta`, HTTP requests carry `Mcp-Method`, `Mcp-Name`
//! and the tool's `Mcp-Param-*` headers) when the server supports it, and falls back to the
//! handshake era (`initialize`, sessions) otherwise; [`ClientBuilder::protocol_version`] picks
//! one revision instead. The typed methods are the same in both eras.
//!
//! # Questions from the server
//!
//! A [`ClientHandler`] answers elicitation, sampling and roots in both eras: requests of the
//! server in the handshake era, `input_required` results in the stateless era (the client
//! answers and retries with `inputResponses` and the untouched `requestState` itself, eight
//! rounds at most).
//!
//! # Bounds
//!
//! Every wait is bounded: requests time out (60 s unless set), at most 1024 are in flight, the
//! server's questions are answered 16 at a time, notifications wait in a queue of 256 holding
//! 32 MiB at most ([`ClientBuilder::max_notification_bytes`]), and a
//! dropped request future cancels the request on the server. What a server sends is bounded
//! too: a message (stdio line, HTTP JSON body, SSE event) is at most 16 MiB
//! ([`ClientBuilder::max_message_bytes`]), the pages of one list hold at most 16 MiB together
//! ([`ClientBuilder::max_list_bytes`]) and are at most 1000 ([`ClientBuilder::max_list_pages`]),
//! and a redirect to another origin carries none of the client's own headers (only `Accept`,
//! `Content-Type`, `Last-Event-ID` and the protocol's `MCP-Protocol-Version`, `Mcp-Method`,
//! `Mcp-Name`, `Mcp-Param-*`; ten redirects at most).

mod child;
mod engine;
mod error;
mod handler;
mod headers;
mod http;
mod incoming;
mod limits;
mod link;
mod lists;
mod methods;
#[cfg(feature = "otel")]
#[cfg_attr(docsrs, doc(cfg(feature = "otel")))]
pub mod metrics;
pub mod middleware;
mod notification;
#[cfg(feature = "oauth")]
#[cfg_attr(docsrs, doc(cfg(feature = "oauth")))]
pub mod oauth;
#[cfg(feature = "otel")]
#[cfg_attr(docsrs, doc(cfg(feature = "otel")))]
pub mod otel;
mod outgoing;
mod output;
mod redirect;
mod skills;
mod sse;

use std::sync::Arc;
use std::time::Duration;

use mcp_io::lock;

use mcp_core::{
    ClientCapabilities, Implementation, InitializeRequestParams, InitializeResult, ProtocolVersion,
    ServerCapabilities,
};
use serde_json::{Map, Value};
use tokio::sync::mpsc;

use engine::{Config, Engine, Options};
use limits::Limits;
use link::{Link, MessageLink};
use outgoing::{Answer, INBOUND_QUEUE, Incoming};

pub use error::{ClientError, TransportError};
pub use handler::{ClientHandler, NoHandler};
#[doc(no_inline)]
pub use mcp_core as protocol;
#[doc(no_inline)]
pub use mcp_core::typed::{OutputError, ToolArguments, ToolOutput};
#[doc(no_inline)]
pub use mcp_io::{BoxFuture, ErrorChain};
pub use methods::{Call, Listener};
pub use notification::{Notifications, NotificationsError, ServerNotification};
pub use skills::{SKILLS_EXTENSION, Skill, SkillEntry, SkillFile};

/// The transport traits [`ClientBuilder::connect`] runs over, and the in-memory pair (the same
/// items as `mcp_runtime::transport`).
///
/// ```
/// use mcp_runtime_client::transport::{Transport, memory};
///
/// let (_server_end, client_end) = memory::pair(16);
/// let (_rx, _tx) = client_end.split();
/// ```
pub mod transport {
    #[doc(no_inline)]
    pub use mcp_io::{Inbound, Inbox, Outbound, Outbox, Transport, WIRE_TARGET, memory};
}

/// A connection to one MCP server. Cheap to clone; every clone speaks on the same connection.
///
/// Built with [`Client::builder`]; see the [crate docs](crate).
#[derive(Debug, Clone)]
pub struct Client {
    engine: Arc<Engine>,
}

/// Configures and connects a [`Client`].
///
/// ```
/// use std::time::Duration;
/// use mcp_runtime_client::Client;
/// use mcp_runtime_client::protocol::{Implementation, ProtocolVersion};
///
/// let builder = Client::builder()
///     .info(Implementation::new("my-agent", "1.0.0"))
///     .protocol_version(ProtocolVersion::V2025_11_25)
///     .timeout(Some(Duration::from_secs(30)));
/// # let _ = builder;
/// ```
#[must_use]
pub struct ClientBuilder {
    info: Implementation,
    capabilities: ClientCapabilities,
    handler: Arc<dyn ClientHandler>,
    version: Option<ProtocolVersion>,
    timeout: Option<Duration>,
    max_in_flight: usize,
    headers: Vec<(String, String)>,
    listen: bool,
    authorizer: Option<Arc<dyn http::Authorizer>>,
    limits: Limits,
    layers: middleware::Layers,
    validate_output: bool,
}

impl std::fmt::Debug for ClientBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientBuilder")
            .field("info", &self.info)
            .field("version", &self.version)
            .finish_non_exhaustive()
    }
}

impl Client {
    /// A builder with the defaults: this crate's name as client info, no capabilities, a
    /// 60-second request timeout, era chosen by asking the server.
    ///
    /// ```
    /// let _ = mcp_runtime_client::Client::builder();
    /// ```
    pub fn builder() -> ClientBuilder {
        ClientBuilder {
            info: Implementation::new("mcp-runtime-client", env!("CARGO_PKG_VERSION")),
            capabilities: ClientCapabilities::default(),
            handler: Arc::new(NoHandler),
            version: None,
            timeout: Some(Duration::from_secs(60)),
            max_in_flight: 1024,
            headers: Vec::new(),
            listen: true,
            authorizer: None,
            limits: Limits::default(),
            layers: middleware::Layers::default(),
            validate_output: false,
        }
    }

    /// The negotiated revision.
    #[must_use]
    pub fn protocol_version(&self) -> ProtocolVersion {
        lock(&self.engine.state).version
    }

    /// The server's name and version (from `initialize` or `server/discover`).
    #[must_use]
    pub fn server_info(&self) -> Option<Implementation> {
        lock(&self.engine.state).server_info.clone()
    }

    /// The server's capabilities.
    #[must_use]
    pub fn server_capabilities(&self) -> ServerCapabilities {
        lock(&self.engine.state).capabilities.clone()
    }

    /// The server's instructions, if it gave any.
    #[must_use]
    pub fn instructions(&self) -> Option<String> {
        lock(&self.engine.state).instructions.clone()
    }

    /// The HTTP session id, when the server assigned one.
    #[must_use]
    pub fn session_id(&self) -> Option<String> {
        match &self.engine.link {
            Link::Http(h) => h.session(),
            Link::Messages(_) => None,
        }
    }

    /// The server's notifications from now on (see [`Notifications`]).
    #[must_use]
    pub fn notifications(&self) -> Notifications {
        self.engine.subscribe()
    }

    /// Closes the connection: requests in flight fail with [`ClientError::Closed`], an HTTP
    /// session is ended with `DELETE`, a spawned server is stopped.
    pub async fn close(&self) {
        self.engine.shut(None);
        self.engine.link.close().await;
    }

    /// One request with the stateless era's version fallback: a server that answers -32022
    /// with the versions it supports is asked again, once, with one of them.
    pub(crate) async fn raw(
        &self,
        method: &str,
        params: Map<String, Value>,
        options: Options,
    ) -> Result<Answer, ClientError> {
        let first = self
            .engine
            .request(method, params.clone(), options.clone())
            .await;
        let Err(ClientError::Rpc(e)) = &first else {
            return first;
        };
        if e.code != mcp_core::jsonrpc::error_codes::UNSUPPORTED_PROTOCOL_VERSION {
            return first;
        }
        let supported = e
            .data
            .as_ref()
            .and_then(|d| d.get("supported"))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let current = self.protocol_version();
        let pick = supported
            .iter()
            .filter_map(|v| v.as_str().and_then(ProtocolVersion::parse))
            .filter(|v| v.era() == current.era())
            .max();
        let Some(pick) = pick else { return first };
        lock(&self.engine.state).version = pick;
        self.engine.request(method, params, options).await
    }

    async fn discover(&self) -> Result<(), ClientError> {
        let result = self
            .raw("server/discover", Map::new(), Options::default())
            .await?
            .value("server/discover")?;
        let supported: Vec<ProtocolVersion> = result
            .get("supportedVersions")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().and_then(ProtocolVersion::parse))
                    .collect()
            })
            .unwrap_or_default();
        let mut state = lock(&self.engine.state);
        if !supported.contains(&state.version) {
            match supported.iter().copied().filter(|v| v.is_stateless()).max() {
                Some(v) => state.version = v,
                None => {
                    return Err(ClientError::protocol(format!(
                        "the server supports none of the stateless revisions ({supported:?})"
                    )));
                }
            }
        }
        if let Some(caps) = result.get("capabilities") {
            state.capabilities = serde_json::from_value(caps.clone()).unwrap_or_default();
        }
        let info = result.get("serverInfo").or_else(|| {
            result
                .get("_meta")
                .and_then(|m| m.get(mcp_core::meta::SERVER_INFO_KEY))
        });
        state.server_info = info.and_then(|i| serde_json::from_value(i.clone()).ok());
        state.instructions = result
            .get("instructions")
            .and_then(Value::as_str)
            .map(str::to_owned);
        state.ready = true;
        Ok(())
    }

    async fn initialize(&self, version: ProtocolVersion, listen: bool) -> Result<(), ClientError> {
        lock(&self.engine.state).version = version;
        let mut params =
            InitializeRequestParams::new(version.as_str(), self.engine.config.info.clone());
        params.capabilities = self.engine.config.capabilities.clone();
        let params = methods::to_map(&params)?;
        let result = self
            .engine
            .request("initialize", params, Options::default())
            .await?;
        let init: InitializeResult = result
            .decode()
            .map_err(|e| ClientError::decode("initialize", e))?;
        if init.protocol_version.is_stateless() {
            return Err(ClientError::protocol(format!(
                "the server chose {} in answer to initialize",
                init.protocol_version.as_str()
            )));
        }
        {
            let mut state = lock(&self.engine.state);
            state.version = init.protocol_version;
            state.capabilities = init.capabilities;
            state.server_info = Some(init.server_info);
            state.instructions = init.instructions;
            state.ready = true;
        }
        self.engine
            .notify("notifications/initialized", Value::Object(Map::new()))
            .await?;
        if let (true, Link::Http(h)) = (listen, &self.engine.link) {
            h.listen().await;
        }
        Ok(())
    }
}

impl ClientBuilder {
    /// The client's name and version, sent to the server.
    pub fn info(mut self, info: Implementation) -> Self {
        self.info = info;
        self
    }

    /// The capabilities the client declares (declare those its [`ClientHandler`] answers).
    ///
    /// ```
    /// use mcp_runtime_client::Client;
    /// use mcp_runtime_client::protocol::ClientCapabilities;
    ///
    /// let caps: ClientCapabilities =
    ///     serde_json::from_value(serde_json::json!({"elicitation": {"form": {}}})).unwrap();
    /// let _ = Client::builder().capabilities(caps);
    /// ```
    pub fn capabilities(mut self, capabilities: ClientCapabilities) -> Self {
        self.capabilities = capabilities;
        self
    }

    /// Who answers the server's questions (elicitation, sampling, roots) in both eras.
    pub fn handler(mut self, handler: impl ClientHandler) -> Self {
        self.handler = Arc::new(handler);
        self
    }

    /// Speaks this revision only (`initialize` for the handshake era, `server/discover` and
    /// per-request `_meta` for 2026-07-28) instead of asking the server.
    pub fn protocol_version(mut self, version: ProtocolVersion) -> Self {
        self.version = Some(version);
        self
    }

    /// How long a request waits for its answer unless told otherwise (`None`: as long as the
    /// server takes). Defaults to 60 seconds.
    pub fn timeout(mut self, timeout: Option<Duration>) -> Self {
        self.timeout = timeout;
        self
    }

    /// How many requests may be in flight at once (1024 unless set).
    pub fn max_in_flight(mut self, max: usize) -> Self {
        self.max_in_flight = max.max(1);
        self
    }

    /// Adds a middleware layer around every request the client sends (see
    /// [`middleware`]); the first added is the outermost.
    ///
    /// ```
    /// use mcp_runtime_client::Client;
    /// use mcp_runtime_client::middleware::from_fn;
    ///
    /// let builder = Client::builder().layer(from_fn(|_request, next| next.run()));
    /// # let _ = builder;
    /// ```
    pub fn layer(mut self, layer: impl middleware::Layer) -> Self {
        self.layers.push(Arc::new(layer));
        self
    }

    /// OpenTelemetry by the MCP semantic conventions (feature `otel`): adds the layer
    /// [`otel::Tracing`], a CLIENT span per request with its context in `params._meta`,
    /// inside the layers added before it.
    ///
    /// ```
    /// let builder = mcp_runtime_client::Client::builder().otel();
    /// # let _ = builder;
    /// ```
    #[cfg(feature = "otel")]
    #[cfg_attr(docsrs, doc(cfg(feature = "otel")))]
    pub fn otel(self) -> Self {
        self.layer(otel::Tracing::new())
    }

    /// An HTTP header sent with every HTTP request (an `Authorization` header, a tenant, …).
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// Whether a handshake-era HTTP session opens the standalone `GET` stream for the server's
    /// own requests and notifications (on unless turned off).
    pub fn listen(mut self, listen: bool) -> Self {
        self.listen = listen;
        self
    }

    /// Authorizes HTTP requests with OAuth 2.1 (feature `oauth`): a token is obtained when the
    /// server first refuses a request (401) and again when it asks for more scope (403), then
    /// sent as `Authorization: Bearer` on every request. See [`oauth`].
    ///
    /// ```
    /// use mcp_runtime_client::Client;
    /// use mcp_runtime_client::oauth::OAuth;
    ///
    /// let builder = Client::builder().oauth(OAuth::builder().client_name("my-agent").build());
    /// # let _ = builder;
    /// ```
    #[cfg(feature = "oauth")]
    #[cfg_attr(docsrs, doc(cfg(feature = "oauth")))]
    pub fn oauth(mut self, oauth: oauth::OAuth) -> Self {
        self.authorizer = Some(Arc::new(oauth));
        self
    }

    /// Connects to a Streamable HTTP endpoint (`http://host:port/mcp`).
    pub async fn connect_http(self, url: &str) -> Result<Client, ClientError> {
        self.limits.check()?;
        let url = reqwest::Url::parse(url)
            .map_err(|e| TransportError::with_source(format!("invalid URL {url:?}"), e))?;
        let mut headers = reqwest::header::HeaderMap::new();
        for (name, value) in &self.headers {
            let name = reqwest::header::HeaderName::try_from(name.as_str())
                .map_err(|e| TransportError::with_source(format!("header name {name:?}"), e))?;
            let value = reqwest::header::HeaderValue::try_from(value.as_str())
                .map_err(|e| TransportError::with_source(format!("header {name}'s value"), e))?;
            headers.append(name, value);
        }
        let (tx, rx) = mpsc::channel(INBOUND_QUEUE);
        let link = http::HttpLink::new(url, headers, tx, self.authorizer.clone(), self.limits)?;
        self.finish(
            Link::Http(link),
            rx,
            middleware::TransportKind::StreamableHttp,
        )
        .await
    }

    /// Spawns a server and speaks to it over its stdin and stdout; the process is killed when
    /// the client closes or the last clone is dropped.
    ///
    /// ```no_run
    /// # async fn f() -> Result<(), mcp_runtime_client::ClientError> {
    /// let mut command = tokio::process::Command::new("gift-server");
    /// command.arg("stdio");
    /// let client = mcp_runtime_client::Client::builder().connect_stdio(command).await?;
    /// # let _ = client; Ok(()) }
    /// ```
    pub async fn connect_stdio(
        self,
        command: tokio::process::Command,
    ) -> Result<Client, ClientError> {
        self.limits.check()?;
        let (child, transport) = child::spawn(command, self.limits.max_message)
            .map_err(|e| TransportError::with_source("could not start the server", e))?;
        let (tx, rx) = mpsc::channel(INBOUND_QUEUE);
        let link = MessageLink::start(transport, tx, self.limits.max_message);
        let child = std::sync::Mutex::new(Some(child));
        link.on_close(move || {
            if let Some(mut child) = lock(&child).take() {
                let _ = child.start_kill();
            }
        });
        self.finish(Link::Messages(link), rx, middleware::TransportKind::Stdio)
            .await
    }

    /// Connects over any message [`Transport`](transport::Transport).
    pub async fn connect<T: transport::Transport>(
        self,
        transport: T,
    ) -> Result<Client, ClientError> {
        self.limits.check()?;
        let (tx, rx) = mpsc::channel(INBOUND_QUEUE);
        let link = MessageLink::start(transport, tx, self.limits.max_message);
        self.finish(Link::Messages(link), rx, middleware::TransportKind::Other)
            .await
    }

    async fn finish(
        self,
        link: Link,
        inbound: mpsc::Receiver<Incoming>,
        transport: middleware::TransportKind,
    ) -> Result<Client, ClientError> {
        let config = Config {
            transport,
            info: self.info,
            capabilities: self.capabilities,
            timeout: self.timeout,
            max_in_flight: self.max_in_flight,
            limits: self.limits,
            layers: self.layers,
            validate_output: self.validate_output,
        };
        let first = self.version.unwrap_or(ProtocolVersion::LATEST);
        let engine = Engine::start(link, inbound, config, self.handler, first);
        let client = Client { engine };
        let outcome = match self.version {
            Some(v) if v.is_stateless() => client.discover().await,
            Some(v) => client.initialize(v, self.listen).await,
            None => match client.discover().await {
                Ok(()) => Ok(()),
                Err(ClientError::Closed | ClientError::TooManyInFlight(_)) => {
                    Err(ClientError::Closed)
                }
                Err(_) => {
                    client
                        .initialize(ProtocolVersion::LATEST_HANDSHAKE, self.listen)
                        .await
                }
            },
        };
        match outcome {
            Ok(()) => Ok(client),
            Err(e) => {
                client.close().await;
                Err(e)
            }
        }
    }
}
