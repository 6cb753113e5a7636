//! Driving a transport with the dispatcher.

use std::sync::Arc;

use tokio::sync::mpsc;

use crate::connection::Connection;
use crate::error::Error;
use crate::outbound::Outbound;
use crate::server::Server;
use crate::transport::memory::{self, TestClient};
use crate::transport::stdio;
use crate::transport::{Inbound, Inbox, Outbox, Transport};

impl Server {
    /// Serves one connection over `transport` until the peer closes it; requests still running
    /// then get up to ten seconds to finish and send their replies.
    pub async fn serve<T: Transport>(&self, transport: T) -> Result<(), Error> {
        let (mut rx, tx) = transport.split();
        let (out_tx, out_rx) = mpsc::channel::<Outbound>(self.inner.options.outbound_queue);
        let writer = tokio::spawn(tx.drain(out_rx));
        let conn = Connection::new(Arc::clone(&self.inner), out_tx);
        let mut result = Ok(());
        while let Some(inbound) = rx.receive().await {
            match inbound {
                Ok(Inbound::Message(text)) => conn.handle_text(&text).await,
                Ok(Inbound::TooLarge { limit }) => conn.reject_oversized(limit).await,
                Ok(Inbound::InvalidUtf8 { offset }) => conn.reject_invalid_utf8(offset).await,
                Err(e) => {
                    result = Err(Error::Io(e));
                    break;
                }
            }
        }
        conn.drain().await;
        drop(conn);
        let _ = writer.await;
        result
    }

    /// Serves stdio until stdin closes; requests still running then get up to ten seconds to
    /// finish and send their replies.
    ///
    /// The stdin thread runs the dispatcher itself: a request whose handler finishes at once is
    /// read, answered and queued for the stdout thread without waking a runtime thread; handlers
    /// that wait continue as tasks on the runtime. ([`serve`](Self::serve) with
    /// [`Stdio`](crate::transport::stdio::Stdio) is the same protocol
    /// through the general transport loop.)
    pub async fn serve_stdio(&self) -> Result<(), Error> {
        let max = self.inner.options.max_message_bytes;
        let (out_tx, out_rx) = mpsc::channel::<Outbound>(self.inner.options.outbound_queue);
        let writer = tokio::task::spawn_blocking(move || stdio::write_loop(out_rx));
        let conn = Connection::new(Arc::clone(&self.inner), out_tx);
        let reader_conn = Arc::clone(&conn);
        let runtime = tokio::runtime::Handle::current();
        let (done_tx, done_rx) = tokio::sync::oneshot::channel::<std::io::Result<()>>();
        std::thread::Builder::new()
            .name("mcp-stdin".into())
            .spawn(move || {
                let mut failure = Ok(());
                stdio::read_batches(std::io::stdin().lock(), max, |batch| {
                    for item in batch {
                        match item {
                            Ok(Inbound::Message(text)) => {
                                runtime.block_on(reader_conn.handle_text(&text));
                            }
                            Ok(Inbound::TooLarge { limit }) => {
                                runtime.block_on(reader_conn.reject_oversized(limit));
                            }
                            Ok(Inbound::InvalidUtf8 { offset }) => {
                                runtime.block_on(reader_conn.reject_invalid_utf8(offset));
                            }
                            Err(e) => {
                                failure = Err(e);
                                return false;
                            }
                        }
                    }
                    true
                });
                drop(reader_conn);
                let _ = done_tx.send(failure);
            })?;
        let result = done_rx.await.unwrap_or(Ok(()));
        conn.drain().await;
        drop(conn);
        let _ = writer.await;
        result.map_err(Error::Io)
    }

    /// Serves this server on an in-memory pair in a background task and returns a client for it.
    ///
    /// Needs a Tokio runtime.
    pub fn connect_in_memory(&self) -> TestClient {
        let (server_end, client_end) = memory::pair(64);
        let server = self.clone();
        tokio::spawn(async move {
            let _ = server.serve(server_end).await;
        });
        TestClient::new(client_end)
    }
}
