//! Where SSE events of handshake-era sessions are kept, so that a client can resume a broken
//! stream with `GET` + `Last-Event-ID`.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use bytes::Bytes;

use crate::future::BoxFuture;
pub use crate::settings::http::{EventStore, Replay};
use crate::sync::lock;

impl Replay {
    /// A replay of these events.
    pub fn new(events: Vec<(u64, Bytes)>, finished: bool) -> Self {
        Self { events, finished }
    }
}

#[derive(Default)]
struct Log {
    events: VecDeque<(u64, Bytes)>,
    finished: bool,
}

#[derive(Default)]
struct Logs {
    streams: HashMap<(String, u64), Log>,
    /// Streams in creation order, for eviction.
    order: VecDeque<(String, u64)>,
    /// How many streams each session has here: forgetting a session with none is O(1).
    per_session: HashMap<String, usize>,
}

impl Logs {
    fn forget_stream(&mut self, key: &(String, u64)) {
        if self.streams.remove(key).is_some()
            && let Some(n) = self.per_session.get_mut(&key.0)
        {
            *n -= 1;
            if *n == 0 {
                self.per_session.remove(&key.0);
            }
        }
    }
}

/// A bounded in-memory [`EventStore`]: at most `per_stream` events per stream and `streams`
/// streams in all; the oldest go first.
///
/// ```
/// use mcp_runtime::http::InMemoryEventStore;
/// let store = InMemoryEventStore::new(256, 4096);
/// # let _ = store;
/// ```
pub struct InMemoryEventStore {
    per_stream: usize,
    max_streams: usize,
    logs: Mutex<Logs>,
}

impl std::fmt::Debug for InMemoryEventStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InMemoryEventStore")
            .field("per_stream", &self.per_stream)
            .field("max_streams", &self.max_streams)
            .finish()
    }
}

impl Default for InMemoryEventStore {
    fn default() -> Self {
        Self::new(256, 4096)
    }
}

impl InMemoryEventStore {
    /// A store keeping `per_stream` events per stream and `max_streams` streams.
    pub fn new(per_stream: usize, max_streams: usize) -> Self {
        Self {
            per_stream: per_stream.max(1),
            max_streams: max_streams.max(1),
            logs: Mutex::new(Logs::default()),
        }
    }

    fn with_logs<T>(&self, f: impl FnOnce(&mut Logs) -> T) -> T {
        f(&mut lock(&self.logs))
    }
}

impl EventStore for InMemoryEventStore {
    fn append<'a>(
        &'a self,
        session: &'a str,
        stream: u64,
        seq: u64,
        frame: Bytes,
    ) -> BoxFuture<'a, ()> {
        self.with_logs(|logs| {
            let key = (session.to_owned(), stream);
            if !logs.streams.contains_key(&key) {
                while logs.order.len() >= self.max_streams {
                    if let Some(old) = logs.order.pop_front() {
                        logs.forget_stream(&old);
                    }
                }
                logs.order.push_back(key.clone());
                *logs.per_session.entry(key.0.clone()).or_default() += 1;
            }
            let log = logs.streams.entry(key).or_default();
            if log.events.len() >= self.per_stream {
                log.events.pop_front();
            }
            log.events.push_back((seq, frame));
        });
        Box::pin(std::future::ready(()))
    }

    fn finish<'a>(&'a self, session: &'a str, stream: u64) -> BoxFuture<'a, ()> {
        self.with_logs(|logs| {
            if let Some(log) = logs.streams.get_mut(&(session.to_owned(), stream)) {
                log.finished = true;
            }
        });
        Box::pin(std::future::ready(()))
    }

    fn replay<'a>(
        &'a self,
        session: &'a str,
        stream: u64,
        after: u64,
    ) -> BoxFuture<'a, Option<Replay>> {
        let replay = self.with_logs(|logs| {
            logs.streams
                .get(&(session.to_owned(), stream))
                .map(|log| Replay {
                    events: log
                        .events
                        .iter()
                        .filter(|(seq, _)| *seq > after)
                        .cloned()
                        .collect(),
                    finished: log.finished,
                })
        });
        Box::pin(std::future::ready(replay))
    }

    fn remove_session<'a>(&'a self, session: &'a str) -> BoxFuture<'a, ()> {
        self.with_logs(|logs| {
            if logs.per_session.remove(session).is_some() {
                logs.streams.retain(|(s, _), _| s != session);
                logs.order.retain(|(s, _)| s != session);
            }
        });
        Box::pin(std::future::ready(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn bounded_per_stream_and_in_streams() {
        let store = InMemoryEventStore::new(2, 2);
        for seq in 1..=3 {
            store
                .append("a", 1, seq, Bytes::from(seq.to_string()))
                .await;
        }
        let r = store.replay("a", 1, 0).await.unwrap();
        assert_eq!(r.events.iter().map(|e| e.0).collect::<Vec<_>>(), [2, 3]);
        assert!(!r.finished);
        store.finish("a", 1).await;
        assert!(store.replay("a", 1, 2).await.unwrap().finished);
        store.append("a", 2, 1, Bytes::new()).await;
        store.append("b", 1, 1, Bytes::new()).await;
        assert!(
            store.replay("a", 1, 0).await.is_none(),
            "oldest stream evicted"
        );
        store.remove_session("b").await;
        assert!(store.replay("b", 1, 0).await.is_none());
        assert!(store.replay("a", 2, 0).await.is_some());
        store.remove_session("never-stored").await;
        assert!(store.replay("a", 2, 0).await.is_some());
        store.remove_session("a").await;
        assert!(store.replay("a", 2, 0).await.is_none());
        let logs = store.logs.lock().unwrap();
        assert!(logs.per_session.is_empty() && logs.order.is_empty() && logs.streams.is_empty());
    }
}
