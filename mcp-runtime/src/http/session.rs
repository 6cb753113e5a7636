//! Handshake-era sessions of the Streamable HTTP transport (`Mcp-Session-Id`): a bounded table
//! kept in least-recently-used order, so that admitting, finding and evicting a session each cost
//! O(1) under the table's lock.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use tokio::sync::mpsc;
use tokio::task::AbortHandle;

use crate::connection::Connection;
use crate::http::event_store::EventStore;
use crate::http::sse::Resumable;
use crate::outbound::Outbound;

/// Most request streams of a session kept for resumption while they run.
const MAX_OPEN_STREAMS: usize = 1024;
/// Most sessions looked at to find one to evict; busy ones met on the way are moved to the
/// recent end, so a later search starts past them.
const EVICTION_SEARCH: usize = 16;
/// Most expired sessions ended by one admission (the rest go with later ones, or on lookup).
const EXPIRY_BATCH: usize = 8;
/// Most server-initiated messages a session queues for its `GET` stream (fewer when the
/// server's outbound queue is smaller); the runtime drops notifications past it.
pub(crate) const SESSION_QUEUE: usize = 256;

/// Whom a session is bound to (feature `auth`): the subject and issuer of the token that opened
/// it. Shared in the session's record, so that every replica enforces the same binding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Owner {
    pub(crate) subject: String,
    pub(crate) issuer: Option<String>,
}

/// One session: its connection (the dispatcher state), its `GET` stream and its open request
/// streams.
pub(crate) struct Session {
    pub(crate) id: Arc<str>,
    pub(crate) conn: Arc<Connection>,
    /// Stream 0: server-initiated messages.
    pub(crate) standalone: Arc<Resumable>,
    streams: Mutex<HashMap<u64, Arc<Resumable>>>,
    next_stream: AtomicU64,
    /// Numbers that make priming event ids unique within the session.
    primings: AtomicU64,
    pump: Mutex<Pump>,
    store: Arc<dyn EventStore>,
    /// When a replica last confirmed with the shared store that the session exists.
    checked: Mutex<Instant>,
    /// Whom the session is bound to, once known (set once: when opened, or when restored).
    owner: OnceLock<Owner>,
}

/// The session's outbound queue: left alone until something needs it drained (an idle session
/// keeps no task), then moved into the `GET` stream by a task.
enum Pump {
    Waiting(mpsc::Receiver<Outbound>),
    Running(AbortHandle),
    Closed,
}

impl Session {
    /// A session around `conn`, whose outbound queue `out` feeds the `GET` stream (stored for
    /// resumption; keep-alive comments come from the attached response itself) once
    /// [`start_pump`](Self::start_pump) is called.
    pub(crate) fn new(
        id: Arc<str>,
        conn: Arc<Connection>,
        out: mpsc::Receiver<Outbound>,
        store: Arc<dyn EventStore>,
    ) -> Arc<Self> {
        let standalone = Arc::new(Resumable::new(Arc::clone(&id), 0, Arc::clone(&store)));
        Arc::new(Self {
            id,
            conn,
            standalone,
            streams: Mutex::new(HashMap::new()),
            next_stream: AtomicU64::new(1),
            primings: AtomicU64::new(1),
            pump: Mutex::new(Pump::Waiting(out)),
            store,
            checked: Mutex::new(Instant::now()),
            owner: OnceLock::new(),
        })
    }

    /// Binds the session to `owner` (the first binding stays).
    pub(crate) fn bind_owner(&self, owner: Owner) {
        let _ = self.owner.set(owner);
    }

    /// Whom the session is bound to; `None` for an unbound one.
    pub(crate) fn owner(&self) -> Option<&Owner> {
        self.owner.get()
    }

    /// Numbers the session's request streams from `base` on (replicas use distinct bases).
    pub(crate) fn number_streams_from(&self, base: u64) {
        self.next_stream.store(base.max(1), Ordering::Relaxed);
    }

    /// Whether the session was last confirmed with the shared store more than `every` ago.
    pub(crate) fn due_check(&self, every: Duration) -> bool {
        self.checked
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .elapsed()
            >= every
    }

    /// Notes that the shared store confirmed the session just now.
    pub(crate) fn checked(&self) {
        *self.checked.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
    }

    /// Starts moving the outbound queue into the `GET` stream (idempotent): when a `GET` stream
    /// attaches, or a request sends its messages to the session's stream. Until then messages
    /// wait in the (bounded) queue, and the first `GET` stream receives them.
    pub(crate) fn start_pump(&self) {
        let mut pump = self.pump.lock().unwrap_or_else(|e| e.into_inner());
        let mut out = match std::mem::replace(&mut *pump, Pump::Closed) {
            Pump::Waiting(out) => out,
            other => {
                *pump = other;
                return;
            }
        };
        let pumped = Arc::clone(&self.standalone);
        let task = crate::background::spawn(async move {
            while let Some(msg) = out.recv().await {
                // The `GET` stream carries no request: a close signal has nothing to close.
                if let Outbound::Message(msg) = msg {
                    pumped.push(&msg).await;
                }
            }
        });
        *pump = Pump::Running(task.abort_handle());
    }

    /// A number for a priming event id, unique within the session.
    pub(crate) fn next_priming(&self) -> u64 {
        self.primings.fetch_add(1, Ordering::Relaxed)
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
        let pump = std::mem::replace(
            &mut *self.pump.lock().unwrap_or_else(|e| e.into_inner()),
            Pump::Closed,
        );
        if let Pump::Running(task) = pump {
            task.abort();
        }
        crate::background::spawn(async move {
            self.conn.drain_now();
            self.store.remove_session(&self.id).await;
        });
    }
}

/// Whether a session is in use: a request holds it, or a `GET` stream is attached. `held` is
/// how many references the caller itself holds.
fn busy(session: &Arc<Session>, held: usize) -> bool {
    Arc::strong_count(session) > held || session.standalone.is_live()
}

/// No slab entry.
const NIL: usize = usize::MAX;

/// A table entry, linked into the recency list.
struct Node {
    session: Arc<Session>,
    last_used: Instant,
    /// Toward the least recently used end.
    older: usize,
    /// Toward the most recently used end.
    newer: usize,
}

/// The table: sessions by id, and a doubly linked recency list threaded through a slab.
struct Table {
    index: HashMap<Arc<str>, usize>,
    slab: Vec<Option<Node>>,
    free: Vec<usize>,
    /// Least recently used.
    oldest: usize,
    /// Most recently used.
    newest: usize,
}

impl Table {
    fn node(&mut self, i: usize) -> &mut Node {
        match self.slab.get_mut(i).and_then(Option::as_mut) {
            Some(node) => node,
            None => unreachable!("linked slab entries are occupied"),
        }
    }

    fn unlink(&mut self, i: usize) {
        let (older, newer) = {
            let n = self.node(i);
            (n.older, n.newer)
        };
        match older {
            NIL => self.newest_or_oldest_fix(true, newer),
            o => self.node(o).newer = newer,
        }
        match newer {
            NIL => self.newest_or_oldest_fix(false, older),
            n => self.node(n).older = older,
        }
    }

    /// Unlinking the oldest (`oldest_end`) or the newest entry moves that end.
    fn newest_or_oldest_fix(&mut self, oldest_end: bool, to: usize) {
        if oldest_end {
            self.oldest = to;
        } else {
            self.newest = to;
        }
    }

    fn push_newest(&mut self, i: usize) {
        let prev = self.newest;
        {
            let n = self.node(i);
            n.older = prev;
            n.newer = NIL;
        }
        match prev {
            NIL => self.oldest = i,
            p => self.node(p).newer = i,
        }
        self.newest = i;
    }

    /// Marks an entry used now.
    fn touch(&mut self, i: usize, now: Instant) {
        self.unlink(i);
        self.push_newest(i);
        self.node(i).last_used = now;
    }

    fn insert(&mut self, session: Arc<Session>, now: Instant) {
        let node = Node {
            session: Arc::clone(&session),
            last_used: now,
            older: NIL,
            newer: NIL,
        };
        let i = match self.free.pop() {
            Some(i) => {
                self.slab[i] = Some(node);
                i
            }
            None => {
                self.slab.push(Some(node));
                self.slab.len() - 1
            }
        };
        self.push_newest(i);
        self.index.insert(Arc::clone(&session.id), i);
    }

    fn remove_at(&mut self, i: usize) -> Arc<Session> {
        self.unlink(i);
        let node = match self.slab[i].take() {
            Some(node) => node,
            None => unreachable!("linked slab entries are occupied"),
        };
        self.free.push(i);
        self.index.remove(&node.session.id);
        node.session
    }
}

/// Every live session: at most `max`, unused ones expire after `idle`, and when the table is full
/// the least recently used idle one makes room for a new one.
pub(crate) struct Sessions {
    table: Mutex<Table>,
    max: usize,
    idle: Duration,
}

/// Why a session was not admitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Full;

impl Sessions {
    pub(crate) fn new(max: usize, idle: Duration) -> Self {
        Self {
            table: Mutex::new(Table {
                index: HashMap::new(),
                slab: Vec::new(),
                free: Vec::new(),
                oldest: NIL,
                newest: NIL,
            }),
            max: max.max(1),
            idle,
        }
    }

    fn table(&self) -> std::sync::MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The session with this id, marked used; `None` when unknown, ended, evicted or expired.
    pub(crate) fn get(&self, id: &str) -> Option<Arc<Session>> {
        let now = Instant::now();
        let mut table = self.table();
        let i = *table.index.get(id)?;
        let node = table.node(i);
        if now.duration_since(node.last_used) > self.idle && !busy(&node.session, 1) {
            let expired = table.remove_at(i);
            drop(table);
            expired.close();
            return None;
        }
        let session = Arc::clone(&node.session);
        table.touch(i, now);
        Some(session)
    }

    /// Adds a session. Expired sessions go first; when the table is still full, the least
    /// recently used session with nothing running and no `GET` stream is evicted. `Err(Full)`
    /// only when every session is busy.
    pub(crate) fn insert(&self, session: Arc<Session>) -> Result<(), Full> {
        let now = Instant::now();
        let mut ended = Vec::new();
        let admitted = {
            let mut table = self.table();
            // Expired sessions sit at the old end.
            for _ in 0..EXPIRY_BATCH {
                let i = table.oldest;
                if i == NIL {
                    break;
                }
                let node = table.node(i);
                if now.duration_since(node.last_used) <= self.idle {
                    break;
                }
                if busy(&node.session, 1) {
                    table.touch(i, now);
                    continue;
                }
                ended.push(table.remove_at(i));
            }
            if table.index.len() >= self.max {
                for _ in 0..EVICTION_SEARCH {
                    let i = table.oldest;
                    if i == NIL {
                        break;
                    }
                    if busy(&table.node(i).session, 1) {
                        // In use: it is recent after all.
                        table.touch(i, now);
                        continue;
                    }
                    ended.push(table.remove_at(i));
                    break;
                }
            }
            // A session restored twice at once: the first one stays.
            let held = table.index.contains_key(&session.id);
            let room = held || table.index.len() < self.max;
            if room && !held {
                table.insert(session, now);
            }
            room
        };
        for s in ended {
            s.close();
        }
        if admitted { Ok(()) } else { Err(Full) }
    }

    /// Adds a session restored from the shared store, or returns the one already here (two
    /// requests of a session restored at once); `Err(Full)` when every session is busy.
    pub(crate) fn insert_or_get(&self, session: Arc<Session>) -> Result<Arc<Session>, Full> {
        if let Some(held) = self.get(&session.id) {
            return Ok(held);
        }
        let id = Arc::clone(&session.id);
        self.insert(Arc::clone(&session))?;
        Ok(self.get(&id).unwrap_or(session))
    }

    /// Ends a session; `false` when unknown.
    pub(crate) fn remove(&self, id: &str) -> bool {
        let removed = {
            let mut table = self.table();
            let i = table.index.get(id).copied();
            i.map(|i| table.remove_at(i))
        };
        match removed {
            Some(s) => {
                s.close();
                true
            }
            None => false,
        }
    }

    /// How many sessions are live.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.table().index.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::event_store::InMemoryEventStore;

    fn session(id: &str) -> Arc<Session> {
        let server = crate::Server::builder(crate::server_info!())
            .build()
            .unwrap();
        let (tx, rx) = mpsc::channel(8);
        let conn = Connection::new(Arc::clone(&server.inner), tx);
        Session::new(id.into(), conn, rx, Arc::new(InMemoryEventStore::default()))
    }

    #[tokio::test]
    async fn full_tables_evict_the_least_recently_used_idle_session() {
        let sessions = Sessions::new(3, Duration::from_secs(600));
        for id in ["a", "b", "c"] {
            assert_eq!(sessions.insert(session(id)), Ok(()));
        }
        assert!(sessions.get("a").is_some(), "a is now the most recent");
        let held_b = sessions.get("b").unwrap(); // a request is running in b
        assert_eq!(sessions.insert(session("d")), Ok(()));
        assert!(sessions.get("c").is_none(), "c was the least recently used");
        assert_eq!(sessions.insert(session("e")), Ok(()));
        assert!(sessions.get("a").is_none(), "b is busy: a goes next");
        assert!(sessions.get("b").is_some());
        assert_eq!(sessions.len(), 3);
        drop(held_b);
        // Every session busy: the newcomer is refused.
        let held: Vec<_> = ["b", "d", "e"]
            .into_iter()
            .map(|id| sessions.get(id).unwrap())
            .collect();
        assert_eq!(sessions.insert(session("f")), Err(Full));
        drop(held);
        assert_eq!(sessions.insert(session("f")), Ok(()));
        assert!(sessions.remove("f"));
        assert!(!sessions.remove("f"));
        assert_eq!(sessions.len(), 2);
    }

    #[tokio::test]
    async fn unused_sessions_expire() {
        let sessions = Sessions::new(10, Duration::ZERO);
        let a = session("a");
        assert_eq!(sessions.insert(Arc::clone(&a)), Ok(()));
        std::thread::sleep(Duration::from_millis(2));
        let again = sessions.get("a");
        assert!(again.is_some(), "in use (held): never expired");
        drop((a, again));
        std::thread::sleep(Duration::from_millis(2));
        assert!(sessions.get("a").is_none(), "unused past the idle time");
        assert_eq!(sessions.insert(session("b")), Ok(()));
        std::thread::sleep(Duration::from_millis(2));
        assert_eq!(sessions.insert(session("c")), Ok(()));
        assert_eq!(sessions.len(), 1, "b expired when c came in");
        assert!(sessions.get("b").is_none());
    }

    #[tokio::test]
    async fn slab_slots_are_reused() {
        let sessions = Sessions::new(2, Duration::from_secs(600));
        for round in 0..100 {
            assert_eq!(sessions.insert(session(&format!("s{round}"))), Ok(()));
        }
        assert_eq!(sessions.len(), 2);
        assert!(sessions.table().slab.len() <= 3);
        assert!(sessions.get("s99").is_some() && sessions.get("s98").is_some());
    }
}
