//! Transports: the only I/O seam.
//!
//! A transport delivers whole inbound messages and accepts whole outbound messages; framing,
//! buffering and limits are its business, protocol is not. [`stdio`] and [`memory`] are built
//! in; anything that can move JSON texts (a socket, a pipe, a WebSocket) can implement
//! [`Transport`] and be served with [`Server::serve`](crate::Server::serve).

pub mod memory;
pub mod stdio;

use std::future::Future;
use std::io;

/// What a transport receives.
#[derive(Debug)]
#[non_exhaustive]
pub enum Inbound {
    /// One JSON text.
    Message(String),
    /// A message longer than the limit was skipped.
    TooLarge {
        /// The limit, in bytes.
        limit: usize,
    },
}

/// The receiving half of a transport.
pub trait Inbox: Send + 'static {
    /// The next inbound message; `None` when the peer closed the connection.
    fn receive(&mut self) -> impl Future<Output = Option<io::Result<Inbound>>> + Send;
}

/// The sending half of a transport.
pub trait Outbox: Send + 'static {
    /// Sends one whole message (without framing; the transport adds it).
    fn send(&mut self, message: Vec<u8>) -> impl Future<Output = io::Result<()>> + Send;
    /// Flushes and closes the sending side.
    fn close(&mut self) -> impl Future<Output = io::Result<()>> + Send;
}

/// A bidirectional message transport, split into its two halves to be driven concurrently.
///
/// ```
/// use mcp_runtime::transport::{Transport, memory};
///
/// let (server_side, _client_side) = memory::pair(16);
/// let (_rx, _tx) = server_side.split();
/// ```
pub trait Transport: Send + 'static {
    /// The receiving half.
    type Rx: Inbox;
    /// The sending half.
    type Tx: Outbox;
    /// Splits the transport.
    fn split(self) -> (Self::Rx, Self::Tx);
}
