//! [`ServerBuilder`]: items, state, instructions and limits, checked and built into a [`Server`].

use std::any::TypeId;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use mcp_core::{Implementation, Meta};
use serde_json::Value;

use crate::error::Error;
use crate::handler::context::StateMap;
use crate::handler::rounds::StateKey;
use crate::notify::Hub;
use crate::registry::{PromptRecord, ResourceRecord, ToolRecord};
use crate::schema::SchemaProfile;
use crate::server::options::{ServerOptions, ValidationErrors};
use crate::server::{Live, Records, Server, ServerInner};

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

/// Work started once a server is built.
pub(crate) type OnBuild = Box<dyn FnOnce(&Server) + Send>;

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
    pub(crate) records: Records,
    state: StateMap,
    pub(crate) options: ServerOptions,
    state_key: Option<StateKey>,
    /// The HTTP endpoint's settings (`ServerBuilder::http`, `allow_unprotected`, `auth`, a
    /// scale-out backend's event store), set by the files of `http` that own them.
    #[cfg(feature = "http")]
    pub(crate) http: crate::settings::Http,
    /// [`tasks`](Self::tasks), if called.
    task_options: Option<crate::tasks::TaskOptions>,
    /// The shared task store a scale-out backend installed (used unless the options name one).
    shared_task_store: Option<Arc<dyn crate::tasks::TaskStore>>,
    fair_shares: crate::principal::FairShares,
    scale: Option<crate::scale::ScaleOut>,
    /// A setting that could not be taken (reported by `build`).
    config_error: Option<Error>,
    /// Run once the server is built (mounts start watching their servers).
    pub(crate) on_build: Vec<OnBuild>,
}

impl std::fmt::Debug for ServerBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerBuilder")
            .field("info", &self.info)
            .field("tools", &self.records.tools.len())
            .field("resources", &self.records.resources.len())
            .field("prompts", &self.records.prompts.len())
            .finish_non_exhaustive()
    }
}

impl ServerBuilder {
    pub(crate) fn new(info: Implementation) -> Self {
        Self {
            info,
            instructions: None,
            records: Records {
                tools: Vec::new(),
                resources: Vec::new(),
                prompts: Vec::new(),
                mounts: Vec::new(),
            },
            state: StateMap::new(),
            options: ServerOptions::default(),
            state_key: None,
            #[cfg(feature = "http")]
            http: crate::settings::Http::default(),
            task_options: None,
            shared_task_store: None,
            fair_shares: crate::principal::FairShares::default(),
            scale: None,
            config_error: None,
            on_build: Vec::new(),
        }
    }

    pub(crate) fn with_records(mut self, records: Records) -> Self {
        let mounts = std::mem::take(&mut self.records.mounts);
        self.records = records;
        self.records.mounts = mounts;
        self
    }

    /// The shared task store of a scale-out backend: the tasks' store unless
    /// [`TaskOptions`](crate::tasks::TaskOptions) name one.
    #[cfg_attr(not(feature = "redis"), allow(dead_code))]
    pub(crate) fn shared_task_store(mut self, store: Arc<dyn crate::tasks::TaskStore>) -> Self {
        self.shared_task_store = Some(store);
        self
    }

    /// The options, for the setters kept with them (`server/options`).
    pub(crate) fn options_mut(&mut self) -> &mut ServerOptions {
        &mut self.options
    }

    /// Every per-principal bound (see [`fair_shares`](Self::fair_shares)).
    pub(crate) fn set_fair_shares(mut self, shares: crate::principal::FairShares) -> Self {
        self.fair_shares = shares;
        self
    }

    /// Adds a tool record (`my_fn::TOOL`).
    pub fn tool(mut self, record: ToolRecord) -> Self {
        self.records.tools.push(record);
        self
    }

    /// Adds a resource or resource template record (`my_fn::RESOURCE`).
    pub fn resource(mut self, record: ResourceRecord) -> Self {
        self.records.resources.push(record);
        self
    }

    /// Adds a prompt record (`my_fn::PROMPT`).
    pub fn prompt(mut self, record: PromptRecord) -> Self {
        self.records.prompts.push(record);
        self
    }

    /// How tools marked `#[tool(task = "optional")]` (or `"required"`) run as tasks: their
    /// lifetime, poll interval, bounds and store (see [`TaskOptions`](crate::tasks::TaskOptions)).
    /// Without it, the defaults and an in-memory store.
    ///
    /// ```
    /// use mcp_runtime::prelude::*;
    /// use mcp_runtime::tasks::TaskOptions;
    /// use std::time::Duration;
    ///
    /// let server = Server::builder(server_info!())
    ///     .tasks(TaskOptions::default().with_poll_interval(Duration::from_millis(200)))
    ///     .build()
    ///     .unwrap();
    /// # let _ = server;
    /// ```
    pub fn tasks(mut self, options: crate::tasks::TaskOptions) -> Self {
        self.task_options = Some(options);
        self
    }

    /// Instructions for the model, sent in `initialize` and `server/discover` results.
    pub fn instructions(mut self, text: impl Into<String>) -> Self {
        self.instructions = Some(text.into());
        self
    }

    /// Application state, injected into handlers as `State<T>`: a [`StateValue`](crate::StateValue)
    /// (`Send + Sync + 'static`, since every request shares it).
    pub fn state<T: crate::StateValue>(mut self, value: T) -> Self {
        self.state
            .insert(TypeId::of::<T>(), crate::handler::context::held(value));
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

    /// `ttlMs` of the list results and of `server/discover` in the stateless era (default
    /// 300 000), with `cacheScope: "public"`. A `resources/read` result carries its
    /// resource's own hint instead (`#[resource(ttl_ms = .., cache_scope = ..)]`, or
    /// `ttlMs: 0`, `"private"` without one); tools and prompts set what the server-side
    /// [`Cache`](crate::cache::Cache) layer keeps with `cache_ttl_ms`.
    ///
    /// ```
    /// use mcp_runtime::prelude::*;
    ///
    /// let builder = Server::builder(server_info!()).cache_ttl_ms(60_000);
    /// # let _ = builder;
    /// ```
    pub fn cache_ttl_ms(mut self, ttl: u64) -> Self {
        self.options.ttl_ms = ttl;
        self
    }

    /// How tool argument validation failures are reported.
    pub fn validation_errors(mut self, policy: ValidationErrors) -> Self {
        self.options.validation = policy;
        self
    }

    /// Whether tools accept arguments their input schema does not name (default `false`).
    ///
    /// By default a call naming an unknown property (`"limt"` for `limit`) is refused with an
    /// invalid-arguments error that names it and lists the properties the tool takes, reported
    /// like every argument error (an `isError` result from 2025-11-25 on, see
    /// [`validation_errors`](Self::validation_errors)): a model's misspelt argument would
    /// otherwise change the result without any signal. `#[tool(allow_unknown_args)]` (or
    /// `allow_unknown_args = false`) decides for one tool, whatever this says. Tools with a raw
    /// `input_schema` receive their arguments as sent.
    ///
    /// ```
    /// # use mcp_runtime::prelude::*;
    /// let builder = Server::builder(server_info!()).allow_unknown_args(true);
    /// # let _ = builder;
    /// ```
    pub fn allow_unknown_args(mut self, allow: bool) -> Self {
        self.options.allow_unknown_args = allow;
        self
    }

    /// How widgets (MCP Apps) are presented beyond the standard `_meta.ui` keys: the opt-in
    /// OpenAI Apps SDK aliases and `text/html+skybridge` twins (see
    /// [`AppsOptions`](crate::apps::AppsOptions)).
    ///
    /// ```standalone_crate
    /// use mcp_runtime::apps::AppsOptions;
    /// use mcp_runtime::prelude::*;
    ///
    /// /// Cards.
    /// #[widget(uri = "ui://demo/cards.html")]
    /// const CARDS: &str = "<!doctype html><html></html>";
    ///
    /// /// Shows cards.
    /// #[tool(ui = CARDS)]
    /// async fn show() -> String { "cards".into() }
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let server = Server::builder(server_info!())
    ///     .tool(show::TOOL)
    ///     .resource(CARDS::RESOURCE)
    ///     .resource(CARDS::SKYBRIDGE)
    ///     .apps(AppsOptions::new().skybridge(true))
    ///     .build()
    ///     .unwrap();
    /// let mut client = server.connect_in_memory();
    /// client.initialize("2025-11-25").await;
    /// let tools = client.request("tools/list", serde_json::json!({})).await;
    /// let meta = &tools["result"]["tools"][0]["_meta"];
    /// assert_eq!(meta["ui"]["resourceUri"], "ui://demo/cards.html");
    /// assert_eq!(meta["openai/outputTemplate"], "ui://demo/cards.skybridge.html");
    /// assert_eq!(meta["openai/widgetAccessible"], true);
    /// # });
    /// ```
    pub fn apps(mut self, options: crate::apps::AppsOptions) -> Self {
        self.options.apps = options;
        self
    }

    /// Whether a handler's first poll runs on the connection's own task (default `true`).
    ///
    /// Most handlers finish without waiting for anything; running their first poll in place
    /// saves a task and a hand-over between threads per call. A handler that waits continues in
    /// a task of its own either way. A handler that *blocks* its thread (a long synchronous
    /// computation, `std::thread::sleep`) would hold up the connection meanwhile. Only the
    /// handler's own polls are timed (not reading or parsing the request): when 3 of a
    /// connection's last 16 first polls block for over 50 ms, it switches to a task per request
    /// and logs it (one outlier, such as a huge request or a panic's backtrace, does not); after
    /// 64 fast first polls in a row it polls in place again. Turn this off when your handlers
    /// block, or move the blocking work to `tokio::task::spawn_blocking`.
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
    /// in the handshake era (default 2 minutes).
    ///
    /// A waiting call holds its handler, its task and its place in the bounds of
    /// [`max_client_requests`](Self::max_client_requests) until the answer comes, the session
    /// ends or this timeout passes; a client that vanished without closing its session would hold
    /// them all that long. Two minutes leave a person time to read and fill in a short form, and
    /// a model time to answer a sampling request; a URL elicitation is answered as soon as the
    /// user agrees to open the page, not when they finish there. Raise it when your forms are
    /// long. When the connection or session closes, every waiting call learns it at once
    /// ([`InteractionError::Disconnected`](crate::InteractionError::Disconnected)), whatever this
    /// says.
    ///
    /// ```
    /// # use mcp_runtime::prelude::*;
    /// let builder = Server::builder(server_info!()).client_request_timeout(std::time::Duration::from_secs(600));
    /// # let _ = builder;
    /// ```
    pub fn client_request_timeout(mut self, timeout: Duration) -> Self {
        self.options.client_request_timeout = timeout;
        self
    }

    /// Most requests to the client (elicitation, sampling, roots) waiting for their answers at
    /// once, per connection or session (default 32) and server-wide (default 4096). A handler
    /// asking beyond either bound gets [`InteractionError::Busy`](crate::InteractionError::Busy)
    /// at once instead of a place in line: memory stays bounded however many sessions leave
    /// calls waiting.
    ///
    /// ```
    /// # use mcp_runtime::prelude::*;
    /// let builder = Server::builder(server_info!()).max_client_requests(8, 1024);
    /// # let _ = builder;
    /// ```
    pub fn max_client_requests(mut self, per_session: usize, total: usize) -> Self {
        self.options.max_client_requests = per_session;
        self.options.max_client_requests_total = total;
        self
    }

    /// Most stateless-era `subscriptions/listen` streams open at once, server-wide (default
    /// 4096). A listen request beyond it gets one error (-32603, "too many open
    /// subscriptions") and no acknowledgement.
    ///
    /// ```
    /// # use mcp_runtime::prelude::*;
    /// let builder = Server::builder(server_info!()).max_listeners(256);
    /// # let _ = builder;
    /// ```
    pub fn max_listeners(mut self, limit: usize) -> Self {
        self.options.max_listeners = limit;
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
        self.state_key = Some(StateKey(key, Vec::new()));
        self
    }

    /// A key ring for stateless-era `requestState`, shared by every replica behind a load
    /// balancer: the first key seals, every key opens (rotate by putting a new key first and
    /// dropping the last one later). Command-line servers read it from `MCP_REQUEST_STATE_KEYS`
    /// (see [`parse_key_ring`](crate::scale::parse_key_ring)). An empty ring changes nothing.
    ///
    /// ```
    /// # use mcp_runtime::prelude::*;
    /// let builder = Server::builder(server_info!()).request_state_keys(vec![[1; 32], [2; 32]]);
    /// # let _ = builder;
    /// ```
    pub fn request_state_keys(mut self, ring: Vec<[u8; 32]>) -> Self {
        let mut ring = ring.into_iter();
        if let Some(first) = ring.next() {
            self.state_key = Some(StateKey(first, ring.collect()));
        }
        self
    }

    /// Makes `build` fail with `error` (a setting given in a call that cannot fail).
    #[cfg(any(feature = "redis", feature = "openapi"))]
    pub(crate) fn config_error(mut self, error: Error) -> Self {
        self.config_error.get_or_insert(error);
        self
    }

    /// Makes this server one replica of several behind a load balancer: handshake-era sessions,
    /// notifications, answers to the server's questions and cancellations go through `scale`
    /// (see [`crate::scale`]). With feature `redis`, `ServerBuilder::redis(url)` installs the
    /// Redis implementations of every seam at once.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use mcp_runtime::prelude::*;
    /// use mcp_runtime::scale::{ScaleOut, memory::{MemoryBus, MemorySessionStore}};
    ///
    /// let bus = MemoryBus::new(256);
    /// let sessions = Arc::new(MemorySessionStore::new(10_000));
    /// let replica = |node: &str| {
    ///     Server::builder(server_info!())
    ///         .request_state_key([7; 32])
    ///         .scale_out(ScaleOut::new(node, sessions.clone(), Arc::new(bus.node(node))))
    ///         .build()
    ///         .unwrap()
    /// };
    /// let (a, b) = (replica("a"), replica("b"));
    /// # let _ = (a, b);
    /// ```
    pub fn scale_out(mut self, scale: crate::scale::ScaleOut) -> Self {
        self.scale = Some(scale);
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

    /// How long requests still running may take to finish when the server stops (default 10 s):
    /// after stdin closes, on a [`ShutdownHandle`](crate::ShutdownHandle), or on SIGTERM/SIGINT.
    /// Their replies are delivered; whatever still runs at the deadline is cancelled.
    ///
    /// ```
    /// # use mcp_runtime::prelude::*;
    /// let builder = Server::builder(server_info!()).drain_timeout(std::time::Duration::from_secs(30));
    /// # let _ = builder;
    /// ```
    pub fn drain_timeout(mut self, timeout: Duration) -> Self {
        self.options.drain_timeout = timeout;
        self
    }

    /// Whether [`Server::serve_stdio`], the HTTP serve functions and [`Server::run`] shut down
    /// gracefully on SIGTERM and SIGINT (default on; Ctrl-C on Windows), as a
    /// [`ShutdownHandle`](crate::ShutdownHandle) would.
    ///
    /// Turn it off when your program handles signals itself (and calls
    /// [`ShutdownHandle::shutdown`](crate::ShutdownHandle::shutdown)). Once a process listens for
    /// a signal, the signal no longer ends it by default, also after serving returns.
    ///
    /// ```
    /// # use mcp_runtime::prelude::*;
    /// let builder = Server::builder(server_info!()).shutdown_on_signals(false);
    /// # let _ = builder;
    /// ```
    pub fn shutdown_on_signals(mut self, on: bool) -> Self {
        self.options.shutdown_on_signals = on;
        self
    }

    /// Checks everything and builds descriptors and list pages.
    ///
    /// Refused: duplicate names or URIs, unusable declarations, out-of-range settings, and
    /// handlers (or completion hooks) taking a `State<T>` that was not given with
    /// [`state`](Self::state):
    ///
    /// ```standalone_crate
    /// use mcp_runtime::prelude::*;
    ///
    /// struct Db;
    ///
    /// /// Counts the rows.
    /// #[tool]
    /// async fn rows(db: State<Db>) -> String {
    ///     let _ = db;
    ///     "0".into()
    /// }
    ///
    /// let err = Server::builder(server_info!()).tool(rows::TOOL).build().unwrap_err();
    /// assert!(err.to_string().starts_with("tool `rows` ("), "{err}");
    /// assert!(err.to_string().contains("Db>`, but the server was not given one"), "{err}");
    /// assert!(Server::builder(server_info!()).tool(rows::TOOL).state(Db).build().is_ok());
    /// ```
    pub fn build(self) -> Result<Server, Error> {
        crate::random::check()?;
        if let Some(error) = self.config_error {
            return Err(error);
        }
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
        let server_info_json = serde_json::to_string(&server_info_meta)
            .unwrap_or_else(|_| "{}".to_owned())
            .into_boxed_str();
        let records = self.records;
        let live = Live::build(&records, &self.options, &server_info_meta, &self.state)?;
        let mut task_options = self.task_options.unwrap_or_default();
        // A shared task store a scale-out backend installed, unless the options name one.
        if task_options.store.is_none() {
            task_options.store = self.shared_task_store;
        }
        if let Some(scale) = &self.scale {
            if !crate::scale::valid_node_id(&scale.node) {
                return Err(Error::Config(format!(
                    "replica name {:?} is not 1 to 32 of A-Za-z0-9_-",
                    &*scale.node
                )));
            }
            if self.state_key.is_none() {
                return Err(Error::Config(
                    "a replica needs the requestState key ring every replica shares \
                     (MCP_REQUEST_STATE_KEYS, or ServerBuilder::request_state_keys)"
                        .into(),
                ));
            }
        }
        let card = crate::card::build(&self.info, self.options.card.as_ref())?;
        let mut options = self.options;
        options.node = self.scale.as_ref().map(|s| Arc::clone(&s.node));
        let client_requests = Arc::new(tokio::sync::Semaphore::new(
            options
                .max_client_requests_total
                .min(tokio::sync::Semaphore::MAX_PERMITS),
        ));
        let hub = Arc::new(Hub::new(options.max_listeners));
        if !self.on_build.is_empty() && tokio::runtime::Handle::try_current().is_err() {
            return Err(Error::Config(
                "a server with mounts is built inside a tokio runtime (it watches them)".into(),
            ));
        }
        let (mounts_pending, _) = tokio::sync::watch::channel(records.mounts.len());
        let server = Server {
            inner: Arc::new(ServerInner {
                info: self.info,
                instructions: self.instructions,
                live: RwLock::new(Arc::new(live)),
                records: Mutex::new(records),
                state: Arc::new(self.state),
                options,
                server_info_meta,
                hub,
                state_key: self.state_key.unwrap_or_else(StateKey::random),
                #[cfg(feature = "http")]
                http: self.http,
                tasks: Arc::new(crate::tasks::TaskManager::new(task_options)),
                fair_shares: self.fair_shares,
                client_requests,
                shutdown: crate::handler::context::Cancellation::new(),
                server_info_json,
                scale: self.scale,
                mounts_pending,
                card,
            }),
        };
        for start in self.on_build {
            start(&server);
        }
        Ok(server)
    }
}
