//! The [`Server`]: a cheap handle on what every connection shares (the catalog, the options,
//! the notification hub), and the changes a running server accepts.

pub(crate) mod builder;
mod card;
#[cfg(feature = "client")]
mod mount;
pub(crate) mod options;
pub(crate) mod outgoing;
pub(crate) mod shutdown;
mod skills;

use std::sync::{Arc, Mutex, RwLock};

use mcp_core::{Implementation, Meta, ProtocolVersion, ServerCapabilities};

use crate::error::Error;
use crate::handler::context::{Cancellation, Context, StateMap};
use crate::handler::rounds::StateKey;
use crate::notify::{Hub, ListChanged};
use crate::registry::mounted::MountedItems;
use crate::registry::{
    self, Catalog, CatalogSettings, ListKind, PromptRecord, ResourceRecord, ToolRecord,
};
use crate::sync::{lock, read, write};
pub use builder::ServerBuilder;
use options::ServerOptions;

/// What the `serve_*` entry points return: one future boxed in the runtime, so that a server's
/// crate does not compile the serving state machines (and their drop glue) again.
pub(crate) type Serving<'a> =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<(), Error>> + Send + 'a>>;

/// The registered items, kept to rebuild the catalog when they change at run time.
#[derive(Clone)]
pub(crate) struct Records {
    tools: Vec<ToolRecord>,
    resources: Vec<ResourceRecord>,
    prompts: Vec<PromptRecord>,
    /// Mounted servers' items, each replaced whole when its server's lists change.
    pub(crate) mounts: Vec<Arc<MountedItems>>,
}

/// Everything derived from the registered items: rebuilt once per change, swapped atomically.
pub(crate) struct Live {
    pub(crate) catalog: Catalog,
    pub(crate) capabilities: ServerCapabilities,
    /// The skills served (`ServerBuilder::skills`), their pages prepared.
    pub(crate) skills: Option<Arc<crate::skills::Served>>,
}

impl Live {
    pub(crate) fn build(
        records: &Records,
        options: &ServerOptions,
        server_info_meta: &Meta,
        state: &StateMap,
    ) -> Result<Self, Error> {
        if let Some(refused) = options.skills.as_ref().and_then(|s| s.refused.as_ref()) {
            return Err(Error::Config(refused.to_string()));
        }
        let skills = options.skills.as_ref().map(|s| {
            let (size, ttl) = (options.page_size, options.ttl_ms);
            Arc::new(crate::skills::Served::new(s, size, ttl, server_info_meta))
        });
        let settings = CatalogSettings {
            skills: skills.as_ref().map(|s| &*s.set),
            profile: options.profile,
            page_size: options.page_size,
            ttl_ms: options.ttl_ms,
            server_info_meta,
            state,
            allow_unknown_args: options.allow_unknown_args,
            validate_output: options.validate_output,
            apps: options.apps,
            transforms: &options.transforms,
        };
        let catalog = Catalog::build(
            records.tools.clone(),
            records.resources.clone(),
            records.prompts.clone(),
            &records.mounts,
            &settings,
        )?;
        let [mounted_tools, mounted_resources, mounted_prompts] = catalog.mounted.offers();
        // Beside our own items, what the mounts forward (`server/mount`): what no one serves
        // is not declared.
        let mounted = catalog.mounted.declared();
        let local_resources = !catalog.resources.is_empty() || !catalog.templates.is_empty();
        let has_completions =
            !catalog.prompts.is_empty() || !catalog.templates.is_empty() || mounted.completions;
        // Our own items may log and change; a server of mounts alone logs and changes when one
        // of them does.
        let local = !catalog.tools.is_empty() || local_resources || !catalog.prompts.is_empty();
        let own = local || catalog.mounted.mounts.is_empty();
        let changes = |i: usize| (own || mounted.list_changed[i]).then_some(true);
        let mut caps = ServerCapabilities::default();
        if !catalog.tools.is_empty() || !catalog.exposed.is_empty() || mounted_tools {
            let mut tools = mcp_core::lifecycle::ToolsCapability::default();
            tools.list_changed = changes(0);
            caps.tools = Some(tools);
        }
        if local_resources || mounted_resources || skills.is_some() {
            let mut resources = mcp_core::lifecycle::ResourcesCapability::default();
            if local_resources || mounted.subscribe {
                resources.subscribe = Some(true);
            }
            resources.list_changed = changes(1);
            caps.resources = Some(resources);
        }
        if !catalog.prompts.is_empty() || mounted_prompts {
            let mut prompts = mcp_core::lifecycle::PromptsCapability::default();
            prompts.list_changed = changes(2);
            caps.prompts = Some(prompts);
        }
        if own || mounted.logging {
            caps.logging = Some(Default::default());
        }
        if catalog
            .tools
            .iter()
            .any(|t| t.record.task_support != mcp_core::tasks::TaskSupport::Forbidden)
        {
            crate::tasks::advertise(&mut caps);
        }
        if has_completions {
            caps.completions = Some(Default::default());
        }
        crate::apps::advertise(&mut caps, widgets(&catalog)?);
        if skills.is_some() {
            crate::skills::advertise(&mut caps);
        }
        Ok(Live {
            catalog,
            capabilities: caps,
            skills,
        })
    }
}

/// Whether the catalog has a widget; every tool's widget must be one of its resources.
fn widgets(catalog: &Catalog) -> Result<bool, Error> {
    let widget = |uri: &str| {
        catalog.resource_index.get(uri).is_some_and(|&i| {
            catalog.resources[i].descriptor.mime_type.as_deref() == Some(crate::apps::MIME_TYPE)
        })
    };
    for entry in &catalog.tools {
        if let Some(ui) = entry.record.ui
            && !widget(ui.resource_uri)
        {
            return Err(Error::InvalidItem {
                kind: "tool",
                name: entry.record.name.to_owned(),
                location: entry.record.location.to_string(),
                reason: format!(
                    "its widget `{}` is not a registered widget resource of this server (add its \
                     `RESOURCE` record, or declare it with `#[widget]` and the same `server`)",
                    ui.resource_uri
                ),
            });
        }
    }
    Ok(catalog
        .resources
        .iter()
        .any(|e| e.descriptor.mime_type.as_deref() == Some(crate::apps::MIME_TYPE)))
}

pub(crate) struct ServerInner {
    pub(crate) info: Implementation,
    pub(crate) instructions: Option<String>,
    pub(crate) live: RwLock<Arc<Live>>,
    pub(crate) records: Mutex<Records>,
    pub(crate) state: Arc<StateMap>,
    pub(crate) options: ServerOptions,
    pub(crate) server_info_meta: Meta,
    pub(crate) hub: Arc<Hub>,
    pub(crate) state_key: StateKey,
    /// The HTTP endpoint's settings: their types are declared in `settings`, below `server`,
    /// and read by `http`, above it.
    #[cfg(feature = "http")]
    pub(crate) http: crate::settings::Http,
    /// Tasks: every server has a manager (with the default options and an in-memory store
    /// unless told otherwise); `tasks/*` answer -32601 where no tool may run as a task.
    pub(crate) tasks: Arc<crate::tasks::TaskManager>,
    /// Every per-principal bound of the shared pools.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fair_shares: crate::principal::FairShares,
    /// The server-wide bound on requests to the client waiting for answers.
    pub(crate) client_requests: Arc<tokio::sync::Semaphore>,
    /// Cancelled when the server is asked to shut down ([`shutdown::ShutdownHandle`]).
    pub(crate) shutdown: Cancellation,
    /// `server_info_meta` as JSON, serialised once: the stateless era writes it into every
    /// finished result that has no `_meta` of its own.
    pub(crate) server_info_json: Box<str>,
    /// The shared parts of a replica behind a load balancer, when it is one.
    pub(crate) scale: Option<crate::scale::ScaleOut>,
    /// How many mounted servers' first lists are not in yet ([`Server::mounted`]).
    pub(crate) mounts_pending: tokio::sync::watch::Sender<usize>,
    /// The Server Card, built once (`ServerBuilder::card`).
    pub(crate) card: Option<Arc<crate::card::Built>>,
}

impl ServerInner {
    /// The current catalog and capabilities.
    pub(crate) fn live(&self) -> Arc<Live> {
        Arc::clone(&read(&self.live))
    }

    /// A session set its log level: each mount hears the most verbose level a session set.
    pub(crate) fn log_levels_changed(&self) {
        let Some(least) = self.hub.least_log_level() else {
            return;
        };
        for m in &self.live().catalog.mounted.mounts {
            m.forward.log_levels_changed(least);
        }
    }

    /// Sends a list change to this server's clients and, on a replica, to the other replicas'.
    pub(crate) fn list_changed(&self, kind: ListKind) {
        self.hub.list_changed(kind);
        if let Some(scale) = &self.scale {
            let kind = match kind {
                ListKind::Tools => "tools",
                ListKind::Prompts => "prompts",
                ListKind::Resources | ListKind::Templates => "resources",
            };
            scale.announce(crate::scale::BusMessage::ListChanged { kind: kind.into() });
        }
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
        ServerBuilder::new(info)
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
        let records = Records {
            tools: registry::tools()
                .filter(|r| r.server == name)
                .copied()
                .collect(),
            resources: registry::resources()
                .filter(|r| r.server == name)
                .copied()
                .collect(),
            prompts: registry::prompts()
                .filter(|r| r.server == name)
                .copied()
                .collect(),
            mounts: Vec::new(),
        };
        ServerBuilder::new(info).with_records(records)
    }

    /// The server's `serverInfo`.
    pub fn info(&self) -> &Implementation {
        &self.inner.info
    }

    /// The names of the tools registered here, sorted (not those of mounted servers, which
    /// `tools/list` lists after them).
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
        notify: bool,
    ) -> Result<bool, Error> {
        let mut records = lock(&self.inner.records);
        let mut next = records.clone();
        if !change(&mut next) {
            return Ok(false);
        }
        let inner = &self.inner;
        let live = Live::build(&next, &inner.options, &inner.server_info_meta, &inner.state)?;
        *write(&self.inner.live) = Arc::new(live);
        *records = next;
        drop(records);
        if notify {
            self.inner.list_changed(kind);
        }
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
        self.change(
            ListKind::Tools,
            |r| {
                r.tools.push(record);
                true
            },
            true,
        )
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
        self.change(
            ListKind::Tools,
            |r| {
                let before = r.tools.len();
                r.tools.retain(|t| t.name != name);
                r.tools.len() != before
            },
            true,
        )
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
        self.change(
            ListKind::Resources,
            |r| {
                r.resources.push(record);
                true
            },
            true,
        )
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
        self.change(
            ListKind::Resources,
            |r| {
                let before = r.resources.len();
                r.resources.retain(|x| x.uri != uri);
                r.resources.len() != before
            },
            true,
        )
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
        self.change(
            ListKind::Prompts,
            |r| {
                r.prompts.push(record);
                true
            },
            true,
        )
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
        self.change(
            ListKind::Prompts,
            |r| {
                let before = r.prompts.len();
                r.prompts.retain(|p| p.name != name);
                r.prompts.len() != before
            },
            true,
        )
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
        if let Some(scale) = &self.inner.scale {
            scale.announce(crate::scale::BusMessage::ResourceUpdated {
                uri: uri.to_owned(),
            });
        }
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
        self.inner.list_changed(list.kind());
    }

    /// Swaps in the items of mount `index` (its server's lists changed) and tells every client
    /// of the lists that differ.
    #[cfg_attr(not(feature = "client"), allow(dead_code))]
    pub(crate) fn replace_mount(&self, index: usize, items: MountedItems) -> Result<(), Error> {
        let mut changed = Vec::new();
        self.change(
            ListKind::Tools,
            |r| {
                let Some(slot) = r.mounts.get_mut(index) else {
                    return false;
                };
                if slot.tools != items.tools {
                    changed.push(ListKind::Tools);
                }
                if slot.resources != items.resources
                    || slot.templates.len() != items.templates.len()
                    || slot
                        .templates
                        .iter()
                        .zip(&items.templates)
                        .any(|(a, b)| a.0 != b.0)
                {
                    changed.push(ListKind::Resources);
                }
                if slot.prompts != items.prompts {
                    changed.push(ListKind::Prompts);
                }
                *slot = Arc::new(items);
                true
            },
            false,
        )?;
        for kind in changed {
            self.inner.hub.list_changed(kind);
        }
        Ok(())
    }

    /// Waits until every server given to [`ServerBuilder::mount`] has had its lists read once
    /// (or failed to): clients connecting before that see a mount's items arrive with a
    /// `list_changed` notification instead.
    ///
    /// ```
    /// # async fn demo() {
    /// use mcp_runtime::prelude::*;
    /// let server = Server::builder(server_info!()).build().unwrap();
    /// server.mounted().await; // nothing mounted: returns at once
    /// # }
    /// ```
    pub async fn mounted(&self) {
        let mut pending = self.inner.mounts_pending.subscribe();
        let _ = pending.wait_for(|n| *n == 0).await;
    }

    /// The revisions this server speaks, newest first.
    pub fn supported_versions(&self) -> impl Iterator<Item = ProtocolVersion> {
        ProtocolVersion::ALL.into_iter().rev()
    }
}

impl Context {
    /// The server serving this request: register tools at run time, announce resource updates.
    ///
    /// ```standalone_crate
    /// use mcp_runtime::prelude::*;
    ///
    /// /// Marks the report as changed.
    /// #[tool]
    /// async fn touch_report(ctx: Context) -> String {
    ///     ctx.server().notify_resource_updated("report://daily");
    ///     "done".into()
    /// }
    /// # fn main() {}
    /// ```
    pub fn server(&self) -> Server {
        Server {
            inner: Arc::clone(&self.inner.server),
        }
    }
}
