//! Where a request's questions go, per era: [`Interact`] says which way applies to a request
//! (its connection's peer in the handshake era, its `input_required` round in the stateless
//! era, a task's port), and [`Pending`] is the peer's table of requests sent to the client and
//! awaiting responses (ids `s-N`, or `s-N@NODE` on a replica; bounded per connection, per
//! principal and server-wide; each answer routed to its waiter, or lost with a timeout).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_core::jsonrpc::Response;
use mcp_core::{ErrorObject, RequestId};
use serde_json::value::RawValue;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, oneshot};

use crate::handler::rounds::Round;
use crate::handler::task_port::TaskHooks;
use crate::principal::{Principal, Share, Tally};
use crate::sync::lock;

/// A principal's share of the requests to the client awaiting answers, over all its sessions.
pub(crate) type PrincipalShare = (Arc<Tally>, Principal);

/// The client's answer: its result, or its error.
pub(crate) type Answer = Result<Box<RawValue>, ErrorObject>;

/// Why a request to the client could not be registered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refused {
    /// The connection or session is closing: nobody will answer.
    Closed,
    /// The session, or the whole server, has as many requests waiting as it allows.
    Full,
}

/// One request waiting for the client's answer: where the answer goes, and its place in the
/// server-wide bound (given back when the entry goes, however it goes).
struct Outstanding {
    tx: oneshot::Sender<Answer>,
    _permit: OwnedSemaphorePermit,
    _share: Option<Share>,
}

/// Requests this side sent to the client, awaiting their responses: bounded per connection
/// (`limit`) and server-wide (`total`, shared by every connection of a server).
pub(crate) struct Pending {
    next: AtomicU64,
    map: Mutex<Table>,
    limit: usize,
    total: Arc<Semaphore>,
    pub(crate) timeout: Duration,
    /// The principal's share these requests also count in (HTTP sessions), once known.
    share: std::sync::OnceLock<PrincipalShare>,
    /// This replica's name, when it is one of several: the ids of its requests carry it, so
    /// that another replica receiving the answer knows where to forward it.
    pub(crate) node: Option<Arc<str>>,
}

#[derive(Default)]
struct Table {
    waiting: HashMap<u64, Outstanding>,
    closed: bool,
}

/// The id of the `n`th request to the client (`"s-<n>"`, or `"s-<n>@<node>"` on a replica),
/// and back.
fn request_id(n: u64, node: Option<&str>) -> RequestId {
    match node {
        None => RequestId::String(format!("s-{n}")),
        Some(node) => RequestId::String(format!("s-{n}@{node}")),
    }
}

/// The number and replica of a request id this side minted.
fn parse_id(id: &RequestId) -> Option<(u64, Option<&str>)> {
    let RequestId::String(s) = id else {
        return None;
    };
    let rest = s.strip_prefix("s-")?;
    match rest.split_once('@') {
        Some((n, node)) => Some((n.parse().ok()?, Some(node))),
        None => Some((rest.parse().ok()?, None)),
    }
}

/// The replica that sent the request a response answers, when its id names one.
#[cfg(feature = "http")]
pub(crate) fn node_of(id: &RequestId) -> Option<&str> {
    parse_id(id)?.1
}

impl Pending {
    /// At most `limit` waiting here, and no more than `total` allows server-wide; each waits up
    /// to `timeout`.
    pub(crate) fn new(limit: usize, total: Arc<Semaphore>, timeout: Duration) -> Self {
        Self {
            next: AtomicU64::new(1),
            map: Mutex::new(Table::default()),
            limit,
            total,
            timeout,
            share: std::sync::OnceLock::new(),
            node: None,
        }
    }

    /// Counts these requests in a principal's share too (the first share given stays).
    #[cfg(feature = "http")]
    pub(crate) fn share_with(&self, share: PrincipalShare) {
        let _ = self.share.set(share);
    }

    fn table(&self) -> std::sync::MutexGuard<'_, Table> {
        lock(&self.map)
    }

    /// A new request id and the receiver of its answer.
    pub(crate) fn register(&self) -> Result<(RequestId, oneshot::Receiver<Answer>), Refused> {
        let mut table = self.table();
        if table.closed {
            return Err(Refused::Closed);
        }
        if table.waiting.len() >= self.limit {
            return Err(Refused::Full);
        }
        let share = match self.share.get() {
            Some((tally, principal)) => Some(tally.take(principal).ok_or(Refused::Full)?),
            None => None,
        };
        let permit = Arc::clone(&self.total)
            .try_acquire_owned()
            .map_err(|_| Refused::Full)?;
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        table.waiting.insert(
            n,
            Outstanding {
                tx,
                _permit: permit,
                _share: share,
            },
        );
        Ok((request_id(n, self.node.as_deref()), rx))
    }

    /// The number of one of this side's request ids (minted here, by this replica).
    fn number_of(&self, id: &RequestId) -> Option<u64> {
        let (n, node) = parse_id(id)?;
        (node == self.node.as_deref()).then_some(n)
    }

    fn forget(&self, id: &RequestId) {
        if let Some(n) = self.number_of(id) {
            let gone = self.table().waiting.remove(&n);
            drop(gone);
        }
    }

    /// Routes a response from the client to the request waiting for it.
    pub(crate) fn complete(&self, response: Response<'_>) {
        let Some(id) = response.id else { return };
        let waiter = self
            .number_of(&id)
            .and_then(|n| self.table().waiting.remove(&n));
        if let Some(w) = waiter {
            let _ = w.tx.send(response.outcome.map(RawValue::to_owned));
        } else {
            tracing::debug!(id = %mcp_core::jsonrpc::echo(&id.to_string()), "response to an unknown or expired server request");
        }
    }

    /// Fails every waiting request at once (they see `Disconnected`) and refuses new ones: the
    /// connection or session is closing.
    pub(crate) fn close(&self) {
        let waiting = {
            let mut table = self.table();
            table.closed = true;
            std::mem::take(&mut table.waiting)
        };
        drop(waiting);
    }

    /// How many requests wait for the client's answer.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.table().waiting.len()
    }
}

/// Removes a pending entry when the waiting future is dropped (cancelled handler).
pub(crate) struct Forget<'a>(pub(crate) &'a Pending, pub(crate) RequestId);

impl Drop for Forget<'_> {
    fn drop(&mut self) {
        self.0.forget(&self.1);
    }
}

/// How a handler's interactions reach the client.
#[derive(Default)]
pub(crate) enum Interact {
    /// Not available (command line, `completion/complete`, list methods).
    #[default]
    None,
    /// Handshake era: JSON-RPC requests on the request's stream.
    Peer(Arc<Pending>),
    /// Stateless era: `input_required` rounds (the request's own round, kept in its context).
    Rounds(Round),
    /// A call that runs as a task, or may become one (both eras).
    Task(Arc<TaskPort>),
}

/// The interaction state of a call that is, or may become, a task.
#[derive(Default)]
pub(crate) struct TaskPort {
    /// Stateless era: the multi round-trip round of the `tools/call`.
    pub(crate) round: Option<Arc<Round>>,
    /// Handshake era: the session's requests to the client.
    pub(crate) pending: Option<Arc<Pending>>,
    /// Set once the call is a task.
    pub(crate) task: std::sync::OnceLock<Arc<dyn TaskHooks>>,
}

impl TaskPort {
    /// The task, once there is one.
    pub(crate) fn hooks(&self) -> Option<&Arc<dyn TaskHooks>> {
        self.task.get()
    }
}

impl Interact {
    /// The multi round-trip round whose missing answers stop the handler, if any.
    pub(crate) fn round(&self) -> Option<&Round> {
        match self {
            Interact::Rounds(r) => Some(r),
            Interact::Task(port) => port.round.as_deref(),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn response(id: &RequestId) -> String {
        format!(
            r#"{{"jsonrpc":"2.0","id":{},"result":{{"roots":[]}}}}"#,
            serde_json::to_string(id).unwrap()
        )
    }

    fn complete(pending: &Pending, text: &str) {
        let mcp_core::jsonrpc::Message::Response(r) =
            mcp_core::jsonrpc::parse_message(text).unwrap()
        else {
            panic!("{text} is a response")
        };
        pending.complete(r);
    }

    #[test]
    fn pending_is_bounded_and_routes_responses() {
        let total = Arc::new(Semaphore::new(8));
        let pending = Pending::new(1, Arc::clone(&total), Duration::from_secs(1));
        let (id, mut rx) = pending.register().unwrap();
        assert_eq!(id, RequestId::from("s-1"));
        assert_eq!(pending.register().unwrap_err(), Refused::Full);
        assert_eq!(total.available_permits(), 7);
        complete(&pending, &response(&id));
        assert_eq!(rx.try_recv().unwrap().unwrap().get(), r#"{"roots":[]}"#);
        assert_eq!(
            total.available_permits(),
            8,
            "the server-wide place is given back"
        );
        assert!(pending.register().is_ok());
    }

    #[test]
    fn the_server_wide_bound_holds_across_connections() {
        let total = Arc::new(Semaphore::new(2));
        let a = Pending::new(8, Arc::clone(&total), Duration::from_secs(1));
        let b = Pending::new(8, Arc::clone(&total), Duration::from_secs(1));
        let (first, _rx1) = a.register().unwrap();
        let _second = b.register().unwrap();
        assert_eq!(a.register().unwrap_err(), Refused::Full);
        assert_eq!(b.register().unwrap_err(), Refused::Full);
        a.forget(&first);
        assert!(b.register().is_ok());
    }

    #[test]
    fn closing_fails_every_waiting_request_at_once_and_refuses_new_ones() {
        let total = Arc::new(Semaphore::new(8));
        let pending = Pending::new(8, Arc::clone(&total), Duration::from_secs(600));
        let mut waiting: Vec<_> = (0..3).map(|_| pending.register().unwrap().1).collect();
        pending.close();
        for rx in &mut waiting {
            assert!(matches!(
                rx.try_recv(),
                Err(oneshot::error::TryRecvError::Closed)
            ));
        }
        assert_eq!(pending.len(), 0);
        assert_eq!(total.available_permits(), 8);
        assert_eq!(pending.register().unwrap_err(), Refused::Closed);
    }

    #[test]
    fn responses_with_unknown_or_foreign_ids_are_ignored() {
        let pending = Pending::new(8, Arc::new(Semaphore::new(8)), Duration::from_secs(1));
        let (_id, mut rx) = pending.register().unwrap();
        for id in [
            RequestId::from("s-99"),
            RequestId::from("s-"),
            RequestId::from("x-1"),
            RequestId::Number(1),
        ] {
            complete(&pending, &response(&id));
        }
        assert!(rx.try_recv().is_err());
        assert_eq!(pending.len(), 1);
    }
}
