//! A mounted server's log messages, and the level it is asked for.
//!
//! One connection to the remote serves every one of our sessions, so what a handshake-era
//! remote logs belongs to that connection, not to a request: it goes to each of our sessions
//! that set a level with `logging/setLevel`, at that level (`notify::Hub::log`), and the remote
//! is set to the most verbose level one of them (or a stateless caller's request in flight)
//! asked for. A stateless request's messages belong to that request: they are passed on through
//! the forwarded request's [`Context`](crate::Context) when they can be told apart, that is when
//! one request that asked for messages is in flight on this mount (`Call::on_log`: the protocol
//! gives a log message no request id; with several in flight, a stateless remote's messages are
//! dropped, a handshake-era remote's go to the sessions).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex, Weak};

use mcp_core::{LoggingLevel, LoggingMessageNotificationParams};
use tokio::sync::mpsc;

use super::Shared;
use crate::sync::lock;

/// No level.
const NONE: u8 = u8::MAX;
/// How many requests one mount watches for log messages at once (past it: not watched).
const MAX_WATCHED: usize = 1024;
/// How many log messages of one forwarded request wait at most (more are dropped).
const LOG_QUEUE: usize = 32;

/// The levels of the requests in flight that asked for their log messages.
#[derive(Default)]
struct Table {
    next: u64,
    watched: HashMap<u64, u8>,
    /// Those left out for want of room (they still make the messages ambiguous).
    overflow: usize,
}

/// One mount's log relay.
pub(super) struct Logs {
    table: Mutex<Table>,
    /// The most verbose level (severity index) one of our sessions set; [`NONE`] when none did.
    sessions: AtomicU8,
    /// The level last set on a handshake-era remote ([`NONE`]: never), held while setting it.
    sent: tokio::sync::Mutex<u8>,
}

impl Default for Logs {
    fn default() -> Self {
        Self {
            table: Mutex::default(),
            sessions: AtomicU8::new(NONE),
            sent: tokio::sync::Mutex::new(NONE),
        }
    }
}

/// Where a forwarded request's log messages are queued (dropped past [`LOG_QUEUE`]).
pub(super) type LogSender = mpsc::Sender<LoggingMessageNotificationParams>;

/// A forwarded request's log messages, while it is in flight.
pub(super) struct LogWatch {
    pub(super) rx: mpsc::Receiver<LoggingMessageNotificationParams>,
    _entry: Option<Entry>,
}

/// Removes a watched request from the table.
struct Entry {
    shared: Weak<Shared>,
    /// `None`: counted in `overflow`.
    key: Option<u64>,
}

impl Drop for Entry {
    fn drop(&mut self) {
        if let Some(shared) = self.shared.upgrade() {
            let mut table = lock(&shared.logs.table);
            match self.key {
                Some(key) => drop(table.watched.remove(&key)),
                None => table.overflow = table.overflow.saturating_sub(1),
            }
        }
    }
}

impl Logs {
    /// Watches a request for the messages at `threshold` or above (`None`: it wants none):
    /// what the returned sender is given, the watch receives.
    pub(super) fn watch(
        &self,
        threshold: Option<u8>,
        shared: &Arc<Shared>,
    ) -> (Option<LogSender>, LogWatch) {
        let (tx, rx) = mpsc::channel(LOG_QUEUE);
        let Some(threshold) = threshold else {
            return (None, LogWatch { rx, _entry: None });
        };
        let mut table = lock(&self.table);
        let key = if table.watched.len() < MAX_WATCHED {
            let key = table.next;
            table.next += 1;
            table.watched.insert(key, threshold);
            Some(key)
        } else {
            table.overflow += 1;
            None
        };
        let shared = Arc::downgrade(shared);
        let watch = LogWatch {
            rx,
            _entry: Some(Entry { shared, key }),
        };
        (Some(tx), watch)
    }

    /// Records the most verbose level one of our sessions set.
    pub(super) fn sessions_set(&self, least: u8) {
        self.sessions.store(least, Ordering::Relaxed);
    }

    /// The level the remote should be at: the most verbose one asked for, if any.
    fn desired(&self) -> u8 {
        let table = lock(&self.table);
        let watched = table.watched.values().copied().min();
        watched
            .unwrap_or(NONE)
            .min(self.sessions.load(Ordering::Relaxed))
    }

    /// Sets a handshake-era remote's level to the one wanted now, unless it is there already
    /// (a failure is logged; our sessions' own levels still filter what is relayed).
    pub(super) async fn ensure_level(&self, client: &mcp_client::Client) {
        let mut sent = self.sent.lock().await;
        let desired = self.desired();
        let (false, Some(level)) = (desired == *sent, LoggingLevel::from_severity(desired)) else {
            return;
        };
        match client.set_level(level).await {
            Ok(()) => *sent = desired,
            Err(e) => tracing::debug!("setting a mounted server's log level failed: {e}"),
        }
    }
}

/// What the remote sends about one forwarded request besides its answer.
pub(super) struct Passed {
    pub(super) updates: mpsc::Receiver<mcp_core::ProgressNotificationParams>,
    pub(super) logs: LogWatch,
}

/// Passes a remote log message on, through our request's gate (the caller's level).
pub(super) async fn log(
    ctx: &crate::handler::context::Context,
    m: LoggingMessageNotificationParams,
) {
    ctx.log_as(m.level, m.logger.as_deref(), m.data).await;
}
