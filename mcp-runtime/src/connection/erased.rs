//! Where a transport enters a connection: the connection's futures, boxed in one place.
//!
//! rustc compiles the state machine of an `async fn` (and of an `async` block) into every code
//! unit that polls it, as it does an `#[inline]` function, and with it the state machines it
//! awaits and the drop glue of each. A connection's `route`, the handler methods and their
//! futures were compiled once per code unit that awaited them: five times over in a server
//! binary, about 150 KB of code (BENCHMARKS.md, "Fifth round: the size of the code"). Every
//! transport now starts a connection's work through the functions below, which make the boxed
//! future where they are defined (none is inlined into its caller): the state machines under
//! them are compiled once, in this module, and a transport polls a `Box<dyn Future>`.
//!
//! They box what the transports boxed already (the stdio batch, the HTTP dispatch, a handler
//! moving to a task of its own); the general transport loop ([`Server::serve`]) and HTTP's
//! batch POSTs, which awaited the connection directly, now box each message they hand over.
//!
//! [`Server::serve`]: crate::Server::serve

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_core::RequestId;
use serde_json::value::RawValue;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

#[cfg(feature = "http")]
use mcp_core::{RequestMeta, jsonrpc::Message};

use super::{Connection, Work};
#[cfg(feature = "http")]
use crate::dispatch::reply::{Answer, Reply};
use crate::dispatch::route::Route;
use crate::dispatch::scope::Scoping;
#[cfg(feature = "http")]
use crate::dispatch::scope::{RequestHeaders, Retry};
use crate::future::BoxFuture;
use crate::handler::context::Cancellation;
#[cfg(feature = "http")]
use crate::outbound::Sink;
use crate::transport::{Inbound, stdio};

/// The most answers held back for one write, in bytes and in time since the first of them.
const HOLD_BYTES: usize = 64 * 1024;
const HOLD_TIME: Duration = Duration::from_millis(1);

impl Connection {
    /// [`dispatch`](Connection::dispatch), boxed.
    #[cfg(feature = "http")]
    #[inline(never)]
    pub(crate) fn dispatch_boxed<'a>(
        self: &'a Arc<Self>,
        msg: Message<'a>,
        meta: Option<Box<RequestMeta>>,
        retry: Retry,
        headers: RequestHeaders,
        sink: &'a Sink,
    ) -> BoxFuture<'a, Option<Reply>> {
        Box::pin(self.dispatch(msg, meta, retry, headers, sink))
    }

    /// [`receive`](Connection::receive), boxed.
    #[cfg(feature = "http")]
    #[inline(never)]
    pub(crate) fn receive_boxed<'a>(
        self: &'a Arc<Self>,
        text: &'a str,
        sink: &'a Sink,
    ) -> BoxFuture<'a, Option<Answer>> {
        Box::pin(self.receive(text, sink))
    }

    /// [`handle_text`](Connection::handle_text), boxed.
    #[inline(never)]
    pub(crate) fn handle_text_boxed<'a>(self: &'a Arc<Self>, text: &'a str) -> BoxFuture<'a, ()> {
        Box::pin(self.handle_text(text))
    }

    /// A handler method's run in a task of its own (or polled once in place first): waits for
    /// a running slot unless it has one, then runs the handler to its reply.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    pub(super) fn work(
        self: Arc<Self>,
        slot: Option<OwnedSemaphorePermit>,
        slots: Arc<Semaphore>,
        route: Route,
        id: RequestId,
        params: Option<Box<RawValue>>,
        scope: Scoping,
        cancel: Cancellation,
    ) -> Work {
        Box::pin(async move {
            let _slot = match slot {
                Some(slot) => slot,
                None => slots.acquire_owned().await.ok()?,
            };
            self.run_handler(route, id, params, scope, cancel).await
        })
    }
}

/// Handles the messages of one stdin batch in order, boxed (see [`answer_batch`]).
#[inline(never)]
pub(crate) fn answer_batch_boxed<'a>(
    conn: &'a Arc<Connection>,
    batch: stdio::Batch,
    stdout: &'a stdio::SharedOut<std::io::Stdout>,
    answers: &'a mut Vec<u8>,
) -> Pin<Box<dyn Future<Output = std::io::Result<()>> + 'a>> {
    Box::pin(answer_batch(conn, batch, stdout, answers))
}

/// Handles the messages of one stdin batch in order. What answers them at once is collected and
/// written by this (the stdin) thread, after whatever is queued, in one `write`: a burst of
/// pipelined requests costs one write and no hand-over to another thread. The replies of
/// handlers that wait, and every notification, are queued for the writer thread as they come.
/// Answers are held back at most [`HOLD_BYTES`] and [`HOLD_TIME`] (a handler that is slow in its
/// first poll does not delay the replies before it for long). An I/O error ends the batch after
/// what was read before it.
async fn answer_batch(
    conn: &Arc<Connection>,
    batch: stdio::Batch,
    stdout: &stdio::SharedOut<std::io::Stdout>,
    answers: &mut Vec<u8>,
) -> std::io::Result<()> {
    let mut since: Option<Instant> = None;
    let mut result = Ok(());
    for item in batch {
        match item {
            Ok(Inbound::Message(text)) => conn.answer_into(&text, answers).await,
            Ok(Inbound::TooLarge { limit }) => conn.oversized_into(limit, answers),
            Ok(Inbound::InvalidUtf8 { offset }) => conn.invalid_utf8_into(offset, answers),
            // stdio's reader makes none of the other kinds (`Inbound` may grow).
            Ok(_) => {}
            Err(e) => {
                result = Err(e);
                break;
            }
        }
        if answers.is_empty() {
            continue;
        }
        let first = *since.get_or_insert_with(Instant::now);
        if answers.len() >= HOLD_BYTES || first.elapsed() >= HOLD_TIME {
            stdout.write_after_queued(answers);
            answers.clear();
            since = None;
        }
    }
    stdout.write_after_queued(answers);
    answers.clear();
    result
}
