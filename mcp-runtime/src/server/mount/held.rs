//! Forwarded calls held open between a 2026-07-28 client's `input_required` rounds.
//!
//! When the remote asks a question (elicitation, sampling, roots) during a call of a stateless
//! caller, our handler stops with `input_required` as any handler's would, but the remote's call
//! is not dropped with it: it is parked in the round (`handler/rounds::Hold`) and held here under
//! the nonce of the round's `requestState` (random, sealed by the server's key, opened once, and
//! naming the replica that holds it). The caller's retry joins it: the remote's waiting question
//! gets the retry's `inputResponses`, and the retry awaits the same call (its outcome, or its
//! next question, another round). The remote's tool runs once.
//!
//! Bounded: places in all and per client (`MountOptions::held_calls`), taken when a call is
//! first held and given back when it ends; and in time (`MountOptions::hold_for`, at most the
//! `requestState` lifetime). A held call released (its time ran out) is cancelled on the remote,
//! whose question is then refused; a retry that joined one and is dropped (cancelled by its
//! client) cancels it on the remote too.

use std::any::Any;
use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::Poll;
use std::time::Duration;

use mcp_client::{BoxFuture, ClientError};
use mcp_core::ErrorObject;
use tokio::sync::{mpsc, oneshot};

use super::logs::{Passed, log};
use super::relay::{Question, ask};
use crate::handler::context::Context;
use crate::handler::rounds::{Hold, Round};
use crate::principal::Principal;
use crate::sync::lock;

/// Calls held at most by one mount, by default.
const TOTAL: usize = 256;
/// Calls held at most for one client of one mount, by default.
const PER_CLIENT: usize = 16;
/// How long a released call's question waits for the remote to withdraw it (it does when it
/// sees the cancellation) before it is refused.
const WITHDRAW_WAIT: Duration = Duration::from_secs(5);

/// One mount's held calls.
pub(super) struct Held {
    total: usize,
    per_client: usize,
    hold_for: Option<Duration>,
    table: Mutex<Table>,
}

#[derive(Default)]
struct Table {
    /// By the nonce of the state their retry carries.
    calls: HashMap<String, Entry>,
    /// Places taken, in all and by client.
    taken: usize,
    by_client: HashMap<Principal, usize>,
}

struct Entry {
    call: Box<dyn Release>,
    /// Dropped with the entry: its timer stops.
    _timer: oneshot::Sender<()>,
}

/// A held call, whatever it returns.
trait Release: Send {
    /// Cancels the call on the remote; its waiting question is refused.
    fn release(self: Box<Self>);
    fn into_any(self: Box<Self>) -> Box<dyn Any + Send>;
}

/// A place in the table, given back when dropped.
struct Slot {
    held: Arc<Held>,
    client: Principal,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut table = lock(&self.held.table);
        table.taken = table.taken.saturating_sub(1);
        if let Some(n) = table.by_client.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                table.by_client.remove(&self.client);
            }
        }
    }
}

/// A forwarded call of a stateless caller: its request, what the remote sends about it, and
/// the question it waits on, if any.
pub(super) struct Open<T> {
    request: BoxFuture<'static, Result<T, ClientError>>,
    passed: Passed,
    questions: mpsc::Receiver<Question>,
    /// Questions asked so far, by kind: their input keys (`elicit-0`, …) stay the call's own.
    counters: [usize; 3],
    waiting: Option<(String, Question)>,
    client: Principal,
    slot: Option<Slot>,
    /// Set while the call is held (its relay takes no question meanwhile).
    parked: Arc<AtomicBool>,
}

impl<T> Open<T> {
    /// A call sent with the handler of `Relay::channel_held(parked)`.
    pub(super) fn new(
        request: BoxFuture<'static, Result<T, ClientError>>,
        passed: Passed,
        questions: mpsc::Receiver<Question>,
        client: Principal,
        parked: Arc<AtomicBool>,
    ) -> Self {
        Self {
            request,
            passed,
            questions,
            counters: [0; 3],
            waiting: None,
            client,
            slot: None,
            parked,
        }
    }
}

impl<T: Send + 'static> Release for Open<T> {
    fn release(self: Box<Self>) {
        let Open {
            request, waiting, ..
        } = *self;
        // Cancelled first: the remote withdraws its question when it sees it.
        drop(request);
        if let Some((_, q)) = waiting {
            crate::background::spawn(async move {
                let mut reply = q.reply;
                tokio::select! {
                    () = reply.closed() => {}
                    () = tokio::time::sleep(WITHDRAW_WAIT) => {
                        let _ = reply.send(Err(ErrorObject::internal(
                            "the client did not answer in time",
                        )));
                    }
                }
            });
        }
    }

    fn into_any(self: Box<Self>) -> Box<dyn Any + Send> {
        self
    }
}

/// A call parked in its round, held once the round's state is sealed.
struct Parking<T> {
    open: Open<T>,
    held: Arc<Held>,
}

impl<T: Send + 'static> Hold for Parking<T> {
    fn hold(self: Box<Self>, key: String, ttl: Duration) {
        let Parking { open, held } = *self;
        let limit = held.hold_for.map_or(ttl, |d| d.min(ttl));
        let (timer, stopped) = oneshot::channel();
        let entry = Entry {
            call: Box::new(open),
            _timer: timer,
        };
        lock(&held.table).calls.insert(key.clone(), entry);
        crate::background::spawn(async move {
            tokio::select! {
                _ = stopped => {}
                () = tokio::time::sleep(limit) => held.release(&key),
            }
        });
    }
}

impl Held {
    /// The table of a mount made with `held_calls` (total, per client) and `hold_for`.
    pub(super) fn new(held_calls: Option<(usize, usize)>, hold_for: Option<Duration>) -> Self {
        let (total, per_client) = held_calls.unwrap_or((TOTAL, PER_CLIENT));
        Self {
            total,
            per_client,
            hold_for,
            table: Mutex::new(Table::default()),
        }
    }

    /// A place for `client`'s call; `None` when the mount or the client holds all it may.
    fn reserve(self: &Arc<Self>, client: &Principal) -> Option<Slot> {
        let mut table = lock(&self.table);
        let mine = table.by_client.get(client).copied().unwrap_or(0);
        if table.taken >= self.total || mine >= self.per_client {
            return None;
        }
        table.taken += 1;
        *table.by_client.entry(Arc::clone(client)).or_insert(0) += 1;
        Some(Slot {
            held: Arc::clone(self),
            client: Arc::clone(client),
        })
    }

    /// Releases the call held under `key`, if it still is.
    fn release(&self, key: &str) {
        let entry = lock(&self.table).calls.remove(key);
        if let Some(entry) = entry {
            entry.call.release();
        }
    }

    /// The call the retry of `round` continues, taken out of the table for `client`.
    pub(super) fn take<T: Send + 'static>(
        &self,
        round: &Round,
        client: &Principal,
    ) -> Result<Open<T>, ErrorObject> {
        let entry = round
            .claim()
            .and_then(|c| lock(&self.table).calls.remove(&c.nonce));
        let Some(entry) = entry else {
            let mut err = ErrorObject::invalid_params(
                "invalid requestState: the call it continues has ended (it was not retried in time, or was cancelled)",
            );
            err.data = Some(serde_json::json!({"reason": "held_call_ended"}));
            return Err(err);
        };
        let open = entry.call.into_any().downcast::<Open<T>>().map_err(|_| {
            ErrorObject::invalid_params("invalid requestState: it belongs to another request")
        })?;
        if open.client != *client {
            // A state another client was given: the call it continues is not theirs.
            open.release();
            return Err(ErrorObject::invalid_params(
                "invalid requestState: it belongs to another client",
            ));
        }
        open.parked.store(false, Ordering::Release);
        Ok(*open)
    }

    /// How many calls are held now (for tests).
    #[cfg(test)]
    fn len(&self) -> usize {
        lock(&self.table).calls.len()
    }
}

/// Why a call could not be held: the message of the refusal our client gets.
pub(super) struct Full(pub(super) String);

/// Drives a stateless caller's forwarded call inside our handler's future, as `forward::drive`
/// does, with its questions asked in `round` under the call's own input keys: a question
/// answered by the round's `inputResponses` is answered at once; one that is not stops our
/// handler (`input_required`) with the call parked in the round, to be held until the retry.
pub(super) async fn drive_round<T: Send + 'static>(
    ctx: &Context,
    round: &Round,
    held: &Arc<Held>,
    mut open: Open<T>,
) -> Result<Result<T, ClientError>, Full> {
    loop {
        if let Some((key, q)) = open.waiting.take() {
            if q.reply.is_closed() {
                // The remote withdrew it meanwhile.
                continue;
            }
            let mut asking = std::pin::pin!(ask(ctx, q.asked.clone(), Some(key.clone())));
            let first = std::future::poll_fn(|cx| Poll::Ready(asking.as_mut().poll(cx))).await;
            if let Poll::Ready(answer) = first {
                let _ = q.reply.send(answer);
                continue;
            }
            // Not answered yet: recorded in the round, whose `input_required` stops our
            // handler. The call waits for the retry.
            if open.slot.is_none() {
                match held.reserve(&open.client) {
                    Some(slot) => open.slot = Some(slot),
                    None => {
                        drop(open.request);
                        let message = format!(
                            "this gateway holds as many calls waiting for input as it may ({} in all, {} per client): try again later",
                            held.total, held.per_client
                        );
                        let _ = q.reply.send(Err(ErrorObject::internal(message.clone())));
                        return Err(Full(message));
                    }
                }
            }
            open.waiting = Some((key, q));
            open.parked.store(true, Ordering::Release);
            let held = Arc::clone(held);
            round.park(Box::new(Parking { open, held }));
            return std::future::pending().await;
        }
        tokio::select! {
            outcome = &mut open.request => {
                while let Ok(m) = open.passed.logs.rx.try_recv() {
                    log(ctx, m).await;
                }
                while let Ok(p) = open.passed.updates.try_recv() {
                    ctx.progress(p.progress, p.total, p.message.as_deref()).await;
                }
                return Ok(outcome);
            }
            Some(p) = open.passed.updates.recv() => {
                ctx.progress(p.progress, p.total, p.message.as_deref()).await;
            }
            Some(m) = open.passed.logs.rx.recv() => log(ctx, m).await,
            Some(q) = open.questions.recv() => {
                let (prefix, kind) = q.asked.kind();
                let n = open.counters[kind];
                open.counters[kind] += 1;
                open.waiting = Some((format!("{prefix}-{n}"), q));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_are_bounded_in_all_and_per_client_and_given_back() {
        let held = Arc::new(Held::new(Some((3, 2)), None));
        let (a, b): (Principal, Principal) = ("a".into(), "b".into());
        let a1 = held.reserve(&a).unwrap();
        let _a2 = held.reserve(&a).unwrap();
        assert!(held.reserve(&a).is_none(), "a holds its share");
        let _b1 = held.reserve(&b).unwrap();
        assert!(held.reserve(&b).is_none(), "the mount holds all it may");
        drop(a1);
        let b2 = held.reserve(&b);
        assert!(b2.is_some());
        assert_eq!(lock(&held.table).taken, 3);
        assert_eq!(lock(&held.table).by_client.len(), 2);
        drop((b2, _a2, _b1));
        assert_eq!(lock(&held.table).taken, 0);
        assert!(
            lock(&held.table).by_client.is_empty(),
            "no client is remembered"
        );
        assert_eq!(held.len(), 0);
    }
}
