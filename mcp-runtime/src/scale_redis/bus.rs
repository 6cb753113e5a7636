//! The bus on Redis pub/sub: `{ns}:bus` for every replica, `{ns}:node:{NODE}` for one. One
//! pub/sub connection per replica, made again (with backoff) whenever it drops; after a
//! reconnection the replica's clients get a `list_changed` of each kind, since changes made
//! meanwhile were missed (over-delivery is harmless).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use futures_util::StreamExt;
use tokio::sync::broadcast;

use crate::future::BoxFuture;
use crate::scale::{Bus, BusMessage, Envelope, ScaleError};
use crate::scale_redis::Redis;

/// Messages received and not yet taken by the replica (a slow reader misses old ones).
const INBOX: usize = 1024;
/// Most bytes of one bus message (larger ones are not sent).
const MAX_MESSAGE: usize = 1 << 20;

/// The [`Bus`] on Redis pub/sub.
pub struct RedisBus {
    redis: Arc<Redis>,
    inbox: broadcast::Sender<Arc<Envelope>>,
    started: AtomicBool,
}

impl std::fmt::Debug for RedisBus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisBus")
            .field("node", &self.redis.node)
            .finish()
    }
}

impl RedisBus {
    pub(crate) fn new(redis: Arc<Redis>) -> Self {
        Self {
            redis,
            inbox: broadcast::channel(INBOX).0,
            started: AtomicBool::new(false),
        }
    }
}

impl Bus for RedisBus {
    fn publish(&self, envelope: Envelope) -> BoxFuture<'_, Result<(), ScaleError>> {
        Box::pin(async move {
            let channel = match &envelope.target {
                Some(node) => self.redis.key(&format!("node:{node}")),
                None => self.redis.key("bus"),
            };
            let json = serde_json::to_string(&envelope).map_err(ScaleError::backend)?;
            if json.len() > MAX_MESSAGE {
                return Err(ScaleError::Unavailable("bus message too large".into()));
            }
            let cmd = redis::cmd("PUBLISH").arg(channel).arg(json).clone();
            self.redis.cmd::<i64>(&cmd).await.map(|_| ())
        })
    }

    fn subscribe(&self) -> broadcast::Receiver<Arc<Envelope>> {
        let rx = self.inbox.subscribe();
        if !self.started.swap(true, Ordering::AcqRel) {
            match tokio::runtime::Handle::try_current() {
                Ok(rt) => {
                    rt.spawn(receive(Arc::clone(&self.redis), self.inbox.clone()));
                }
                Err(_) => self.started.store(false, Ordering::Release),
            }
        }
        rx
    }
}

/// Keeps one subscription alive for as long as anybody listens.
async fn receive(redis: Arc<Redis>, inbox: broadcast::Sender<Arc<Envelope>>) {
    // This replica's own channel first: once it is on the bus, it can be reached.
    let channels = [redis.key(&format!("node:{}", redis.node)), redis.key("bus")];
    let mut backoff = Duration::from_millis(50);
    let mut first = true;
    while inbox.receiver_count() > 0 {
        let mut pubsub = match redis.pubsub().await {
            Ok(p) => p,
            Err(err) => {
                tracing::debug!(%err, "scale-out: bus not connected");
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(2));
                continue;
            }
        };
        let mut subscribed = true;
        for channel in &channels {
            subscribed &= pubsub.subscribe(channel).await.is_ok();
        }
        if !subscribed {
            tokio::time::sleep(backoff).await;
            continue;
        }
        backoff = Duration::from_millis(50);
        if !first {
            tracing::info!("scale-out: bus reconnected");
            for kind in ["tools", "prompts", "resources"] {
                let resync = BusMessage::ListChanged { kind: kind.into() };
                let _ = inbox.send(Arc::new(Envelope::broadcast("", resync)));
            }
        }
        first = false;
        let mut stream = pubsub.into_on_message();
        while let Some(msg) = stream.next().await {
            let Ok(envelope) = serde_json::from_slice::<Envelope>(msg.get_payload_bytes()) else {
                tracing::debug!("scale-out: unreadable bus message dropped");
                continue;
            };
            if inbox.send(Arc::new(envelope)).is_err() {
                return;
            }
        }
        tracing::warn!("scale-out: bus connection lost; reconnecting");
    }
}
