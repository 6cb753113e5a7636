//! The SSE event log on Redis streams: `{ns}:e:{SID}:{STREAM}` (entry id `0-{seq}`, field `d`
//! the frame, `MAXLEN ~ 1000`) and `{ns}:e:{SID}:{STREAM}:fin` once the stream ended, both
//! expiring 10 minutes after the last write. A session's `GET` stream (number 0) carries only
//! notifications and is numbered by each replica on its own: it stays in memory.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;

use crate::future::BoxFuture;
use crate::http::{EventStore, InMemoryEventStore, Replay};
use crate::scale_redis::Redis;

/// Events kept per stream (about: Redis trims whole nodes).
const PER_STREAM: usize = 1000;
/// How long events are kept after the last one.
const EVENT_TTL: Duration = Duration::from_secs(600);

/// The [`EventStore`] on Redis streams.
pub struct RedisEventStore {
    redis: Arc<Redis>,
    local: InMemoryEventStore,
}

impl std::fmt::Debug for RedisEventStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisEventStore")
            .field("namespace", &self.redis.ns)
            .finish()
    }
}

impl RedisEventStore {
    pub(crate) fn new(redis: Arc<Redis>) -> Self {
        Self {
            redis,
            local: InMemoryEventStore::default(),
        }
    }

    fn key(&self, session: &str, stream: u64) -> String {
        self.redis.key(&format!("e:{session}:{stream}"))
    }
}

fn ttl_ms() -> u64 {
    EVENT_TTL.as_millis() as u64
}

impl EventStore for RedisEventStore {
    fn append<'a>(
        &'a self,
        session: &'a str,
        stream: u64,
        seq: u64,
        frame: Bytes,
    ) -> BoxFuture<'a, ()> {
        if stream == 0 {
            return self.local.append(session, stream, seq, frame);
        }
        Box::pin(async move {
            let key = self.key(session, stream);
            let mut pipe = redis::pipe();
            pipe.cmd("XADD")
                .arg(&key)
                .arg("MAXLEN")
                .arg("~")
                .arg(PER_STREAM)
                .arg(format!("0-{seq}"))
                .arg("d")
                .arg(frame.as_ref())
                .ignore()
                .cmd("PEXPIRE")
                .arg(&key)
                .arg(ttl_ms())
                .ignore();
            if let Err(err) = self.redis.pipe::<()>(&pipe).await {
                // The live stream goes on; only this event cannot be resumed elsewhere.
                tracing::warn!(%err, "scale-out: SSE event not stored");
            }
        })
    }

    fn finish<'a>(&'a self, session: &'a str, stream: u64) -> BoxFuture<'a, ()> {
        if stream == 0 {
            return self.local.finish(session, stream);
        }
        Box::pin(async move {
            let cmd = redis::cmd("SET")
                .arg(format!("{}:fin", self.key(session, stream)))
                .arg(1)
                .arg("PX")
                .arg(ttl_ms())
                .clone();
            if let Err(err) = self.redis.cmd::<()>(&cmd).await {
                tracing::warn!(%err, "scale-out: end of SSE stream not stored");
            }
        })
    }

    fn replay<'a>(
        &'a self,
        session: &'a str,
        stream: u64,
        after: u64,
    ) -> BoxFuture<'a, Option<Replay>> {
        if stream == 0 {
            return self.local.replay(session, stream, after);
        }
        Box::pin(async move {
            let key = self.key(session, stream);
            let mut pipe = redis::pipe();
            pipe.cmd("EXISTS")
                .arg(&key)
                .cmd("XRANGE")
                .arg(&key)
                .arg(format!("0-{}", after.saturating_add(1)))
                .arg("+")
                .cmd("EXISTS")
                .arg(format!("{key}:fin"));
            type Entries = Vec<(String, Vec<(String, Vec<u8>)>)>;
            let got: Result<(i64, Entries, i64), _> = self.redis.pipe(&pipe).await;
            let (exists, entries, fin) = match got {
                Ok(got) => got,
                Err(err) => {
                    tracing::warn!(%err, "scale-out: SSE events not replayed");
                    return None;
                }
            };
            if exists == 0 {
                return None;
            }
            let events = entries
                .into_iter()
                .filter_map(|(id, fields)| {
                    let seq = id.strip_prefix("0-")?.parse().ok()?;
                    let (_, frame) = fields.into_iter().find(|(f, _)| f == "d")?;
                    Some((seq, Bytes::from(frame)))
                })
                .collect();
            Some(Replay::new(events, fin == 1))
        })
    }

    fn remove_session<'a>(&'a self, session: &'a str) -> BoxFuture<'a, ()> {
        // Shared events expire on their own (another replica may still resume them).
        self.local.remove_session(session)
    }
}
