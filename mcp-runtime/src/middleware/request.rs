//! One request as a layer sees it: borrowed from the dispatcher, nothing copied for it.

use std::sync::{Arc, OnceLock};

use mcp_core::{Era, Method, ProtocolVersion, RequestId};
use serde_json::value::RawValue;

use super::scan::{Scanned, scan};
use serde_json::{Map, Value};

/// Which way a message goes, and whether it is answered.
///
/// ```
/// use mcp_runtime::middleware::Kind;
///
/// assert_ne!(Kind::Request, Kind::Notification);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Kind {
    /// A request of the peer: answered with a result or an error.
    Request,
    /// A notification of the peer: never answered.
    Notification,
}

/// Which way a message goes: from the peer to this server, or from this server to the peer
/// (a request a handler makes of the client, a notification the server sends).
///
/// ```
/// use mcp_runtime::middleware::Direction;
///
/// assert_ne!(Direction::Incoming, Direction::Outgoing);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Direction {
    /// Sent by the client: the server serves it.
    Incoming,
    /// Sent by the server: `elicitation/create`, `sampling/createMessage`, `roots/list`,
    /// `notifications/progress`, `notifications/message`, the `list_changed` notifications and
    /// `notifications/resources/updated`. Only layers whose
    /// [`sees_outgoing`](super::Layer::sees_outgoing) says so see these.
    Outgoing,
}

/// The transport a request came over (what OpenTelemetry calls `network.transport` is read
/// from it).
///
/// ```
/// use mcp_runtime::middleware::TransportKind;
///
/// assert_eq!(TransportKind::StreamableHttp.as_str(), "streamable-http");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TransportKind {
    /// One message per line on stdin and stdout.
    Stdio,
    /// Streamable HTTP, either era.
    StreamableHttp,
    /// The HTTP+SSE transport of 2024-11-05.
    LegacySse,
    /// The in-memory pair (`Server::connect_in_memory`, `Server::connect_client`).
    Memory,
    /// Any other `Transport` given to `Server::serve`.
    Custom,
}

impl TransportKind {
    /// A short, stable name: `stdio`, `streamable-http`, `sse`, `memory`, `custom`.
    ///
    /// ```
    /// use mcp_runtime::middleware::TransportKind;
    ///
    /// assert_eq!(TransportKind::LegacySse.as_str(), "sse");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Stdio => "stdio",
            Self::StreamableHttp => "streamable-http",
            Self::LegacySse => "sse",
            Self::Memory => "memory",
            Self::Custom => "custom",
        }
    }
}

/// One message on its way through the layers: its method (of `mcp-core`'s method table), id,
/// params, revision, transport and principal. It borrows the dispatcher's own reading; the
/// target and `_meta` are read from the params only when a layer asks, with the same rules as
/// the method's (a duplicate member is refused by both, so the two readings cannot differ).
///
/// ```
/// use mcp_runtime::middleware::{Request, from_fn};
///
/// let log = from_fn(|request: &Request<'_>, next| {
///     Box::pin(async move {
///         let method = request.method().name().unwrap_or("unknown");
///         let target = request.target().unwrap_or("-");
///         let outcome = next.run().await;
///         eprintln!("{method} {target}: {:?}", outcome.kind());
///         outcome
///     })
/// });
/// # let _ = log;
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub struct Request<'a> {
    kind: Kind,
    direction: Direction,
    method: Method,
    id: Option<&'a RequestId>,
    params: Option<&'a RawValue>,
    version: Option<ProtocolVersion>,
    transport: TransportKind,
    principal: Option<Arc<str>>,
    /// The target and `_meta`, read from the params together the first time either is asked
    /// for (one pass over the params, not one each).
    scanned: OnceLock<Scanned<'a>>,
    /// `_meta` parsed, the first time [`Request::meta`] is asked for.
    meta: OnceLock<Option<Map<String, Value>>>,
    session: Option<&'a str>,
    items: Option<super::items::ItemsRef<'a>>,
}

impl<'a> Request<'a> {
    pub(crate) fn new(
        kind: Kind,
        method: Method,
        id: Option<&'a RequestId>,
        params: Option<&'a RawValue>,
        version: Option<ProtocolVersion>,
        transport: TransportKind,
    ) -> Self {
        Self {
            kind,
            direction: Direction::Incoming,
            method,
            id,
            params,
            version,
            transport,
            principal: crate::principal::current(),
            scanned: OnceLock::new(),
            meta: OnceLock::new(),
            items: None,
            session: None,
        }
    }

    /// The same request, with what the server knows of its item (for the crate's own layers).
    pub(crate) fn with_items(mut self, items: &'a dyn super::Items) -> Self {
        self.items = Some(super::items::ItemsRef(items));
        self
    }

    /// What the server knows of its item, when the connection said.
    pub(crate) fn items(&self) -> Option<&'a dyn super::Items> {
        self.items.map(|i| i.0)
    }

    /// The same message, sent by the server to the client.
    pub(crate) fn outgoing(mut self) -> Self {
        self.direction = Direction::Outgoing;
        self
    }

    /// The same request, in the transport session `session`.
    pub(crate) fn with_session(mut self, session: Option<&'a str>) -> Self {
        self.session = session;
        self
    }

    /// A request or a notification.
    ///
    /// ```
    /// # use mcp_runtime::middleware::{Kind, Request};
    /// fn answered(request: &Request<'_>) -> bool {
    ///     request.kind() == Kind::Request
    /// }
    /// # let _ = answered;
    /// ```
    #[inline]
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// Which way the message goes: [`Direction::Incoming`] for what the client sends,
    /// [`Direction::Outgoing`] for what the server sends it (its id is then the server's own,
    /// `s-N`).
    ///
    /// ```
    /// # use mcp_runtime::middleware::{Direction, Request};
    /// fn from_client(request: &Request<'_>) -> bool {
    ///     request.direction() == Direction::Incoming
    /// }
    /// # let _ = from_client;
    /// ```
    pub fn direction(&self) -> Direction {
        self.direction
    }

    /// Whether the server sends this message (see [`direction`](Self::direction)).
    ///
    /// ```
    /// # use mcp_runtime::middleware::Request;
    /// use mcp_runtime::protocol::Method;
    ///
    /// fn asks_the_user(request: &Request<'_>) -> bool {
    ///     request.is_outgoing() && request.method() == Method::Elicit
    /// }
    /// # let _ = asks_the_user;
    /// ```
    #[inline]
    pub fn is_outgoing(&self) -> bool {
        self.direction == Direction::Outgoing
    }

    /// The method, from `mcp-core`'s table (`Method::Unknown` for a name a client may not send).
    ///
    /// ```
    /// # use mcp_runtime::middleware::Request;
    /// use mcp_runtime::protocol::Method;
    ///
    /// fn is_call(request: &Request<'_>) -> bool {
    ///     request.method() == Method::CallTool
    /// }
    /// # let _ = is_call;
    /// ```
    #[inline]
    pub fn method(&self) -> Method {
        self.method
    }

    /// The request's id (`None` for a notification).
    ///
    /// ```
    /// # use mcp_runtime::middleware::Request;
    /// fn id(request: &Request<'_>) -> String {
    ///     request.id().map_or_else(String::new, |id| id.to_string())
    /// }
    /// # let _ = id;
    /// ```
    #[inline]
    pub fn id(&self) -> Option<&'a RequestId> {
        self.id
    }

    /// The params as they were sent (the JSON text), if any.
    ///
    /// ```
    /// # use mcp_runtime::middleware::Request;
    /// fn size(request: &Request<'_>) -> usize {
    ///     request.params().map_or(0, |p| p.get().len())
    /// }
    /// # let _ = size;
    /// ```
    pub fn params(&self) -> Option<&'a RawValue> {
        self.params
    }

    /// The protocol revision the request is served in: `None` for `initialize` (it negotiates
    /// one) and for a notification outside a session.
    ///
    /// ```
    /// # use mcp_runtime::middleware::Request;
    /// fn revision(request: &Request<'_>) -> &'static str {
    ///     request.version().map_or("", |v| v.as_str())
    /// }
    /// # let _ = revision;
    /// ```
    #[inline]
    pub fn version(&self) -> Option<ProtocolVersion> {
        self.version
    }

    /// The era: a handshake session, or stateless.
    ///
    /// ```
    /// # use mcp_runtime::middleware::Request;
    /// use mcp_runtime::protocol::Era;
    ///
    /// fn stateless(request: &Request<'_>) -> bool {
    ///     request.era() == Some(Era::Stateless)
    /// }
    /// # let _ = stateless;
    /// ```
    pub fn era(&self) -> Option<Era> {
        self.version.map(ProtocolVersion::era)
    }

    /// The transport it came over.
    ///
    /// ```
    /// # use mcp_runtime::middleware::{Request, TransportKind};
    /// fn over_http(request: &Request<'_>) -> bool {
    ///     request.transport() == TransportKind::StreamableHttp
    /// }
    /// # let _ = over_http;
    /// ```
    #[inline]
    pub fn transport(&self) -> TransportKind {
        self.transport
    }

    /// Who the request is, when the transport knows: the verified token (feature `auth`),
    /// else the peer address of the standalone HTTP server's connection (`peer:ADDR`). Over
    /// stdio and in memory there is none. This is the key of the fair shares, and what a rate
    /// limit counts by.
    ///
    /// ```
    /// # use mcp_runtime::middleware::Request;
    /// fn who<'r>(request: &'r Request<'_>) -> &'r str {
    ///     request.principal().unwrap_or("anonymous")
    /// }
    /// # let _ = who;
    /// ```
    pub fn principal(&self) -> Option<&str> {
        self.principal.as_deref()
    }

    /// The item the request acts on, when its method names one: the tool or prompt name, the
    /// resource URI, the task id, or the prompt or resource a completion is for. Read from the
    /// params the first time it is asked for.
    ///
    /// ```
    /// # use mcp_runtime::middleware::Request;
    /// fn span_name(request: &Request<'_>) -> String {
    ///     let method = request.method().name().unwrap_or("unknown");
    ///     match request.target() {
    ///         Some(target) => format!("{method} {target}"),
    ///         None => method.to_owned(),
    ///     }
    /// }
    /// # let _ = span_name;
    /// ```
    #[inline]
    pub fn target(&self) -> Option<&str> {
        self.scanned().target.as_deref()
    }

    /// The request's `params._meta` (where W3C trace context travels), read from the params the
    /// first time it is asked for.
    ///
    /// ```
    /// # use mcp_runtime::middleware::Request;
    /// fn traceparent<'r>(request: &'r Request<'_>) -> Option<&'r str> {
    ///     request.meta()?.get("traceparent")?.as_str()
    /// }
    /// # let _ = traceparent;
    /// ```
    pub fn meta(&self) -> Option<&Map<String, Value>> {
        self.meta
            .get_or_init(|| serde_json::from_str(self.meta_text()?).ok())
            .as_ref()
    }

    /// The text of `params._meta` (an object), not parsed: whether there is one costs a walk
    /// over the params' top level.
    #[inline]
    pub(crate) fn meta_text(&self) -> Option<&'a str> {
        self.scanned().meta
    }

    #[inline]
    fn scanned(&self) -> &Scanned<'a> {
        self.scanned.get_or_init(|| {
            self.params
                .map(|p| scan(self.method.target(), p))
                .unwrap_or_default()
        })
    }

    /// The transport's session id: the `Mcp-Session-Id` of a Streamable HTTP session of the
    /// handshake era, or the legacy SSE endpoint's `sessionId`; `None` on stdio, in memory, in
    /// the stateless era and for `initialize` itself (the id is handed out with its answer).
    ///
    /// ```
    /// # use mcp_runtime::middleware::Request;
    /// fn session<'r>(request: &'r Request<'_>) -> Option<&'r str> {
    ///     request.session_id()
    /// }
    /// # let _ = session;
    /// ```
    #[inline]
    pub fn session_id(&self) -> Option<&str> {
        self.session
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &str) -> Box<RawValue> {
        RawValue::from_string(text.to_owned()).unwrap()
    }

    #[test]
    fn target_and_meta_are_read_when_asked() {
        let params = raw(r#"{"name":"add","arguments":{},"_meta":{"traceparent":"00-ab"}}"#);
        let id = RequestId::Number(1);
        let r = Request::new(
            Kind::Request,
            Method::CallTool,
            Some(&id),
            Some(&params),
            Some(ProtocolVersion::V2025_06_18),
            TransportKind::Memory,
        );
        assert_eq!(r.target(), Some("add"));
        assert_eq!(r.meta().unwrap()["traceparent"], "00-ab");
        assert_eq!(r.era(), Some(Era::Handshake));
        let c = raw(r#"{"ref":{"type":"ref/resource","uri":"file:///a"},"argument":{}}"#);
        let r = Request::new(
            Kind::Request,
            Method::Complete,
            Some(&id),
            Some(&c),
            None,
            TransportKind::Stdio,
        );
        assert_eq!(r.target(), Some("file:///a"));
        assert_eq!(r.meta(), None);
        let dup = raw(r#"{"name":"a","name":"b"}"#);
        let r = Request::new(
            Kind::Request,
            Method::CallTool,
            Some(&id),
            Some(&dup),
            None,
            TransportKind::Stdio,
        );
        assert_eq!(
            r.target(),
            None,
            "a duplicate member is refused, as the method does"
        );
    }
}
