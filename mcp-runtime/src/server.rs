//! The server and its builder.

use std::any::{Any, TypeId};
use std::sync::Arc;

use mcp_core::{
    Implementation, Meta, ProtocolVersion, ServerCapabilities,
};
use serde_json::Value;

use crate::context::StateMap;
use crate::error::Error;
use crate::registry::{self, Catalog, CatalogSettings, PromptRecord, ResourceRecord, ToolRecord};
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
/// ```
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
        self.state.insert(TypeId::of::<T>(), Arc::new(value) as Arc<dyn Any + Send + Sync>);
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

    /// Most requests in flight per connection (default 256); more are refused with an error.
    pub fn max_in_flight(mut self, limit: usize) -> Self {
        self.options.max_in_flight = limit;
        self
    }

    /// Largest accepted message in bytes (default 4 MiB).
    pub fn max_message_bytes(mut self, limit: usize) -> Self {
        self.options.max_message_bytes = limit;
        self
    }

    /// Checks everything and builds descriptors and list pages.
    pub fn build(self) -> Result<Server, Error> {
        if self.options.page_size == 0 {
            return Err(Error::Config("page size must be at least 1".into()));
        }
        if self.options.max_in_flight == 0 || self.options.max_message_bytes < 1024 {
            return Err(Error::Config("max_in_flight must be at least 1 and max_message_bytes at least 1024".into()));
        }
        let mut server_info_meta = Meta::new();
        server_info_meta.insert(
            mcp_core::meta::SERVER_INFO_KEY.to_owned(),
            serde_json::to_value(&self.info).unwrap_or(Value::Null),
        );
        let settings = CatalogSettings {
            profile: self.options.profile,
            page_size: self.options.page_size,
            ttl_ms: self.options.ttl_ms,
            server_info_meta: &server_info_meta,
        };
        let catalog = Catalog::build(self.tools, self.resources, self.prompts, &settings)?;
        let has_completions = catalog.prompts.iter().any(|p| !p.record.completions.is_empty())
            || catalog.templates.iter().any(|t| !t.record.completions.is_empty())
            || !catalog.prompts.is_empty()
            || !catalog.templates.is_empty();
        let mut caps = ServerCapabilities::default();
        if !catalog.tools.is_empty() {
            caps.tools = Some(mcp_core::lifecycle::ToolsCapability::default());
        }
        if !catalog.resources.is_empty() || !catalog.templates.is_empty() {
            caps.resources = Some(mcp_core::lifecycle::ResourcesCapability::default());
        }
        if !catalog.prompts.is_empty() {
            caps.prompts = Some(mcp_core::lifecycle::PromptsCapability::default());
        }
        caps.logging = Some(Default::default());
        if has_completions {
            caps.completions = Some(Default::default());
        }
        Ok(Server {
            inner: Arc::new(ServerInner {
                info: self.info,
                instructions: self.instructions,
                capabilities: caps,
                catalog,
                state: Arc::new(self.state),
                options: self.options,
                server_info_meta,
            }),
        })
    }

    /// Builds the server and serves it over stdio until stdin closes.
    pub async fn serve_stdio(self) -> Result<(), Error> {
        self.build()?.serve_stdio().await
    }

    /// Builds the server and runs its command line (see [`Server::run`]).
    pub async fn run(self) -> Result<(), Error> {
        self.build()?.run().await
    }
}

pub(crate) struct ServerInner {
    pub(crate) info: Implementation,
    pub(crate) instructions: Option<String>,
    pub(crate) capabilities: ServerCapabilities,
    pub(crate) catalog: Catalog,
    pub(crate) state: Arc<StateMap>,
    pub(crate) options: Options,
    pub(crate) server_info_meta: Meta,
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
        f.debug_struct("Server").field("info", &self.inner.info).finish_non_exhaustive()
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
        b.tools = registry::tools().filter(|r| r.server == name).copied().collect();
        b.resources = registry::resources().filter(|r| r.server == name).copied().collect();
        b.prompts = registry::prompts().filter(|r| r.server == name).copied().collect();
        b
    }

    /// The server's `serverInfo`.
    pub fn info(&self) -> &Implementation {
        &self.inner.info
    }

    /// Tool names, sorted.
    pub fn tool_names(&self) -> impl Iterator<Item = &str> {
        self.inner.catalog.tools.iter().map(|t| t.record.name)
    }

    /// The capabilities this server declares.
    pub fn capabilities(&self) -> &ServerCapabilities {
        &self.inner.capabilities
    }

    /// The revisions this server speaks, newest first.
    pub fn supported_versions(&self) -> impl Iterator<Item = ProtocolVersion> {
        ProtocolVersion::ALL.into_iter().rev()
    }
}
