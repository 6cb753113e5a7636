//! Feature `redis`: every scale-out seam on Redis (the `redis` crate, one multiplexed connection
//! that reconnects by itself, plus one pub/sub connection per replica).
//!
//! [`ServerBuilder::redis`](crate::ServerBuilder::redis) installs them all: handshake-era
//! sessions ([`SessionStore`](crate::scale::SessionStore)), the bus
//! ([`Bus`](crate::scale::Bus): list changes, resource updates, session changes,
//! cancellations, answers to another replica's requests), the SSE event log
//! ([`EventStore`](crate::http::EventStore)) and the task store
//! ([`TaskStore`](crate::tasks::TaskStore)). Every command waits at most
//! [`RedisOptions::timeout`]; keys carry TTLs and streams a `MAXLEN`. See `docs/scale-out.md`.

mod bus;
mod events;
mod sessions;
mod tasks;

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use redis::aio::ConnectionManager;
use redis::{Client, FromRedisValue};

use crate::error::Error;
use crate::scale::{ScaleError, ScaleOut};
use crate::server::ServerBuilder;

pub use bus::RedisBus;
pub use events::RedisEventStore;
pub use sessions::RedisSessionStore;
pub use tasks::RedisTaskStore;

/// Where and how a replica reaches Redis.
///
/// ```
/// use mcp_runtime::scale_redis::RedisOptions;
/// let options = RedisOptions::new("redis://127.0.0.1:6379").node("a").namespace("shop");
/// assert_eq!(options.node.as_deref(), Some("a"));
/// assert_eq!(options.namespace, "shop");
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct RedisOptions {
    /// `redis://HOST:PORT[/DB]`.
    pub url: String,
    /// This replica's name; random (8 hex digits) when `None`.
    pub node: Option<String>,
    /// Prefix of every key and channel (default `mcp`).
    pub namespace: String,
    /// The longest wait for one command (default 1 s); past it a request gets 503.
    pub timeout: Duration,
    /// How often a replica re-reads a session it holds (default 5 s): the bound on how long a
    /// change made on another replica may go unseen here when its bus message was lost. Zero
    /// re-reads on every request (one Redis command each).
    pub revalidate: Duration,
}

impl RedisOptions {
    /// Redis at `url`, the other settings by default.
    pub fn new(url: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            node: None,
            namespace: "mcp".into(),
            timeout: Duration::from_secs(1),
            revalidate: Duration::from_secs(5),
        }
    }

    /// The settings of a command-line replica: `MCP_REDIS_URL` (`None` when unset or empty),
    /// `MCP_NODE_ID` and `MCP_REDIS_NAMESPACE`.
    ///
    /// ```
    /// // Without MCP_REDIS_URL in the environment, a server is a single process.
    /// # if std::env::var_os("MCP_REDIS_URL").is_none() {
    /// assert!(mcp_runtime::scale_redis::RedisOptions::from_env().is_none());
    /// # }
    /// ```
    pub fn from_env() -> Option<Self> {
        let url = std::env::var("MCP_REDIS_URL")
            .ok()
            .filter(|u| !u.is_empty())?;
        Some(Self::new(url).named_from_env())
    }

    /// Takes `MCP_NODE_ID` and `MCP_REDIS_NAMESPACE` when they are set.
    fn named_from_env(mut self) -> Self {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        if let Some(node) = var("MCP_NODE_ID") {
            self.node = Some(node);
        }
        if let Some(ns) = var("MCP_REDIS_NAMESPACE") {
            self.namespace = ns;
        }
        self
    }

    /// Sets [`node`](Self::node).
    #[must_use]
    pub fn node(mut self, node: impl Into<String>) -> Self {
        self.node = Some(node.into());
        self
    }

    /// Sets [`namespace`](Self::namespace).
    #[must_use]
    pub fn namespace(mut self, namespace: impl Into<String>) -> Self {
        self.namespace = namespace.into();
        self
    }

    /// Sets [`revalidate`](Self::revalidate).
    ///
    /// ```
    /// let o = mcp_runtime::scale_redis::RedisOptions::new("redis://127.0.0.1").revalidate(std::time::Duration::ZERO);
    /// assert!(o.revalidate.is_zero());
    /// ```
    #[must_use]
    pub fn revalidate(mut self, every: Duration) -> Self {
        self.revalidate = every;
        self
    }

    /// Sets [`timeout`](Self::timeout).
    ///
    /// ```
    /// let o = mcp_runtime::scale_redis::RedisOptions::new("redis://127.0.0.1").timeout(std::time::Duration::from_millis(250));
    /// assert_eq!(o.timeout.as_millis(), 250);
    /// ```
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }
}

/// The connection every Redis seam of a replica shares.
pub(crate) struct Redis {
    client: Client,
    manager: OnceLock<ConnectionManager>,
    pub(crate) ns: String,
    pub(crate) node: Arc<str>,
    pub(crate) timeout: Duration,
}

impl Redis {
    pub(crate) fn open(options: &RedisOptions) -> Result<Arc<Self>, Error> {
        let client = Client::open(options.url.as_str()).map_err(|e| Error::InvalidSetting {
            setting: "MCP_REDIS_URL",
            source: e.into(),
        })?;
        let node = match &options.node {
            Some(n) => n.clone(),
            None => crate::random::token().chars().take(8).collect(),
        };
        Ok(Arc::new(Self {
            client,
            manager: OnceLock::new(),
            ns: options.namespace.clone(),
            node: node.into(),
            timeout: options.timeout,
        }))
    }

    /// `{ns}:{rest}`.
    pub(crate) fn key(&self, rest: &str) -> String {
        format!("{}:{rest}", self.ns)
    }

    /// The shared multiplexed connection (made on first use, inside the runtime).
    pub(crate) fn manager(&self) -> Result<ConnectionManager, ScaleError> {
        if let Some(m) = self.manager.get() {
            return Ok(m.clone());
        }
        let config = redis::aio::ConnectionManagerConfig::new()
            .set_connection_timeout(Some(self.timeout))
            .set_response_timeout(Some(self.timeout))
            .set_number_of_retries(1)
            .set_max_delay(Duration::from_secs(2));
        let made = ConnectionManager::new_lazy_with_config(self.client.clone(), config)
            .map_err(unavailable)?;
        Ok(self.manager.get_or_init(|| made).clone())
    }

    /// Runs one command within the timeout. A command that met a dropped connection is sent
    /// once more: the manager reconnects on that error, and every command used here is
    /// idempotent or harmless twice.
    pub(crate) async fn cmd<T: FromRedisValue>(&self, cmd: &redis::Cmd) -> Result<T, ScaleError> {
        let mut conn = self.manager()?;
        self.bounded(async move {
            match cmd.query_async(&mut conn).await {
                Err(e) if dropped(&e) => cmd.query_async(&mut conn).await,
                done => done,
            }
        })
        .await
    }

    /// Runs a pipeline within the timeout (sent again once, like [`cmd`](Self::cmd)).
    pub(crate) async fn pipe<T: FromRedisValue>(
        &self,
        pipe: &redis::Pipeline,
    ) -> Result<T, ScaleError> {
        let mut conn = self.manager()?;
        self.bounded(async move {
            match pipe.query_async(&mut conn).await {
                Err(e) if dropped(&e) => pipe.query_async(&mut conn).await,
                done => done,
            }
        })
        .await
    }

    pub(crate) async fn bounded<T>(
        &self,
        call: impl Future<Output = redis::RedisResult<T>>,
    ) -> Result<T, ScaleError> {
        match tokio::time::timeout(self.timeout, call).await {
            Ok(r) => r.map_err(unavailable),
            Err(_) => Err(ScaleError::Unavailable("timed out".into())),
        }
    }

    /// A connection of its own for pub/sub, within the timeout.
    pub(crate) async fn pubsub(&self) -> Result<redis::aio::PubSub, ScaleError> {
        self.bounded(self.client.get_async_pubsub()).await
    }
}

/// Whether an error means the connection was lost (and the manager is reconnecting).
fn dropped(e: &redis::RedisError) -> bool {
    e.is_io_error() || e.is_connection_dropped() || e.is_connection_refusal()
}

pub(crate) fn unavailable(e: redis::RedisError) -> ScaleError {
    ScaleError::backend(e)
}

/// Every Redis seam of one replica.
fn install(builder: ServerBuilder, options: &RedisOptions) -> ServerBuilder {
    let redis = match Redis::open(options) {
        Ok(r) => r,
        Err(err) => return builder.config_error(err),
    };
    let sessions = Arc::new(RedisSessionStore(Arc::clone(&redis)));
    let bus = Arc::new(RedisBus::new(Arc::clone(&redis)));
    let events: Arc<dyn crate::http::EventStore> =
        Arc::new(RedisEventStore::new(Arc::clone(&redis)));
    let tasks: Arc<dyn crate::tasks::TaskStore> = Arc::new(RedisTaskStore::new(Arc::clone(&redis)));
    let scale = ScaleOut::new(Arc::clone(&redis.node), sessions, bus)
        .with_timeout(options.timeout)
        .with_revalidate(options.revalidate);
    let mut builder = builder.scale_out(scale).shared_task_store(tasks);
    builder.http.events = Some(events);
    builder
}

impl ServerBuilder {
    /// Makes this server one replica of several sharing Redis at `url`: the one call of
    /// scale-out (see `docs/scale-out.md`). The replica's name is random and the key prefix
    /// `mcp` ([`redis_with`](Self::redis_with) names them; the library reads no environment
    /// variable, while the command line's `MCP_REDIS_URL` comes with `MCP_NODE_ID` and
    /// `MCP_REDIS_NAMESPACE`, see [`RedisOptions::from_env`]); every replica needs the same
    /// [`request_state_keys`](Self::request_state_keys). A malformed URL fails `build`.
    ///
    /// ```
    /// # use mcp_runtime::prelude::*;
    /// let server = Server::builder(server_info!())
    ///     .request_state_key([9; 32])
    ///     .redis("redis://127.0.0.1:6379") // nothing connects before the first request
    ///     .build()
    ///     .unwrap();
    /// # let _ = server;
    /// assert!(Server::builder(server_info!()).request_state_key([9; 32]).redis("http://x").build().is_err());
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
    pub fn redis(self, url: &str) -> Self {
        install(self, &RedisOptions::new(url))
    }

    /// [`redis`](Self::redis) with every setting explicit.
    ///
    /// ```
    /// # use mcp_runtime::prelude::*;
    /// use mcp_runtime::scale_redis::RedisOptions;
    /// let server = Server::builder(server_info!())
    ///     .request_state_key([9; 32])
    ///     .redis_with(RedisOptions::new("redis://127.0.0.1:6379").node("a"))
    ///     .build()
    ///     .unwrap();
    /// # let _ = server;
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
    pub fn redis_with(self, options: RedisOptions) -> Self {
        install(self, &options)
    }
}

/// What the command line does with `MCP_REDIS_URL` (and the key ring, read before).
#[cfg(feature = "cli")]
pub(crate) fn from_env(builder: ServerBuilder) -> ServerBuilder {
    match RedisOptions::from_env() {
        Some(options) => install(builder, &options),
        None => builder,
    }
}
