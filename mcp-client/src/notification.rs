//! Notifications from the server, typed.

use mcp_core::method::Method;
use mcp_core::{
    LoggingMessageNotificationParams, ProgressNotificationParams, ResourceUpdatedNotificationParams,
};
use serde_json::Value;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use tokio::sync::broadcast;

/// A notification the server sent.
///
/// ```
/// use mcp_runtime_client::ServerNotification;
///
/// let n = ServerNotification::parse("notifications/tools/list_changed", None);
/// assert!(matches!(n, ServerNotification::ToolsListChanged));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ServerNotification {
    /// `notifications/progress` of a request that did not ask for progress itself.
    Progress(ProgressNotificationParams),
    /// `notifications/message`: a log message.
    Log(LoggingMessageNotificationParams),
    /// `notifications/resources/updated`.
    ResourceUpdated(ResourceUpdatedNotificationParams),
    /// `notifications/tools/list_changed`.
    ToolsListChanged,
    /// `notifications/prompts/list_changed`.
    PromptsListChanged,
    /// `notifications/resources/list_changed`.
    ResourcesListChanged,
    /// Any other notification (or one whose params do not have the expected shape).
    Other {
        /// The method.
        method: String,
        /// The params.
        params: Option<Value>,
    },
}

impl ServerNotification {
    /// Reads a notification from its method and params.
    ///
    /// ```
    /// use mcp_runtime_client::ServerNotification;
    /// use serde_json::json;
    ///
    /// let n = ServerNotification::parse(
    ///     "notifications/resources/updated",
    ///     Some(json!({"uri": "file:///a"})),
    /// );
    /// let ServerNotification::ResourceUpdated(p) = n else { panic!() };
    /// assert_eq!(p.uri, "file:///a");
    /// ```
    #[must_use]
    pub fn parse(method: &str, params: Option<Value>) -> Self {
        fn typed<T: serde::de::DeserializeOwned>(params: &Option<Value>) -> Option<T> {
            serde_json::from_value(params.clone()?).ok()
        }
        let known = match Method::server_notification(method) {
            Method::Progress => typed(&params).map(Self::Progress),
            Method::LogMessage => typed(&params).map(Self::Log),
            Method::ResourceUpdated => typed(&params).map(Self::ResourceUpdated),
            Method::ToolsListChanged => Some(Self::ToolsListChanged),
            Method::PromptsListChanged => Some(Self::PromptsListChanged),
            Method::ResourcesListChanged => Some(Self::ResourcesListChanged),
            _ => None,
        };
        known.unwrap_or(Self::Other {
            method: method.to_owned(),
            params,
        })
    }
}

/// How many notifications wait for slow readers at most.
const QUEUE: usize = 256;

/// The stream of the server's notifications, from [`Client::notifications`].
///
/// It holds the last 256 notifications not yet read, and no more than
/// [`ClientBuilder::max_notification_bytes`] of them (32 MiB unless set); a reader that falls
/// further behind skips the oldest, a notification that would pass the bytes is dropped as it
/// arrives, and either way the reader is told how many it missed with
/// [`Lagged`](NotificationsError::Lagged).
///
/// [`Client::notifications`]: crate::Client::notifications
/// [`ClientBuilder::max_notification_bytes`]: crate::ClientBuilder::max_notification_bytes
#[derive(Debug)]
pub struct Notifications {
    rx: broadcast::Receiver<Arc<Queued>>,
    /// How many notifications the queue dropped for want of room, ever.
    dropped: Arc<AtomicU64>,
    /// How many of those this reader was told of (or were dropped before it subscribed).
    told: u64,
}

/// One notification waiting for its readers, and what it holds of the queue's bytes.
#[derive(Debug)]
struct Queued {
    note: ServerNotification,
    _charge: Charge,
}

/// Bytes of the queue held until the last reader has the notification (or it is overwritten).
#[derive(Debug)]
struct Charge {
    bytes: usize,
    held: Arc<AtomicUsize>,
}

impl Drop for Charge {
    fn drop(&mut self) {
        self.held.fetch_sub(self.bytes, Ordering::AcqRel);
    }
}

/// The queue of the server's notifications, bounded in count and in bytes.
#[derive(Debug)]
pub(crate) struct Queue {
    tx: broadcast::Sender<Arc<Queued>>,
    /// The bytes held by notifications some reader has yet to read.
    held: Arc<AtomicUsize>,
    dropped: Arc<AtomicU64>,
    max_bytes: usize,
}

impl Queue {
    /// A queue holding at most `max_bytes` of notifications (see [`weight`]).
    pub(crate) fn new(max_bytes: usize) -> Self {
        Self {
            tx: broadcast::channel(QUEUE).0,
            held: Arc::new(AtomicUsize::new(0)),
            dropped: Arc::new(AtomicU64::new(0)),
            max_bytes,
        }
    }

    /// A reader of the notifications from now on.
    pub(crate) fn subscribe(&self) -> Notifications {
        Notifications {
            rx: self.tx.subscribe(),
            told: self.dropped.load(Ordering::Acquire),
            dropped: self.dropped.clone(),
        }
    }

    /// A reader of a closed queue.
    pub(crate) fn closed() -> Notifications {
        Notifications {
            rx: broadcast::channel(1).1,
            dropped: Arc::new(AtomicU64::new(0)),
            told: 0,
        }
    }

    /// Queues a notification for every reader; one that would take the queue past its bytes is
    /// dropped (and counted, and logged). Nothing is held without a reader.
    pub(crate) fn push(&self, method: &str, params: Option<Value>) {
        if self.tx.receiver_count() == 0 {
            return;
        }
        let bytes = method.len() + params.as_ref().map_or(0, weight);
        let mut held = self.held.load(Ordering::Acquire);
        loop {
            if held.saturating_add(bytes) > self.max_bytes {
                let dropped = self.dropped.fetch_add(1, Ordering::AcqRel) + 1;
                tracing::warn!(
                    method,
                    bytes,
                    held,
                    limit = self.max_bytes,
                    dropped,
                    "mcp client: the notification queue is full; a notification is dropped"
                );
                return;
            }
            match self.held.compare_exchange_weak(
                held,
                held + bytes,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => break,
                Err(now) => held = now,
            }
        }
        let charge = Charge {
            bytes,
            held: self.held.clone(),
        };
        let note = ServerNotification::parse(method, params);
        // Without a reader any more, the notification (and its charge) is dropped here.
        let _ = self.tx.send(Arc::new(Queued {
            note,
            _charge: charge,
        }));
    }

    /// The bytes held now.
    #[cfg(test)]
    fn held(&self) -> usize {
        self.held.load(Ordering::Acquire)
    }
}

/// What a JSON value holds in memory, about: each value's own size, and the bytes of its
/// strings and member names. A notification is counted by this weight, not by its text, since
/// `[0,0,…]` weighs many times the bytes it took to send.
pub(crate) fn weight(value: &Value) -> usize {
    let node = std::mem::size_of::<Value>();
    match value {
        Value::String(s) => node + s.len(),
        Value::Array(items) => node + items.iter().map(weight).sum::<usize>(),
        Value::Object(members) => {
            node + members
                .iter()
                .map(|(k, v)| std::mem::size_of::<String>() + k.len() + weight(v))
                .sum::<usize>()
        }
        _ => node,
    }
}

/// Why [`Notifications::next`] returned no notification.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NotificationsError {
    /// The connection is closed.
    #[error("the connection is closed")]
    Closed,
    /// This reader fell behind and missed this many notifications (the queue's 256 were
    /// passed, or its bytes: see [`Notifications`]).
    #[error("missed {0} notifications")]
    Lagged(u64),
}

impl Notifications {
    /// The next notification.
    ///
    /// ```no_run
    /// use mcp_runtime_client::{Client, NotificationsError};
    ///
    /// # async fn f() -> Result<(), mcp_runtime_client::ClientError> {
    /// let client = Client::builder().connect_http("http://127.0.0.1:8000/mcp").await?;
    /// let mut notes = client.notifications();
    /// client.close().await;
    /// assert_eq!(notes.next().await, Err(NotificationsError::Closed));
    /// # Ok(()) }
    /// ```
    pub async fn next(&mut self) -> Result<ServerNotification, NotificationsError> {
        let dropped = self.dropped.load(Ordering::Acquire);
        if dropped > self.told {
            let missed = dropped - self.told;
            self.told = dropped;
            return Err(NotificationsError::Lagged(missed));
        }
        match self.rx.recv().await {
            Ok(queued) => Ok(match Arc::try_unwrap(queued) {
                Ok(queued) => queued.note,
                Err(shared) => shared.note.clone(),
            }),
            Err(broadcast::error::RecvError::Closed) => Err(NotificationsError::Closed),
            Err(broadcast::error::RecvError::Lagged(n)) => Err(NotificationsError::Lagged(n)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const LOG: &str = "notifications/message";

    fn log(text: &str) -> Option<Value> {
        Some(json!({"level": "info", "data": text}))
    }

    #[test]
    fn weight_counts_values_strings_and_names() {
        let node = std::mem::size_of::<Value>();
        assert_eq!(weight(&json!(1)), node);
        assert_eq!(weight(&json!("abcd")), node + 4);
        assert_eq!(weight(&json!([0, 0, 0])), 4 * node);
        let name = std::mem::size_of::<String>();
        assert_eq!(weight(&json!({"ab": "c"})), node + name + 2 + node + 1);
    }

    #[tokio::test]
    async fn the_queue_holds_no_more_than_its_bytes_and_makes_room_when_read() {
        let one = LOG.len() + weight(&log(&"x".repeat(1000)).unwrap());
        let queue = Queue::new(2 * one + one / 2);
        // Without a reader nothing is held, nothing is counted as dropped.
        queue.push(LOG, log(&"x".repeat(1000)));
        assert_eq!(queue.held(), 0);
        let mut slow = queue.subscribe();
        for _ in 0..3 {
            queue.push(LOG, log(&"x".repeat(1000)));
        }
        assert_eq!(queue.held(), 2 * one);
        assert_eq!(slow.next().await, Err(NotificationsError::Lagged(1)));
        let Ok(ServerNotification::Log(first)) = slow.next().await else {
            panic!("a log message")
        };
        assert_eq!(first.data, json!("x".repeat(1000)));
        assert_eq!(queue.held(), one);
        // A reader subscribed after the drop was not told of it.
        let mut late = queue.subscribe();
        queue.push(LOG, log(&"x".repeat(1000)));
        assert_eq!(queue.held(), 2 * one);
        assert!(matches!(late.next().await, Ok(ServerNotification::Log(_))));
        // Held until the last reader has it.
        assert_eq!(queue.held(), 2 * one);
        assert!(matches!(slow.next().await, Ok(ServerNotification::Log(_))));
        assert!(matches!(slow.next().await, Ok(ServerNotification::Log(_))));
        assert_eq!(queue.held(), 0);
        // A reader that goes away gives back what it had not read.
        queue.push(LOG, log("y"));
        assert!(queue.held() > 0);
        drop((slow, late));
        assert_eq!(queue.held(), 0);
    }

    #[tokio::test]
    async fn one_notification_over_the_bound_is_dropped_and_counted() {
        let queue = Queue::new(4096);
        let mut notes = queue.subscribe();
        queue.push(LOG, log(&"x".repeat(5000)));
        queue.push("notifications/tools/list_changed", None);
        assert_eq!(notes.next().await, Err(NotificationsError::Lagged(1)));
        assert_eq!(notes.next().await, Ok(ServerNotification::ToolsListChanged));
        assert_eq!(queue.held(), 0);
    }
}
