//! The transport traits: the only I/O seam of a connection.
//!
//! A transport delivers whole inbound messages and accepts whole outbound messages; framing,
//! buffering and limits are its business, protocol is not. A server serves any [`Transport`]
//! (`mcp_runtime::Server::serve`), a client connects over any
//! (`mcp_runtime_client::ClientBuilder::connect`).

use std::future::Future;
use std::io;

use crate::outbound::Outbound;

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
    /// A message that is not UTF-8 was skipped: JSON text must be UTF-8 (RFC 8259), so it is
    /// answered with -32700 and a `null` id, never read with replacement characters.
    ///
    /// ```
    /// use mcp_runtime_io::Inbound;
    ///
    /// let bytes = b"{\"id\":\"\xed\xa0\x80\"}".to_vec();
    /// assert!(matches!(Inbound::from_bytes(bytes), Inbound::InvalidUtf8 { offset: 7 }));
    /// ```
    InvalidUtf8 {
        /// Where the first byte that is not UTF-8 is.
        offset: usize,
    },
}

impl Inbound {
    /// One message from its bytes: [`Message`](Self::Message) when they are UTF-8,
    /// [`InvalidUtf8`](Self::InvalidUtf8) otherwise (nothing is substituted).
    ///
    /// ```
    /// use mcp_runtime_io::Inbound;
    ///
    /// let Inbound::Message(text) = Inbound::from_bytes(b"{}".to_vec()) else { panic!() };
    /// assert_eq!(text, "{}");
    /// ```
    pub fn from_bytes(bytes: Vec<u8>) -> Self {
        match String::from_utf8(bytes) {
            Ok(text) => Inbound::Message(text),
            Err(e) => Inbound::InvalidUtf8 {
                offset: e.utf8_error().valid_up_to(),
            },
        }
    }
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

    /// Sends every message of `queue` until the queue closes, then closes. Empty messages are
    /// control signals of other transports and are skipped.
    ///
    /// The default calls [`send`](Self::send) for each message; a transport with a writer of its
    /// own (stdio's writer thread) takes the whole queue instead, saving a hand-over per message.
    fn drain(
        mut self,
        mut queue: tokio::sync::mpsc::Receiver<Outbound>,
    ) -> impl Future<Output = ()> + Send
    where
        Self: Sized,
    {
        async move {
            while let Some(item) = queue.recv().await {
                if let Outbound::Message(msg) = item
                    && self.send(msg).await.is_err()
                {
                    break;
                }
            }
            let _ = self.close().await;
        }
    }
}

/// A bidirectional message transport, split into its two halves to be driven concurrently.
///
/// ```
/// use mcp_runtime_io::{Transport, memory};
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
