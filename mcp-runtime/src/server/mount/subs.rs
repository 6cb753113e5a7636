//! Resource subscriptions held on a mounted server for our sessions and listeners.
//!
//! Each remote URI is subscribed once on the remote, while at least one of our sessions (or
//! `subscriptions/listen` streams) holds it, and released with the last. The changes go to the
//! remote in order, one at a time, from one task (`resources/subscribe` / `unsubscribe` to a
//! handshake-era remote; a new `subscriptions/listen` naming every held URI to a stateless one),
//! and a request forwarded after a subscription waits (a bounded time) until the remote has it,
//! so that an update the request causes is not missed.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};

use mcp_core::{ErrorObject, SubscriptionFilter};
use tokio::sync::{mpsc, watch};

use super::{ACK_WAIT, Shared, acknowledged};
use crate::registry::mounted::Held;
use crate::sync::lock;

/// How many remote URIs one mount holds subscriptions to at most.
const MAX_URIS: usize = 4096;
/// How many subscription changes wait for the remote at most.
const QUEUE: usize = 256;

/// A change to send the remote.
enum Op {
    On(String),
    Off(String),
}

/// One mount's subscriptions.
pub(super) struct Subs(Arc<Inner>);

struct Inner {
    /// How many of our sessions and listeners hold each remote URI.
    counts: Mutex<HashMap<String, usize>>,
    ops: mpsc::Sender<Op>,
    /// Changes queued, ever.
    issued: AtomicU64,
    /// Changes the remote has, ever.
    done: watch::Sender<u64>,
}

/// What sends the changes: started when the server is built.
pub(super) struct Worker {
    rx: mpsc::Receiver<Op>,
    inner: Weak<Inner>,
}

/// One session's (or listener's) hold on a remote URI.
struct Hold {
    inner: Weak<Inner>,
    uri: String,
}

impl Drop for Hold {
    fn drop(&mut self) {
        let Some(inner) = self.inner.upgrade() else {
            return;
        };
        let mut counts = lock(&inner.counts);
        let Some(n) = counts.get_mut(&self.uri) else {
            return;
        };
        *n -= 1;
        if *n == 0 {
            counts.remove(&self.uri);
            inner.queue(Op::Off(std::mem::take(&mut self.uri)));
        }
    }
}

impl Inner {
    /// Queues a change (with `counts` locked, so that changes are queued in order); `false`
    /// when the queue is full.
    fn queue(&self, op: Op) -> bool {
        let queued = self.ops.try_send(op).is_ok();
        if queued {
            self.issued.fetch_add(1, Ordering::SeqCst);
        } else {
            tracing::warn!("a mounted server's subscription changes wait beyond the bound");
        }
        queued
    }
}

impl Subs {
    /// The subscriptions and the worker that sends their changes.
    pub(super) fn new() -> (Self, Worker) {
        let (ops, rx) = mpsc::channel(QUEUE);
        let inner = Arc::new(Inner {
            counts: Mutex::default(),
            ops,
            issued: AtomicU64::new(0),
            done: watch::Sender::new(0),
        });
        let worker = Worker {
            rx,
            inner: Arc::downgrade(&inner),
        };
        (Self(inner), worker)
    }

    /// Holds a subscription to the remote `uri` (subscribed on the remote if no one held it).
    pub(super) fn hold(&self, uri: String) -> Result<Held, ErrorObject> {
        let mut counts = lock(&self.0.counts);
        let full = counts.len() >= MAX_URIS;
        match counts.get_mut(&uri) {
            Some(n) => *n += 1,
            None if full => {
                return Err(ErrorObject::invalid_params(
                    "too many resource subscriptions on this mounted server",
                ));
            }
            None => {
                if !self.0.queue(Op::On(uri.clone())) {
                    return Err(ErrorObject::internal(
                        "too many subscription changes wait for the mounted server",
                    ));
                }
                counts.insert(uri.clone(), 1);
            }
        }
        Ok(Box::new(Hold {
            inner: Arc::downgrade(&self.0),
            uri,
        }))
    }

    /// Waits until the remote has every change queued so far (at most [`ACK_WAIT`]).
    pub(super) async fn settled(&self) {
        let target = self.0.issued.load(Ordering::SeqCst);
        let mut done = self.0.done.subscribe();
        let _ = tokio::time::timeout(ACK_WAIT, done.wait_for(|d| *d >= target)).await;
    }
}

impl Worker {
    /// Sends each change to the remote, in order, until the mount is gone.
    pub(super) async fn run(mut self, remote: super::Remote) {
        let shared = Arc::downgrade(&remote.shared);
        let (client, stateless) = (remote.client.clone(), remote.stateless);
        drop(remote);
        while let Some(op) = self.rx.recv().await {
            let Some(inner) = self.inner.upgrade() else {
                return;
            };
            let outcome = match (&op, stateless) {
                (Op::On(uri), false) => client.subscribe(uri).await.map(drop),
                (Op::Off(uri), false) => client.unsubscribe(uri).await.map(drop),
                (_, true) => {
                    let Some(shared) = shared.upgrade() else {
                        return;
                    };
                    let uris: Vec<String> = lock(&inner.counts).keys().cloned().collect();
                    let mut notes = client.notifications();
                    if listen(&client, &shared, uris) {
                        acknowledged(&mut notes).await;
                    }
                    Ok(())
                }
            };
            if let Err(e) = outcome {
                tracing::warn!("a mounted server refused a subscription change: {e}");
            }
            inner.done.send_modify(|d| *d += 1);
        }
    }
}

/// Opens a stateless remote's `subscriptions/listen` for its list changes and `uris` (held in
/// `shared`, replacing the one before, which the remote is then told to end).
pub(super) fn listen(client: &mcp_client::Client, shared: &Shared, uris: Vec<String>) -> bool {
    let mut filter = SubscriptionFilter::new();
    filter.tools_list_changed = Some(true);
    filter.prompts_list_changed = Some(true);
    filter.resources_list_changed = Some(true);
    if !uris.is_empty() {
        filter.resource_subscriptions = Some(uris);
    }
    match client.listen(filter) {
        Ok(listener) => {
            let old = lock(&shared.listener).replace(listener);
            drop(old);
            true
        }
        Err(e) => {
            tracing::warn!("a mounted server's subscriptions/listen failed: {e}");
            false
        }
    }
}
