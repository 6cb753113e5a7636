//! A connection's protocol state: its handshake-era session, log level, resource subscriptions,
//! requests sent to the client, and the signal that it is closing.

use std::sync::atomic::{AtomicBool, AtomicU8};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_core::LoggingLevel;
use tokio::sync::Semaphore;

use crate::dispatch::meta_memo::MetaMemo;
use crate::dispatch::scope::Negotiated;
use crate::handler::context::Cancellation;
use crate::handler::peer::Pending;
use crate::middleware::TransportKind;
use crate::notify::Subscriptions;
use crate::outbound::Sink;
use crate::registry::mounted::Held;
use crate::sync::lock;

/// What the protocol methods keep per connection.
pub(crate) struct LinkState {
    session: Mutex<Option<Arc<Negotiated>>>,
    /// The `logging/setLevel` level of the session.
    pub(crate) log_level: Arc<AtomicU8>,
    /// Whether the session set its level (a mounted server's messages are relayed only then).
    pub(crate) log_set: AtomicBool,
    /// `resources/subscribe` URIs.
    pub(crate) subscriptions: Subscriptions,
    /// The subscriptions among them held on a mounted server, by our URI (released with the
    /// session; as many as `subscriptions` at most).
    pub(crate) held: Mutex<std::collections::HashMap<String, Held>>,
    /// Requests sent to the client, awaiting answers.
    pub(crate) pending: Arc<Pending>,
    /// Cancelled when the connection closes: ends `subscriptions/listen` gracefully.
    pub(crate) closing: Cancellation,
    /// The connection's own outbound queue (server-initiated messages): what a task reaches
    /// the client through once the request that created it is answered.
    pub(crate) out: Option<Sink>,
    /// Who owns the tasks created here: random, one per connection (one per handshake-era
    /// session over HTTP); made on first use.
    task_owner: std::sync::OnceLock<String>,
    /// The last plain stateless `_meta` read here, by its text.
    pub(crate) meta_memo: MetaMemo,
    /// What the messages come over (the layers see it, both ways).
    pub(crate) transport: TransportKind,
    /// The HTTP session (or legacy SSE connection) id, once one is handed out (the layers see
    /// it).
    pub(crate) session_id: std::sync::OnceLock<Arc<str>>,
}

impl LinkState {
    /// A link with no session; at most `max_pending` requests to the client wait at once (and no
    /// more than the server-wide `total` allows), each for up to `timeout`.
    pub(crate) fn new(max_pending: usize, total: Arc<Semaphore>, timeout: Duration) -> Self {
        Self {
            session: Mutex::new(None),
            log_level: Arc::new(AtomicU8::new(LoggingLevel::Info.severity())),
            log_set: AtomicBool::new(false),
            subscriptions: Subscriptions::default(),
            held: Mutex::default(),
            pending: Arc::new(Pending::new(max_pending, total, timeout)),
            closing: Cancellation::new(),
            out: None,
            task_owner: std::sync::OnceLock::new(),
            meta_memo: MetaMemo::default(),
            transport: TransportKind::Custom,
            session_id: std::sync::OnceLock::new(),
        }
    }

    /// The same link, over `transport`.
    pub(crate) fn with_transport(mut self, transport: TransportKind) -> Self {
        self.transport = transport;
        self
    }

    /// The same link on replica `node`: its requests to the client say so in their ids.
    pub(crate) fn with_node(mut self, node: Option<Arc<str>>) -> Self {
        if let Some(pending) = Arc::get_mut(&mut self.pending) {
            pending.node = node;
        }
        self
    }

    /// Takes the id of the tasks created on this connection (a session's id, so that every
    /// replica serving the session sees the same tasks); ignored once set.
    #[cfg(feature = "http")]
    pub(crate) fn set_task_owner(&self, owner: &str) {
        let _ = self.task_owner.set(owner.to_owned());
    }

    /// The same link, whose tasks reach the client through `out`.
    pub(crate) fn with_out(mut self, out: Sink) -> Self {
        self.out = Some(out);
        self
    }

    /// The owner of the tasks created on this connection.
    pub(crate) fn task_owner(&self) -> &str {
        self.task_owner.get_or_init(crate::random::token)
    }

    /// The level (severity index) the session set with `logging/setLevel`, if it set one.
    pub(crate) fn set_level(&self) -> Option<u8> {
        use std::sync::atomic::Ordering;
        let set = self.log_set.load(Ordering::Relaxed);
        set.then(|| self.log_level.load(Ordering::Relaxed))
            .filter(|s| *s <= 7)
    }

    /// The handshake-era session, once `initialize` opened it.
    pub(crate) fn session(&self) -> Option<Arc<Negotiated>> {
        lock(&self.session).clone()
    }

    /// Opens (or replaces) the session.
    pub(crate) fn open(&self, session: Negotiated) {
        *lock(&self.session) = Some(Arc::new(session));
    }
}
