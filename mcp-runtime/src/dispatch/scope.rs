//! Which era and revision a request is served in, and what it is served with: the one resolver
//! every transport shares.
//!
//! A request whose `params._meta` names a protocol version is served statelessly (2026-07-28),
//! whatever else happened on the connection; `initialize` without one opens a handshake-era
//! session; any other request needs that session. `ping` is answered either way.

use std::sync::Arc;
use std::sync::atomic::AtomicU8;

use mcp_core::jsonrpc::{echo, error_codes};
use mcp_core::meta::{CLIENT_CAPABILITIES_KEY, PROTOCOL_VERSION_KEY};
use mcp_core::{
    ClientCapabilities, Era, ErrorObject, Implementation, ProgressToken, ProtocolVersion,
    RequestMeta,
};
use serde_json::value::RawValue;

use crate::dispatch::meta_memo::Known;
use crate::dispatch::route::Route;
use crate::handler::context::LogGate;
use crate::handler::sent_meta::SentMeta;
use crate::outbound::Sink;

/// What `initialize` negotiated for a handshake-era session: the revision, the client and its
/// capabilities.
#[derive(Debug)]
pub(crate) struct Negotiated {
    pub(crate) version: ProtocolVersion,
    pub(crate) client_info: Arc<Implementation>,
    pub(crate) client_caps: Arc<ClientCapabilities>,
}

impl Negotiated {
    #[cfg(feature = "http")]
    /// A session whose handshake happened elsewhere (HTTP without sessions): it serves
    /// handshake-era requests at `version`, with no client capabilities known.
    pub(crate) fn assumed(version: ProtocolVersion) -> Self {
        Self {
            version,
            client_info: Arc::new(Implementation::new("unknown", "0")),
            client_caps: Arc::new(ClientCapabilities::default()),
        }
    }
}

/// What a request is served with: revision, client, logging, progress, and where its messages go.
pub(crate) struct Scope {
    pub(crate) version: ProtocolVersion,
    pub(crate) client_info: Option<Arc<Implementation>>,
    pub(crate) client_caps: Option<Arc<ClientCapabilities>>,
    pub(crate) log_gate: LogGate,
    pub(crate) progress_token: Option<ProgressToken>,
    /// `_meta` as the handler sees it, made into a map when the handler asks.
    pub(crate) meta: SentMeta,
    /// Where this request's notifications, requests to the client and reply go.
    pub(crate) peer: Sink,
    /// The HTTP request's headers (the stateless era mirrors tool arguments in them).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) headers: RequestHeaders,
    /// The caller the HTTP endpoint's auth gate verified (feature `auth`).
    #[cfg(feature = "auth")]
    pub(crate) caller: Option<crate::caller::Caller>,
    /// Whether the params carry a retry's members, if a pass over them found out.
    pub(crate) retry: Retry,
}

/// What is known of a request's `inputResponses` and `requestState` (a retried round).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Retry {
    /// Nothing yet: the round looks for them in the params' text.
    Unknown,
    /// A pass over the params saw neither member.
    Absent,
    /// A pass over the params saw one of them.
    Present,
}

impl Retry {
    /// What a pass over the params found.
    pub(crate) fn known(present: bool) -> Self {
        if present { Self::Present } else { Self::Absent }
    }
}

/// The headers of the HTTP request that carried a message, when it came over HTTP.
#[cfg(feature = "http")]
pub(crate) type RequestHeaders = Option<Arc<http::HeaderMap>>;
/// Always `None`: without the `http` feature no message comes with headers.
#[cfg(not(feature = "http"))]
pub(crate) type RequestHeaders = Option<std::convert::Infallible>;

/// The era a message announces by itself, before any session is consulted: `initialize` without a
/// `_meta` version opens the handshake era, a `_meta` version means the stateless era.
pub(crate) fn announced_era(route: Option<Route>, meta_version: Option<&str>) -> Option<Era> {
    match (route, meta_version) {
        (_, Some(_)) => Some(Era::Stateless),
        (Some(Route::Initialize), None) => Some(Era::Handshake),
        _ => None,
    }
}

/// -32602 naming a reserved `_meta` key the request lacks.
pub(crate) fn missing_meta(key: &str) -> ErrorObject {
    ErrorObject::invalid_params(format!("missing required `_meta[\"{key}\"]`"))
}

/// The stateless revision a request names, or -32022 with the revisions served statelessly.
pub(crate) fn stateless_version(requested: &str) -> Result<ProtocolVersion, ErrorObject> {
    match ProtocolVersion::parse(requested) {
        Some(v) if v.is_stateless() => Ok(v),
        _ => Err(ErrorObject::new(
            error_codes::UNSUPPORTED_PROTOCOL_VERSION,
            format!("unsupported protocol version {:?}; this server speaks 2026-07-28 statelessly and 2024-11-05 to 2025-11-25 through `initialize`", echo(requested).to_string()),
        )
        .with_data(serde_json::json!({
            "supported": [ProtocolVersion::V2026_07_28.as_str()],
            "requested": echo(requested),
        }))),
    }
}

/// Whether a stateless request carries both reserved keys every such request needs.
#[cfg(feature = "http")]
pub(crate) fn has_stateless_meta(meta: &RequestMeta) -> bool {
    meta.protocol_version.is_some() && meta.client_capabilities.is_some()
}

/// -32602 for a stateless request without both reserved keys.
#[cfg(feature = "http")]
pub(crate) fn missing_stateless_meta() -> ErrorObject {
    ErrorObject::invalid_params(format!(
        "missing required `_meta[\"{PROTOCOL_VERSION_KEY}\"]` and `_meta[\"{CLIENT_CAPABILITIES_KEY}\"]`"
    ))
}

/// Reads a request's `_meta` (unless the transport already did); `None` when it has none.
fn read_meta(
    params: Option<&RawValue>,
    pre: Option<Box<RequestMeta>>,
) -> Result<Option<RequestMeta>, ErrorObject> {
    match pre {
        Some(meta) => Ok(Some(*meta)),
        // Most handshake-era requests carry no `_meta`: skip the parse when the text says so.
        None if !mentions_meta(params) => Ok(None),
        None => RequestMeta::from_params(params)
            .map(Some)
            .map_err(|e| invalid_meta(&e.to_string())),
    }
}

/// Whether the params' text names `_meta` anywhere (it may be inside the arguments).
pub(crate) fn mentions_meta(params: Option<&RawValue>) -> bool {
    params.is_some_and(|p| p.get().contains("\"_meta\""))
}

/// -32602 for a `_meta` that is not a valid request `_meta` (serde's `message`, without its
/// position).
pub(crate) fn invalid_meta(message: &str) -> ErrorObject {
    let msg = message
        .rfind(" at line ")
        .map_or(message, |i| &message[..i]);
    ErrorObject::invalid_params(format!("invalid `_meta`: {}", echo(msg)))
}

/// The connection-side facts the resolver needs, owned: a request whose `_meta` its method
/// reads with its params keeps them until then.
pub(crate) struct Resolver {
    pub(crate) session: Option<Arc<Negotiated>>,
    /// The session's `logging/setLevel` level.
    pub(crate) log_level: Arc<AtomicU8>,
    pub(crate) peer: Sink,
    /// The HTTP request's headers, if it came over HTTP.
    pub(crate) headers: RequestHeaders,
    /// The caller the HTTP endpoint's auth gate verified (feature `auth`).
    #[cfg(feature = "auth")]
    pub(crate) caller: Option<crate::caller::Caller>,
    /// What the transport learnt of a retry's members while it read `_meta`.
    pub(crate) retry: Retry,
}

impl Resolver {
    /// Picks the era and revision of a request, and what it is served with; `pre` is its
    /// `_meta` when the transport read it already.
    pub(crate) fn resolve(
        self,
        route: Route,
        params: Option<&RawValue>,
        pre: Option<Box<RequestMeta>>,
    ) -> Result<Scope, ErrorObject> {
        let meta_version = pre.as_ref().and_then(|m| m.protocol_version.as_deref());
        if announced_era(Some(route), meta_version) == Some(Era::Handshake) {
            return Ok(self.scope(
                ProtocolVersion::LATEST_HANDSHAKE,
                None,
                None,
                SentMeta::new(None),
            ));
        }
        let meta = read_meta(params, pre)?;
        self.resolve_read(route, meta)
    }

    /// [`resolve`](Self::resolve) with the request's `_meta` already read (`None`: it has
    /// none), as a method reads it in the same pass as its params.
    pub(crate) fn resolve_read(
        mut self,
        route: Route,
        meta: Option<RequestMeta>,
    ) -> Result<Scope, ErrorObject> {
        let meta = match meta {
            Some(mut meta) => match meta.protocol_version.take() {
                Some(requested) => return self.stateless(route, &requested, meta),
                None => Some(meta),
            },
            None => None,
        };
        if let Some(session) = self.session.take() {
            if route.stateless_only() {
                return Err(missing_meta(PROTOCOL_VERSION_KEY));
            }
            let progress_token = meta.as_ref().and_then(|m| m.progress_token.clone());
            let sent = SentMeta::new(meta);
            return Ok(self.scope(session.version, Some(&session), progress_token, sent));
        }
        if route == Route::Ping {
            let sent = SentMeta::new(None);
            let mut scope = self.scope(ProtocolVersion::LATEST_HANDSHAKE, None, None, sent);
            scope.log_gate = LogGate::Request(None);
            return Ok(scope);
        }
        Err(ErrorObject::invalid_params(format!(
            "missing `_meta[\"{PROTOCOL_VERSION_KEY}\"]`: stateless (2026-07-28) requests must carry it; handshake clients must send `initialize` first"
        )))
    }

    /// Where the request's messages go.
    pub(crate) fn peer(&self) -> &Sink {
        &self.peer
    }

    /// A handshake-era scope; `meta` is the request's `_meta`.
    fn scope(
        self,
        version: ProtocolVersion,
        session: Option<&Negotiated>,
        progress_token: Option<ProgressToken>,
        meta: SentMeta,
    ) -> Scope {
        Scope {
            version,
            client_info: session.map(|s| Arc::clone(&s.client_info)),
            client_caps: session.map(|s| Arc::clone(&s.client_caps)),
            log_gate: LogGate::Session(self.log_level),
            meta,
            progress_token,
            peer: self.peer,
            headers: self.headers,
            #[cfg(feature = "auth")]
            caller: self.caller,
            retry: self.retry,
        }
    }

    /// [`resolve_read`](Self::resolve_read) of a plain stateless `_meta` (the same scope as
    /// reading it gives, its parts shared).
    pub(crate) fn resolve_known(self, route: Route, known: Known) -> Result<Scope, ErrorObject> {
        if route.handshake_only() {
            return Err(ErrorObject::method_not_found(
                route.name().unwrap_or_default(),
            ));
        }
        Ok(Scope {
            version: known.version,
            log_gate: LogGate::Request(None),
            progress_token: None,
            client_info: known.client_info,
            client_caps: Some(known.client_caps),
            meta: SentMeta::default(),
            peer: self.peer,
            headers: self.headers,
            #[cfg(feature = "auth")]
            caller: self.caller,
            retry: self.retry,
        })
    }

    fn stateless(
        self,
        route: Route,
        requested: &str,
        mut meta: RequestMeta,
    ) -> Result<Scope, ErrorObject> {
        let version = stateless_version(requested)?;
        if meta.client_capabilities.is_none() {
            return Err(missing_meta(CLIENT_CAPABILITIES_KEY));
        }
        if route.handshake_only() {
            return Err(ErrorObject::method_not_found(
                route.name().unwrap_or_default(),
            ));
        }
        // The typed fields move into the scope; the handler still sees `_meta` as sent, version
        // included, when it asks (`SentMeta` puts them back from the context).
        let client_info = meta.client_info.take();
        let client_caps = meta.client_capabilities.take();
        let log_gate = LogGate::Request(meta.log_level);
        let progress_token = meta.progress_token.clone();

        Ok(Scope {
            version,
            log_gate,
            progress_token,
            client_info,
            client_caps,
            meta: SentMeta::new(Some(meta)),
            peer: self.peer,
            headers: self.headers,
            #[cfg(feature = "auth")]
            caller: self.caller,
            retry: self.retry,
        })
    }
}

/// A handler method's request before its method runs: its scope, or what resolves it once the
/// method has read `_meta` in the same pass as its params.
pub(crate) enum Scoping {
    Resolved(Scope),
    /// The params carry `_meta` and the transport has not read it.
    Deferred(Resolver),
}

impl Scoping {
    /// Where the request's messages go.
    pub(crate) fn peer(&self) -> &Sink {
        match self {
            Self::Resolved(scope) => &scope.peer,
            Self::Deferred(resolver) => resolver.peer(),
        }
    }
}
