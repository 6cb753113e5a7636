//! The server and its builder.

use std::any::{Any, TypeId};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use mcp_core::{Implementation, Meta, ProtocolVersion, ServerCapabilities};
use serde_json::Value;

use crate::context::StateMap;
use crate::error::Error;
use crate::mrtr::StateKey;
use crate::notify::{Hub, ListChanged};
use crate::registry::{
    self, Catalog, CatalogSettings, ListKind, PromptRecord, ResourceRecord, ToolRecord,
};
use crate::schema::SchemaProfile;

/// How argument validation failures of tools are reported.
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
pub(crate) struct Options {
    pub(crate) profile: SchemaProfile,
    pub(crate) page_size: usize,
    pub(crate) ttl_ms: u64,
    pub(crate) validation: ValidationErrors,
    pub(crate) max_in_flight: usize,
    pub(crate) max_message_bytes: usize,
    pub(crate) outbound_queue: usize,
    pub(crate) drain_timeout: std::time::Duration,
    pub(crate) inline_first_poll: bool,
    pub(crate) client_request_timeout: Duration,
    pub(crate) request_state_ttl: Duration,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            profile: SchemaProfile::Portable,
            page_size: 100,
            ttl_ms: 300_000,
            validation: ValidationErrors::ByRevision,
            max_in_flight: 256,
            max_message_bytes: 4 * 1024 * 1024,
            outbound_queue: 1024,
            drain_timeout: std::time::Duration::from_secs(10),
            inline_first_poll: true,
            client_request_timeout: Duration::from_secs(600),
            request_state_ttl: Duration::from_secs(600),
        }
    }
}

/// The name and version of *your* crate, for `serverInfo`.
///
/// Expands `env!("CARGO_PKG_NAME")`, `CARGO_PKG_VERSION` and `CARGO_PKG_DESCRIPTION` in the
/// calling crate, so the server reports itself, not this framework.
///
/// ```
/// let info = mcp_runtime::server_info!();
/// assert_eq!(info.name, env!("CARGO_PKG_NAME"));
/// ```
#[macro_export]
macro_rules! server_info {
    () => {
        $crate::__private::server_info(
            ::core::env!("CARGO_PKG_NAME"),
            ::core::env!("CARGO_PKG_VERSION"),
            ::core::env!("CARGO_PKG_DESCRIPTION"),
        )
    };
}

/// Builds a [`Server`]: items, state, instructions and limits.
///
/// ```standalone_crate
/// use mcp_runtime::prelude::*;
///
/// /// Says hello.
/// #[tool]
/// async fn hello(name: String) -> String {
///     format!("Hello, {name}!")
/// }
///
/// let server = Server::builder(server_info!())
///     .tool(hello::TOOL)
///     .instructions("Greets people")
///     .build()
///     .unwrap();
/// assert_eq!(server.tool_names().collect::<Vec<_>>(), ["hello"]);
/// ```
#[must_use]
pub struct ServerBuilder {
    info: Implementation,
    instructions: Option<String>,
    tools: Vec<ToolRecord>,
    resources: Vec<ResourceRecord>,
    prompts: Vec<PromptRecord>,
    state: StateMap,
    options: Options,
    state_key: Option<StateKey>,
    #[cfg(feature = "http")]
    http: crate::http::HttpOptions,
}

impl std::fmt::Debug for ServerBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerBuilder")
            .field("info", &self.info)
            .field("tools", &self.tools.len())
            .field("resources", &self.resources.len())
            .field("prompts", &self.prompts.len())
            .finish_non_exhaustive()
    }
}

impl ServerBuilder {
    /// Adds a tool record (`my_fn::TOOL`).
    pub fn tool(mut self, record: ToolRecord) -> Self {
        self.tools.push(record);
        self
    }

    /// Adds a resource or resource template record (`my_fn::RESOURCE`).
    pub fn resource(mut self, record: ResourceRecord) -> Self {
        self.resources.push(record);
        self
    }

    /// Adds a prompt record (`my_fn::PROMPT`).
    pub fn prompt(mut self, record: PromptRecord) -> Self {
        self.prompts.push(record);
        self
    }

    /// Instructions for the model, sent in `initialize` and `server/discover` results.
    pub fn instructions(mut self, text: impl Into<String>) -> Self {
        self.instructions = Some(text.into());
        self
    }

    /// Application state, injected into handlers as `State<T>`.
    pub fn state<T: Send + Sync + 'static>(mut self, value: T) -> Self {
        self.state.insert(
            TypeId::of::<T>(),
            Arc::new(value) as Arc<dyn Any + Send + Sync>,
        );
        self
    }

    /// The schema profile (default: [`SchemaProfile::Portable`]).
    pub fn schema_profile(mut self, profile: SchemaProfile) -> Self {
        self.options.profile = profile;
        self
    }

    /// Items per list page (default 100).
    pub fn page_size(mut self, size: usize) -> Self {
        self.options.page_size = size;
        self
    }

    /// `ttlMs` of cacheable results in the stateless era (default 300 000).
    pub fn cache_ttl_ms(mut self, ttl: u64) -> Self {
        self.options.ttl_ms = ttl;
        self
    }

    /// How tool argument validation failures are reported.
    pub fn validation_errors(mut self, policy: ValidationErrors) -> Self {
        self.options.validation = policy;
        self
    }

    /// Whether a handler's first poll runs on the connection's own task (default `true`).
    ///
    /// Most handlers finish without waiting for anything; running their first poll in place
    /// saves a task and a hand-over between threads per call. A handler that waits continues in
    /// a task of its own either way. A handler that *blocks* its thread (a long synchronous
    /// computation, `std::thread::sleep`) would hold up the connection meanwhile: the first time
    /// one does (over 50 ms), the connection switches to a task per request for good, and logs it.
    /// Turn this off when your handlers block, or move the blocking work to
    /// `tokio::task::spawn_blocking`.
    ///
    /// ```
    /// # let info = mcp_runtime::server_info!();
    /// let builder = mcp_runtime::Server::builder(info).inline_first_poll(false);
    /// # let _ = builder;
    /// ```
    pub fn inline_first_poll(mut self, on: bool) -> Self {
        self.options.inline_first_poll = on;
        self
    }

    /// Most handler requests (`tools/call`, `resources/read`, `prompts/get`, completion) running
    /// at once per connection (default 256). Further requests wait for a slot without blocking
    /// pings or cancellations; once four times as many (at least 64) are admitted, the connection
    /// stops reading until one finishes (back-pressure) rather than refusing work.
    pub fn max_in_flight(mut self, limit: usize) -> Self {
        self.options.max_in_flight = limit;
        self
    }

    /// Largest accepted message in bytes (default 4 MiB).
    pub fn max_message_bytes(mut self, limit: usize) -> Self {
        self.options.max_message_bytes = limit;
        self
    }

    /// How long a request to the client (elicitation, sampling, roots) may wait for its answer
    /// in the handshake era (default 10 minutes: a human may be filling in a form).
    ///
    /// ```
    /// # use mcp_runtime::prelude::*;
    /// let builder = Server::builder(server_info!()).client_request_timeout(std::time::Duration::from_secs(60));
    /// # let _ = builder;
    /// ```
    pub fn client_request_timeout(mut self, timeout: Duration) -> Self {
        self.options.client_request_timeout = timeout;
        self
    }

    /// The secret that seals stateless-era `requestState` (HMAC-SHA256). By default each server
    /// draws a random one at start-up; give every replica behind a load balancer the same key.
    ///
    /// ```
    /// # use mcp_runtime::prelude::*;
    /// let builder = Server::builder(server_info!()).request_state_key([42; 32]);
    /// # let _ = builder;
    /// ```
    pub fn request_state_key(mut self, key: [u8; 32]) -> Self {
        self.state_key = Some(StateKey(key));
        self
    }

    /// How long a sealed `requestState` stays valid (default 10 minutes).
    ///
    /// ```
    /// # use mcp_runtime::prelude::*;
    /// let builder = Server::builder(server_info!()).request_state_ttl(std::time::Duration::from_secs(120));
    /// # let _ = builder;
    /// ```
    pub fn request_state_ttl(mut self, ttl: Duration) -> Self {
        self.options.request_state_ttl = ttl;
        self
    }

    /// Settings of the Streamable HTTP transport (allowed hosts and origins, sessions, SSE).
    ///
    /// ```
    /// use mcp_runtime::prelude::*;
    /// use mcp_runtime::http::HttpOptions;
    ///
    /// let builder = Server::builder(server_info!())
    ///     .http(HttpOptions::new().allowed_hosts(["mcp.example.com"]).json_response(true));
    /// # let _ = builder;
    /// ```
    #[cfg(feature = "http")]
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    pub fn http(mut self, options: crate::http::HttpOptions) -> Self {
        self.http = options;
        self
    }

    /// Checks everything and builds descriptors and list pages.
    pub fn build(self) -> Result<Server, Error> {
        crate::random::check()?; // fail closed: no keys or ids without the OS random source
        if self.options.page_size == 0 {
            return Err(Error::Config("page size must be at least 1".into()));
        }
        if self.options.max_in_flight == 0 || self.options.max_message_bytes < 1024 {
            return Err(Error::Config(
                "max_in_flight must be at least 1 and max_message_bytes at least 1024".into(),
            ));
        }
        let mut server_info_meta = Meta::new();
        server_info_meta.insert(
            mcp_core::meta::SERVER_INFO_KEY.to_owned(),
            serde_json::to_value(&self.info).unwrap_or(Value::Null),
        );
        let records = Records {
            tools: self.tools,
            resources: self.resources,
            prompts: self.prompts,
        };
        let live = Live::build(&records, &self.options, &server_info_meta)?;
        Ok(Server {
            inner: Arc::new(ServerInner {
                info: self.info,
                instructions: self.instructions,
                live: RwLock::new(Arc::new(live)),
                records: Mutex::new(records),
                state: Arc::new(self.state),
                options: self.options,
                server_info_meta,
                hub: Arc::new(Hub::default()),
                state_key: self.state_key.unwrap_or_else(StateKey::random),
                #[cfg(feature = "http")]
                http: self.http,
            }),
        })
    }

    /// Builds the server and serves it over stdio until stdin closes.
    pub async fn serve_stdio(self) -> Result<(), Error> {
        self.build()?.serve_stdio().await
    }

    /// Builds the server and runs its command line (see [`Server::run`]).
    #[cfg(feature = "cli")]
    #[cfg_attr(docsrs, doc(cfg(feature = "cli")))]
    pub async fn run(self) -> Result<(), Error> {
        self.build()?.run().await
    }
}

/// The registered items, kept to rebuild the catalog when they change at run time.
#[derive(Clone)]
struct Records {
    tools: Vec<ToolRecord>,
    resources: Vec<ResourceRecord>,
    prompts: Vec<PromptRecord>,
}

/// Everything derived from the registered items: rebuilt once per change, swapped atomically.
pub(crate) struct Live {
    pub(crate) catalog: Catalog,
    pub(crate) capabilities: ServerCapabilities,
    /// `x-mcp-header` parameters of each tool that has any.
    #[cfg(feature = "http")]
    pub(crate) headers:
        std::collections::HashMap<&'static str, Vec<crate::http::headers::HeaderParam>>,
}

impl Live {
    fn build(records: &Records, options: &Options, server_info_meta: &Meta) -> Result<Self, Error> {
        let settings = CatalogSettings {
            profile: options.profile,
            page_size: options.page_size,
            ttl_ms: options.ttl_ms,
            server_info_meta,
        };
        let catalog = Catalog::build(
            records.tools.clone(),
            records.resources.clone(),
            records.prompts.clone(),
            &settings,
        )?;
        let has_completions = !catalog.prompts.is_empty() || !catalog.templates.is_empty();
        let mut caps = ServerCapabilities::default();
        if !catalog.tools.is_empty() {
            let mut tools = mcp_core::lifecycle::ToolsCapability::default();
            tools.list_changed = Some(true);
            caps.tools = Some(tools);
        }
        if !catalog.resources.is_empty() || !catalog.templates.is_empty() {
            let mut resources = mcp_core::lifecycle::ResourcesCapability::default();
            resources.subscribe = Some(true);
            resources.list_changed = Some(true);
            caps.resources = Some(resources);
        }
        if !catalog.prompts.is_empty() {
            let mut prompts = mcp_core::lifecycle::PromptsCapability::default();
            prompts.list_changed = Some(true);
            caps.prompts = Some(prompts);
        }
        caps.logging = Some(Default::default());
        if has_completions {
            caps.completions = Some(Default::default());
        }
        #[cfg(feature = "http")]
        let headers = catalog
            .tools
            .iter()
            .filter_map(|t| {
                let params = crate::http::headers::header_params(&t.descriptor.input_schema);
                (!params.is_empty()).then_some((t.record.name, params))
            })
            .collect();
        Ok(Live {
            catalog,
            capabilities: caps,
            #[cfg(feature = "http")]
            headers,
        })
    }
}

pub(crate) struct ServerInner {
    pub(crate) info: Implementation,
    pub(crate) instructions: Option<String>,
    live: RwLock<Arc<Live>>,
    records: Mutex<Records>,
    pub(crate) state: Arc<StateMap>,
    pub(crate) options: Options,
    pub(crate) server_info_meta: Meta,
    pub(crate) hub: Arc<Hub>,
    pub(crate) state_key: StateKey,
    #[cfg(feature = "http")]
    pub(crate) http: crate::http::HttpOptions,
}

impl ServerInner {
    /// The current catalog and capabilities.
    pub(crate) fn live(&self) -> Arc<Live> {
        Arc::clone(&self.live.read().unwrap_or_else(|e| e.into_inner()))
    }
}

/// A built MCP server: cheap to clone, serves any number of connections on any transports.
///
/// ```
/// use mcp_runtime::prelude::*;
///
/// # async fn demo() -> Result<(), mcp_runtime::Error> {
/// Server::from_registry(server_info!())
///     .instructions("Gift ideas for any occasion")
///     .serve_stdio()
///     .await
/// # }
/// ```
#[derive(Clone)]
pub struct Server {
    pub(crate) inner: Arc<ServerInner>,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("info", &self.inner.info)
            .finish_non_exhaustive()
    }
}

impl Server {
    /// A builder with nothing registered.
    pub fn builder(info: Implementation) -> ServerBuilder {
        ServerBuilder {
            info,
            instructions: None,
            tools: Vec::new(),
            resources: Vec::new(),
            prompts: Vec::new(),
            state: StateMap::new(),
            options: Options::default(),
            state_key: None,
            #[cfg(feature = "http")]
            http: crate::http::HttpOptions::default(),
        }
    }

    /// A builder holding every item of the default server registered in this binary with
    /// `#[tool]`, `#[resource]` and `#[prompt]` (those without a `server = "…"` key).
    ///
    /// Items in a library crate are only linked in when the binary uses something from that
    /// crate; if a library's items are missing, add `use that_library as _;` to the binary.
    pub fn from_registry(info: Implementation) -> ServerBuilder {
        Self::from_registry_named("", info)
    }

    /// Like [`from_registry`](Self::from_registry), for the items marked `server = "name"`, to keep
    /// several servers in one binary apart.
    pub fn from_registry_named(name: &str, info: Implementation) -> ServerBuilder {
        let mut b = Self::builder(info);
        b.tools = registry::tools()
            .filter(|r| r.server == name)
            .copied()
            .collect();
        b.resources = registry::resources()
            .filter(|r| r.server == name)
            .copied()
            .collect();
        b.prompts = registry::prompts()
            .filter(|r| r.server == name)
            .copied()
            .collect();
        b
    }

    /// The server's `serverInfo`.
    pub fn info(&self) -> &Implementation {
        &self.inner.info
    }

    /// Tool names, sorted.
    pub fn tool_names(&self) -> impl Iterator<Item = &'static str> {
        let names: Vec<&'static str> = self
            .inner
            .live()
            .catalog
            .tools
            .iter()
            .map(|t| t.record.name)
            .collect();
        names.into_iter()
    }

    /// The capabilities this server declares (they follow the registered items).
    pub fn capabilities(&self) -> ServerCapabilities {
        self.inner.live().capabilities.clone()
    }

    /// Rebuilds the catalog with `change` applied to the records; on success swaps it in and
    /// tells every client that the list changed.
    fn change(
        &self,
        kind: ListKind,
        change: impl FnOnce(&mut Records) -> bool,
    ) -> Result<bool, Error> {
        let mut records = self.inner.records.lock().unwrap_or_else(|e| e.into_inner());
        let mut next = records.clone();
        if !change(&mut next) {
            return Ok(false);
        }
        let live = Live::build(&next, &self.inner.options, &self.inner.server_info_meta)?;
        *self.inner.live.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(live);
        *records = next;
        drop(records);
        self.inner.hub.list_changed(kind);
        Ok(true)
    }

    /// Registers a tool while the server runs; clients are sent
    /// `notifications/tools/list_changed`. A duplicate name is an error and changes nothing.
    ///
    /// ```standalone_crate
    /// use mcp_runtime::prelude::*;
    ///
    /// /// Says hello.
    /// #[tool]
    /// async fn hello() -> String { "hello".into() }
    ///
    /// let server = Server::builder(server_info!()).build().unwrap();
    /// server.add_tool(hello::TOOL).unwrap();
    /// assert_eq!(server.tool_names().collect::<Vec<_>>(), ["hello"]);
    /// assert!(server.add_tool(hello::TOOL).is_err());
    /// assert!(server.remove_tool("hello"));
    /// ```
    pub fn add_tool(&self, record: ToolRecord) -> Result<(), Error> {
        self.change(ListKind::Tools, |r| {
            r.tools.push(record);
            true
        })
        .map(drop)
    }

    /// Unregisters a tool by name; `false` when there is none.
    ///
    /// ```
    /// # use mcp_runtime::prelude::*;
    /// let server = Server::builder(server_info!()).build().unwrap();
    /// assert!(!server.remove_tool("nothing"));
    /// ```
    pub fn remove_tool(&self, name: &str) -> bool {
        self.change(ListKind::Tools, |r| {
            let before = r.tools.len();
            r.tools.retain(|t| t.name != name);
            r.tools.len() != before
        })
        .unwrap_or(false)
    }

    /// Registers a resource or resource template while the server runs; clients are sent
    /// `notifications/resources/list_changed`.
    ///
    /// ```standalone_crate
    /// use mcp_runtime::prelude::*;
    ///
    /// /// A note.
    /// #[resource(uri = "note://1")]
    /// async fn note() -> String { "hi".into() }
    ///
    /// let server = Server::builder(server_info!()).build().unwrap();
    /// server.add_resource(note::RESOURCE).unwrap();
    /// assert!(server.capabilities().resources.is_some());
    /// assert!(server.remove_resource("note://1"));
    /// ```
    pub fn add_resource(&self, record: ResourceRecord) -> Result<(), Error> {
        self.change(ListKind::Resources, |r| {
            r.resources.push(record);
            true
        })
        .map(drop)
    }

    /// Unregisters a resource or template by URI (template text for templates).
    ///
    /// ```
    /// # use mcp_runtime::prelude::*;
    /// let server = Server::builder(server_info!()).build().unwrap();
    /// assert!(!server.remove_resource("note://nothing"));
    /// ```
    pub fn remove_resource(&self, uri: &str) -> bool {
        self.change(ListKind::Resources, |r| {
            let before = r.resources.len();
            r.resources.retain(|x| x.uri != uri);
            r.resources.len() != before
        })
        .unwrap_or(false)
    }

    /// Registers a prompt while the server runs; clients are sent
    /// `notifications/prompts/list_changed`.
    ///
    /// ```standalone_crate
    /// use mcp_runtime::prelude::*;
    ///
    /// /// Greets.
    /// #[prompt]
    /// async fn greet() -> Vec<PromptMessage> { vec![PromptMessage::user("hi")] }
    ///
    /// let server = Server::builder(server_info!()).build().unwrap();
    /// server.add_prompt(greet::PROMPT).unwrap();
    /// assert!(server.remove_prompt("greet"));
    /// ```
    pub fn add_prompt(&self, record: PromptRecord) -> Result<(), Error> {
        self.change(ListKind::Prompts, |r| {
            r.prompts.push(record);
            true
        })
        .map(drop)
    }

    /// Unregisters a prompt by name.
    ///
    /// ```
    /// # use mcp_runtime::prelude::*;
    /// let server = Server::builder(server_info!()).build().unwrap();
    /// assert!(!server.remove_prompt("nothing"));
    /// ```
    pub fn remove_prompt(&self, name: &str) -> bool {
        self.change(ListKind::Prompts, |r| {
            let before = r.prompts.len();
            r.prompts.retain(|p| p.name != name);
            r.prompts.len() != before
        })
        .unwrap_or(false)
    }

    /// Tells subscribers that the resource at `uri` changed: `notifications/resources/updated`
    /// to handshake-era sessions that sent `resources/subscribe` for it, and to stateless-era
    /// `subscriptions/listen` streams whose `resourceSubscriptions` name it.
    ///
    /// ```
    /// # use mcp_runtime::prelude::*;
    /// let server = Server::builder(server_info!()).build().unwrap();
    /// server.notify_resource_updated("file:///notes.txt"); // nobody listens: nothing happens
    /// ```
    pub fn notify_resource_updated(&self, uri: &str) {
        self.inner.hub.resource_updated(uri);
    }

    /// Sends a `notifications/*/list_changed` without changing anything (for lists computed
    /// elsewhere). [`add_tool`](Self::add_tool) and friends send it on their own.
    ///
    /// ```
    /// # use mcp_runtime::prelude::*;
    /// use mcp_runtime::ListChanged;
    /// let server = Server::builder(server_info!()).build().unwrap();
    /// server.notify_list_changed(ListChanged::Tools);
    /// ```
    pub fn notify_list_changed(&self, list: ListChanged) {
        self.inner.hub.list_changed(list.kind());
    }

    /// The revisions this server speaks, newest first.
    pub fn supported_versions(&self) -> impl Iterator<Item = ProtocolVersion> {
        ProtocolVersion::ALL.into_iter().rev()
    }
}
