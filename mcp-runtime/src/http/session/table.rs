//! The table of sessions: at most `max`, in least-recently-used order, each principal holding
//! at most its share; and which session makes room for a new one.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::Session;
use crate::principal::{FairShares, Principal, Tally};
use crate::sync::lock;

/// Most sessions looked at to find one to evict; busy ones met on the way are moved to the
/// recent end, so a later search starts past them.
const EVICTION_SEARCH: usize = 16;
/// Most expired sessions ended by one admission (the rest go with later ones, or on lookup).
const EXPIRY_BATCH: usize = 8;

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

/// What one principal holds: how many sessions, and their ids in the order they were opened
/// (ids of sessions ended meanwhile are dropped when met, or when they outnumber the live ones).
#[derive(Default)]
struct Held {
    count: usize,
    order: VecDeque<Arc<str>>,
}

/// The table: sessions by id, a doubly linked recency list threaded through a slab, and what
/// each principal holds.
struct Table {
    index: HashMap<Arc<str>, usize>,
    held: HashMap<Principal, Held>,
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
        let held = self.held.entry(Arc::clone(&session.principal)).or_default();
        held.count += 1;
        held.order.push_back(Arc::clone(&session.id));
    }

    /// How many sessions `principal` holds.
    fn count_of(&self, principal: &str) -> usize {
        self.held.get(principal).map_or(0, |h| h.count)
    }

    /// The principal holding the most sessions, when it holds more than one (else every
    /// principal holds one, and the least recently used session goes).
    fn heaviest(&self) -> Option<Principal> {
        let (p, h) = self.held.iter().max_by_key(|(_, h)| h.count)?;
        (h.count > 1).then(|| Arc::clone(p))
    }

    /// The oldest session of `principal` with nothing running and no `GET` stream (its busy
    /// ones met on the way go to the back of its order).
    fn oldest_idle_of(&mut self, principal: &str) -> Option<usize> {
        let Self {
            index, held, slab, ..
        } = self;
        let order = &mut held.get_mut(principal)?.order;
        for _ in 0..order.len() {
            let id = order.pop_front()?;
            let Some(&i) = index.get(&id) else {
                continue;
            };
            match slab.get(i).and_then(Option::as_ref) {
                Some(node) if busy(&node.session, 1) => order.push_back(id),
                Some(_) => return Some(i),
                None => {}
            }
        }
        None
    }

    fn remove_at(&mut self, i: usize) -> Arc<Session> {
        self.unlink(i);
        let node = match self.slab[i].take() {
            Some(node) => node,
            None => unreachable!("linked slab entries are occupied"),
        };
        self.free.push(i);
        self.index.remove(&node.session.id);
        let principal = &node.session.principal;
        if let Some(held) = self.held.get_mut(principal) {
            held.count -= 1;
            if held.count == 0 {
                self.held.remove(principal);
            } else if held.order.len() > 2 * held.count + 8 {
                let index = &self.index;
                held.order.retain(|id| index.contains_key(id));
            }
        }
        node.session
    }
}

/// Every live session: at most `max`, unused ones expire after `idle`, each principal holds at
/// most `per_principal`. A principal at its share makes room among its own sessions (its oldest
/// idle one); when the table is full, the principal holding the most does (else the least
/// recently used idle session).
pub(crate) struct Sessions {
    table: Mutex<Table>,
    max: usize,
    idle: Duration,
    per_principal: usize,
    /// Requests to the client awaiting answers, per principal, over all its sessions.
    waiting: Arc<Tally>,
}

/// Why a session was not admitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Full;

impl Sessions {
    pub(crate) fn new(max: usize, idle: Duration, shares: &FairShares) -> Self {
        Self {
            table: Mutex::new(Table {
                index: HashMap::new(),
                held: HashMap::new(),
                slab: Vec::new(),
                free: Vec::new(),
                oldest: NIL,
                newest: NIL,
            }),
            max: max.max(1),
            idle,
            per_principal: shares.sessions_per_peer,
            waiting: Tally::new(shares.client_requests_per_principal),
        }
    }

    fn table(&self) -> std::sync::MutexGuard<'_, Table> {
        lock(&self.table)
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

    /// Adds a session. Expired sessions go first. When its principal holds its share, the
    /// principal's oldest session with nothing running and no `GET` stream is evicted (`Err(Full)`
    /// when all of them are busy); when the table is still full, the oldest idle session of the
    /// principal holding the most is, else the least recently used idle session. `Err(Full)` when
    /// no session could make room.
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
            let held = table.index.contains_key(&session.id);
            let principal = &session.principal;
            let at_share = !held && table.count_of(principal) >= self.per_principal;
            let mut room_made = false;
            if at_share {
                match table.oldest_idle_of(principal) {
                    Some(i) => {
                        ended.push(table.remove_at(i));
                        room_made = true;
                    }
                    None => {
                        drop(table);
                        for s in ended {
                            s.close();
                        }
                        return Err(Full);
                    }
                }
            }
            if !room_made
                && table.index.len() >= self.max
                && let Some(i) = table.heaviest().and_then(|p| table.oldest_idle_of(&p))
            {
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
            let room = held || table.index.len() < self.max;
            if room && !held {
                // Its requests to the client count in its principal's share from now on.
                let waiting = (Arc::clone(&self.waiting), Arc::clone(&session.principal));
                session.conn.share_waiting_calls(waiting);
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
    use crate::connection::Connection;
    use crate::http::event_store::InMemoryEventStore;
    use tokio::sync::mpsc;

    fn shares(per_principal: usize) -> FairShares {
        FairShares::new().sessions_per_peer(per_principal)
    }

    /// A session opened from `peer`.
    async fn from(peer: &str, id: &str) -> Arc<Session> {
        let ip: std::net::IpAddr = peer.parse().unwrap();
        crate::principal::serve_from(ip, async { session(id) }).await
    }

    #[tokio::test]
    async fn a_principal_at_its_share_makes_room_among_its_own_sessions_only() {
        let sessions = Sessions::new(100, Duration::from_secs(600), &shares(3));
        assert_eq!(sessions.insert(from("192.0.2.1", "other").await), Ok(()));
        for id in ["a1", "a2", "a3"] {
            assert_eq!(sessions.insert(from("192.0.2.9", id).await), Ok(()));
        }
        let busy_a1 = sessions.get("a1").unwrap();
        // A flood from one peer: each newcomer ends the peer's own oldest idle session.
        for n in 4..200 {
            let id = format!("a{n}");
            assert_eq!(sessions.insert(from("192.0.2.9", &id).await), Ok(()));
        }
        assert_eq!(sessions.len(), 4);
        assert!(
            sessions.get("other").is_some(),
            "another peer's idle session stays"
        );
        assert!(
            sessions.get("a1").is_some(),
            "a busy session is never evicted"
        );
        assert!(sessions.get("a199").is_some() && sessions.get("a198").is_some());
        let held: Vec<_> = ["a198", "a199"]
            .into_iter()
            .map(|id| sessions.get(id).unwrap())
            .collect();
        assert_eq!(
            sessions.insert(from("192.0.2.9", "a200").await),
            Err(Full),
            "every session of the peer is busy"
        );
        assert_eq!(sessions.insert(from("192.0.2.2", "b").await), Ok(()));
        drop((held, busy_a1));
        assert!(
            sessions
                .table()
                .held
                .values()
                .all(|h| h.order.len() <= 2 * h.count + 8)
        );
    }

    #[tokio::test]
    async fn a_full_table_takes_from_the_principal_holding_the_most() {
        let sessions = Sessions::new(4, Duration::from_secs(600), &shares(100));
        assert_eq!(sessions.insert(from("192.0.2.1", "old").await), Ok(()));
        for id in ["x1", "x2", "x3"] {
            assert_eq!(sessions.insert(from("192.0.2.9", id).await), Ok(()));
        }
        assert_eq!(sessions.insert(from("192.0.2.2", "new").await), Ok(()));
        assert!(
            sessions.get("old").is_some(),
            "the least recently used is not the heaviest's"
        );
        assert!(
            sessions.get("x1").is_none(),
            "the heaviest principal's oldest went"
        );
    }

    fn session(id: &str) -> Arc<Session> {
        let server = crate::Server::builder(crate::server_info!())
            .build()
            .unwrap();
        let (tx, rx) = mpsc::channel(8);
        let conn = Connection::new(
            Arc::clone(&server.inner),
            tx,
            crate::middleware::TransportKind::StreamableHttp,
        );
        Session::new(id.into(), conn, rx, Arc::new(InMemoryEventStore::default()))
    }

    #[tokio::test]
    async fn full_tables_evict_the_least_recently_used_idle_session() {
        let sessions = Sessions::new(3, Duration::from_secs(600), &shares(100));
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
        let sessions = Sessions::new(10, Duration::ZERO, &shares(100));
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
        let sessions = Sessions::new(2, Duration::from_secs(600), &shares(100));
        for round in 0..100 {
            assert_eq!(sessions.insert(session(&format!("s{round}"))), Ok(()));
        }
        assert_eq!(sessions.len(), 2);
        assert!(sessions.table().slab.len() <= 3);
        assert!(sessions.get("s99").is_some() && sessions.get("s98").is_some());
    }
}
