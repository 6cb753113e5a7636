//! The one skeleton every item kind runs under: concurrency limit, timeout, panic catch and the
//! stateless era's stop on missing input; and the masking of internal failures.

use std::cell::Cell;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context as TaskContext, Poll};
use std::time::{Duration, Instant};

use mcp_core::ErrorObject;
use tokio::sync::Semaphore;

use crate::error::{BoxError, HandlerError};
use crate::future::BoxFuture;
use crate::handler::rounds::{Outcome, Round, UntilInput};

/// The per-item limits of `#[tool]`, `#[resource]` and `#[prompt]` (`max_concurrency`,
/// `timeout_ms`).
#[derive(Clone, Copy, Default)]
pub(crate) struct Limits<'a> {
    /// Calls of this item in flight at once, server-wide.
    pub(crate) concurrency: Option<&'a Semaphore>,
    /// How long one call may run, once it has its slot.
    pub(crate) timeout_ms: Option<u64>,
}

/// How a handler run ended.
pub(crate) enum Invoked<T> {
    Done(Result<T, HandlerError>),
    /// Stateless era: the handler asked the client something this round does not answer.
    NeedsInput,
    TimedOut(u64),
}

/// Runs a handler: waits for the item's slot, then polls the future (made only once the slot is
/// held) under the timeout, turning a panic into an internal error and stopping at the first
/// question this round cannot answer.
pub(crate) async fn invoke<T>(
    limits: Limits<'_>,
    round: Option<&Round>,
    start: impl FnOnce() -> BoxFuture<'static, Result<T, HandlerError>>,
) -> Invoked<T> {
    // The waits for a slot and the timer are boxed: most items have neither, and every future
    // this one is part of (up to the connection's) would otherwise carry their space.
    let _slot = match limits.concurrency {
        Some(sem) => Box::pin(sem.acquire()).await.ok(),
        None => None,
    };
    let run = UntilInput::new(CatchUnwind(start()), round);
    let outcome = match limits.timeout_ms {
        Some(ms) => match Box::pin(tokio::time::timeout(Duration::from_millis(ms), run)).await {
            Ok(o) => o,
            Err(_) => return Invoked::TimedOut(ms),
        },
        None => run.await,
    };
    match outcome {
        Outcome::NeedsInput => Invoked::NeedsInput,
        Outcome::Done(Ok(r)) => Invoked::Done(r),
        Outcome::Done(Err(panic)) => Invoked::Done(Err(HandlerError::internal(panic))),
    }
}

thread_local! {
    /// Time spent polling handler futures on this thread, while [`handler_poll_time`] watches.
    static POLL_CLOCK: Cell<Option<Duration>> = const { Cell::new(None) };
    static WATCHING: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` (which polls request futures in place) and returns how long the handlers it polled
/// took: the polls of the items' own futures (the generated function: argument deserialisation
/// and the user's code, panics included), not the envelope, routing, params or the reply around
/// them. `None` when `f` polled no handler at all (it waited for a slot, say).
pub(crate) fn handler_poll_time<R>(f: impl FnOnce() -> R) -> (R, Option<Duration>) {
    let outer = WATCHING.replace(true);
    let before = POLL_CLOCK.take();
    let r = f();
    let took = POLL_CLOCK.replace(before);
    WATCHING.set(outer);
    (r, took)
}

/// Polls a future, turning a panic into an error with the panic's message.
pub(crate) struct CatchUnwind<F>(pub(crate) F);

impl<F: Future + Unpin> Future for CatchUnwind<F> {
    type Output = Result<F::Output, String>;
    fn poll(mut self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<Self::Output> {
        let started = WATCHING.get().then(Instant::now);
        let inner = &mut self.0;
        let polled = std::panic::catch_unwind(AssertUnwindSafe(|| Pin::new(inner).poll(cx)));
        if let Some(started) = started {
            let total = POLL_CLOCK.get().unwrap_or_default() + started.elapsed();
            POLL_CLOCK.set(Some(total));
        }
        match polled {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(v)) => Poll::Ready(Ok(v)),
            Err(payload) => {
                let msg = payload
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "panic".to_owned());
                Poll::Ready(Err(msg))
            }
        }
    }
}

/// A short id tying a masked error to the server log.
fn correlation_id() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    format!("{:08x}", (t ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15)) as u32)
}

/// Logs an internal failure of `item` in full and returns the text the client sees:
/// `internal error, id <correlation id>`.
pub(crate) fn mask(item: &str, err: &BoxError) -> String {
    let cid = correlation_id();
    tracing::error!(item, correlation_id = %cid, error = %Chain(&**err), "handler failed");
    format!("internal error, id {cid}")
}

use mcp_io::ErrorChain as Chain;

/// The JSON-RPC error of a failed resource read or prompt (tools answer with results instead);
/// `not_found` is the revision's "resource not found".
pub(crate) fn error_object(
    item: &str,
    err: HandlerError,
    not_found: impl FnOnce() -> ErrorObject,
) -> ErrorObject {
    match err {
        HandlerError::InvalidArguments(msg) => ErrorObject::invalid_params(msg),
        HandlerError::Tool(err) => ErrorObject::invalid_params(err.message()),
        HandlerError::Protocol(err) => err,
        HandlerError::ResourceNotFound => not_found(),
        HandlerError::Internal(err) => ErrorObject::internal(mask(item, &err)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn panics_become_internal_errors_and_timeouts_are_reported() {
        let panicked = invoke::<()>(Limits::default(), None, || {
            Box::pin(async { panic!("boom") })
        })
        .await;
        assert!(matches!(
            panicked,
            Invoked::Done(Err(HandlerError::Internal(e))) if e.to_string() == "boom"
        ));
        let limits = Limits {
            concurrency: None,
            timeout_ms: Some(1),
        };
        let slow = invoke::<()>(limits, None, || {
            Box::pin(async {
                tokio::time::sleep(Duration::from_secs(60)).await;
                Ok(())
            })
        })
        .await;
        assert!(matches!(slow, Invoked::TimedOut(1)));
    }

    #[test]
    fn the_clock_counts_handler_polls_only() {
        let waker = std::task::Waker::noop();
        let mut cx = TaskContext::from_waker(waker);
        let mut handler: BoxFuture<'static, Result<(), HandlerError>> = Box::pin(async {
            std::thread::sleep(Duration::from_millis(10));
            Ok(())
        });
        let ((), none) = handler_poll_time(|| std::thread::sleep(Duration::from_millis(1)));
        assert_eq!(none, None, "no handler was polled");
        let (polled, took) = handler_poll_time(|| {
            std::thread::sleep(Duration::from_millis(300));
            Pin::new(&mut CatchUnwind(&mut handler)).poll(&mut cx)
        });
        assert!(matches!(polled, Poll::Ready(Ok(Ok(())))));
        let took = took.expect("the handler was polled");
        assert!(took >= Duration::from_millis(10), "{took:?}");
        // The 300 ms spent around the handler are not counted (30 times the handler's 10 ms).
        assert!(took < Duration::from_millis(300), "{took:?}");
        // Outside a watch, nothing is measured.
        let _ = Pin::new(&mut CatchUnwind(
            Box::pin(async { Ok::<(), HandlerError>(()) })
                as BoxFuture<'static, Result<(), HandlerError>>,
        ))
        .poll(&mut cx);
        assert_eq!(POLL_CLOCK.get(), None);
    }

    #[test]
    fn the_log_shows_every_cause() {
        #[derive(Debug)]
        struct Outer(std::io::Error);
        impl std::fmt::Display for Outer {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("saving the note")
            }
        }
        impl std::error::Error for Outer {
            fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
                Some(&self.0)
            }
        }
        let err: BoxError = Box::new(Outer(std::io::Error::other("disk full")));
        assert_eq!(Chain(&*err).to_string(), "saving the note: disk full");
        let plain: BoxError = "no cause".into();
        assert_eq!(Chain(&*plain).to_string(), "no cause");
    }

    #[test]
    fn masked_errors_carry_an_id_not_the_cause() {
        let err = error_object("x", HandlerError::internal("secret"), || unreachable!());
        assert_eq!(err.code, -32603);
        assert!(err.message.starts_with("internal error, id "));
        assert!(!err.message.contains("secret"));
    }
}
