//! Driving a transport with the dispatcher.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio::sync::mpsc;

use crate::connection::{Connection, erased};
use crate::error::Error;
use crate::middleware::TransportKind;
use crate::outbound::Outbound;
use crate::server::{Server, ServerBuilder};
use crate::transport::memory::{self, TestClient};
use crate::transport::stdio;
use crate::transport::{Inbound, Inbox, Outbox, Transport};

impl Server {
    /// Serves one connection over `transport` until the peer closes it or the server is asked to
    /// shut down ([`ShutdownHandle`](crate::ShutdownHandle)); requests still running then get up
    /// to the [drain timeout](crate::ServerBuilder::drain_timeout) to finish and send their
    /// replies.
    pub async fn serve<T: Transport>(&self, transport: T) -> Result<(), Error> {
        self.serve_as(transport, TransportKind::Custom).await
    }

    /// [`serve`](Self::serve), telling the layers which transport this is.
    async fn serve_as<T: Transport>(&self, transport: T, kind: TransportKind) -> Result<(), Error> {
        let (mut rx, tx) = transport.split();
        let (out_tx, out_rx) = mpsc::channel::<Outbound>(self.inner.options.outbound_queue);
        let writer = crate::background::spawn(tx.drain(out_rx));
        let conn = Connection::new(Arc::clone(&self.inner), out_tx, kind);
        let shutdown = self.inner.shutdown.clone();
        let mut result = Ok(());
        loop {
            let inbound = tokio::select! {
                biased;
                () = shutdown.cancelled() => {
                    conn.close_gracefully();
                    break;
                }
                inbound = rx.receive() => inbound,
            };
            let Some(inbound) = inbound else { break };
            match inbound {
                Ok(Inbound::Message(text)) => conn.handle_text_boxed(&text).await,
                Ok(Inbound::TooLarge { limit }) => conn.reject_oversized(limit).await,
                Ok(Inbound::InvalidUtf8 { offset }) => conn.reject_invalid_utf8(offset).await,
                // A kind of inbound item this server does not know (`Inbound` may grow).
                Ok(_) => {}
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

    /// Serves stdio until stdin closes, or until the server is asked to shut down (a
    /// [`ShutdownHandle`](crate::ShutdownHandle), SIGTERM or SIGINT): reading stops, and requests
    /// still running get up to the [drain timeout](crate::ServerBuilder::drain_timeout) to finish
    /// and send their replies.
    ///
    /// The stdin thread runs the dispatcher itself: a request whose handler finishes at once is
    /// read and answered without waking another thread, and the answers of everything read at
    /// once go out in one write from that thread (after any notification queued before them);
    /// handlers that wait continue as tasks on the runtime, and a writer thread writes their
    /// replies and notifications. ([`serve`](Self::serve) with
    /// [`Stdio`](crate::transport::stdio::Stdio) is the same protocol
    /// through the general transport loop.)
    ///
    /// The future is boxed here, in the runtime: a server's crate polls one `Box<dyn Future>`
    /// instead of compiling this state machine, everything it awaits and their drop glue again
    /// on every build (BENCHMARKS.md, "Fourth round: build time").
    pub fn serve_stdio(&self) -> impl Future<Output = Result<(), Error>> + Send + '_ {
        let serving: crate::server::Serving<'_> = Box::pin(async move {
            let _signals = self.inner.listen_for_signals();
            let shutdown = self.inner.shutdown.clone();
            self.serve_stdio_until(async move { shutdown.cancelled().await })
                .await
        });
        serving
    }

    /// [`serve_stdio`](Self::serve_stdio) until stdin closes or `stop` resolves.
    pub(crate) async fn serve_stdio_until(
        &self,
        stop: impl Future<Output = ()>,
    ) -> Result<(), Error> {
        let max = self.inner.options.max_message_bytes;
        let (out_tx, out_rx) = mpsc::channel::<Outbound>(self.inner.options.outbound_queue);
        let stdout = Arc::new(stdio::SharedOut::new(out_rx, std::io::stdout()));
        // The writer thread starts with the first message a task queues (a reply that waited,
        // a notification): a server whose handlers answer at once never needs it.
        let writer_out = Arc::clone(&stdout);
        let writer = crate::background::spawn(async move {
            if std::future::poll_fn(|cx| writer_out.poll_first(cx)).await {
                let _ = crate::background::spawn_blocking(move || writer_out.write_loop()).await;
            }
        });
        let conn = Connection::new(Arc::clone(&self.inner), out_tx, TransportKind::Stdio);
        // The stdin thread may stay blocked in a read after serving ends: it holds the
        // connection weakly, so the writer still sees the outbound queue close.
        let reader = Arc::downgrade(&conn);
        let stopped = Arc::new(AtomicBool::new(false));
        let reader_stopped = Arc::clone(&stopped);
        let runtime = tokio::runtime::Handle::current();
        let (done_tx, done_rx) = tokio::sync::oneshot::channel::<std::io::Result<()>>();
        std::thread::Builder::new()
            .name("mcp-stdin".into())
            .spawn(move || {
                let mut failure = Ok(());
                let mut answers = Vec::new();
                stdio::read_batches(std::io::stdin().lock(), max, |batch| {
                    let Some(reader_conn) = reader
                        .upgrade()
                        .filter(|_| !reader_stopped.load(Ordering::Acquire))
                    else {
                        return false;
                    };
                    let answered =
                        erased::answer_batch_boxed(&reader_conn, batch, &stdout, &mut answers);
                    match runtime.block_on(answered) {
                        Ok(()) => true,
                        Err(e) => {
                            failure = Err(e);
                            false
                        }
                    }
                });
                let _ = done_tx.send(failure);
            })?;
        let result = tokio::select! {
            result = done_rx => result.unwrap_or(Ok(())),
            () = stop => {
                stopped.store(true, Ordering::Release);
                conn.close_gracefully();
                Ok(())
            }
        };
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
        crate::background::spawn(async move {
            let _ = server.serve_as(server_end, TransportKind::Memory).await;
        });
        TestClient::new(client_end)
    }

    /// Connects a client (feature `client`) built by `builder` to this server, over an
    /// in-memory pair: the server serves it in a task of its own, stopped when the client closes
    /// (or is dropped).
    ///
    /// ```standalone_crate
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use mcp_runtime::client::Client;
    /// use mcp_runtime::prelude::*;
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// async fn add(a: i64, b: i64) -> String {
    ///     (a + b).to_string()
    /// }
    ///
    /// let server = Server::builder(server_info!()).tool(add::TOOL).build().unwrap();
    /// let client = server.connect_client(Client::builder()).await.unwrap();
    /// let tools = client.list_tools().await.unwrap();
    /// assert_eq!(tools[0].name, "add");
    /// let result = client.call_tool("add", serde_json::json!({"a": 2, "b": 3})).await.unwrap();
    /// assert_eq!(result.content[0].as_text(), Some("5"));
    /// # });
    /// ```
    #[cfg(feature = "client")]
    #[cfg_attr(docsrs, doc(cfg(feature = "client")))]
    pub async fn connect_client(
        &self,
        builder: mcp_client::ClientBuilder,
    ) -> Result<mcp_client::Client, mcp_client::ClientError> {
        let (server_end, client_end) = memory::pair(64);
        let server = self.clone();
        let task = tokio::spawn(async move {
            let _ = server.serve_as(server_end, TransportKind::Memory).await;
        });
        builder
            .connect(in_memory::ClientEnd::new(client_end, task.abort_handle()))
            .await
    }
}

/// The client's end of [`Server::connect_client`]: the server's task is aborted when the
/// client's writer goes (the client closed, or is gone).
#[cfg(feature = "client")]
mod in_memory {
    use std::io;

    use tokio::task::AbortHandle;

    use crate::transport::memory::{MemoryRx, MemoryTransport, MemoryTx};
    use crate::transport::{Outbox, Transport};

    pub(super) struct ClientEnd {
        end: MemoryTransport,
        server: AbortHandle,
    }

    impl ClientEnd {
        pub(super) fn new(end: MemoryTransport, server: AbortHandle) -> Self {
            Self { end, server }
        }
    }

    impl Transport for ClientEnd {
        type Rx = MemoryRx;
        type Tx = Writer;
        fn split(self) -> (MemoryRx, Writer) {
            let (rx, tx) = self.end.split();
            (
                rx,
                Writer {
                    tx,
                    server: self.server,
                },
            )
        }
    }

    /// The client's writer; dropping it stops the server's task.
    pub(super) struct Writer {
        tx: MemoryTx,
        server: AbortHandle,
    }

    impl Drop for Writer {
        fn drop(&mut self) {
            self.server.abort();
        }
    }

    impl Outbox for Writer {
        async fn send(&mut self, message: Vec<u8>) -> io::Result<()> {
            self.tx.send(message).await
        }

        async fn close(&mut self) -> io::Result<()> {
            self.tx.close().await
        }
    }
}

impl ServerBuilder {
    /// Builds the server and serves it over stdio until stdin closes (see
    /// [`Server::serve_stdio`]).
    ///
    /// The future is boxed here, in the runtime: a server's crate polls one `Box<dyn Future>`
    /// instead of compiling this state machine, everything it awaits and their drop glue again
    /// on every build (BENCHMARKS.md, "Fourth round: build time").
    pub fn serve_stdio(self) -> impl Future<Output = Result<(), Error>> + Send {
        let serving: crate::server::Serving<'static> =
            Box::pin(async move { self.build()?.serve_stdio().await });
        serving
    }
}
