//! Whether a connection can serve another stateless request (HTTP keeps a few idle ones).

use std::sync::Arc;

use super::Connection;
use crate::sync::lock;

impl Connection {
    /// Whether this connection holds nothing of the requests it served, so that another
    /// stateless request may be served on it: nobody else holds it or its shared parts, it has
    /// no session, nothing in flight or pending, no place in the hub, and is not closing.
    pub(crate) fn is_spare(self: &Arc<Self>) -> bool {
        Arc::strong_count(self) == 1
            && Arc::weak_count(self) == 0
            && Arc::strong_count(&self.link.pending) == 1
            && Arc::strong_count(&self.link.log_level) == 1
            && Arc::strong_count(&self.blocking) == 1
            && self.link.session().is_none()
            && !self.link.closing.is_cancelled()
            && self.flights.is_idle()
            && lock(&self.hub_key).is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_core::{Implementation, ProtocolVersion};

    fn conn() -> Arc<Connection> {
        let server = crate::Server::builder(Implementation::new("t", "1"))
            .build()
            .unwrap();
        Connection::new(
            Arc::clone(&server.inner),
            tokio::sync::mpsc::channel(1).0,
            crate::middleware::TransportKind::Memory,
        )
    }

    #[test]
    fn only_a_connection_that_holds_nothing_is_spare() {
        let c = conn();
        assert!(c.is_spare());
        // Held elsewhere (a stream still running, say).
        let other = Arc::clone(&c);
        assert!(!c.is_spare());
        drop(other);
        assert!(c.is_spare());
        // A permit out, or a pending table shared with a handler.
        let permit = c.flights.try_slot();
        assert!(!c.is_spare());
        drop(permit);
        let pending = Arc::clone(&c.link.pending);
        assert!(!c.is_spare());
        drop(pending);
        assert!(c.is_spare());
        // A session, or closing.
        let with_session = conn();
        with_session
            .link
            .open(crate::dispatch::scope::Negotiated::assumed(
                ProtocolVersion::V2025_11_25,
            ));
        assert!(!with_session.is_spare());
        c.link.closing.cancel();
        assert!(!c.is_spare());
    }
}
