//! Who a request is, for the fair shares of the server's shared pools ([`FairShares`]): the
//! verified token's issuer, client and subject when the HTTP endpoint authenticated it (feature
//! `auth`), else the peer's IP address when the standalone server accepted the connection, else
//! the handshake-era session, else one shared "unknown" principal.
//!
//! The peer goes before the session: sessions are minted on request, so a share per session
//! would give a flood of `initialize` as many shares as it opens. Each principal may hold a
//! bounded share, well under the server-wide bound, of every pool: connections and long-lived
//! streams, tasks in the store, requests to the client awaiting answers, and sessions.
//!
//! ```
//! use mcp_runtime::principal::FairShares;
//!
//! let shares = FairShares::new()
//!     .connections_per_peer(32)
//!     .streams(128, 8)
//!     .sessions_per_peer(200)
//!     .client_requests_per_principal(64);
//! assert_eq!(shares.max_streams(), 128);
//! ```

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use crate::sync::lock;

/// The bounded share of every shared pool each principal may hold, given to
/// `ServerBuilder::fair_shares`.
///
/// The defaults keep a normal client served while one client holds everything it is allowed:
/// 64 of the standalone server's connections per peer address, 256 long-lived streams
/// (`subscriptions/listen`, `GET` streams and requests answered as SSE) server-wide and 32 per
/// peer, 1,000 of the 10,000 handshake-era sessions per peer, and 256 of the 4,096 requests to
/// the client awaiting answers per principal. Tasks have their share in
/// [`TaskLimits::stored_per_principal`](crate::tasks::TaskLimits::stored_per_principal).
///
/// ```
/// let shares = mcp_runtime::principal::FairShares::default();
/// assert_eq!(shares.max_streams(), 256);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct FairShares {
    pub(crate) connections_per_peer: usize,
    pub(crate) streams: usize,
    pub(crate) streams_per_peer: usize,
    pub(crate) sessions_per_peer: usize,
    pub(crate) client_requests_per_principal: usize,
}

impl Default for FairShares {
    fn default() -> Self {
        Self {
            connections_per_peer: 64,
            streams: 256,
            streams_per_peer: 32,
            sessions_per_peer: 1000,
            client_requests_per_principal: 256,
        }
    }
}

impl FairShares {
    /// The defaults (see [`FairShares`]).
    ///
    /// ```
    /// assert_eq!(mcp_runtime::principal::FairShares::new(), Default::default());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Most connections of the standalone server one peer address keeps open (default 64).
    /// A peer at its share that opens another closes its own connection that has made no
    /// progress for the longest time (idle, or still sending headers or a body), or is answered
    /// 503 when all of them are serving requests; other peers are not affected.
    ///
    /// ```
    /// let s = mcp_runtime::principal::FairShares::new().connections_per_peer(16);
    /// # let _ = s;
    /// ```
    pub fn connections_per_peer(mut self, max: usize) -> Self {
        self.connections_per_peer = max.max(1);
        self
    }

    /// Most long-lived streams at once on the standalone server, in all (default 256) and per
    /// peer address (default 32). A stream is a response that stays open: a `GET` stream, a
    /// `subscriptions/listen`, or any request whose answer became an SSE stream. Streams are
    /// counted apart from requests, and keep at least a quarter of the connection limit free
    /// for requests whatever this says. A stream over either bound is answered 503 with
    /// `Retry-After: 1` instead of its stream.
    ///
    /// ```
    /// let s = mcp_runtime::principal::FairShares::new().streams(1024, 64);
    /// assert_eq!(s.max_streams(), 1024);
    /// ```
    pub fn streams(mut self, total: usize, per_peer: usize) -> Self {
        self.streams = total.max(1);
        self.streams_per_peer = per_peer.max(1);
        self
    }

    /// The total bound of [`streams`](Self::streams).
    ///
    /// ```
    /// assert_eq!(mcp_runtime::principal::FairShares::new().max_streams(), 256);
    /// ```
    pub fn max_streams(&self) -> usize {
        self.streams
    }

    /// Most handshake-era sessions one principal (usually a peer address) holds (default
    /// 1,000). A principal at its share that opens another ends its own least recently used
    /// idle session, never another's; when the whole table is full, the idle session evicted
    /// is one of the principal holding the most.
    ///
    /// ```
    /// let s = mcp_runtime::principal::FairShares::new().sessions_per_peer(50);
    /// # let _ = s;
    /// ```
    pub fn sessions_per_peer(mut self, max: usize) -> Self {
        self.sessions_per_peer = max.max(1);
        self
    }

    /// Most requests to the client (elicitation, sampling, roots) awaiting answers for one
    /// principal, over all its sessions (default 256; the per-session and server-wide bounds
    /// are `ServerBuilder::max_client_requests`). Past it, the principal's next question fails
    /// at once as busy; other principals are not affected.
    ///
    /// ```
    /// let s = mcp_runtime::principal::FairShares::new().client_requests_per_principal(64);
    /// # let _ = s;
    /// ```
    pub fn client_requests_per_principal(mut self, max: usize) -> Self {
        self.client_requests_per_principal = max.max(1);
        self
    }
}

/// A principal: a short key naming who a request is.
pub(crate) type Principal = Arc<str>;

tokio::task_local! {
    /// The peer address of the standalone server's connection serving this request.
    static PEER: Option<IpAddr>;
}

/// `fut` served for a connection from `peer`.
#[cfg(any(feature = "http", test))]
pub(crate) fn serve_from<F: std::future::Future>(
    peer: IpAddr,
    fut: F,
) -> impl std::future::Future<Output = F::Output> {
    PEER.scope(Some(peer), fut)
}

/// `fut` with the current peer, for a future about to be spawned on a task of its own.
#[cfg(any(feature = "http", test))]
pub(crate) fn carry<F: std::future::Future>(
    fut: F,
) -> impl std::future::Future<Output = F::Output> {
    PEER.scope(peer(), fut)
}

/// The peer address of the request this task serves, when the standalone server accepted it.
pub(crate) fn peer() -> Option<IpAddr> {
    PEER.try_with(|p| *p).ok().flatten()
}

/// The principal of the request this task serves, when one is known: the verified token's
/// issuer, client and subject, else the peer address.
pub(crate) fn current() -> Option<Principal> {
    #[cfg(feature = "auth")]
    if let Some(caller) = crate::caller::current() {
        return Some(verified(
            caller.issuer.as_deref(),
            caller.client_id.as_deref(),
            &caller.subject,
        ));
    }
    peer().map(of_peer)
}

/// The principal of the request this task serves: [`current`], else `fallback` (a session's
/// id, a task owner), else the shared unknown principal.
#[cfg(any(feature = "http", test))]
pub(crate) fn current_or(fallback: Option<&str>) -> Principal {
    current().unwrap_or_else(|| match fallback {
        Some(f) => format!("session:{f}").into(),
        None => unknown(),
    })
}

/// The principal of a verified token.
#[cfg(any(feature = "auth", test))]
fn verified(issuer: Option<&str>, client: Option<&str>, subject: &str) -> Principal {
    // Lengths first: no choice of the three values makes two tokens one principal.
    let (i, c) = (issuer.unwrap_or(""), client.unwrap_or(""));
    format!("token:{}:{}:{i}{c}{subject}", i.len(), c.len()).into()
}

/// The principal of a peer address.
pub(crate) fn of_peer(ip: IpAddr) -> Principal {
    format!("peer:{ip}").into()
}

/// The one principal of requests nothing else tells apart.
#[cfg(any(feature = "http", test))]
pub(crate) fn unknown() -> Principal {
    static UNKNOWN: std::sync::OnceLock<Principal> = std::sync::OnceLock::new();
    Arc::clone(UNKNOWN.get_or_init(|| "unknown".into()))
}

/// How much of one pool each principal holds, each at most `limit`. An entry lives while its
/// principal holds something, so the table never holds more entries than the pool has places.
pub(crate) struct Tally {
    limit: usize,
    held: Mutex<HashMap<Principal, usize>>,
}

/// One place of a principal in a [`Tally`], given back when dropped.
pub(crate) struct Share {
    tally: Arc<Tally>,
    principal: Principal,
}

impl Tally {
    /// A tally allowing each principal `limit` places.
    #[cfg(any(feature = "http", test))]
    pub(crate) fn new(limit: usize) -> Arc<Self> {
        Arc::new(Self {
            limit: limit.max(1),
            held: Mutex::new(HashMap::new()),
        })
    }

    fn held(&self) -> std::sync::MutexGuard<'_, HashMap<Principal, usize>> {
        lock(&self.held)
    }

    /// A place for `principal`; `None` when it holds its whole share.
    pub(crate) fn take(self: &Arc<Self>, principal: &Principal) -> Option<Share> {
        let mut held = self.held();
        let n = held.entry(Arc::clone(principal)).or_insert(0);
        if *n >= self.limit {
            return None;
        }
        *n += 1;
        Some(Share {
            tally: Arc::clone(self),
            principal: Arc::clone(principal),
        })
    }

    /// How many places `principal` holds.
    #[cfg(test)]
    pub(crate) fn count(&self, principal: &str) -> usize {
        self.held().get(principal).copied().unwrap_or(0)
    }
}

impl Drop for Share {
    fn drop(&mut self) {
        let mut held = self.tally.held();
        if let Some(n) = held.get_mut(&self.principal) {
            *n -= 1;
            if *n == 0 {
                held.remove(&self.principal);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tally_bounds_each_principal_and_forgets_those_holding_nothing() {
        let tally = Tally::new(2);
        let (a, b): (Principal, Principal) = ("a".into(), "b".into());
        let a1 = tally.take(&a).unwrap();
        let _a2 = tally.take(&a).unwrap();
        assert!(tally.take(&a).is_none(), "a holds its share");
        let b1 = tally.take(&b).unwrap();
        assert_eq!((tally.count("a"), tally.count("b")), (2, 1));
        drop(a1);
        assert!(tally.take(&a).is_some());
        drop(b1);
        assert_eq!(tally.held().len(), 1, "b holds nothing: no entry");
    }

    #[tokio::test]
    async fn the_principal_is_the_peer_else_the_fallback_else_unknown() {
        assert!(current().is_none());
        assert_eq!(&*current_or(Some("s1")), "session:s1");
        assert_eq!(&*current_or(None), "unknown");
        let ip: IpAddr = "192.0.2.7".parse().unwrap();
        let inside = serve_from(ip, async { (current(), current_or(Some("s1"))) }).await;
        assert_eq!(inside.0.as_deref(), Some("peer:192.0.2.7"));
        assert_eq!(&*inside.1, "peer:192.0.2.7");
        // (In an `Option`: a future yielding a join handle reads as a missed `.await`.)
        let spawned = serve_from(ip, async { Some(tokio::spawn(carry(async { peer() }))) });
        let carried = spawned.await.unwrap().await.unwrap();
        assert_eq!(carried, Some(ip));
    }

    #[test]
    fn verified_principals_cannot_be_forged_by_shifting_characters() {
        assert_ne!(
            verified(Some("ab"), None, "c"),
            verified(Some("a"), None, "bc")
        );
        assert_ne!(
            verified(None, Some("x"), "y"),
            verified(Some("x"), None, "y")
        );
    }
}
