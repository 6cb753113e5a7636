//! Handshake-era sessions in Redis: `{ns}:s:{SID}`, the record as JSON, with a sliding TTL.

use std::sync::Arc;
use std::time::Duration;

use crate::future::BoxFuture;
use crate::scale::{ScaleError, SessionRecord, SessionStore};
use crate::scale_redis::Redis;

/// The [`SessionStore`] on Redis (one string key per session, `PX` the idle time).
pub struct RedisSessionStore(pub(crate) Arc<Redis>);

impl std::fmt::Debug for RedisSessionStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisSessionStore")
            .field("namespace", &self.0.ns)
            .finish()
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX).max(1)
}

impl RedisSessionStore {
    fn key(&self, id: &str) -> String {
        self.0.key(&format!("s:{id}"))
    }
}

impl SessionStore for RedisSessionStore {
    fn save<'a>(
        &'a self,
        id: &'a str,
        record: &'a SessionRecord,
        idle: Duration,
    ) -> BoxFuture<'a, Result<(), ScaleError>> {
        Box::pin(async move {
            let json = serde_json::to_string(record).map_err(ScaleError::backend)?;
            let cmd = redis::cmd("SET")
                .arg(self.key(id))
                .arg(json)
                .arg("PX")
                .arg(millis(idle))
                .clone();
            self.0.cmd::<()>(&cmd).await
        })
    }

    fn load<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<SessionRecord>, ScaleError>> {
        Box::pin(async move {
            let cmd = redis::cmd("GET").arg(self.key(id)).clone();
            let text: Option<String> = self.0.cmd(&cmd).await?;
            // A record this version cannot read is treated as unknown (the client re-initializes).
            Ok(text.and_then(|t| serde_json::from_str(&t).ok()))
        })
    }

    fn touch<'a>(
        &'a self,
        id: &'a str,
        idle: Duration,
    ) -> BoxFuture<'a, Result<Option<SessionRecord>, ScaleError>> {
        Box::pin(async move {
            // One command: the sliding TTL and the current record (Redis 6.2+).
            let cmd = redis::cmd("GETEX")
                .arg(self.key(id))
                .arg("PX")
                .arg(millis(idle))
                .clone();
            let text: Option<String> = self.0.cmd(&cmd).await?;
            Ok(text.and_then(|t| serde_json::from_str(&t).ok()))
        })
    }

    fn delete<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<bool, ScaleError>> {
        Box::pin(async move {
            let cmd = redis::cmd("DEL").arg(self.key(id)).clone();
            let n: i64 = self.0.cmd(&cmd).await?;
            Ok(n > 0)
        })
    }

    /// `SET {ns}:c:{key} 1 NX PX ttl`: the first replica to claim a key gets `OK`, every later
    /// one nil, until the key expires.
    fn claim_once<'a>(
        &'a self,
        key: &'a str,
        ttl: Duration,
    ) -> BoxFuture<'a, Result<bool, ScaleError>> {
        Box::pin(async move {
            let cmd = redis::cmd("SET")
                .arg(self.0.key(&format!("c:{key}")))
                .arg(1)
                .arg("NX")
                .arg("PX")
                .arg(millis(ttl))
                .clone();
            let set: Option<String> = self.0.cmd(&cmd).await?;
            Ok(set.is_some())
        })
    }
}
