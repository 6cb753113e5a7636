//! A connection's protocol state: its handshake-era session, log level, resource subscriptions,
//! requests sent to the client, and the signal that it is closing.

use std::sync::atomic::AtomicU8;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_core::LoggingLevel;
use tokio::sync::Semaphore;

use crate::dispatch::scope::Session;
use crate::handler::context::{CancellationToken, severity};
use crate::handler::peer::Pending;
use crate::notify::Subscriptions;

/// What the protocol methods keep per connection.
pub(crate) struct Link {
    session: Mutex<Option<Arc<Session>>>,
    /// The `logging/setLevel` level of the session.
    pub(crate) log_level: Arc<AtomicU8>,
    /// `resources/subscribe` URIs.
    pub(crate) subscriptions: Subscriptions,
    /// Requests sent to the client, awaiting answers.
    pub(crate) pending: Arc<Pending>,
    /// Cancelled when the connection closes: ends `subscriptions/listen` gracefully.
    pub(crate) closing: CancellationToken,
}

impl Link {
    /// A link with no session; at most `max_pending` requests to the client wait at once (and no
    /// more than the server-wide `total` allows), each for up to `timeout`.
    pub(crate) fn new(max_pending: usize, total: Arc<Semaphore>, timeout: Duration) -> Self {
        Self {
            session: Mutex::new(None),
            log_level: Arc::new(AtomicU8::new(severity(LoggingLevel::Info))),
            subscriptions: Subscriptions::default(),
            pending: Arc::new(Pending::new(max_pending, total, timeout)),
            closing: CancellationToken::new(),
        }
    }

    /// The handshake-era session, once `initialize` opened it.
    pub(crate) fn session(&self) -> Option<Arc<Session>> {
        self.session
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Opens (or replaces) the session.
    pub(crate) fn open(&self, session: Session) {
        *self.session.lock().unwrap_or_else(|e| e.into_inner()) = Some(Arc::new(session));
    }
}
