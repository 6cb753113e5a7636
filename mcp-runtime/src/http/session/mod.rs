//! Handshake-era sessions of the Streamable HTTP transport (`Mcp-Session-Id`): one session's
//! state here, and the bounded table of them (`table`), kept in least-recently-used order with
//! each principal's share, so that admitting, finding and evicting a session each cost O(1)
//! under the table's lock.

mod table;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use crate::principal::Principal;
use crate::sync::lock;

use tokio::sync::mpsc;
use tokio::task::AbortHandle;

use crate::connection::Connection;
use crate::http::event_store::EventStore;
use crate::http::sse::Resumable;
use crate::outbound::Outbound;

/// Most request streams of a session kept for resumption while they run.
const MAX_OPEN_STREAMS: usize = 1024;
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
    /// Whose share of the table it takes: the principal of the request that opened (or
    /// restored) it.
    pub(crate) principal: Principal,
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
        let principal = crate::principal::current_or(Some(&id));
        conn.set_session_id(Arc::clone(&id));
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
            principal,
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
        lock(&self.checked).elapsed() >= every
    }

    /// Notes that the shared store confirmed the session just now.
    pub(crate) fn checked(&self) {
        *lock(&self.checked) = Instant::now();
    }

    /// Starts moving the outbound queue into the `GET` stream (idempotent): when a `GET` stream
    /// attaches, or a request sends its messages to the session's stream. Until then messages
    /// wait in the (bounded) queue, and the first `GET` stream receives them.
    pub(crate) fn start_pump(&self) {
        let mut pump = lock(&self.pump);
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
        let mut streams = lock(&self.streams);
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
        lock(&self.streams).remove(&n);
    }

    /// An open stream by number (0 is the `GET` stream).
    pub(crate) fn stream(&self, n: u64) -> Option<Arc<Resumable>> {
        if n == 0 {
            return Some(Arc::clone(&self.standalone));
        }
        lock(&self.streams).get(&n).cloned()
    }

    /// The event store of the session.
    pub(crate) fn store(&self) -> &Arc<dyn EventStore> {
        &self.store
    }

    /// Ends the session: running requests are cancelled, stored events dropped.
    fn close(self: Arc<Self>) {
        let pump = std::mem::replace(&mut *lock(&self.pump), Pump::Closed);
        if let Pump::Running(task) = pump {
            task.abort();
        }
        crate::background::spawn(async move {
            self.conn.drain_now();
            self.store.remove_session(&self.id).await;
        });
    }
}

pub(crate) use table::Sessions;
