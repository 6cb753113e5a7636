//! Whether a connection can serve another stateless request (HTTP keeps a few idle ones).

use std::sync::Arc;

use super::Connection;

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
            && self
                .hub_key
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .is_none()
    }
}
