//! The requests of one connection that run a handler: admission (back-pressure), running slots,
//! and the table that lets `notifications/cancelled` find and stop them.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use mcp_core::RequestId;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::task::AbortHandle;

use crate::handler::context::Cancellation;
use crate::sync::lock;

/// A request being handled.
struct Flight {
    /// The task running it, when it has its own.
    abort: Option<AbortHandle>,
    cancel: Cancellation,
    /// Tells this flight from a later one that reuses its id.
    seq: u64,
}

/// The in-flight requests of a connection.
pub(crate) struct Flights {
    table: Mutex<HashMap<RequestId, Flight>>,
    /// One permit per request that may run at once; a request without one waits in its task,
    /// so cancellations and pings are still read meanwhile.
    slots: Arc<Semaphore>,
    /// One permit per request admitted (running or waiting for a slot); when none is left,
    /// reading waits: back-pressure on the client instead of refused work or unbounded tasks.
    admitted: Arc<Semaphore>,
    seq: AtomicU64,
}

impl Flights {
    /// Room for `max_in_flight` running requests, and four times as many (at least 64) admitted.
    pub(crate) fn new(max_in_flight: usize) -> Self {
        let max = Semaphore::MAX_PERMITS;
        Self {
            table: Mutex::new(HashMap::new()),
            slots: Arc::new(Semaphore::new(max_in_flight.min(max))),
            admitted: Arc::new(Semaphore::new(
                max_in_flight.saturating_mul(4).clamp(64, max),
            )),
            seq: AtomicU64::new(0),
        }
    }

    fn table(&self) -> std::sync::MutexGuard<'_, HashMap<RequestId, Flight>> {
        lock(&self.table)
    }

    /// Whether no request is in flight or admitted.
    #[cfg(feature = "http")]
    pub(crate) fn is_idle(&self) -> bool {
        // An owned permit holds its semaphore: nobody else holding either, none is out.
        self.table().is_empty()
            && Arc::strong_count(&self.slots) == 1
            && Arc::strong_count(&self.admitted) == 1
            && !self.slots.is_closed()
            && !self.admitted.is_closed()
    }

    /// Waits for room to admit one more request; `None` when the connection is closing.
    pub(crate) async fn admit(&self) -> Option<OwnedSemaphorePermit> {
        Arc::clone(&self.admitted).acquire_owned().await.ok()
    }

    /// A running slot if one is free now.
    pub(crate) fn try_slot(&self) -> Option<OwnedSemaphorePermit> {
        Arc::clone(&self.slots).try_acquire_owned().ok()
    }

    /// The slots, to wait for one in the request's own task.
    pub(crate) fn slots(&self) -> Arc<Semaphore> {
        Arc::clone(&self.slots)
    }

    /// Whether a request with this id is in flight.
    pub(crate) fn contains(&self, id: &RequestId) -> bool {
        self.table().contains_key(id)
    }

    /// Enters a request; `None` when one with the same id is in flight already.
    pub(crate) fn enter(&self, id: &RequestId, cancel: Cancellation) -> Option<u64> {
        let seq = self.seq.fetch_add(1, Ordering::Relaxed);
        let mut table = self.table();
        if table.contains_key(id) {
            return None;
        }
        table.insert(
            id.clone(),
            Flight {
                abort: None,
                cancel,
                seq,
            },
        );
        Some(seq)
    }

    /// Enters a request whose id was checked free before its first poll.
    pub(crate) fn track(&self, id: &RequestId, cancel: Cancellation) -> u64 {
        let seq = self.seq.fetch_add(1, Ordering::Relaxed);
        self.table().insert(
            id.clone(),
            Flight {
                abort: None,
                cancel,
                seq,
            },
        );
        seq
    }

    /// Records the task running flight `seq`, so a cancellation can abort it.
    pub(crate) fn set_task(&self, id: &RequestId, seq: u64, task: AbortHandle) {
        if let Some(f) = self.table().get_mut(id).filter(|f| f.seq == seq) {
            f.abort = Some(task);
        }
    }

    /// Removes flight `seq`; `false` when it was cancelled meanwhile (then nothing is sent).
    pub(crate) fn leave(&self, id: &RequestId, seq: u64) -> bool {
        let mut table = self.table();
        match table.get(id) {
            Some(f) if f.seq == seq => table.remove(id).is_some(),
            _ => false,
        }
    }

    /// Stops the request with this id, if it is in flight.
    pub(crate) fn cancel(&self, id: &RequestId) -> bool {
        let flight = self.table().remove(id);
        let Some(f) = flight else { return false };
        f.cancel.cancel();
        if let Some(abort) = f.abort {
            abort.abort();
        }
        true
    }

    /// Whether nothing is in flight.
    pub(crate) fn is_empty(&self) -> bool {
        self.table().is_empty()
    }

    /// Cancels and aborts everything in flight.
    pub(crate) fn abort_all(&self) {
        let flights: Vec<Flight> = self.table().drain().map(|(_, f)| f).collect();
        for f in flights {
            f.cancel.cancel();
            if let Some(abort) = f.abort {
                abort.abort();
            }
        }
    }
}

/// Takes a request run in place out of the table when it ends, however it ends.
pub(crate) struct Leave<'a> {
    pub(crate) flights: &'a Flights,
    pub(crate) id: &'a RequestId,
    pub(crate) seq: u64,
}

impl Drop for Leave<'_> {
    fn drop(&mut self) {
        self.flights.leave(self.id, self.seq);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_while_in_flight_and_reusable_after() {
        let flights = Flights::new(4);
        let id = RequestId::Number(1);
        let token = Cancellation::new();
        let seq = flights.enter(&id, token.clone()).unwrap();
        assert!(flights.enter(&id, Cancellation::new()).is_none());
        assert!(flights.cancel(&id));
        assert!(token.is_cancelled());
        assert!(!flights.leave(&id, seq), "cancelled: its reply is not sent");
        let again = flights.enter(&id, Cancellation::new()).unwrap();
        assert!(
            !flights.leave(&id, seq),
            "a stale flight does not remove the new one"
        );
        assert!(flights.leave(&id, again));
        assert!(flights.is_empty());
    }
}
