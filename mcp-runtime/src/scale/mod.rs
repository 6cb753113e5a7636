//! Scale-out seams: what several replicas of one server share so that any of them can serve any
//! request of a client (handshake-era sessions, notifications, answers to the server's
//! questions, cancellations).
//!
//! A single process needs none of this: without a [`ScaleOut`] every session, notification and
//! pending question lives in memory, as before. [`ServerBuilder::scale_out`](crate::ServerBuilder::scale_out)
//! installs one; feature `redis` brings the Redis implementation
//! (`ServerBuilder::redis`), and [`memory`] has in-process ones (several servers in one process
//! sharing them, for tests). The other two shared parts have their own seams: the SSE event log
//! ([`EventStore`](crate::http::EventStore)) and the task store
//! ([`TaskStore`](crate::tasks::TaskStore)).

pub mod memory;

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::broadcast;

use crate::future::BoxFuture;

/// A shared store failed or could not be reached in time.
///
/// ```
/// use mcp_runtime::scale::ScaleError;
/// let e = ScaleError::Unavailable("timed out".into());
/// assert_eq!(e.to_string(), "shared store unavailable: timed out");
/// let e = ScaleError::backend(std::io::Error::other("connection refused"));
/// assert_eq!(e.to_string(), "shared store unavailable: connection refused");
/// assert!(std::error::Error::source(&e).is_some());
/// ```
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum ScaleError {
    /// The store timed out or refused the command (too large, full); retrying later may work.
    #[error("shared store unavailable: {0}")]
    Unavailable(String),
    /// The store's client failed (connection lost, a protocol error); the cause is the source.
    /// Retrying later may work.
    #[error("shared store unavailable: {0}")]
    Backend(#[source] Arc<dyn std::error::Error + Send + Sync + 'static>),
}

impl ScaleError {
    /// A [`Backend`](Self::Backend) failure caused by `error`.
    ///
    /// ```
    /// use mcp_runtime::scale::ScaleError;
    /// assert!(matches!(ScaleError::backend("down"), ScaleError::Backend(_)));
    /// ```
    pub fn backend(error: impl Into<crate::error::BoxError>) -> Self {
        Self::Backend(Arc::from(error.into()))
    }
}

/// What a handshake-era session is, once negotiated: enough for another replica to serve it
/// without a second `initialize`.
///
/// ```
/// use mcp_runtime::scale::SessionRecord;
/// let record = SessionRecord::new("2025-11-25", serde_json::json!({"name": "c", "version": "1"}), serde_json::json!({}));
/// let text = serde_json::to_string(&record).unwrap();
/// assert_eq!(serde_json::from_str::<SessionRecord>(&text).unwrap(), record);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SessionRecord {
    /// The negotiated protocol revision.
    #[serde(rename = "pv")]
    pub protocol_version: String,
    /// The client's `clientInfo`.
    #[serde(rename = "ci")]
    pub client_info: Value,
    /// The client's capabilities.
    #[serde(rename = "caps")]
    pub client_caps: Value,
    /// The `logging/setLevel` level, as a severity (0 debug … 7 emergency).
    #[serde(rename = "lvl", default = "info")]
    pub log_level: u8,
    /// The `resources/subscribe` URIs.
    #[serde(rename = "subs", default)]
    pub subscriptions: Vec<String>,
    /// With feature `auth`: the subject (`sub`) of the token that opened the session. Every
    /// replica serves the session to this subject (and [`issuer`](Self::issuer)) only; another
    /// one gets 404. A record without it (written by a replica without `auth`) is served by a
    /// replica with `auth` to nobody (404: the client opens a new, bound session), and by a
    /// replica without `auth` as before.
    #[serde(rename = "sub", default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    /// With feature `auth`: the issuer (`iss`) of that token, when it named one.
    #[serde(rename = "iss", default, skip_serializing_if = "Option::is_none")]
    pub issuer: Option<String>,
}

fn info() -> u8 {
    1
}

impl SessionRecord {
    /// A fresh session's record: level `info`, no subscriptions.
    pub fn new(
        protocol_version: impl Into<String>,
        client_info: Value,
        client_caps: Value,
    ) -> Self {
        Self {
            protocol_version: protocol_version.into(),
            client_info,
            client_caps,
            log_level: info(),
            subscriptions: Vec::new(),
            subject: None,
            issuer: None,
        }
    }

    /// The same record, bound to the caller `subject` (of `issuer`) that opened the session.
    ///
    /// ```
    /// use mcp_runtime::scale::SessionRecord;
    /// let record = SessionRecord::new("2025-11-25", serde_json::json!({}), serde_json::json!({}))
    ///     .bound_to("alice", Some("https://auth.example.com"));
    /// let text = serde_json::to_string(&record).unwrap();
    /// assert!(text.ends_with(r#""sub":"alice","iss":"https://auth.example.com"}"#));
    /// // A record written before subjects were shared reads as unbound.
    /// let old: SessionRecord = serde_json::from_str(r#"{"pv":"2025-11-25","ci":{},"caps":{}}"#).unwrap();
    /// assert_eq!((old.subject, old.issuer), (None, None));
    /// ```
    #[must_use]
    pub fn bound_to(mut self, subject: impl Into<String>, issuer: Option<&str>) -> Self {
        self.subject = Some(subject.into());
        self.issuer = issuer.map(str::to_owned);
        self
    }
}

/// Where handshake-era sessions are shared. Each replica keeps the sessions it serves in memory
/// and asks the store only for one it has not seen, and every few seconds whether a session
/// still exists and what it is now ([`touch`](Self::touch), which also catches a change whose
/// bus message was lost). Every method must return within a bounded time.
///
/// ```
/// use std::time::Duration;
/// use mcp_runtime::scale::{SessionRecord, SessionStore, memory::MemorySessionStore};
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let store = MemorySessionStore::new(100);
/// let record = SessionRecord::new("2025-11-25", serde_json::json!({}), serde_json::json!({}));
/// store.save("s1", &record, Duration::from_secs(60)).await.unwrap();
/// assert_eq!(store.load("s1").await.unwrap(), Some(record.clone()));
/// assert_eq!(store.touch("s1", Duration::from_secs(60)).await.unwrap(), Some(record));
/// assert!(store.delete("s1").await.unwrap());
/// assert_eq!(store.touch("s1", Duration::from_secs(60)).await.unwrap(), None);
/// # });
/// ```
pub trait SessionStore: Send + Sync + 'static {
    /// Stores (or replaces) a session's record, kept for `idle` after its last touch.
    fn save<'a>(
        &'a self,
        id: &'a str,
        record: &'a SessionRecord,
        idle: Duration,
    ) -> BoxFuture<'a, Result<(), ScaleError>>;
    /// The record of a session; `None` when unknown, deleted or expired.
    fn load<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<SessionRecord>, ScaleError>>;
    /// Extends a session's life by `idle` and returns its record; `None` when it no longer
    /// exists.
    fn touch<'a>(
        &'a self,
        id: &'a str,
        idle: Duration,
    ) -> BoxFuture<'a, Result<Option<SessionRecord>, ScaleError>>;
    /// Ends a session; `false` when it did not exist.
    fn delete<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<bool, ScaleError>>;

    /// Claims `key` for `ttl`, once among all replicas: `true` for the first claim, `false` for
    /// every later one while the first is remembered. The stateless era's `requestState`s are
    /// claimed here when they are opened, so that a state answered on one replica cannot be
    /// replayed on another (each process also remembers the states it opened, bounded).
    ///
    /// The default claims every key: right for a store that only one process uses (the
    /// process's own memory is enough); a store that replicas share should implement it, as the
    /// Redis store does (`SET key NX PX ttl`).
    ///
    /// ```
    /// use std::time::Duration;
    /// use mcp_runtime::scale::{SessionStore, memory::MemorySessionStore};
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let store = MemorySessionStore::new(100);
    /// assert!(store.claim_once("rs:nonce", Duration::from_secs(60)).await.unwrap());
    /// # });
    /// ```
    fn claim_once<'a>(
        &'a self,
        key: &'a str,
        ttl: Duration,
    ) -> BoxFuture<'a, Result<bool, ScaleError>> {
        let _ = (key, ttl);
        Box::pin(std::future::ready(Ok(true)))
    }
}

/// What replicas tell each other.
///
/// ```
/// use mcp_runtime::scale::BusMessage;
/// let m = BusMessage::ResourceUpdated { uri: "file:///a".into() };
/// let text = serde_json::to_string(&m).unwrap();
/// assert_eq!(text, r#"{"t":"resource_updated","uri":"file:///a"}"#);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
#[non_exhaustive]
pub enum BusMessage {
    /// A list changed: `kind` is `tools`, `prompts` or `resources`.
    ListChanged {
        /// Which list.
        kind: String,
    },
    /// A resource changed (`notifications/resources/updated`).
    ResourceUpdated {
        /// Its URI.
        uri: String,
    },
    /// A session's record changed (log level, subscriptions); holders take the new one.
    SessionChanged {
        /// The session.
        sid: String,
        /// Its record now.
        record: SessionRecord,
    },
    /// A session ended (`DELETE`); holders drop it.
    SessionClosed {
        /// The session.
        sid: String,
    },
    /// `notifications/cancelled` from a client (the JSON-RPC text): the replica running the
    /// request stops it.
    Cancel {
        /// The session.
        sid: String,
        /// The notification as the client sent it.
        message: String,
    },
    /// A task was cancelled (by its owner, on the sending replica): the replica running its
    /// handler stops it.
    TaskCancelled {
        /// The task.
        id: String,
    },
    /// The client's answer to a request the target replica sent (elicitation, sampling, roots).
    ClientResponse {
        /// The session.
        sid: String,
        /// The response as the client sent it.
        message: String,
    },
}

/// A [`BusMessage`] with who sent it and, for a node-addressed one, who gets it.
///
/// ```
/// use mcp_runtime::scale::{BusMessage, Envelope};
/// let e = Envelope::broadcast("a", BusMessage::ListChanged { kind: "tools".into() });
/// assert!(e.target.is_none());
/// let e = Envelope::to_node("a", "b", BusMessage::SessionClosed { sid: "s".into() });
/// assert_eq!(e.target.as_deref(), Some("b"));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Envelope {
    /// The replica that sent it.
    pub origin: String,
    /// The one replica it is for; `None` for every replica.
    pub target: Option<String>,
    /// What it says.
    pub message: BusMessage,
}

impl Envelope {
    /// A message for every replica.
    pub fn broadcast(origin: impl Into<String>, message: BusMessage) -> Self {
        Self {
            origin: origin.into(),
            target: None,
            message,
        }
    }

    /// A message for replica `target` only.
    pub fn to_node(
        origin: impl Into<String>,
        target: impl Into<String>,
        message: BusMessage,
    ) -> Self {
        Self {
            origin: origin.into(),
            target: Some(target.into()),
            message,
        }
    }
}

/// How replicas reach each other: at-most-once messages, broadcast or to one replica. A
/// replica receives the broadcasts (its own included: receivers skip what they sent) and what
/// is addressed to it.
///
/// ```
/// use mcp_runtime::scale::{Bus, BusMessage, Envelope, memory::MemoryBus};
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let bus = MemoryBus::new(16);
/// let a = bus.node("a");
/// let b = bus.node("b");
/// let mut on_b = b.subscribe();
/// a.publish(Envelope::to_node("a", "b", BusMessage::SessionClosed { sid: "s".into() })).await.unwrap();
/// assert_eq!(on_b.recv().await.unwrap().origin, "a");
/// # });
/// ```
pub trait Bus: Send + Sync + 'static {
    /// Sends a message; `Ok` once the bus took it (delivery is not confirmed).
    fn publish(&self, envelope: Envelope) -> BoxFuture<'_, Result<(), ScaleError>>;
    /// The messages for this replica from now on (bounded: a slow reader misses old ones).
    fn subscribe(&self) -> broadcast::Receiver<Arc<Envelope>>;
}

/// The shared parts of a replica: its name, its session store and its bus.
///
/// ```
/// use std::sync::Arc;
/// use mcp_runtime::scale::{ScaleOut, memory::{MemoryBus, MemorySessionStore}};
/// let sessions = Arc::new(MemorySessionStore::new(1000));
/// let bus = MemoryBus::new(256);
/// let replica = ScaleOut::new("a", sessions, Arc::new(bus.node("a")));
/// assert_eq!(&*replica.node, "a");
/// ```
#[derive(Clone)]
#[non_exhaustive]
pub struct ScaleOut {
    /// This replica's name, unique among live replicas (`A-Za-z0-9_-`).
    pub node: Arc<str>,
    /// Where sessions are shared.
    pub sessions: Arc<dyn SessionStore>,
    /// How replicas reach each other.
    pub bus: Arc<dyn Bus>,
    /// The longest wait for the store before a request is refused with 503 (default 1 s).
    pub timeout: Duration,
    /// How often a replica checks that a session it holds still exists (default 5 s).
    pub revalidate: Duration,
}

impl fmt::Debug for ScaleOut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ScaleOut")
            .field("node", &self.node)
            .field("timeout", &self.timeout)
            .field("revalidate", &self.revalidate)
            .finish_non_exhaustive()
    }
}

impl ScaleOut {
    /// Replica `node` sharing sessions in `sessions` and messages on `bus`.
    pub fn new(
        node: impl Into<Arc<str>>,
        sessions: Arc<dyn SessionStore>,
        bus: Arc<dyn Bus>,
    ) -> Self {
        Self {
            node: node.into(),
            sessions,
            bus,
            timeout: Duration::from_secs(1),
            revalidate: Duration::from_secs(5),
        }
    }

    /// Sets [`timeout`](Self::timeout).
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use mcp_runtime::scale::{ScaleOut, memory::{MemoryBus, MemorySessionStore}};
    /// # let bus = MemoryBus::new(8);
    /// let s = ScaleOut::new("a", Arc::new(MemorySessionStore::new(8)), Arc::new(bus.node("a")))
    ///     .with_timeout(std::time::Duration::from_millis(300));
    /// assert_eq!(s.timeout.as_millis(), 300);
    /// ```
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Sets [`revalidate`](Self::revalidate).
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use mcp_runtime::scale::{ScaleOut, memory::{MemoryBus, MemorySessionStore}};
    /// # let bus = MemoryBus::new(8);
    /// let s = ScaleOut::new("a", Arc::new(MemorySessionStore::new(8)), Arc::new(bus.node("a")))
    ///     .with_revalidate(std::time::Duration::from_secs(1));
    /// assert_eq!(s.revalidate.as_secs(), 1);
    /// ```
    #[must_use]
    pub fn with_revalidate(mut self, every: Duration) -> Self {
        self.revalidate = every;
        self
    }

    /// Publishes a broadcast from this replica and waits (within the timeout) until the bus
    /// took it: what a reply to the client must come after.
    #[cfg(feature = "http")]
    pub(crate) async fn announce_now(&self, message: BusMessage) {
        let envelope = Envelope::broadcast(&*self.node, message);
        match tokio::time::timeout(self.timeout, self.bus.publish(envelope)).await {
            Ok(Ok(())) => {}
            Ok(Err(err)) => tracing::warn!(%err, "scale-out: broadcast lost"),
            Err(_) => tracing::warn!("scale-out: broadcast timed out"),
        }
    }

    /// Publishes a broadcast from this replica, in the background (best effort).
    pub(crate) fn announce(&self, message: BusMessage) {
        let bus = Arc::clone(&self.bus);
        let envelope = Envelope::broadcast(&*self.node, message);
        let timeout = self.timeout;
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            crate::background::spawn_on(&rt, async move {
                if let Ok(Err(err)) = tokio::time::timeout(timeout, bus.publish(envelope)).await {
                    tracing::warn!(%err, "scale-out: broadcast lost");
                }
            });
        }
    }
}

/// Whether `node` is a usable replica name: 1 to 32 of `A-Za-z0-9_-`.
///
/// ```
/// assert!(mcp_runtime::scale::valid_node_id("replica-a"));
/// assert!(!mcp_runtime::scale::valid_node_id("a.b"));
/// assert!(!mcp_runtime::scale::valid_node_id(""));
/// ```
pub fn valid_node_id(node: &str) -> bool {
    (1..=32).contains(&node.len())
        && node
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Reads a `requestState` key ring (`MCP_REQUEST_STATE_KEYS`): keys separated by commas, each
/// 64 hex digits (32 bytes); the first seals, every one opens.
///
/// ```
/// let ring = mcp_runtime::scale::parse_key_ring(&format!("{},{}", "ab".repeat(32), "01".repeat(32))).unwrap();
/// assert_eq!(ring, vec![[0xab; 32], [0x01; 32]]);
/// assert!(mcp_runtime::scale::parse_key_ring("abc").is_err());
/// assert!(mcp_runtime::scale::parse_key_ring("").is_err());
/// ```
pub fn parse_key_ring(text: &str) -> Result<Vec<[u8; 32]>, String> {
    let mut ring = Vec::new();
    for (i, key) in text.split(',').map(str::trim).enumerate() {
        let bytes = key.as_bytes();
        if bytes.len() != 64 || !bytes.iter().all(u8::is_ascii_hexdigit) {
            return Err(format!(
                "key {} of the requestState key ring is not 64 hex digits (32 bytes)",
                i + 1
            ));
        }
        let mut out = [0u8; 32];
        for (o, pair) in out.iter_mut().zip(bytes.chunks(2)) {
            let hex = |b: u8| (b as char).to_digit(16).unwrap_or(0) as u8;
            *o = hex(pair[0]) << 4 | hex(pair[1]);
        }
        ring.push(out);
    }
    Ok(ring)
}
