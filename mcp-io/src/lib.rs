//! The I/O pieces that [`mcp-runtime`](https://docs.rs/mcp-runtime)'s server and its client
//! ([`mcp-runtime-client`](https://docs.rs/mcp-runtime-client)) share, and nothing that
//! dispatches the protocol: the [`Transport`] traits every connection runs over, the in-memory
//! pair ([`memory`]), the raw message log's `tracing` target ([`WIRE_TARGET`]), randomness from
//! the operating system, one boxed-future type ([`BoxFuture`]), one lock helper, and, with the
//! `fetch` feature, the bounded HTTP fetcher of authorization server metadata that the resource
//! server's token verifiers and the client's OAuth both use.
//!
//! This is an implementation crate: `mcp-runtime` re-exports its public API
//! (`mcp_runtime::transport::{Transport, Inbox, Outbox, Inbound, Outbound, WIRE_TARGET,
//! memory}`), and that is the path to use. Items marked `#[doc(hidden)]` are shared between the
//! workspace's crates only and may change in any release.
//!
//! ```
//! use mcp_runtime_io::{Inbox, Inbound, Outbox, Transport, memory};
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let (a, b) = memory::pair(4);
//! let (_a_rx, mut a_tx) = a.split();
//! let (mut b_rx, _b_tx) = b.split();
//! a_tx.send(b"{}".to_vec()).await.unwrap();
//! let Some(Ok(Inbound::Message(text))) = b_rx.receive().await else { panic!() };
//! assert_eq!(text, "{}");
//! # });
//! ```
//!
//! # Cargo features
//!
//! - `fetch`: the HTTP fetcher of authorization server metadata (`reqwest`), for the resource
//!   server's authorization and the client's OAuth.
//! - `test-hooks`: lets the workspace's tests make the random source fail; never needed by a
//!   build.

#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "fetch")]
#[cfg_attr(docsrs, doc(cfg(feature = "fetch")))]
pub mod fetch;
pub mod memory;
mod outbound;
#[doc(hidden)]
pub mod random;
mod transport;

use std::future::Future;
use std::pin::Pin;
use std::sync::{Mutex, MutexGuard};

pub use outbound::{Outbound, WIRE_TARGET};
#[doc(hidden)]
pub use outbound::{log_in, log_out, log_started, raw_log_enabled};
pub use transport::{Inbound, Inbox, Outbox, Transport};

/// An error and its causes, outermost first, as `outer: cause: root` (what `anyhow`'s `{:#}`
/// shows): the one way the workspace writes a whole error chain into a log line or a message.
/// At most 32 causes are written, so a cyclic or absurdly deep chain still ends.
///
/// ```
/// use mcp_runtime_io::ErrorChain;
///
/// #[derive(Debug)]
/// struct Saving(std::io::Error);
/// impl std::fmt::Display for Saving {
///     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
///         f.write_str("saving the note")
///     }
/// }
/// impl std::error::Error for Saving {
///     fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
///         Some(&self.0)
///     }
/// }
///
/// let err = Saving(std::io::Error::other("disk full"));
/// assert_eq!(ErrorChain(&err).to_string(), "saving the note: disk full");
/// ```
#[derive(Debug, Clone, Copy)]
pub struct ErrorChain<'a>(pub &'a (dyn std::error::Error + 'static));

impl std::fmt::Display for ErrorChain<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)?;
        let mut source = self.0.source();
        for _ in 0..32 {
            let Some(cause) = source else { break };
            write!(f, ": {cause}")?;
            source = cause.source();
        }
        Ok(())
    }
}

/// A boxed future that can be sent between threads: what the workspace's object-safe traits
/// return (a `ClientHandler`'s answers, an OAuth `RedirectHandler`'s redirect, a call's
/// `IntoFuture`).
///
/// ```
/// use mcp_runtime_io::BoxFuture;
///
/// fn answer<'a>(question: &'a str) -> BoxFuture<'a, usize> {
///     Box::pin(async move { question.len() })
/// }
/// # let _ = answer;
/// ```
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Locks `mutex`, the one way the workspace's crates lock a [`std::sync::Mutex`].
///
/// The poison policy: a mutex poisoned by a thread that panicked while holding it is used as it
/// is (the inner value is taken). Every value these locks guard is kept consistent between
/// statements (a table, a slot, a counter), so the panic of one request must not take every
/// later request down with it.
///
/// ```
/// use std::sync::Mutex;
///
/// let count = Mutex::new(1);
/// *mcp_runtime_io::lock(&count) += 1;
/// assert_eq!(*mcp_runtime_io::lock(&count), 2);
/// ```
#[doc(hidden)]
pub fn lock<T: ?Sized>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Reads `lock`, with [`lock`]'s poison policy.
///
/// ```
/// let table = std::sync::RwLock::new(vec![1]);
/// assert_eq!(mcp_runtime_io::read(&table)[0], 1);
/// ```
#[doc(hidden)]
pub fn read<T: ?Sized>(lock: &std::sync::RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    lock.read()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Writes `lock`, with [`lock`]'s poison policy.
///
/// ```
/// let table = std::sync::RwLock::new(vec![1]);
/// mcp_runtime_io::write(&table).push(2);
/// assert_eq!(mcp_runtime_io::read(&table).len(), 2);
/// ```
#[doc(hidden)]
pub fn write<T: ?Sized>(lock: &std::sync::RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    lock.write()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    #[test]
    fn a_poisoned_lock_gives_the_inner_value() {
        let m = Arc::new(Mutex::new(7));
        let held = Arc::clone(&m);
        let panicked = std::thread::spawn(move || {
            let _guard = held.lock().unwrap();
            panic!("poison it");
        })
        .join();
        assert!(panicked.is_err());
        assert!(m.is_poisoned());
        assert_eq!(*super::lock(&m), 7);
    }
}
