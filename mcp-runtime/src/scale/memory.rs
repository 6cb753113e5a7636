//! In-process implementations of the scale-out seams: several servers in one process sharing
//! sessions and messages (tests, and a model of what a shared store must do).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::broadcast;

use crate::future::BoxFuture;
use crate::scale::{Bus, Envelope, ScaleError, SessionRecord, SessionStore};
use crate::sync::lock;

/// A bounded in-memory [`SessionStore`]: at most `max` sessions (a new one beyond that is
/// refused with [`ScaleError::Unavailable`]), each expiring `idle` after its last touch.
///
/// ```
/// use mcp_runtime::scale::memory::MemorySessionStore;
/// let store = MemorySessionStore::new(10_000);
/// # let _ = store;
/// ```
#[derive(Debug)]
pub struct MemorySessionStore {
    max: usize,
    map: Mutex<HashMap<String, (SessionRecord, Instant)>>,
}

impl MemorySessionStore {
    /// A store of at most `max` sessions.
    pub fn new(max: usize) -> Self {
        Self {
            max: max.max(1),
            map: Mutex::new(HashMap::new()),
        }
    }

    fn with<T>(&self, f: impl FnOnce(&mut HashMap<String, (SessionRecord, Instant)>) -> T) -> T {
        let mut map = lock(&self.map);
        let now = Instant::now();
        map.retain(|_, (_, until)| *until > now);
        f(&mut map)
    }
}

impl SessionStore for MemorySessionStore {
    fn save<'a>(
        &'a self,
        id: &'a str,
        record: &'a SessionRecord,
        idle: Duration,
    ) -> BoxFuture<'a, Result<(), ScaleError>> {
        let saved = self.with(|map| {
            if map.len() >= self.max && !map.contains_key(id) {
                return Err(ScaleError::Unavailable("session store full".into()));
            }
            map.insert(id.to_owned(), (record.clone(), Instant::now() + idle));
            Ok(())
        });
        Box::pin(std::future::ready(saved))
    }

    fn load<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<SessionRecord>, ScaleError>> {
        let found = self.with(|map| map.get(id).map(|(r, _)| r.clone()));
        Box::pin(std::future::ready(Ok(found)))
    }

    fn touch<'a>(
        &'a self,
        id: &'a str,
        idle: Duration,
    ) -> BoxFuture<'a, Result<Option<SessionRecord>, ScaleError>> {
        let alive = self.with(|map| {
            map.get_mut(id).map(|(record, until)| {
                *until = Instant::now() + idle;
                record.clone()
            })
        });
        Box::pin(std::future::ready(Ok(alive)))
    }

    fn delete<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<bool, ScaleError>> {
        let existed = self.with(|map| map.remove(id).is_some());
        Box::pin(std::future::ready(Ok(existed)))
    }
}

/// An in-process [`Bus`]: one broadcast channel of `capacity` messages; [`node`](Self::node)
/// gives each replica its end.
///
/// ```
/// use mcp_runtime::scale::memory::MemoryBus;
/// let bus = MemoryBus::new(256);
/// let (a, b) = (bus.node("a"), bus.node("b"));
/// # let _ = (a, b);
/// ```
#[derive(Debug, Clone)]
pub struct MemoryBus {
    tx: broadcast::Sender<Arc<Envelope>>,
    capacity: usize,
}

impl MemoryBus {
    /// A bus keeping up to `capacity` undelivered messages per reader.
    pub fn new(capacity: usize) -> Self {
        let capacity = capacity.max(1);
        Self {
            tx: broadcast::channel(capacity).0,
            capacity,
        }
    }

    /// Replica `node`'s end of the bus.
    pub fn node(&self, node: &str) -> MemoryBusNode {
        MemoryBusNode {
            node: node.to_owned(),
            tx: self.tx.clone(),
            capacity: self.capacity,
        }
    }
}

/// One replica's end of a [`MemoryBus`]: it receives broadcasts and what is addressed to it.
#[derive(Debug)]
pub struct MemoryBusNode {
    node: String,
    tx: broadcast::Sender<Arc<Envelope>>,
    capacity: usize,
}

impl Bus for MemoryBusNode {
    fn publish(&self, envelope: Envelope) -> BoxFuture<'_, Result<(), ScaleError>> {
        let _ = self.tx.send(Arc::new(envelope));
        Box::pin(std::future::ready(Ok(())))
    }

    fn subscribe(&self) -> broadcast::Receiver<Arc<Envelope>> {
        // Everything goes through one channel; a filter task keeps this node's part.
        let mut all = self.tx.subscribe();
        let (tx, rx) = broadcast::channel(self.capacity);
        let node = self.node.clone();
        crate::background::spawn(async move {
            loop {
                match all.recv().await {
                    Ok(e) => {
                        if e.target.as_deref().is_none_or(|t| t == node) && tx.send(e).is_err() {
                            return;
                        }
                    }
                    Err(broadcast::error::RecvError::Lagged(_)) => {}
                    Err(broadcast::error::RecvError::Closed) => return,
                }
            }
        });
        rx
    }
}
