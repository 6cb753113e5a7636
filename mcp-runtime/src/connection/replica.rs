//! A handshake-era session as a [`SessionRecord`]: what another replica restores it from, and
//! how a change made elsewhere is applied here.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use mcp_core::{ClientCapabilities, Implementation, ProtocolVersion};

use crate::connection::Connection;
use crate::dispatch::scope::Negotiated;
use crate::outbound::Sink;
use crate::scale::SessionRecord;
use crate::server::ServerInner;

impl Connection {
    /// The negotiated state of the connection's session; `None` before `initialize`.
    pub(crate) fn record(&self) -> Option<SessionRecord> {
        let session = self.link.session()?;
        let mut record = SessionRecord::new(
            session.version.as_str(),
            serde_json::to_value(&*session.client_info).ok()?,
            serde_json::to_value(&*session.client_caps).ok()?,
        );
        record.log_level = self.link.log_level.load(Ordering::Relaxed);
        record.subscriptions = self.link.subscriptions.list();
        Some(record)
    }

    /// A connection serving session `sid`, negotiated on another replica as `record` says;
    /// `None` when the record names no revision this server speaks or is malformed.
    pub(crate) fn restore(
        server: Arc<ServerInner>,
        out: Sink,
        sid: &str,
        record: &SessionRecord,
    ) -> Option<Arc<Self>> {
        let version = ProtocolVersion::parse(&record.protocol_version)?;
        let client_info: Implementation =
            serde_json::from_value(record.client_info.clone()).ok()?;
        let client_caps: ClientCapabilities =
            serde_json::from_value(record.client_caps.clone()).ok()?;
        let conn = Self::new(
            server,
            out,
            crate::middleware::TransportKind::StreamableHttp,
        );
        conn.link.open(Negotiated {
            version,
            client_info: Arc::new(client_info),
            client_caps: Arc::new(client_caps),
        });
        conn.apply(record);
        conn.link.set_task_owner(sid);
        conn.join_hub();
        Some(conn)
    }

    /// Takes a session's level and subscriptions as another replica changed them.
    pub(crate) fn apply(&self, record: &SessionRecord) {
        self.link
            .log_level
            .store(record.log_level.min(7), Ordering::Relaxed);
        self.link.subscriptions.replace(&record.subscriptions);
    }

    /// Sessions opened here share their tasks with every replica under the session's id.
    pub(crate) fn own_tasks_as(&self, sid: &str) {
        self.link.set_task_owner(sid);
    }

    /// Counts the requests to the client waiting here in a principal's share too.
    pub(crate) fn share_waiting_calls(&self, share: crate::handler::peer::PrincipalShare) {
        self.link.pending.share_with(share);
    }
}
