//! Server-Sent Events: framing (each event one buffer, written once), resumable streams, and the
//! response body that carries them.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context as TaskContext, Poll};
use std::time::Duration;

use bytes::{BufMut, Bytes, BytesMut};
use tokio::sync::mpsc;
use tokio::task::AbortHandle;

use crate::http::event_store::EventStore;

/// A keep-alive comment.
pub(crate) const KEEPALIVE: &[u8] = b":\n\n";

/// One SSE event: `[event: E\n][id: I\n]data: …\n\n`; a payload with line breaks becomes several
/// `data:` lines.
pub(crate) fn frame(event: Option<&str>, id: Option<&str>, data: &[u8]) -> Bytes {
    let mut buf = BytesMut::with_capacity(data.len() + 32);
    if let Some(e) = event {
        buf.put_slice(b"event: ");
        buf.put_slice(e.as_bytes());
        buf.put_u8(b'\n');
    }
    if let Some(id) = id {
        buf.put_slice(b"id: ");
        buf.put_slice(id.as_bytes());
        buf.put_u8(b'\n');
    }
    for line in data.split(|b| *b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        buf.put_slice(b"data: ");
        buf.put_slice(line);
        buf.put_u8(b'\n');
    }
    buf.put_u8(b'\n');
    buf.freeze()
}

/// The priming event: an id to resume from, the reconnection delay and empty data.
pub(crate) fn priming(id: &str, retry_ms: u64) -> Bytes {
    Bytes::from(format!("id: {id}\nretry: {retry_ms}\ndata: \n\n"))
}

/// The id of a priming event: the position to resume from (`stream-seq`, the id of the last
/// event sent before it) and a number unique in the session, so that no two events of a session
/// share an id.
pub(crate) fn priming_id(stream: u64, seq: u64, unique: u64) -> String {
    format!("{stream}-{seq}-{unique}")
}

/// Aborts a request's task when its response is dropped (stateless era: closing the stream is
/// the cancellation).
pub(crate) struct AbortOnDrop(pub(crate) Option<AbortHandle>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        if let Some(h) = self.0.take() {
            h.abort();
        }
    }
}

/// The body of an SSE response: frames from a bounded queue.
pub(crate) struct SseBody {
    rx: mpsc::Receiver<Bytes>,
    _guard: Option<AbortOnDrop>,
    _extra: Option<Box<dyn Send + Sync>>,
    /// Ends the body (after the frames already queued) when it resolves: server shutdown.
    stop: Option<Pin<Box<dyn Future<Output = ()> + Send>>>,
    stopping: bool,
    /// Keep-alive comments while the queue is quiet.
    keep_alive: Option<tokio::time::Interval>,
}

impl SseBody {
    pub(crate) fn new(rx: mpsc::Receiver<Bytes>, guard: Option<AbortOnDrop>) -> Self {
        Self {
            rx,
            _guard: guard,
            _extra: None,
            stop: None,
            stopping: false,
            keep_alive: None,
        }
    }

    /// Keeps `value` alive as long as the body (a session guard, say).
    #[cfg(feature = "legacy-sse")]
    pub(crate) fn holding(mut self, value: impl Send + Sync + 'static) -> Self {
        self._extra = Some(Box::new(value));
        self
    }

    /// Ends the body cleanly once `stop` resolves (streams that only wait for server messages).
    pub(crate) fn until(mut self, stop: impl Future<Output = ()> + Send + 'static) -> Self {
        self.stop = Some(Box::pin(stop));
        self
    }

    /// Sends a keep-alive comment after every `period` without frames.
    pub(crate) fn keep_alive(mut self, period: Duration) -> Self {
        let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        self.keep_alive = Some(ticks);
        self
    }
}

impl futures_util::Stream for SseBody {
    type Item = Result<Bytes, Infallible>;
    fn poll_next(mut self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        if !this.stopping
            && let Some(stop) = &mut this.stop
            && stop.as_mut().poll(cx).is_ready()
        {
            this.stopping = true;
        }
        if this.stopping {
            return Poll::Ready(this.rx.try_recv().ok().map(Ok));
        }
        if let Poll::Ready(frame) = this.rx.poll_recv(cx) {
            if let Some(ticks) = &mut this.keep_alive {
                ticks.reset();
            }
            return Poll::Ready(frame.map(Ok));
        }
        if let Some(ticks) = &mut this.keep_alive
            && ticks.poll_tick(cx).is_ready()
        {
            return Poll::Ready(Some(Ok(Bytes::from_static(KEEPALIVE))));
        }
        Poll::Pending
    }
}

struct WriterState {
    seq: u64,
    live: Option<mpsc::Sender<Bytes>>,
    finished: bool,
}

/// A stream of a handshake-era session whose events are stored for resumption and forwarded to
/// the connection currently attached, if any. A client too slow to keep up is detached (its
/// response ends) and resumes from the store.
pub(crate) struct Resumable {
    session: Arc<str>,
    pub(crate) stream: u64,
    store: Arc<dyn EventStore>,
    state: tokio::sync::Mutex<WriterState>,
}

impl Resumable {
    pub(crate) fn new(session: Arc<str>, stream: u64, store: Arc<dyn EventStore>) -> Self {
        Self {
            session,
            stream,
            store,
            state: tokio::sync::Mutex::new(WriterState {
                seq: 0,
                live: None,
                finished: false,
            }),
        }
    }

    /// Stores a message as the next event and forwards it.
    pub(crate) async fn push(&self, msg: &[u8]) {
        let mut st = self.state.lock().await;
        st.seq += 1;
        let id = format!("{}-{}", self.stream, st.seq);
        let frame = frame(None, Some(&id), msg);
        self.store
            .append(&self.session, self.stream, st.seq, frame.clone())
            .await;
        if st
            .live
            .as_ref()
            .is_some_and(|live| live.try_send(frame).is_err())
        {
            st.live = None;
        }
    }

    /// Ends the attached connection without ending the stream (the client resumes).
    pub(crate) async fn disconnect(&self) {
        self.state.lock().await.live = None;
    }

    /// Sends a keep-alive comment to the attached connection.
    pub(crate) async fn keep_alive(&self) {
        let mut st = self.state.lock().await;
        if st
            .live
            .as_ref()
            .is_some_and(|live| live.try_send(Bytes::from_static(KEEPALIVE)).is_err())
        {
            st.live = None;
        }
    }

    /// Ends the stream: stored as finished, the attached response ends.
    pub(crate) async fn finish(&self) {
        let mut st = self.state.lock().await;
        st.finished = true;
        st.live = None;
        self.store.finish(&self.session, self.stream).await;
    }

    /// Attaches a connection: primes it (`unique` makes the priming event's id unique in the
    /// session), replays the events after `after` (or none when `after` is `None`), then forwards
    /// new ones until the stream ends.
    pub(crate) async fn attach(
        &self,
        after: Option<u64>,
        tx: mpsc::Sender<Bytes>,
        retry_ms: u64,
        unique: u64,
    ) {
        let mut st = self.state.lock().await;
        let from = after.unwrap_or(st.seq);
        let _ = tx.try_send(priming(&priming_id(self.stream, from, unique), retry_ms));
        if after.is_some()
            && let Some(replay) = self.store.replay(&self.session, self.stream, from).await
        {
            for (_, frame) in replay.events {
                if tx.try_send(frame).is_err() {
                    return;
                }
            }
        }
        if !st.finished {
            st.live = Some(tx);
        }
    }

    /// Whether a connection is attached.
    pub(crate) fn is_live(&self) -> bool {
        self.state
            .try_lock()
            .map_or(true, |st| st.live.as_ref().is_some_and(|l| !l.is_closed()))
    }
}

/// Parses a `Last-Event-ID`: `stream-seq` (an event) or `stream-seq-n` (a priming event).
pub(crate) fn parse_event_id(id: &str) -> Option<(u64, u64)> {
    let mut parts = id.trim().split('-');
    let stream = parts.next()?.parse().ok()?;
    let seq = parts.next()?.parse().ok()?;
    match (parts.next(), parts.next()) {
        (None, _) => Some((stream, seq)),
        (Some(n), None) if n.parse::<u64>().is_ok() => Some((stream, seq)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::event_store::InMemoryEventStore;

    #[test]
    fn frames_are_single_buffers_with_one_data_line_per_line() {
        assert_eq!(
            &frame(None, Some("1-2"), b"{}")[..],
            b"id: 1-2\ndata: {}\n\n"
        );
        assert_eq!(
            &frame(Some("endpoint"), None, b"/m")[..],
            b"event: endpoint\ndata: /m\n\n"
        );
        assert_eq!(&frame(None, None, b"a\r\nb")[..], b"data: a\ndata: b\n\n");
        assert_eq!(
            &priming(&priming_id(3, 0, 1), 500)[..],
            b"id: 3-0-1\nretry: 500\ndata: \n\n"
        );
        assert_eq!(parse_event_id("3-17"), Some((3, 17)));
        assert_eq!(parse_event_id("3-17-4"), Some((3, 17)));
        for bad in ["x", "3", "3-", "3-x", "3-17-x", "3-17-4-1", "-1-2"] {
            assert_eq!(parse_event_id(bad), None, "{bad}");
        }
    }

    #[tokio::test]
    async fn resumable_stream_replays_after_the_last_event() {
        let store: Arc<dyn EventStore> = Arc::new(InMemoryEventStore::default());
        let s = Resumable::new("sess".into(), 4, store);
        let (tx, mut rx) = mpsc::channel(16);
        s.attach(None, tx, 1000, 1).await;
        s.push(b"{\"a\":1}").await;
        assert_eq!(
            &rx.recv().await.unwrap()[..],
            b"id: 4-0-1\nretry: 1000\ndata: \n\n"
        );
        assert_eq!(
            &rx.recv().await.unwrap()[..],
            b"id: 4-1\ndata: {\"a\":1}\n\n"
        );
        drop(rx);
        s.push(b"{\"b\":2}").await; // detached: stored only
        s.push(b"{\"c\":3}").await;
        s.finish().await;
        let (tx, mut rx) = mpsc::channel(16);
        s.attach(Some(1), tx, 1000, 2).await;
        assert_eq!(
            &rx.recv().await.unwrap()[..],
            b"id: 4-1-2\nretry: 1000\ndata: \n\n",
            "a fresh id: `4-1` is the event the client already has"
        );
        assert_eq!(
            &rx.recv().await.unwrap()[..],
            b"id: 4-2\ndata: {\"b\":2}\n\n"
        );
        assert_eq!(
            &rx.recv().await.unwrap()[..],
            b"id: 4-3\ndata: {\"c\":3}\n\n"
        );
        assert!(rx.recv().await.is_none(), "finished: the response ends");
    }
}
