//! [`HttpOptions`]: the settings of the Streamable HTTP transport.

use std::sync::Arc;
use std::time::Duration;

use crate::http::event_store::EventStore;
use crate::server::{ServerBuilder, ServerInner};

/// Which hosts or origins are allowed.
#[derive(Clone, Debug, Default)]
pub(crate) enum Allow {
    /// Hosts: `MCP_ALLOWED_HOSTS` when set, else loopback names when bound to loopback (always
    /// for a mounted router), else IP addresses and loopback names.
    /// Origins: the request's own host, and loopback origins when bound to loopback.
    #[default]
    Auto,
    Any,
    List(Arc<[String]>),
}

impl Allow {
    /// An allow-list, compared case-insensitively.
    pub(crate) fn list<I: IntoIterator<Item = S>, S: Into<String>>(items: I) -> Self {
        Allow::List(
            items
                .into_iter()
                .map(|i| i.into().to_ascii_lowercase())
                .collect(),
        )
    }
}

/// Settings of the Streamable HTTP transport, given to
/// [`ServerBuilder::http`](crate::ServerBuilder::http).
///
/// ```
/// use mcp_runtime::http::HttpOptions;
/// use std::time::Duration;
///
/// let options = HttpOptions::new()
///     .allowed_hosts(["mcp.example.com"])
///     .allowed_origins(["https://app.example.com"])
///     .keep_alive(Duration::from_secs(20));
/// # let _ = options;
/// ```
#[derive(Clone)]
#[non_exhaustive]
pub struct HttpOptions {
    pub(crate) hosts: Allow,
    pub(crate) origins: Allow,
    pub(crate) sessions: bool,
    pub(crate) json_response: bool,
    pub(crate) stream_after: Duration,
    pub(crate) keep_alive: Duration,
    pub(crate) retry: Duration,
    pub(crate) max_sessions: usize,
    pub(crate) session_idle: Duration,
    pub(crate) event_store: Option<Arc<dyn EventStore>>,
    pub(crate) max_connections: usize,
    pub(crate) header_read_timeout: Duration,
    pub(crate) body_read_timeout: Duration,
    pub(crate) idle_timeout: Duration,
    pub(crate) health: Health,
}

/// Where the health endpoints are served.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) enum Health {
    /// `/healthz` and `/readyz` on the standalone server, none on a mounted router.
    #[default]
    Auto,
    Off,
    /// These paths (liveness, readiness), standalone and mounted.
    Paths(String, String),
}

/// The default paths of the health endpoints.
pub(crate) const LIVENESS: &str = "/healthz";
pub(crate) const READINESS: &str = "/readyz";

impl std::fmt::Debug for HttpOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpOptions")
            .field("hosts", &self.hosts)
            .field("origins", &self.origins)
            .field("sessions", &self.sessions)
            .field("json_response", &self.json_response)
            .field("stream_after", &self.stream_after)
            .field("keep_alive", &self.keep_alive)
            .field("retry", &self.retry)
            .field("max_sessions", &self.max_sessions)
            .field("session_idle", &self.session_idle)
            .field("max_connections", &self.max_connections)
            .field("header_read_timeout", &self.header_read_timeout)
            .field("body_read_timeout", &self.body_read_timeout)
            .field("idle_timeout", &self.idle_timeout)
            .field("health", &self.health)
            .finish_non_exhaustive()
    }
}

impl Default for HttpOptions {
    fn default() -> Self {
        Self {
            hosts: Allow::Auto,
            origins: Allow::Auto,
            sessions: true,
            json_response: false,
            stream_after: Duration::from_millis(500),
            keep_alive: Duration::from_secs(15),
            retry: Duration::from_secs(1),
            max_sessions: 10_000,
            session_idle: Duration::from_secs(10 * 60),
            event_store: None,
            max_connections: 512,
            header_read_timeout: Duration::from_secs(10),
            body_read_timeout: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(60),
            health: Health::Auto,
        }
    }
}

impl HttpOptions {
    /// The defaults: loopback-only `Host` on loopback binds, same-host `Origin`, sessions on,
    /// SSE when a reply is not ready at once, the connection limits and timeouts below.
    pub fn new() -> Self {
        Self::default()
    }

    /// Accepts only these `Host` names (with or without port; compared case-insensitively);
    /// any other `Host` gets 403, whatever the bind address (health endpoints excepted).
    ///
    /// Without a list (here or in `MCP_ALLOWED_HOSTS`, comma-separated, `*` for any host), a
    /// server bound to loopback accepts loopback names (`localhost`, `127.0.0.1`, `[::1]`), and
    /// a server bound to any other address (`0.0.0.0`, `::`, a public IP) accepts only IP
    /// addresses and loopback names: a DNS-rebinding page's requests carry its own host
    /// name, which is refused. A server reached under a name (behind a reverse proxy that
    /// keeps the client's `Host`, say) must list that name. A list given here wins over the
    /// environment variable.
    ///
    /// ```
    /// # use mcp_runtime::http::HttpOptions;
    /// let o = HttpOptions::new().allowed_hosts(["localhost", "mcp.example.com"]);
    /// # let _ = o;
    /// ```
    pub fn allowed_hosts<I: IntoIterator<Item = S>, S: Into<String>>(mut self, hosts: I) -> Self {
        self.hosts = Allow::list(hosts);
        self
    }

    /// Accepts any `Host` (no DNS-rebinding protection on the host name).
    ///
    /// ```
    /// # use mcp_runtime::http::HttpOptions;
    /// let o = HttpOptions::new().allow_any_host();
    /// # let _ = o;
    /// ```
    pub fn allow_any_host(mut self) -> Self {
        self.hosts = Allow::Any;
        self
    }

    /// Accepts requests whose `Origin`, when present, is one of these (`https://app.example.com`,
    /// compared case-insensitively); any other `Origin` gets 403, whatever the bind address.
    ///
    /// Without a list, an `Origin` is accepted when it names the host the request was sent to
    /// (its host and port equal the `Host` header: pages of the server's own origin), and on
    /// loopback binds and mounted routers also when it is a loopback origin
    /// (`http://localhost:3000`). Requests without `Origin` (clients that are not browsers) are
    /// always served.
    ///
    /// ```
    /// # use mcp_runtime::http::HttpOptions;
    /// let o = HttpOptions::new().allowed_origins(["https://app.example.com"]);
    /// # let _ = o;
    /// ```
    pub fn allowed_origins<I: IntoIterator<Item = S>, S: Into<String>>(
        mut self,
        origins: I,
    ) -> Self {
        self.origins = Allow::list(origins);
        self
    }

    /// Accepts any `Origin`.
    ///
    /// ```
    /// # use mcp_runtime::http::HttpOptions;
    /// let o = HttpOptions::new().allow_any_origin();
    /// # let _ = o;
    /// ```
    pub fn allow_any_origin(mut self) -> Self {
        self.origins = Allow::Any;
        self
    }

    /// Handshake-era sessions (default on). Off, the server mints no `Mcp-Session-Id`, offers no
    /// `GET` stream, and serves each handshake-era POST on its own (the revision from the
    /// `MCP-Protocol-Version` header, 2025-03-26 when absent); requests to the client are then
    /// impossible.
    ///
    /// ```
    /// # use mcp_runtime::http::HttpOptions;
    /// let o = HttpOptions::new().sessions(false);
    /// # let _ = o;
    /// ```
    pub fn sessions(mut self, on: bool) -> Self {
        self.sessions = on;
        self
    }

    /// Always answer with one JSON object, never SSE (default off). Notifications of a request
    /// then go to the session's `GET` stream, or nowhere.
    ///
    /// ```
    /// # use mcp_runtime::http::HttpOptions;
    /// let o = HttpOptions::new().json_response(true);
    /// # let _ = o;
    /// ```
    pub fn json_response(mut self, on: bool) -> Self {
        self.json_response = on;
        self
    }

    /// How long a reply may take before the response turns into an SSE stream even though
    /// nothing was sent yet (default 500 ms), so that long calls are primed for resumption.
    ///
    /// ```
    /// # use mcp_runtime::http::HttpOptions;
    /// let o = HttpOptions::new().stream_after(std::time::Duration::from_millis(100));
    /// # let _ = o;
    /// ```
    pub fn stream_after(mut self, after: Duration) -> Self {
        self.stream_after = after;
        self
    }

    /// Interval of `:` keep-alive comments on quiet SSE streams (default 15 s).
    ///
    /// ```
    /// # use mcp_runtime::http::HttpOptions;
    /// let o = HttpOptions::new().keep_alive(std::time::Duration::from_secs(30));
    /// # let _ = o;
    /// ```
    pub fn keep_alive(mut self, every: Duration) -> Self {
        self.keep_alive = every.max(Duration::from_millis(10));
        self
    }

    /// The `retry` delay sent in priming events (default 1 s).
    ///
    /// ```
    /// # use mcp_runtime::http::HttpOptions;
    /// let o = HttpOptions::new().sse_retry(std::time::Duration::from_millis(250));
    /// # let _ = o;
    /// ```
    pub fn sse_retry(mut self, delay: Duration) -> Self {
        self.retry = delay;
        self
    }

    /// Most sessions at once (default 10 000) and how long a session lives unused (default 10
    /// minutes).
    ///
    /// When the table is full, a new `initialize` evicts the least recently used session that has
    /// nothing running and no `GET` stream attached: its client gets 404 on its next request and
    /// initializes again, as the spec provides. Only when every session is busy is the newcomer
    /// refused (503). A session unused for longer than `idle` is ended the same way; ten minutes
    /// frees abandoned sessions quickly while a session in use is never cut, and a client whose
    /// session expired during a long pause simply re-initializes.
    ///
    /// ```
    /// # use mcp_runtime::http::HttpOptions;
    /// let o = HttpOptions::new().session_limits(100, std::time::Duration::from_secs(600));
    /// # let _ = o;
    /// ```
    pub fn session_limits(mut self, max: usize, idle: Duration) -> Self {
        self.max_sessions = max.max(1);
        self.session_idle = idle;
        self
    }

    /// Where SSE events are kept for resumption (default: a bounded
    /// [`InMemoryEventStore`](crate::http::InMemoryEventStore)).
    ///
    /// ```
    /// # use mcp_runtime::http::{HttpOptions, InMemoryEventStore};
    /// let o = HttpOptions::new().event_store(std::sync::Arc::new(InMemoryEventStore::new(64, 1024)));
    /// # let _ = o;
    /// ```
    pub fn event_store(mut self, store: Arc<dyn EventStore>) -> Self {
        self.event_store = Some(store);
        self
    }

    /// Most TCP connections the standalone server keeps open (default 512; keep it below the
    /// process's file-descriptor limit).
    ///
    /// When a connection arrives and all are taken, the server closes the open connection that
    /// has made no progress for the longest time among those with no request being served (idle
    /// keep-alive connections, requests whose headers or body are still arriving) and admits the
    /// newcomer: a client holding connections open cannot lock others out. When every connection
    /// is serving a request, the newcomer is answered `503 Service Unavailable` (JSON-RPC -32000,
    /// `Retry-After: 1`) and closed. The liveness endpoint still answers 200 on such a
    /// connection.
    ///
    /// ```
    /// # use mcp_runtime::http::HttpOptions;
    /// let o = HttpOptions::new().max_connections(2048);
    /// # let _ = o;
    /// ```
    pub fn max_connections(mut self, max: usize) -> Self {
        self.max_connections = max.max(1);
        self
    }

    /// How long a request's headers may take to arrive once its first byte did (default 10 s);
    /// a slower client (slowloris) is disconnected. Standalone server only.
    ///
    /// ```
    /// # use mcp_runtime::http::HttpOptions;
    /// let o = HttpOptions::new().header_read_timeout(std::time::Duration::from_secs(5));
    /// # let _ = o;
    /// ```
    pub fn header_read_timeout(mut self, timeout: Duration) -> Self {
        self.header_read_timeout = timeout;
        self
    }

    /// How long a `POST` body may take to arrive once the headers did (default 30 s); a slower
    /// body (a chunked body that never ends, a `Content-Length` larger than what is sent) is
    /// answered `408 Request Timeout` and the connection closed. Applies to mounted routers too.
    ///
    /// ```
    /// # use mcp_runtime::http::HttpOptions;
    /// let o = HttpOptions::new().body_read_timeout(std::time::Duration::from_secs(10));
    /// # let _ = o;
    /// ```
    pub fn body_read_timeout(mut self, timeout: Duration) -> Self {
        self.body_read_timeout = timeout;
        self
    }

    /// How long a keep-alive connection may stay open with no request (default 60 s).
    /// Standalone server only.
    ///
    /// ```
    /// # use mcp_runtime::http::HttpOptions;
    /// let o = HttpOptions::new().idle_timeout(std::time::Duration::from_secs(120));
    /// # let _ = o;
    /// ```
    pub fn idle_timeout(mut self, timeout: Duration) -> Self {
        self.idle_timeout = timeout;
        self
    }

    /// Serves the liveness and readiness endpoints at these paths, on the standalone server and
    /// on mounted routers (relative to where the router is mounted). By default the standalone
    /// server serves `/healthz` and `/readyz` and a mounted router serves none.
    ///
    /// Liveness answers `200 {"status":"ok"}` while the process serves. Readiness answers
    /// `200 {"status":"ready"}`, and `503 {"status":"draining"}` once the server is shutting
    /// down. Both answer `GET` and `HEAD`, skip the `Host`/`Origin` checks (they reveal nothing)
    /// and are never refused for lack of sessions. A path must start with `/`, differ from the
    /// MCP endpoint and use only letters, digits and `/-._~`; serving fails otherwise.
    ///
    /// ```
    /// # use mcp_runtime::http::HttpOptions;
    /// let o = HttpOptions::new().health_endpoints("/livez", "/ready");
    /// # let _ = o;
    /// ```
    pub fn health_endpoints(
        mut self,
        liveness: impl Into<String>,
        readiness: impl Into<String>,
    ) -> Self {
        self.health = Health::Paths(liveness.into(), readiness.into());
        self
    }

    /// Serves no health endpoints, not even on the standalone server.
    ///
    /// ```
    /// # use mcp_runtime::http::HttpOptions;
    /// let o = HttpOptions::new().without_health_endpoints();
    /// # let _ = o;
    /// ```
    pub fn without_health_endpoints(mut self) -> Self {
        self.health = Health::Off;
        self
    }
}

/// Whether the builder said scoped items may be served without authorization.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Unprotected(bool);

impl ServerBuilder {
    /// Settings of the Streamable HTTP transport (allowed hosts and origins, sessions, SSE).
    ///
    /// ```
    /// use mcp_runtime::prelude::*;
    /// use mcp_runtime::http::HttpOptions;
    ///
    /// let builder = Server::builder(server_info!())
    ///     .http(HttpOptions::new().allowed_hosts(["mcp.example.com"]).json_response(true));
    /// # let _ = builder;
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    pub fn http(self, options: HttpOptions) -> Self {
        self.extension(options)
    }

    /// Says the server is meant to serve HTTP without authorization although its items declare
    /// scopes (`#[tool(scopes = [..])]`, on resources and prompts too): without it, and without
    /// [`ServerBuilder::auth`](crate::ServerBuilder::auth) (or `MCP_AUTH_ISSUER` /
    /// `MCP_AUTH_AUDIENCE` on the command line, feature `auth`), serving HTTP fails (the command
    /// line's `http` exits with code 6), because every client could call the scoped items.
    /// `MCP_ALLOW_UNPROTECTED=1` says the same from the environment. A server behind a gateway
    /// that checks tokens itself is such a case. stdio is always served: it carries no tokens,
    /// and the process that spawned the server is its only client.
    ///
    /// ```
    /// use mcp_runtime::prelude::*;
    ///
    /// let builder = Server::builder(server_info!()).allow_unprotected(true);
    /// # let _ = builder;
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    pub fn allow_unprotected(self, yes: bool) -> Self {
        self.extension(Unprotected(yes))
    }
}

/// The environment variable naming the `Host` values a server accepts.
pub(crate) const ALLOWED_HOSTS_ENV: &str = "MCP_ALLOWED_HOSTS";
/// The environment variable that says scoped items may be served without authorization.
pub(crate) const ALLOW_UNPROTECTED_ENV: &str = "MCP_ALLOW_UNPROTECTED";

/// `MCP_ALLOWED_HOSTS`: `None` when unset or blank, `*` for any host, else the comma-separated
/// host names (with or without port); an error names an entry that is not a host.
pub(crate) fn hosts_from_env() -> Result<Option<Allow>, String> {
    let Ok(value) = std::env::var(ALLOWED_HOSTS_ENV) else {
        return Ok(None);
    };
    parse_hosts(&value)
}

fn parse_hosts(value: &str) -> Result<Option<Allow>, String> {
    let entries: Vec<&str> = value
        .split(',')
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .collect();
    if entries.is_empty() {
        return Ok(None);
    }
    if entries == ["*"] {
        return Ok(Some(Allow::Any));
    }
    for e in &entries {
        let host_char = |c: char| c.is_ascii_alphanumeric() || "-.:[]_".contains(c);
        if !e.chars().all(host_char) || e.starts_with(':') {
            return Err(format!(
                "{ALLOWED_HOSTS_ENV}: {:?} is not a host: give the names clients reach this server by, \
                 with or without port, comma-separated (mcp.example.com,mcp.example.com:8443), or * for any host",
                e.chars().take(80).collect::<String>()
            ));
        }
    }
    Ok(Some(Allow::list(entries)))
}

/// The `Host` rule of an endpoint's options: the options' own list, else `MCP_ALLOWED_HOSTS`,
/// else `Auto`. A malformed variable (the serving entry points refuse to start on it) allows
/// no host at all.
pub(crate) fn hosts(given: &Allow) -> Allow {
    if !matches!(given, Allow::Auto) {
        return given.clone();
    }
    match hosts_from_env() {
        Ok(Some(allow)) => allow,
        Ok(None) => Allow::Auto,
        Err(e) => {
            tracing::error!(error = %e, "no Host is allowed");
            Allow::List(Arc::from(Vec::new()))
        }
    }
}

/// Whether a server bound to a public address would accept only IP-address `Host` values (no
/// list given anywhere): the command line says so when it starts.
#[cfg(feature = "cli")]
pub(crate) fn hosts_unlisted(server: &ServerInner) -> bool {
    let opts = server.extension::<HttpOptions>().unwrap_or_default();
    matches!(hosts(&opts.hosts), Allow::Auto)
}

/// What serving HTTP checks first: `MCP_ALLOWED_HOSTS` is well formed, and items that declare
/// scopes are not served to everyone by mistake (see [`ServerBuilder::allow_unprotected`]).
///
/// `gated`: whether the server's endpoint is protected by authorization (`http::gated`).
pub(crate) fn check_serving(server: &ServerInner, gated: bool) -> Result<(), crate::error::Error> {
    hosts_from_env().map_err(crate::error::Error::Config)?;
    match unprotected_scopes(server, gated) {
        Some(why) => Err(crate::error::Error::Config(why)),
        None => Ok(()),
    }
}

/// Why the server must not serve HTTP as configured: the items that declare scopes, when no
/// authorization checks them (`gated` is false) and nothing said it is meant so.
pub(crate) fn unprotected_scopes(server: &ServerInner, gated: bool) -> Option<String> {
    if gated {
        return None;
    }
    if server.extension::<Unprotected>().is_some_and(|u| u.0) || env_allows_unprotected() {
        return None;
    }
    let live = server.live();
    let c = &live.catalog;
    let scoped: Vec<String> = (c.tools.iter().filter(|t| !t.record.scopes.is_empty()))
        .map(|t| format!("tool {}", t.record.name))
        .chain(
            (c.resources.iter().filter(|r| !r.record.scopes.is_empty()))
                .map(|r| format!("resource {}", r.record.uri)),
        )
        .chain(
            (c.templates.iter().filter(|r| !r.record.scopes.is_empty()))
                .map(|r| format!("resource template {}", r.record.uri)),
        )
        .chain(
            (c.prompts.iter().filter(|p| !p.record.scopes.is_empty()))
                .map(|p| format!("prompt {}", p.record.name)),
        )
        .collect();
    let first = scoped.first()?;
    let more = match scoped.len() {
        1 => String::new(),
        n => format!(" and {} more", n - 1),
    };
    let configure = if cfg!(feature = "auth") {
        "configure authorization (ServerBuilder::auth, or MCP_AUTH_ISSUER and MCP_AUTH_AUDIENCE)"
    } else {
        "build with the `auth` feature of mcp-runtime and configure authorization"
    };
    Some(format!(
        "{first}{more} declare(s) scopes, but no authorization is configured: every client could use them. \
         To serve HTTP, {configure}, or say the server is meant to run unprotected \
         (ServerBuilder::allow_unprotected(true), or {ALLOW_UNPROTECTED_ENV}=1)"
    ))
}

/// `MCP_ALLOW_UNPROTECTED` is `1` or `true`.
fn env_allows_unprotected() -> bool {
    std::env::var(ALLOW_UNPROTECTED_ENV)
        .is_ok_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "1" | "true"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listed(value: &str) -> Vec<String> {
        match parse_hosts(value) {
            Ok(Some(Allow::List(list))) => list.to_vec(),
            other => panic!("{value}: {other:?}"),
        }
    }

    #[test]
    fn allowed_hosts_from_the_environment() {
        assert_eq!(
            listed(" MCP.example.com , mcp.example.com:8443,,[::1]:80"),
            ["mcp.example.com", "mcp.example.com:8443", "[::1]:80"]
        );
        assert!(matches!(parse_hosts("*"), Ok(Some(Allow::Any))));
        assert!(matches!(parse_hosts(" * , "), Ok(Some(Allow::Any))));
        assert!(matches!(parse_hosts(""), Ok(None)));
        assert!(matches!(parse_hosts(" , "), Ok(None)));
        for bad in [
            "https://mcp.example.com",
            "a.example,*",
            "user@host",
            "a b",
            ":8000",
        ] {
            let e = parse_hosts(bad).unwrap_err();
            assert!(e.starts_with("MCP_ALLOWED_HOSTS: \""), "{bad}: {e}");
            assert!(e.contains("is not a host"), "{bad}: {e}");
        }
    }
}
