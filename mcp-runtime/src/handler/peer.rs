//! How a handler's questions reach the client: in the handshake era, requests on the
//! connection awaiting their answers; in the stateless era, the rounds of `input_required`.

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_core::jsonrpc::Response;
use mcp_core::{ErrorObject, RequestId};
use serde_json::value::RawValue;
use tokio::sync::oneshot;

use crate::handler::rounds::Round;

/// The client's answer: its result, or its error.
pub(crate) type Answer = Result<Box<RawValue>, ErrorObject>;

/// Requests this side sent to the client, awaiting their responses (bounded).
pub(crate) struct Pending {
    next: AtomicI64,
    map: Mutex<HashMap<RequestId, oneshot::Sender<Answer>>>,
    limit: usize,
    pub(crate) timeout: Duration,
}

impl Pending {
    pub(crate) fn new(limit: usize, timeout: Duration) -> Self {
        Self {
            next: AtomicI64::new(1),
            map: Mutex::new(HashMap::new()),
            limit,
            timeout,
        }
    }

    /// A new request id and the receiver of its answer; `None` when too many wait already.
    pub(crate) fn register(&self) -> Option<(RequestId, oneshot::Receiver<Answer>)> {
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= self.limit {
            return None;
        }
        let id = RequestId::String(format!("s-{}", self.next.fetch_add(1, Ordering::Relaxed)));
        let (tx, rx) = oneshot::channel();
        map.insert(id.clone(), tx);
        Some((id, rx))
    }

    fn forget(&self, id: &RequestId) {
        self.map
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id);
    }

    /// Routes a response from the client to the request waiting for it.
    pub(crate) fn complete(&self, response: Response<'_>) {
        let Some(id) = response.id else { return };
        let waiter = self
            .map
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&id);
        if let Some(tx) = waiter {
            let _ = tx.send(response.outcome.map(RawValue::to_owned));
        } else {
            tracing::debug!(%id, "response to an unknown or expired server request");
        }
    }

    /// Fails every waiting request (the connection is closing).
    pub(crate) fn clear(&self) {
        self.map.lock().unwrap_or_else(|e| e.into_inner()).clear();
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
#[derive(Clone, Default)]
pub(crate) enum Interact {
    /// Not available (command line, `completion/complete`, list methods).
    #[default]
    None,
    /// Handshake era: JSON-RPC requests on the request's stream.
    Peer(Arc<Pending>),
    /// Stateless era: `input_required` rounds.
    Rounds(Arc<Round>),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pending_is_bounded_and_routes_responses() {
        let pending = Pending::new(1, Duration::from_secs(1));
        let (id, mut rx) = pending.register().unwrap();
        assert!(pending.register().is_none());
        let text = format!(
            r#"{{"jsonrpc":"2.0","id":{},"result":{{"roots":[]}}}}"#,
            serde_json::to_string(&id).unwrap()
        );
        let mcp_core::jsonrpc::Message::Response(r) =
            mcp_core::jsonrpc::parse_message(&text).unwrap()
        else {
            panic!()
        };
        pending.complete(r);
        assert_eq!(rx.try_recv().unwrap().unwrap().get(), r#"{"roots":[]}"#);
        assert!(pending.register().is_some());
    }
}
