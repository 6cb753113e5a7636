//! Graceful shutdown: one signal per server, given by a [`ShutdownHandle`] or by SIGTERM/SIGINT.

use std::future::Future;

use tokio::task::AbortHandle;

use crate::handler::context::Cancellation;
use crate::server::{Server, ServerInner};

/// Asks a running server to stop gracefully.
///
/// Every transport of the server then stops taking new work: stdio stops reading, HTTP answers
/// new MCP requests with 503 (`/readyz` turns 503 too) and closes idle connections. Requests
/// already running get up to the [drain timeout](crate::ServerBuilder::drain_timeout) to finish;
/// their replies are delivered, SSE streams that only wait for server messages end cleanly, and
/// the serve functions return `Ok(())`. Whatever still runs at the deadline is cancelled.
///
/// The serve functions also shut down on SIGTERM and SIGINT (Ctrl-C) unless
/// [`ServerBuilder::shutdown_on_signals`](crate::ServerBuilder::shutdown_on_signals) is off.
///
/// ```
/// use mcp_runtime::prelude::*;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let server = Server::builder(server_info!()).build()?;
/// let handle = server.shutdown_handle();
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
/// let serving = tokio::spawn(async move { server.serve_http_on(listener).await });
/// handle.shutdown();
/// assert!(handle.is_shutting_down());
/// serving.await??; // returns once in-flight requests are done
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct ShutdownHandle {
    token: Cancellation,
}

impl std::fmt::Debug for ShutdownHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ShutdownHandle")
            .field("shutting_down", &self.is_shutting_down())
            .finish()
    }
}

impl ShutdownHandle {
    /// Starts the graceful shutdown (idempotent). It cannot be undone: build a new server to
    /// serve again.
    ///
    /// ```
    /// # use mcp_runtime::prelude::*;
    /// let handle = Server::builder(server_info!()).build().unwrap().shutdown_handle();
    /// handle.shutdown();
    /// handle.shutdown();
    /// assert!(handle.is_shutting_down());
    /// ```
    pub fn shutdown(&self) {
        self.token.cancel();
    }

    /// Whether shutdown was asked for (by this handle, another one, or a signal).
    ///
    /// ```
    /// # use mcp_runtime::prelude::*;
    /// let handle = Server::builder(server_info!()).build().unwrap().shutdown_handle();
    /// assert!(!handle.is_shutting_down());
    /// ```
    pub fn is_shutting_down(&self) -> bool {
        self.token.is_cancelled()
    }

    /// Resolves once shutdown was asked for: to stop your own tasks along with the server, or
    /// to end an `axum::serve(...).with_graceful_shutdown(...)` that mounts [`Server::router`].
    ///
    /// ```
    /// # use mcp_runtime::prelude::*;
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let handle = Server::builder(server_info!()).build().unwrap().shutdown_handle();
    /// let waiter = handle.clone();
    /// handle.shutdown();
    /// waiter.wait().await;
    /// # }
    /// ```
    pub fn wait(&self) -> impl Future<Output = ()> + Send + 'static {
        let token = self.token.clone();
        async move { token.cancelled().await }
    }
}

impl Server {
    /// A handle that stops this server gracefully (see [`ShutdownHandle`]).
    ///
    /// ```
    /// # use mcp_runtime::prelude::*;
    /// let server = Server::builder(server_info!()).build().unwrap();
    /// let handle = server.shutdown_handle();
    /// # let _ = handle;
    /// ```
    pub fn shutdown_handle(&self) -> ShutdownHandle {
        ShutdownHandle {
            token: self.inner.shutdown.clone(),
        }
    }
}

/// Listens for SIGTERM and SIGINT while alive, and turns the first one into a shutdown.
pub(crate) struct SignalListener(Option<AbortHandle>);

impl Drop for SignalListener {
    fn drop(&mut self) {
        if let Some(task) = self.0.take() {
            task.abort();
        }
    }
}

impl ServerInner {
    /// Starts listening for SIGTERM and SIGINT, when the builder asked for it (the default).
    pub(crate) fn listen_for_signals(&self) -> SignalListener {
        if !self.options.shutdown_on_signals || self.shutdown.is_cancelled() {
            return SignalListener(None);
        }
        let token = self.shutdown.clone();
        let drain = self.options.drain_timeout;
        let task = crate::background::spawn(async move {
            let Some(name) = signalled().await else {
                return;
            };
            tracing::info!(
                signal = name,
                drain_ms = u64::try_from(drain.as_millis()).unwrap_or(u64::MAX),
                "shutting down: finishing the requests in flight"
            );
            token.cancel();
        });
        SignalListener(Some(task.abort_handle()))
    }
}

/// The name of the first termination signal received; `None` when none can be listened for.
#[cfg(unix)]
async fn signalled() -> Option<&'static str> {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut term), Ok(mut int)) = (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
    ) else {
        tracing::warn!("cannot listen for SIGTERM/SIGINT: no graceful shutdown on signals");
        return None;
    };
    tokio::select! {
        _ = term.recv() => Some("SIGTERM"),
        _ = int.recv() => Some("SIGINT"),
    }
}

/// The name of the first termination signal received; `None` when none can be listened for.
#[cfg(not(unix))]
async fn signalled() -> Option<&'static str> {
    tokio::signal::ctrl_c().await.ok().map(|()| "Ctrl-C")
}

/// Resolves when either token is cancelled.
#[cfg(feature = "http")]
pub(crate) async fn either(a: &Cancellation, b: &Cancellation) {
    tokio::select! {
        () = a.cancelled() => {}
        () = b.cancelled() => {}
    }
}
