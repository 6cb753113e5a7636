//! Driving a transport with the dispatcher.

use tokio::sync::mpsc;

use crate::dispatch::Connection;
use crate::error::Error;
use crate::server::Server;
use crate::transport::memory::{self, TestClient};
use crate::transport::stdio::Stdio;
use crate::transport::{Inbound, Inbox, Outbox, Transport};

impl Server {
    /// Serves one connection over `transport` until the peer closes it; requests still running
    /// then get up to ten seconds to finish and send their replies.
    pub async fn serve<T: Transport>(&self, transport: T) -> Result<(), Error> {
        let (mut rx, tx) = transport.split();
        let (out_tx, out_rx) = mpsc::channel::<Vec<u8>>(self.inner.options.outbound_queue);
        let writer = tokio::spawn(tx.drain(out_rx));
        let conn = Connection::new(self.clone(), out_tx);
        let mut result = Ok(());
        while let Some(inbound) = rx.receive().await {
            match inbound {
                Ok(Inbound::Message(text)) => conn.handle_text(&text).await,
                Ok(Inbound::TooLarge { limit }) => conn.reject_oversized(limit).await,
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

    /// Serves stdio until stdin closes.
    pub async fn serve_stdio(&self) -> Result<(), Error> {
        crate::cli::init_tracing();
        self.serve(Stdio::new(self.inner.options.max_message_bytes))
            .await
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
