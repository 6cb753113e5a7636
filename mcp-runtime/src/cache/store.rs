//! The cache's bounded table: entries by key, least recently used first out, a total of
//! entries and bytes and a share of entries per caller (the principal, else the session, for
//! private results; one shared context for public ones).

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use mcp_core::Method;
use tokio::time::Instant;

/// The bounds of a [`Store`].
#[derive(Debug, Clone, Copy)]
pub(super) struct Bounds {
    pub(super) entries: usize,
    pub(super) bytes: usize,
    pub(super) per_context: usize,
}

/// One kept result.
struct Entry {
    text: Arc<str>,
    expires: Instant,
    tick: u64,
    size: usize,
    server: usize,
    method: Method,
    /// The URI of a `resources/read`, for `notifications/resources/updated`.
    uri: Option<Box<str>>,
    context: Arc<str>,
}

/// What a new entry is about.
pub(super) struct Fresh {
    pub(super) text: Arc<str>,
    pub(super) expires: Instant,
    pub(super) server: usize,
    pub(super) method: Method,
    pub(super) uri: Option<Box<str>>,
    pub(super) context: Arc<str>,
}

/// The table.
#[derive(Default)]
pub(super) struct Store {
    map: HashMap<Arc<str>, Entry>,
    /// Keys by last use, oldest first.
    order: BTreeMap<u64, Arc<str>>,
    tick: u64,
    bytes: usize,
    per_context: HashMap<Arc<str>, usize>,
    /// The servers whose hub knows this cache (bounded by the hubs' own bound).
    pub(super) watched: Vec<usize>,
}

impl Store {
    /// The number of entries.
    pub(super) fn len(&self) -> usize {
        self.map.len()
    }

    /// The fresh result under `key`, now its most recently used; an expired one is dropped.
    pub(super) fn get(&mut self, key: &str, now: Instant) -> Option<Arc<str>> {
        let (expired, tick) = {
            let entry = self.map.get(key)?;
            (now >= entry.expires, entry.tick)
        };
        if expired {
            self.remove(key);
            return None;
        }
        self.tick += 1;
        let key = self.order.remove(&tick)?;
        let entry = self.map.get_mut(&key)?;
        entry.tick = self.tick;
        let text = Arc::clone(&entry.text);
        self.order.insert(self.tick, key);
        Some(text)
    }

    /// Keeps `fresh` under `key`, making room by dropping the expired entries, then the
    /// least recently used; nothing is kept when it alone is over the byte bound or its
    /// caller holds its share of entries.
    pub(super) fn insert(&mut self, key: Arc<str>, fresh: Fresh, bounds: Bounds, now: Instant) {
        self.remove(&key);
        let size = key.len() + fresh.text.len();
        if size > bounds.bytes || bounds.entries == 0 {
            return;
        }
        if self.per_context.get(&fresh.context).copied().unwrap_or(0) >= bounds.per_context {
            self.retain(|e| e.expires > now);
            if self.per_context.get(&fresh.context).copied().unwrap_or(0) >= bounds.per_context {
                return;
            }
        }
        while self.map.len() >= bounds.entries || self.bytes + size > bounds.bytes {
            let Some((_, oldest)) = self.order.pop_first() else {
                break;
            };
            self.remove(&oldest);
        }
        self.tick += 1;
        self.bytes += size;
        *self
            .per_context
            .entry(Arc::clone(&fresh.context))
            .or_default() += 1;
        self.order.insert(self.tick, Arc::clone(&key));
        self.map.insert(
            key,
            Entry {
                text: fresh.text,
                expires: fresh.expires,
                tick: self.tick,
                size,
                server: fresh.server,
                method: fresh.method,
                uri: fresh.uri,
                context: fresh.context,
            },
        );
    }

    /// Drops the results `resources/read` of `uri` gave on `server`.
    pub(super) fn resource_updated(&mut self, server: usize, uri: &str) {
        self.retain(|e| !(e.server == server && e.uri.as_deref() == Some(uri)));
    }

    /// Drops the results `method` gave on `server`.
    pub(super) fn list_changed(&mut self, server: usize, method: Method) {
        self.retain(|e| !(e.server == server && e.method == method));
    }

    /// Drops everything.
    pub(super) fn clear(&mut self) {
        self.retain(|_| false);
    }

    fn retain(&mut self, keep: impl Fn(&Entry) -> bool) {
        let gone: Vec<Arc<str>> = self
            .map
            .iter()
            .filter(|(_, e)| !keep(e))
            .map(|(k, _)| Arc::clone(k))
            .collect();
        for key in gone {
            self.remove(&key);
        }
    }

    fn remove(&mut self, key: &str) {
        let Some(entry) = self.map.remove(key) else {
            return;
        };
        self.order.remove(&entry.tick);
        self.bytes -= entry.size;
        if let Some(count) = self.per_context.get_mut(&entry.context) {
            *count -= 1;
            if *count == 0 {
                self.per_context.remove(&entry.context);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fresh(text: &str, context: &str, now: Instant) -> Fresh {
        Fresh {
            text: text.into(),
            expires: now + std::time::Duration::from_secs(60),
            server: 1,
            method: Method::GetPrompt,
            uri: None,
            context: context.into(),
        }
    }

    #[test]
    fn least_recently_used_goes_first_and_shares_hold() {
        let now = Instant::now();
        let bounds = Bounds {
            entries: 2,
            bytes: 1000,
            per_context: 2,
        };
        let mut store = Store::default();
        store.insert("a".into(), fresh("1", "x", now), bounds, now);
        store.insert("b".into(), fresh("2", "x", now), bounds, now);
        assert_eq!(store.get("a", now).as_deref(), Some("1"));
        store.insert("c".into(), fresh("3", "y", now), bounds, now);
        assert_eq!(store.get("b", now), None);
        assert_eq!(store.get("a", now).as_deref(), Some("1"));
        assert_eq!(store.get("c", now).as_deref(), Some("3"));
        assert_eq!((store.len(), store.bytes), (2, 4));
        let bounds = Bounds {
            per_context: 1,
            ..bounds
        };
        store.insert("d".into(), fresh("4", "x", now), bounds, now);
        assert_eq!(store.get("d", now), None);
        store.clear();
        assert_eq!(
            (store.len(), store.bytes, store.per_context.len()),
            (0, 0, 0)
        );
    }
}
