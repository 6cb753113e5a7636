//! The client's side of a connection: what it sends, what comes back, and the link over any
//! message [`Transport`] (in-memory pair, a spawned process's pipes, a user transport).

use mcp_core::jsonrpc::RequestId;
use mcp_io::{Inbound, Inbox, Outbox, Transport, lock};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::http::HttpLink;
use crate::outgoing::{Incoming, Outgoing};

use crate::error::TransportError;

/// How many outbound messages wait for a transport's writer at most.
const OUTBOUND_QUEUE: usize = 256;

/// The way messages reach the server.
#[derive(Debug)]
pub(crate) enum Link {
    /// A message transport: one writer task, one reader task.
    Messages(MessageLink),
    /// Streamable HTTP.
    Http(HttpLink),
}

impl Link {
    /// Sends one message; for HTTP the answer arrives through the inbound queue.
    pub(crate) async fn send(&self, out: Outgoing) -> Result<(), TransportError> {
        match self {
            Link::Messages(m) => {
                m.tx.send(out.bytes)
                    .await
                    .map_err(|_| TransportError::new("the connection is closed"))
            }
            Link::Http(h) => {
                h.send(out);
                Ok(())
            }
        }
    }

    /// Stops waiting for the answer to `id` (an HTTP link drops its POST).
    pub(crate) fn abandon(&self, id: &RequestId) {
        if let Link::Http(h) = self {
            h.abandon(id);
        }
    }

    /// Closes the connection (an HTTP session is ended with `DELETE`).
    pub(crate) async fn close(&self) {
        match self {
            Link::Messages(m) => m.close().await,
            Link::Http(h) => h.close().await,
        }
    }
}

/// A link over any [`Transport`].
pub(crate) struct MessageLink {
    tx: mpsc::Sender<Vec<u8>>,
    tasks: std::sync::Mutex<Vec<JoinHandle<()>>>,
    on_close: std::sync::Mutex<Option<Box<dyn FnOnce() + Send>>>,
}

impl std::fmt::Debug for MessageLink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MessageLink").finish_non_exhaustive()
    }
}

impl MessageLink {
    /// Starts the writer and reader tasks of `transport`; a message over `max_message` bytes
    /// (or one the transport skipped as too large) ends the connection.
    pub(crate) fn start<T: Transport>(
        transport: T,
        inbound: mpsc::Sender<Incoming>,
        max_message: usize,
    ) -> Self {
        let (mut rx, mut tx) = transport.split();
        let (out_tx, mut out_rx) = mpsc::channel::<Vec<u8>>(OUTBOUND_QUEUE);
        let writer = tokio::spawn(async move {
            while let Some(bytes) = out_rx.recv().await {
                if tx.send(bytes).await.is_err() {
                    break;
                }
            }
            let _ = tx.close().await;
        });
        let reader = tokio::spawn(async move {
            let why = loop {
                match rx.receive().await {
                    None => break TransportError::new("the server closed the connection"),
                    Some(Err(e)) => break TransportError::with_source("read failed", e),
                    Some(Ok(Inbound::Message(text))) if text.len() > max_message => {
                        let _ = inbound.send(Incoming::TooLarge(max_message)).await;
                        return;
                    }
                    Some(Ok(Inbound::Message(text))) => {
                        if inbound.send(Incoming::Message(text)).await.is_err() {
                            return;
                        }
                    }
                    Some(Ok(Inbound::TooLarge { limit })) => {
                        let _ = inbound.send(Incoming::TooLarge(limit)).await;
                        return;
                    }
                    Some(Ok(Inbound::InvalidUtf8 { offset })) => {
                        tracing::warn!(offset, "mcp client: skipped a message that is not UTF-8");
                    }
                    // A kind of inbound item this client does not know: nothing to deliver.
                    Some(Ok(_)) => {}
                }
            };
            let _ = inbound.send(Incoming::Closed(why)).await;
        });
        Self {
            tx: out_tx,
            tasks: std::sync::Mutex::new(vec![writer, reader]),
            on_close: std::sync::Mutex::new(None),
        }
    }

    /// Runs `f` once when the link closes (a child process is reaped there).
    pub(crate) fn on_close(&self, f: impl FnOnce() + Send + 'static) {
        *lock(&self.on_close) = Some(Box::new(f));
    }

    async fn close(&self) {
        let tasks = std::mem::take(&mut *lock(&self.tasks));
        // The writer ends when every sender is gone; the reader is stopped here.
        for task in tasks {
            task.abort();
        }
        let f = lock(&self.on_close).take();
        if let Some(f) = f {
            f();
        }
    }
}
