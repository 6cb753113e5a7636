//! How a connection ends: at once (HTTP session deleted), gracefully (the server is stopping), or
//! after its handlers drain.

use std::time::{Duration, Instant};

use super::Connection;

impl Connection {
    /// Cancels everything running on the connection at once (HTTP session ended).
    #[cfg(feature = "http")]
    pub(crate) fn drain_now(&self) {
        self.link.closing.cancel();
        self.abort_all();
    }

    /// The server is stopping: `subscriptions/listen` ends with its result and requests waiting
    /// for the client fail (its answers can no longer arrive); other handlers keep running.
    pub(crate) fn close_gracefully(&self) {
        self.link.closing.cancel();
        self.link.pending.close();
    }

    /// Waits for handlers still running (up to the drain timeout), then aborts the rest. Handlers
    /// waiting for the client's answers learn at once that none will come.
    pub(crate) async fn drain(&self) {
        self.link.closing.cancel();
        self.link.pending.close();
        let deadline = Instant::now() + self.server.options.drain_timeout;
        while !self.flights.is_empty() && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        self.abort_all();
    }

    /// Cancels and aborts every request still running, and forgets requests sent to the client.
    fn abort_all(&self) {
        self.link.pending.close();
        self.flights.abort_all();
    }
}
