//! Server-initiated notifications: list changes and resource updates, fanned out to handshake-era
//! sessions and to stateless-era `subscriptions/listen` streams.
//!
//! Delivery never waits: every target has a bounded queue, and a notification that does not fit
//! is dropped for that target (a slow client never holds the server up nor grows its memory).

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};

use mcp_core::{RequestId, SubscriptionFilter};

use crate::middleware::Invalidate;
use crate::outbound::{Outbound, Sink};
use crate::registry::ListKind;
use crate::sync::lock;

/// A handshake-era connection that receives server-initiated notifications.
pub(crate) trait Member: Send + Sync {
    /// Queues a notification, dropping it when the connection's queue is full.
    fn notify(&self, message: Vec<u8>);
    /// Whether the connection subscribed to `uri` with `resources/subscribe`.
    fn is_subscribed(&self, uri: &str) -> bool;
    /// The severity index the session set with `logging/setLevel`, if it set one.
    fn log_level(&self) -> Option<u8>;
}

/// A list whose change [`Server::notify_list_changed`](crate::Server::notify_list_changed)
/// announces.
///
/// ```
/// use mcp_runtime::ListChanged;
/// assert_ne!(ListChanged::Tools, ListChanged::Prompts);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ListChanged {
    /// `notifications/tools/list_changed`.
    Tools,
    /// `notifications/prompts/list_changed`.
    Prompts,
    /// `notifications/resources/list_changed`.
    Resources,
}

impl ListChanged {
    pub(crate) fn kind(self) -> ListKind {
        match self {
            ListChanged::Tools => ListKind::Tools,
            ListChanged::Prompts => ListKind::Prompts,
            ListChanged::Resources => ListKind::Resources,
        }
    }
}

/// A stateless-era listener: what it asked for and where its stream goes.
struct Listener {
    filter: SubscriptionFilter,
    /// The subscription id (the listen request's id), serialised once.
    sub_id: Box<str>,
    sink: Sink,
    /// Set once the acknowledgement is out: nothing is sent to a listener before it.
    active: bool,
}

/// Every connection and listener that may receive server-initiated notifications.
pub(crate) struct Hub {
    next: AtomicU64,
    connections: Mutex<HashMap<u64, Weak<dyn Member>>>,
    listeners: Mutex<HashMap<u64, Listener>>,
    /// Most `subscriptions/listen` streams open at once.
    max_listeners: usize,
    /// The layers that keep results for this server's items (the `Cache`), told of every
    /// change; at most [`MAX_WATCHERS`].
    watchers: Mutex<Vec<Weak<dyn Invalidate>>>,
    /// This hub's server among every server the process made (never reused).
    id: usize,
}

/// The next hub's `id`.
static NEXT_HUB: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(1);

/// Most watchers a hub keeps (one per `Cache` layer serving the server).
const MAX_WATCHERS: usize = 64;

/// Removes a listener when its stream ends.
pub(crate) struct ListenerGuard {
    hub: Weak<Hub>,
    key: u64,
}

impl ListenerGuard {
    /// Starts delivering notifications to the listener (after its acknowledgement is sent).
    pub(crate) fn activate(&self) {
        if let Some(hub) = self.hub.upgrade()
            && let Some(l) = lock(&hub.listeners).get_mut(&self.key)
        {
            l.active = true;
        }
    }
}

impl Drop for ListenerGuard {
    fn drop(&mut self) {
        if let Some(hub) = self.hub.upgrade() {
            lock(&hub.listeners).remove(&self.key);
        }
    }
}

fn method_of(kind: ListKind) -> &'static str {
    match kind {
        ListKind::Tools => "notifications/tools/list_changed",
        ListKind::Prompts => "notifications/prompts/list_changed",
        ListKind::Resources | ListKind::Templates => "notifications/resources/list_changed",
    }
}

fn wants(filter: &SubscriptionFilter, kind: ListKind) -> bool {
    let flag = match kind {
        ListKind::Tools => filter.tools_list_changed,
        ListKind::Prompts => filter.prompts_list_changed,
        ListKind::Resources | ListKind::Templates => filter.resources_list_changed,
    };
    flag == Some(true)
}

/// `{"jsonrpc":"2.0","method":…,"params":{"_meta":{subscriptionId},…rest}}` in one buffer.
fn with_subscription(method: &str, sub_id: &str, rest: &str) -> Vec<u8> {
    let mut buf = Vec::with_capacity(96 + method.len() + sub_id.len() + rest.len());
    buf.extend_from_slice(br#"{"jsonrpc":"2.0","method":""#);
    buf.extend_from_slice(method.as_bytes());
    buf.extend_from_slice(br#"","params":{"_meta":{""#);
    buf.extend_from_slice(mcp_core::meta::SUBSCRIPTION_ID_KEY.as_bytes());
    buf.extend_from_slice(br#"":"#);
    buf.extend_from_slice(sub_id.as_bytes());
    buf.push(b'}');
    buf.extend_from_slice(rest.as_bytes());
    buf.extend_from_slice(b"}}");
    crate::outbound::log_started(&buf);
    buf
}

impl Hub {
    /// A hub with room for `max_listeners` listen streams.
    pub(crate) fn new(max_listeners: usize) -> Self {
        Self {
            next: AtomicU64::new(0),
            connections: Mutex::new(HashMap::new()),
            listeners: Mutex::new(HashMap::new()),
            max_listeners,
            watchers: Mutex::new(Vec::new()),
            id: NEXT_HUB.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// Registers `watcher` (its dead ones dropped first); `false` when the hub is full.
    pub(crate) fn watch(&self, watcher: Weak<dyn Invalidate>) -> bool {
        let mut watchers = lock(&self.watchers);
        watchers.retain(|w| w.strong_count() > 0);
        if watchers.iter().any(|w| Weak::ptr_eq(w, &watcher)) {
            return true;
        }
        if watchers.len() >= MAX_WATCHERS {
            return false;
        }
        watchers.push(watcher);
        true
    }

    fn watchers(&self) -> Vec<Arc<dyn Invalidate>> {
        lock(&self.watchers)
            .iter()
            .filter_map(Weak::upgrade)
            .collect()
    }

    /// This hub's server, told apart from every other the process made.
    pub(crate) fn server_key(&self) -> usize {
        self.id
    }

    /// A key for a new member.
    pub(crate) fn key(&self) -> u64 {
        self.next.fetch_add(1, Ordering::Relaxed)
    }

    /// Registers a handshake-era connection (after `initialize`).
    pub(crate) fn add_connection(&self, key: u64, conn: Weak<dyn Member>) {
        lock(&self.connections).insert(key, conn);
    }

    /// Forgets a connection.
    pub(crate) fn remove_connection(&self, key: u64) {
        lock(&self.connections).remove(&key);
    }

    /// Registers a `subscriptions/listen` stream, inactive until
    /// [`ListenerGuard::activate`]; `None` when too many are open.
    pub(crate) fn add_listener(
        self: &Arc<Self>,
        filter: SubscriptionFilter,
        sub_id: &RequestId,
        sink: Sink,
    ) -> Option<ListenerGuard> {
        let mut listeners = lock(&self.listeners);
        if listeners.len() >= self.max_listeners {
            return None;
        }
        let key = self.key();
        let sub_id = serde_json::to_string(sub_id)
            .unwrap_or_else(|_| "null".into())
            .into_boxed_str();
        listeners.insert(
            key,
            Listener {
                filter,
                sub_id,
                sink,
                active: false,
            },
        );
        Some(ListenerGuard {
            hub: Arc::downgrade(self),
            key,
        })
    }

    fn connections(&self) -> Vec<Arc<dyn Member>> {
        let mut conns = lock(&self.connections);
        conns.retain(|_, w| w.strong_count() > 0);
        conns.values().filter_map(Weak::upgrade).collect()
    }

    /// Sends `notifications/<kind>/list_changed` to every session and every listener that asked.
    pub(crate) fn list_changed(&self, kind: ListKind) {
        let item_method = match kind {
            ListKind::Tools => mcp_core::Method::CallTool,
            ListKind::Prompts => mcp_core::Method::GetPrompt,
            ListKind::Resources | ListKind::Templates => mcp_core::Method::ReadResource,
        };
        for watcher in self.watchers() {
            watcher.list_changed(self.server_key(), item_method);
        }
        let method = method_of(kind);
        let plain = crate::wire::notification(method, &serde_json::json!({}));
        for conn in self.connections() {
            conn.notify(plain.clone());
        }
        let listeners = lock(&self.listeners);
        for l in listeners
            .values()
            .filter(|l| l.active && wants(&l.filter, kind))
        {
            let _ = l
                .sink
                .try_send(Outbound::Message(with_subscription(method, &l.sub_id, "")));
        }
    }

    /// Sends a mounted server's `notifications/message` to every session that set a level
    /// with `logging/setLevel` at or below the message's (`severity`: its index).
    #[cfg(feature = "client")]
    pub(crate) fn log(&self, severity: u8, params: &mcp_core::LoggingMessageNotificationParams) {
        let mut message = None;
        for conn in self.connections() {
            if conn.log_level().is_some_and(|min| severity >= min) {
                let m = message.get_or_insert_with(|| {
                    crate::wire::notification("notifications/message", params)
                });
                conn.notify(m.clone());
            }
        }
    }

    /// The most verbose level (least severity index) a session set, if any did.
    pub(crate) fn least_log_level(&self) -> Option<u8> {
        self.connections()
            .iter()
            .filter_map(|c| c.log_level())
            .min()
    }

    /// Sends `notifications/resources/updated` for `uri` to every subscriber.
    pub(crate) fn resource_updated(&self, uri: &str) {
        for watcher in self.watchers() {
            watcher.resource_updated(self.server_key(), uri);
        }
        let method = "notifications/resources/updated";
        let params = mcp_core::ResourceUpdatedNotificationParams::new(uri);
        let plain = crate::wire::notification(method, &params);
        for conn in self.connections() {
            if conn.is_subscribed(uri) {
                conn.notify(plain.clone());
            }
        }
        let uri_json = serde_json::to_string(uri).unwrap_or_default();
        let rest = format!(r#","uri":{uri_json}"#);
        let listeners = lock(&self.listeners);
        for l in listeners.values().filter(|l| l.active) {
            let subscribed = l
                .filter
                .resource_subscriptions
                .as_ref()
                .is_some_and(|s| s.iter().any(|u| u == uri));
            if subscribed {
                let _ = l.sink.try_send(Outbound::Message(with_subscription(
                    method, &l.sub_id, &rest,
                )));
            }
        }
    }
}

/// The resource URIs one handshake-era connection subscribed to (bounded).
#[derive(Default)]
pub(crate) struct Subscriptions(Mutex<HashSet<String>>);

/// Most `resources/subscribe` URIs per connection.
const MAX_SUBSCRIPTIONS: usize = 1024;

impl Subscriptions {
    /// Adds `uri`; `false` when the connection already holds the maximum.
    pub(crate) fn add(&self, uri: &str) -> bool {
        let mut set = lock(&self.0);
        if set.contains(uri) {
            return true;
        }
        if set.len() >= MAX_SUBSCRIPTIONS {
            return false;
        }
        set.insert(uri.to_owned());
        true
    }

    pub(crate) fn remove(&self, uri: &str) {
        lock(&self.0).remove(uri);
    }

    /// Every subscribed URI (to share a session with other replicas).
    #[cfg(feature = "http")]
    pub(crate) fn list(&self) -> Vec<String> {
        let set = lock(&self.0);
        let mut uris: Vec<String> = set.iter().cloned().collect();
        uris.sort_unstable();
        uris
    }

    /// Replaces every subscription (a session changed on another replica), within the bound.
    #[cfg(feature = "http")]
    pub(crate) fn replace(&self, uris: &[String]) {
        let mut set = lock(&self.0);
        set.clear();
        set.extend(uris.iter().take(MAX_SUBSCRIPTIONS).cloned());
    }

    pub(crate) fn contains(&self, uri: &str) -> bool {
        lock(&self.0).contains(uri)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subscription_notification_is_valid_json() {
        let buf = with_subscription("notifications/resources/updated", "7", r#","uri":"a://b""#);
        let v: serde_json::Value = serde_json::from_slice(&buf).unwrap();
        assert_eq!(v["params"]["_meta"][mcp_core::meta::SUBSCRIPTION_ID_KEY], 7);
        assert_eq!(v["params"]["uri"], "a://b");
        let buf = with_subscription("notifications/tools/list_changed", "\"s\"", "");
        let v: serde_json::Value = serde_json::from_slice(&buf).unwrap();
        assert_eq!(
            v["params"]["_meta"][mcp_core::meta::SUBSCRIPTION_ID_KEY],
            "s"
        );
    }

    #[test]
    fn listeners_are_bounded_and_removed_on_drop() {
        let hub = Arc::new(Hub::new(1));
        let (tx, mut rx) = tokio::sync::mpsc::channel(4);
        let filter = SubscriptionFilter::new().with_tools_list_changed(true);
        let guard = hub
            .add_listener(filter.clone(), &RequestId::Number(3), tx.clone())
            .unwrap();
        assert!(
            hub.add_listener(filter.clone(), &RequestId::Number(4), tx.clone())
                .is_none(),
            "one at most"
        );
        hub.list_changed(ListKind::Tools);
        assert!(rx.try_recv().is_err(), "not active yet");
        guard.activate();
        hub.list_changed(ListKind::Tools);
        hub.list_changed(ListKind::Prompts);
        let Ok(Outbound::Message(msg)) = rx.try_recv() else {
            panic!("a notification was queued")
        };
        let got: serde_json::Value = serde_json::from_slice(&msg).unwrap();
        assert_eq!(got["method"], "notifications/tools/list_changed");
        assert!(rx.try_recv().is_err(), "prompts were not asked for");
        drop(guard);
        assert!(hub.listeners.lock().unwrap().is_empty());
        assert!(
            hub.add_listener(filter, &RequestId::Number(5), tx)
                .is_some()
        );
    }

    #[test]
    fn subscriptions_are_bounded() {
        let subs = Subscriptions::default();
        for i in 0..MAX_SUBSCRIPTIONS {
            assert!(subs.add(&format!("a://{i}")));
        }
        assert!(!subs.add("a://one-too-many"));
        assert!(subs.add("a://0"), "already there");
        subs.remove("a://0");
        assert!(!subs.contains("a://0"));
    }
}
