//! The standalone server's open connections: what each is doing (idle, receiving a request,
//! serving one, streaming), the timeouts that close the stalled ones, which one makes room when a
//! new connection arrives and all are taken, and the fair shares of each peer address
//! ([`FairShares`]): its connections, and its long-lived streams, counted apart from requests.

use std::collections::HashMap;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http_body::{Body as HttpBody, Frame, SizeHint};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::Notify;
use tokio::time::Instant;

use crate::principal::FairShares;
use crate::sync::lock;

/// No time recorded.
const NONE: u64 = u64::MAX;

/// One open connection, as the server sees it.
pub(crate) struct Tracker {
    seq: u64,
    /// The peer's address.
    pub(crate) peer: IpAddr,
    epoch: Instant,
    /// Requests being served: from their headers being read to their response's last frame
    /// handed to the connection.
    in_flight: AtomicUsize,
    /// Requests whose body is still arriving.
    receiving: AtomicUsize,
    /// When the connection last made progress (ms since `epoch`): it opened, a response ended,
    /// or a request whose body is arriving began.
    since_ms: AtomicU64,
    /// When the first byte after an idle `since_ms` arrived (the headers of the next request
    /// started); `NONE` while none did.
    first_byte_ms: AtomicU64,
    evicted: Notify,
}

impl Tracker {
    fn now_ms(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(NONE - 1)
    }

    fn at(&self, ms: u64) -> Instant {
        self.epoch + Duration::from_millis(ms)
    }

    /// Whether closing it loses nothing being served: idle, waiting for headers, or receiving a
    /// request body.
    fn evictable(&self) -> bool {
        self.in_flight.load(Ordering::Acquire) == 0 || self.receiving.load(Ordering::Acquire) > 0
    }

    /// Records bytes received.
    fn saw_bytes(&self) {
        if self.first_byte_ms.load(Ordering::Relaxed) == NONE {
            let _ = self.first_byte_ms.compare_exchange(
                NONE,
                self.now_ms(),
                Ordering::AcqRel,
                Ordering::Relaxed,
            );
        }
    }

    /// A request starts being served (its headers were read); `receiving` when its body is
    /// still to come.
    pub(crate) fn begin(self: &Arc<Self>, table: &Arc<Table>, receiving: bool) -> Flight {
        self.in_flight.fetch_add(1, Ordering::AcqRel);
        table.in_flight.fetch_add(1, Ordering::AcqRel);
        if receiving {
            self.receiving.fetch_add(1, Ordering::AcqRel);
            self.since_ms.store(self.now_ms(), Ordering::Release);
        }
        Flight {
            tracker: Arc::clone(self),
            table: Arc::clone(table),
        }
    }

    /// A place for a long-lived stream of this connection's peer (see [`Stream`]); `None`
    /// when the server, or the peer, has as many streams open as it allows.
    pub(crate) fn stream(&self, table: &Arc<Table>) -> Option<Stream> {
        let mut open = table.open();
        if open.streams >= table.max_streams {
            return None;
        }
        let peer = open.peers.get_mut(&self.peer)?;
        if peer.streams >= table.shares.streams_per_peer {
            return None;
        }
        peer.streams += 1;
        open.streams += 1;
        Some(Stream {
            table: Arc::clone(table),
            peer: self.peer,
        })
    }

    /// Resolves when it was closed to make room for another connection.
    pub(crate) async fn evicted(&self) {
        self.evicted.notified().await;
    }

    /// Resolves when no request has been served for `idle`, or when a request's headers have
    /// been arriving for longer than `header` (slowloris). Bodies are timed by the handlers.
    ///
    /// Nothing wakes it when bytes arrive or a request begins or ends: it runs in the
    /// connection's task, so a wake per request would have that task polled again after every
    /// request (BENCHMARKS.md, "Fifth round"). One timer for the connection's life checks at the
    /// earliest moment the connection could be stalled, computed from what it knows then: while
    /// a request is served, `idle` from now (its end, later, starts the idle time); while idle,
    /// the idle deadline, but no later than `header` from now (headers that start after now
    /// time out after that); once headers started, their deadline. So it ends exactly at the
    /// deadline, never early; the price is that an idle connection's timer fires every `header`
    /// (10 s by default) to look.
    pub(crate) async fn stalled(&self, idle: Duration, header: Duration) {
        let timer = tokio::time::sleep(idle.min(header));
        tokio::pin!(timer);
        loop {
            let now = Instant::now();
            let check = if self.in_flight.load(Ordering::Acquire) > 0 {
                now + idle
            } else {
                let first = self.first_byte_ms.load(Ordering::Acquire);
                let deadline = match first {
                    NONE => self.at(self.since_ms.load(Ordering::Acquire)) + idle,
                    first => self.at(first) + header,
                };
                if now >= deadline {
                    return;
                }
                match first {
                    NONE => deadline.min(now + header),
                    _ => deadline,
                }
            };
            timer.as_mut().reset(check);
            (&mut timer).await;
        }
    }
}

/// A request being served; dropped with its response body (or with the connection).
pub(crate) struct Flight {
    tracker: Arc<Tracker>,
    table: Arc<Table>,
}

impl Flight {
    /// The marker of the request's body still arriving, dropped when it ended.
    pub(crate) fn receiving(&self) -> Receiving {
        Receiving(Arc::clone(&self.tracker))
    }
}

impl Drop for Flight {
    fn drop(&mut self) {
        let t = &self.tracker;
        if t.in_flight.fetch_sub(1, Ordering::AcqRel) == 1 {
            t.since_ms.store(t.now_ms(), Ordering::Release);
            t.first_byte_ms.store(NONE, Ordering::Release);
        }
        if self.table.in_flight.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.table.changed.notify_waiters();
        }
    }
}

/// A long-lived stream's place in the server's and its peer's bounds, given back when the
/// stream's response body is dropped.
pub(crate) struct Stream {
    table: Arc<Table>,
    peer: IpAddr,
}

impl Drop for Stream {
    fn drop(&mut self) {
        let mut open = self.table.open();
        open.streams -= 1;
        if let Some(p) = open.peers.get_mut(&self.peer) {
            p.streams -= 1;
            if p.streams == 0 && p.conns == 0 {
                open.peers.remove(&self.peer);
            }
        }
    }
}

/// What one peer address holds.
#[derive(Default)]
struct Peer {
    conns: usize,
    streams: usize,
}

/// The open connections, and what each peer holds of them.
#[derive(Default)]
struct Open {
    by_seq: HashMap<u64, Arc<Tracker>>,
    peers: HashMap<IpAddr, Peer>,
    streams: usize,
}

impl Open {
    fn remove(&mut self, seq: u64) -> Option<Arc<Tracker>> {
        let t = self.by_seq.remove(&seq)?;
        if let Some(p) = self.peers.get_mut(&t.peer) {
            p.conns -= 1;
            if p.conns == 0 && p.streams == 0 {
                self.peers.remove(&t.peer);
            }
        }
        Some(t)
    }

    fn conns_of(&self, peer: IpAddr) -> usize {
        self.peers.get(&peer).map_or(0, |p| p.conns)
    }
}

/// A request body still arriving.
pub(crate) struct Receiving(Arc<Tracker>);

impl Drop for Receiving {
    fn drop(&mut self) {
        self.0.receiving.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Every open connection, at most `max`, and the shares of each peer.
pub(crate) struct Table {
    epoch: Instant,
    max: usize,
    shares: FairShares,
    /// Streams at once: the shares' bound, at most three quarters of `max` (the rest is for
    /// requests).
    max_streams: usize,
    open: Mutex<Open>,
    next: AtomicU64,
    /// Requests in flight on all connections.
    in_flight: AtomicUsize,
    /// No request in flight any more, or a connection closed.
    changed: Notify,
}

impl Table {
    pub(crate) fn new(max: usize, shares: FairShares) -> Self {
        let max = max.max(1);
        Self {
            epoch: Instant::now(),
            max,
            shares,
            max_streams: shares.streams.min(max - max / 4).max(1),
            open: Mutex::new(Open::default()),
            next: AtomicU64::new(0),
            in_flight: AtomicUsize::new(0),
            changed: Notify::new(),
        }
    }

    fn open(&self) -> std::sync::MutexGuard<'_, Open> {
        lock(&self.open)
    }

    /// Admits a new connection from `peer`. A peer holding its share closes its own evictable
    /// connection that has made no progress for the longest time; when all connections are
    /// taken, the evictable one of the peer holding the most (stalled longest among its) is
    /// closed. `None` when no connection that could make room is evictable (all serve requests).
    pub(crate) fn admit(&self, peer: IpAddr) -> Option<Arc<Tracker>> {
        let mut open = self.open();
        let at_share = open.conns_of(peer) >= self.shares.connections_per_peer;
        if at_share || open.by_seq.len() >= self.max {
            let victim = open
                .by_seq
                .values()
                .filter(|t| t.evictable() && (!at_share || t.peer == peer))
                .min_by_key(|t| {
                    let most = std::cmp::Reverse(open.conns_of(t.peer));
                    (most, t.since_ms.load(Ordering::Acquire), t.seq)
                })
                .map(|t| t.seq)?;
            if let Some(t) = open.remove(victim) {
                t.evicted.notify_one();
            }
        }
        let seq = self.next.fetch_add(1, Ordering::Relaxed);
        let tracker = Arc::new(Tracker {
            seq,
            peer,
            epoch: self.epoch,
            in_flight: AtomicUsize::new(0),
            receiving: AtomicUsize::new(0),
            since_ms: AtomicU64::new(0),
            first_byte_ms: AtomicU64::new(NONE),
            evicted: Notify::new(),
        });
        tracker.since_ms.store(tracker.now_ms(), Ordering::Release);
        open.by_seq.insert(seq, Arc::clone(&tracker));
        open.peers.entry(peer).or_default().conns += 1;
        Some(tracker)
    }

    /// A connection closed.
    pub(crate) fn remove(&self, tracker: &Tracker) {
        self.open().remove(tracker.seq);
        self.changed.notify_waiters();
    }

    /// Closes every connection at once.
    pub(crate) fn evict_all(&self) {
        let mut open = self.open();
        let seqs: Vec<u64> = open.by_seq.keys().copied().collect();
        for seq in seqs {
            if let Some(t) = open.remove(seq) {
                t.evicted.notify_one();
            }
        }
        drop(open);
        self.changed.notify_waiters();
    }

    /// Resolves when `done` holds (checked whenever a request ends or a connection closes).
    async fn until(&self, done: impl Fn(&Self) -> bool) {
        loop {
            let changed = self.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            if done(self) {
                return;
            }
            changed.await;
        }
    }

    /// Resolves when no request is in flight on any connection.
    pub(crate) async fn quiet(&self) {
        self.until(|t| t.in_flight.load(Ordering::Acquire) == 0)
            .await;
    }

    /// Resolves when every connection has closed.
    pub(crate) async fn empty(&self) {
        self.until(|t| t.open().by_seq.is_empty()).await;
    }
}

/// A TCP stream that tells its tracker when bytes arrive.
pub(crate) struct TrackedIo {
    pub(crate) tcp: TcpStream,
    pub(crate) tracker: Arc<Tracker>,
}

impl AsyncRead for TrackedIo {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.tcp).poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.tracker.saw_bytes();
        }
        polled
    }
}

impl AsyncWrite for TrackedIo {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.tcp).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.tcp).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.tcp.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_shutdown(cx)
    }
}

/// A request body that marks its end (or its abandonment) on the connection.
pub(crate) struct RequestBody<B> {
    pub(crate) inner: B,
    pub(crate) receiving: Option<Receiving>,
}

impl<B: HttpBody<Data = Bytes> + Unpin> HttpBody for RequestBody<B> {
    type Data = Bytes;
    type Error = B::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, B::Error>>> {
        let polled = Pin::new(&mut self.inner).poll_frame(cx);
        if matches!(polled, Poll::Ready(None | Some(Err(_)))) || self.inner.is_end_stream() {
            self.receiving = None;
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// A response body that keeps its request in flight until the connection has taken all of it.
pub(crate) struct ResponseBody<B> {
    pub(crate) inner: B,
    pub(crate) _flight: Flight,
    /// The stream's place, when the response is a long-lived stream.
    pub(crate) _stream: Option<Stream>,
}

impl<B: HttpBody<Data = Bytes> + Unpin> HttpBody for ResponseBody<B> {
    type Data = Bytes;
    type Error = B::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, B::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOCAL: IpAddr = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);
    const OTHER: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(192, 0, 2, 1));

    async fn closed(t: &Tracker) -> bool {
        tokio::time::timeout(Duration::from_secs(5), t.evicted())
            .await
            .is_ok()
    }

    #[tokio::test]
    async fn a_peer_at_its_share_makes_room_among_its_own_connections() {
        let shares = FairShares::new().connections_per_peer(2);
        let table = Arc::new(Table::new(8, shares));
        let other = table.admit(OTHER).unwrap();
        let a = table.admit(LOCAL).unwrap();
        let b = table.admit(LOCAL).unwrap();
        let _serving = b.begin(&table, false);
        let c = table.admit(LOCAL).unwrap();
        assert!(closed(&a).await, "a was the peer's only idle connection");
        let _serving_c = c.begin(&table, false);
        assert!(
            table.admit(LOCAL).is_none(),
            "both of the peer's connections serve requests"
        );
        assert!(table.admit(OTHER).is_some(), "another peer is admitted");
        drop(other);
    }

    #[tokio::test]
    async fn a_full_table_evicts_from_the_peer_holding_the_most() {
        let table = Arc::new(Table::new(3, FairShares::default()));
        let other = table.admit(OTHER).unwrap();
        tokio::time::sleep(Duration::from_millis(5)).await;
        let a = table.admit(LOCAL).unwrap();
        let _b = table.admit(LOCAL).unwrap();
        let _c = table.admit(OTHER).unwrap();
        assert!(closed(&a).await, "LOCAL holds two: its oldest goes");
        let waiting = tokio::time::timeout(Duration::from_millis(50), other.evicted());
        assert!(waiting.await.is_err(), "OTHER's older connection stays");
    }

    #[tokio::test]
    async fn streams_are_bounded_per_peer_and_in_all() {
        let shares = FairShares::new().streams(3, 2);
        let table = Arc::new(Table::new(8, shares));
        let a = table.admit(LOCAL).unwrap();
        let o = table.admit(OTHER).unwrap();
        let s1 = a.stream(&table).unwrap();
        let _s2 = a.stream(&table).unwrap();
        assert!(a.stream(&table).is_none(), "the peer's share is 2");
        let _s3 = o.stream(&table).unwrap();
        assert!(o.stream(&table).is_none(), "3 streams in all");
        drop(s1);
        assert!(o.stream(&table).is_some(), "a place was given back");
        // Streams never take more than three quarters of the connections.
        let small = Arc::new(Table::new(4, FairShares::new().streams(100, 100)));
        let t = small.admit(LOCAL).unwrap();
        let held: Vec<_> = (0..3).map(|_| t.stream(&small).unwrap()).collect();
        assert!(t.stream(&small).is_none());
        drop(held);
    }

    #[tokio::test]
    async fn full_tables_close_the_connection_stalled_longest() {
        let table = Arc::new(Table::new(3, FairShares::default()));
        let a = table.admit(LOCAL).unwrap();
        let b = table.admit(LOCAL).unwrap();
        let c = table.admit(LOCAL).unwrap();
        // a serves a request: never evicted; b receives a body since later than c went idle.
        let serving = a.begin(&table, false);
        tokio::time::sleep(Duration::from_millis(5)).await;
        let receiving = b.begin(&table, true);
        let _body = receiving.receiving();
        let d = table.admit(LOCAL).unwrap();
        assert!(
            tokio::time::timeout(Duration::from_secs(5), c.evicted())
                .await
                .is_ok(),
            "c was idle the longest"
        );
        let e = table.admit(LOCAL).unwrap();
        assert!(
            tokio::time::timeout(Duration::from_secs(5), b.evicted())
                .await
                .is_ok(),
            "b only receives its body; d opened after b's request began"
        );
        let _d = d.begin(&table, false);
        let _e = e.begin(&table, false);
        assert!(
            table.admit(LOCAL).is_none(),
            "every connection serves a request"
        );
        drop(serving);
        assert!(table.admit(LOCAL).is_some(), "a is idle again");
    }

    #[tokio::test(start_paused = true)]
    async fn idle_and_header_deadlines() {
        let table = Arc::new(Table::new(4, FairShares::default()));
        let t = table.admit(LOCAL).unwrap();
        let idle = Duration::from_secs(60);
        let header = Duration::from_secs(10);
        let started = Instant::now();
        t.stalled(idle, header).await;
        assert_eq!(started.elapsed().as_secs(), 60, "idle: the idle timeout");
        let flight = t.begin(&table, false);
        tokio::time::sleep(Duration::from_secs(100)).await;
        let waiting = tokio::time::timeout(Duration::from_secs(1), t.stalled(idle, header));
        assert!(waiting.await.is_err(), "serving: never stalled");
        drop(flight);
        let ended = Instant::now();
        tokio::time::sleep(Duration::from_secs(5)).await;
        t.saw_bytes();
        t.stalled(idle, header).await;
        assert_eq!(
            ended.elapsed().as_secs(),
            15,
            "headers started 5 s after the response: 10 s more"
        );
    }
}
