//! An in-memory transport pair: two connected ends, each a [`Transport`].

use std::io;

use tokio::sync::mpsc;

use crate::{Inbound, Inbox, Outbox, Transport};

/// One end of an in-memory connection.
#[derive(Debug)]
pub struct MemoryTransport {
    rx: mpsc::Receiver<Vec<u8>>,
    tx: mpsc::Sender<Vec<u8>>,
}

/// Two connected ends; each queue holds at most `capacity` messages.
///
/// ```
/// let (server_side, client_side) = mcp_runtime_io::memory::pair(16);
/// # let _ = (server_side, client_side);
/// ```
pub fn pair(capacity: usize) -> (MemoryTransport, MemoryTransport) {
    let (a_tx, a_rx) = mpsc::channel(capacity);
    let (b_tx, b_rx) = mpsc::channel(capacity);
    (
        MemoryTransport { rx: a_rx, tx: b_tx },
        MemoryTransport { rx: b_rx, tx: a_tx },
    )
}

/// Receiving half of a [`MemoryTransport`].
///
/// ```
/// use mcp_runtime_io::{Transport, memory};
///
/// let (one, _other) = memory::pair(1);
/// let (_rx, _tx): (memory::MemoryRx, memory::MemoryTx) = one.split();
/// ```
#[derive(Debug)]
pub struct MemoryRx(mpsc::Receiver<Vec<u8>>);

/// Sending half of a [`MemoryTransport`]; once [closed](Outbox::close) it refuses to send.
///
/// ```
/// use mcp_runtime_io::{Outbox, Transport, memory};
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let (one, _other) = memory::pair(1);
/// let (_rx, mut tx) = one.split();
/// tx.close().await.unwrap();
/// assert!(tx.send(b"{}".to_vec()).await.is_err());
/// # });
/// ```
#[derive(Debug)]
pub struct MemoryTx(Option<mpsc::Sender<Vec<u8>>>);

impl Transport for MemoryTransport {
    type Rx = MemoryRx;
    type Tx = MemoryTx;
    fn split(self) -> (MemoryRx, MemoryTx) {
        (MemoryRx(self.rx), MemoryTx(Some(self.tx)))
    }
}

impl Inbox for MemoryRx {
    async fn receive(&mut self) -> Option<io::Result<Inbound>> {
        let bytes = self.0.recv().await?;
        Some(Ok(Inbound::from_bytes(bytes)))
    }
}

impl Outbox for MemoryTx {
    async fn send(&mut self, message: Vec<u8>) -> io::Result<()> {
        match &self.0 {
            Some(tx) => tx
                .send(message)
                .await
                .map_err(|_| io::ErrorKind::BrokenPipe.into()),
            None => Err(io::ErrorKind::BrokenPipe.into()),
        }
    }
    async fn close(&mut self) -> io::Result<()> {
        self.0 = None;
        Ok(())
    }
}
