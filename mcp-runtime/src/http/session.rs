//! Handshake-era sessions of the Streamable HTTP transport (`Mcp-Session-Id`).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::mpsc;
use tokio::task::AbortHandle;

use crate::connection::Connection;
use crate::http::event_store::EventStore;
use crate::http::sse::Resumable;
use crate::outbound::Outbound;

/// Most request streams of a session kept for resumption while they run.
const MAX_OPEN_STREAMS: usize = 1024;

/// One session: its connection (the dispatcher state), its `GET` stream and its open request
/// streams.
pub(crate) struct Session {
    pub(crate) id: Arc<str>,
    pub(crate) conn: Arc<Connection>,
    /// Stream 0: server-initiated messages.
    pub(crate) standalone: Arc<Resumable>,
    streams: Mutex<HashMap<u64, Arc<Resumable>>>,
    next_stream: AtomicU64,
    last_seen: Mutex<Instant>,
    pump: AbortHandle,
    store: Arc<dyn EventStore>,
}

impl Session {
    /// A session around `conn`, whose outbound queue `out` feeds the `GET` stream.
    pub(crate) fn new(
        id: Arc<str>,
        conn: Arc<Connection>,
        mut out: mpsc::Receiver<Outbound>,
        store: Arc<dyn EventStore>,
        keep_alive: Duration,
    ) -> Arc<Self> {
        let standalone = Arc::new(Resumable::new(Arc::clone(&id), 0, Arc::clone(&store)));
        let pumped = Arc::clone(&standalone);
        let pump = tokio::spawn(async move {
            let mut ticks =
                tokio::time::interval_at(tokio::time::Instant::now() + keep_alive, keep_alive);
            loop {
                tokio::select! {
                    msg = out.recv() => match msg {
                        Some(Outbound::Message(msg)) => pumped.push(&msg).await,
                        // The `GET` stream carries no request: nothing to close.
                        Some(_) => {}
                        None => break,
                    },
                    _ = ticks.tick() => pumped.keep_alive().await,
                }
            }
        })
        .abort_handle();
        Arc::new(Self {
            id,
            conn,
            standalone,
            streams: Mutex::new(HashMap::new()),
            next_stream: AtomicU64::new(1),
            last_seen: Mutex::new(Instant::now()),
            pump,
            store,
        })
    }

    pub(crate) fn touch(&self) {
        *self.last_seen.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
    }

    fn idle_for(&self) -> Duration {
        self.last_seen
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .elapsed()
    }

    /// A new resumable stream for a request.
    pub(crate) fn open_stream(&self) -> Arc<Resumable> {
        let n = self.next_stream.fetch_add(1, Ordering::Relaxed);
        let stream = Arc::new(Resumable::new(
            Arc::clone(&self.id),
            n,
            Arc::clone(&self.store),
        ));
        let mut streams = self.streams.lock().unwrap_or_else(|e| e.into_inner());
        if streams.len() >= MAX_OPEN_STREAMS
            && let Some(&oldest) = streams.keys().min()
        {
            streams.remove(&oldest);
        }
        streams.insert(n, Arc::clone(&stream));
        stream
    }

    /// Forgets a finished request stream (its events stay in the store).
    pub(crate) fn close_stream(&self, n: u64) {
        self.streams
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&n);
    }

    /// An open stream by number (0 is the `GET` stream).
    pub(crate) fn stream(&self, n: u64) -> Option<Arc<Resumable>> {
        if n == 0 {
            return Some(Arc::clone(&self.standalone));
        }
        self.streams
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&n)
            .cloned()
    }

    /// The event store of the session.
    pub(crate) fn store(&self) -> &Arc<dyn EventStore> {
        &self.store
    }

    /// Ends the session: running requests are cancelled, stored events dropped.
    fn close(self: Arc<Self>) {
        self.pump.abort();
        tokio::spawn(async move {
            self.conn.drain_now();
            self.store.remove_session(&self.id).await;
        });
    }
}

/// Every live session (bounded; idle ones expire).
pub(crate) struct Sessions {
    map: Mutex<HashMap<Arc<str>, Arc<Session>>>,
    max: usize,
    idle: Duration,
}

impl Sessions {
    pub(crate) fn new(max: usize, idle: Duration) -> Self {
        Self {
            map: Mutex::new(HashMap::new()),
            max,
            idle,
        }
    }

    pub(crate) fn get(&self, id: &str) -> Option<Arc<Session>> {
        let s = self
            .map
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .cloned()?;
        s.touch();
        Some(s)
    }

    /// Adds a session, expiring idle ones first; `false` when the server is full.
    pub(crate) fn insert(&self, session: Arc<Session>) -> bool {
        let mut expired = Vec::new();
        let ok = {
            let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
            if map.len() >= self.max {
                let idle = self.idle;
                let ids: Vec<Arc<str>> = map
                    .values()
                    .filter(|s| s.idle_for() > idle && !s.standalone.is_live())
                    .map(|s| Arc::clone(&s.id))
                    .collect();
                for id in ids {
                    expired.extend(map.remove(&id));
                }
            }
            if map.len() >= self.max {
                false
            } else {
                map.insert(Arc::clone(&session.id), session);
                true
            }
        };
        for s in expired {
            s.close();
        }
        ok
    }

    /// Ends a session; `false` when unknown.
    pub(crate) fn remove(&self, id: &str) -> bool {
        let s = self
            .map
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id);
        match s {
            Some(s) => {
                s.close();
                true
            }
            None => false,
        }
    }
}
