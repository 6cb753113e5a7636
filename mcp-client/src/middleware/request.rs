//! One request as a client layer sees it: the client's own, or (for a layer that asks) one
//! the server sends.

use std::sync::OnceLock;

use mcp_core::{Era, Method, ProtocolVersion, RequestId};
use serde_json::{Map, Value};

/// Which way a message goes: a request of the client's, or a message of the server's.
///
/// ```
/// use mcp_runtime_client::middleware::Direction;
///
/// assert_ne!(Direction::Outgoing, Direction::Incoming);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Direction {
    /// A request the client sends.
    Outgoing,
    /// A request or notification the server sends (seen by layers that
    /// [ask](super::Layer::sees_incoming)).
    Incoming,
}

/// One request as a layer sees it: one the client sends or, for a layer that asks, one
/// the server sends the client.
///
/// ```
/// use mcp_runtime_client::middleware::{Request, from_fn};
///
/// let layer = from_fn(|request: &Request<'_>, next| {
///     let _ = (request.target(), request.version());
///     next.run()
/// });
/// # let _ = layer;
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub struct Request<'a> {
    method: Method,
    name: &'a str,
    params: &'a Map<String, Value>,
    version: ProtocolVersion,
    target: OnceLock<Option<String>>,
    id: Option<&'a RequestId>,
    transport: TransportKind,
    session: Option<String>,
    direction: Direction,
}

/// What a client's connection runs over (OpenTelemetry's `network.transport` is read from it).
///
/// ```
/// use mcp_runtime_client::middleware::TransportKind;
///
/// assert_eq!(TransportKind::Stdio.as_str(), "stdio");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TransportKind {
    /// A spawned server's stdin and stdout (`ClientBuilder::connect_stdio`).
    Stdio,
    /// Streamable HTTP (`ClientBuilder::connect_http`), either era.
    StreamableHttp,
    /// Any other message transport (`ClientBuilder::connect`: in memory, a socket of the
    /// application's).
    Other,
}

impl TransportKind {
    /// Its name: `stdio`, `streamable-http` or `other`.
    ///
    /// ```
    /// use mcp_runtime_client::middleware::TransportKind;
    ///
    /// assert_eq!(TransportKind::StreamableHttp.as_str(), "streamable-http");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            TransportKind::Stdio => "stdio",
            TransportKind::StreamableHttp => "streamable-http",
            TransportKind::Other => "other",
        }
    }
}

impl<'a> Request<'a> {
    /// Request `name` with `params` and id `id`, sent in `version` over `transport`, in
    /// `session` (the HTTP session, when there is one).
    pub(crate) fn new(
        name: &'a str,
        params: &'a Map<String, Value>,
        version: ProtocolVersion,
        id: &'a RequestId,
        transport: TransportKind,
        session: Option<String>,
    ) -> Self {
        Self {
            method: Method::parse(name),
            name,
            params,
            version,
            target: OnceLock::new(),
            id: Some(id),
            transport,
            session,
            direction: Direction::Outgoing,
        }
    }

    /// A message of the server's: a request with its `id`, or a notification (no id).
    pub(crate) fn incoming(
        name: &'a str,
        params: &'a Map<String, Value>,
        version: ProtocolVersion,
        id: Option<&'a RequestId>,
        transport: TransportKind,
        session: Option<String>,
    ) -> Self {
        Self {
            method: if id.is_some() {
                Method::server_request(name)
            } else {
                Method::server_notification(name)
            },
            id,
            direction: Direction::Incoming,
            ..Self::new(name, params, version, &NO_ID, transport, session)
        }
    }

    /// Which way the message goes: [`Direction::Outgoing`] for the client's requests.
    ///
    /// ```
    /// # use mcp_runtime_client::middleware::{Direction, Request};
    /// fn from_server(request: &Request<'_>) -> bool {
    ///     request.direction() == Direction::Incoming
    /// }
    /// # let _ = from_server;
    /// ```
    pub fn direction(&self) -> Direction {
        self.direction
    }

    /// Whether the server sent this message (see [`direction`](Self::direction)).
    ///
    /// ```
    /// # use mcp_runtime_client::middleware::Request;
    /// use mcp_runtime_client::protocol::Method;
    ///
    /// fn asks_the_user(request: &Request<'_>) -> bool {
    ///     request.is_incoming() && request.method() == Method::Elicit
    /// }
    /// # let _ = asks_the_user;
    /// ```
    pub fn is_incoming(&self) -> bool {
        self.direction == Direction::Incoming
    }

    /// Whether it is a notification (of the server's: the client's notifications do not pass
    /// the layers); it then has no [`id`](Self::id).
    ///
    /// ```
    /// # use mcp_runtime_client::middleware::Request;
    /// fn answered(request: &Request<'_>) -> bool {
    ///     !request.is_notification()
    /// }
    /// # let _ = answered;
    /// ```
    pub fn is_notification(&self) -> bool {
        self.id.is_none()
    }

    /// The JSON-RPC id the request is sent with (the server's, for its requests; `None` for
    /// a notification).
    ///
    /// ```
    /// # use mcp_runtime_client::middleware::Request;
    /// fn id(request: &Request<'_>) -> String {
    ///     request.id().map(ToString::to_string).unwrap_or_default()
    /// }
    /// # let _ = id;
    /// ```
    pub fn id(&self) -> Option<&'a RequestId> {
        self.id
    }

    /// What the connection runs over.
    ///
    /// ```
    /// # use mcp_runtime_client::middleware::{Request, TransportKind};
    /// fn over_http(request: &Request<'_>) -> bool {
    ///     request.transport() == TransportKind::StreamableHttp
    /// }
    /// # let _ = over_http;
    /// ```
    pub fn transport(&self) -> TransportKind {
        self.transport
    }

    /// The `Mcp-Session-Id` the server assigned (Streamable HTTP, handshake era), if any.
    ///
    /// ```
    /// # use mcp_runtime_client::middleware::Request;
    /// fn session<'r>(request: &'r Request<'_>) -> &'r str {
    ///     request.session_id().unwrap_or("-")
    /// }
    /// # let _ = session;
    /// ```
    pub fn session_id(&self) -> Option<&str> {
        self.session.as_deref()
    }

    /// The method, from `mcp-core`'s table (`Method::Unknown` for one it does not know).
    ///
    /// ```
    /// # use mcp_runtime_client::middleware::Request;
    /// fn method<'r>(request: &'r Request<'_>) -> &'r str {
    ///     request.method_name()
    /// }
    /// # let _ = method;
    /// ```
    pub fn method(&self) -> Method {
        self.method
    }

    /// The method's name as sent.
    ///
    /// ```
    /// # use mcp_runtime_client::middleware::Request;
    /// fn is_call(request: &Request<'_>) -> bool {
    ///     request.method_name() == "tools/call"
    /// }
    /// # let _ = is_call;
    /// ```
    pub fn method_name(&self) -> &'a str {
        self.name
    }

    /// The params (before the stateless era's `_meta` is added).
    ///
    /// ```
    /// # use mcp_runtime_client::middleware::Request;
    /// fn has_arguments(request: &Request<'_>) -> bool {
    ///     request.params().contains_key("arguments")
    /// }
    /// # let _ = has_arguments;
    /// ```
    pub fn params(&self) -> &'a Map<String, Value> {
        self.params
    }

    /// The `_meta` the caller put in the params, if any.
    ///
    /// ```
    /// # use mcp_runtime_client::middleware::Request;
    /// fn traceparent<'r>(request: &'r Request<'_>) -> Option<&'r str> {
    ///     request.meta()?.get("traceparent")?.as_str()
    /// }
    /// # let _ = traceparent;
    /// ```
    pub fn meta(&self) -> Option<&'a Map<String, Value>> {
        self.params.get("_meta")?.as_object()
    }

    /// The revision the request is sent in.
    ///
    /// ```
    /// # use mcp_runtime_client::middleware::Request;
    /// fn revision(request: &Request<'_>) -> &'static str {
    ///     request.version().as_str()
    /// }
    /// # let _ = revision;
    /// ```
    pub fn version(&self) -> ProtocolVersion {
        self.version
    }

    /// The era it is sent in.
    ///
    /// ```
    /// # use mcp_runtime_client::middleware::Request;
    /// use mcp_runtime_client::protocol::Era;
    ///
    /// fn stateless(request: &Request<'_>) -> bool {
    ///     request.era() == Era::Stateless
    /// }
    /// # let _ = stateless;
    /// ```
    pub fn era(&self) -> Era {
        self.version.era()
    }

    /// The tool or prompt name, resource URI, task id or completion reference the request
    /// acts on, when its method has one.
    ///
    /// ```
    /// # use mcp_runtime_client::middleware::Request;
    /// fn target<'r>(request: &'r Request<'_>) -> &'r str {
    ///     request.target().unwrap_or("-")
    /// }
    /// # let _ = target;
    /// ```
    pub fn target(&self) -> Option<&str> {
        self.target
            .get_or_init(|| {
                let member = self.method.target()?.member();
                let value = self.params.get(member)?;
                let found = match value {
                    Value::String(s) => s.as_str(),
                    Value::Object(r) => r.get("name").or_else(|| r.get("uri"))?.as_str()?,
                    _ => return None,
                };
                Some(found.to_owned())
            })
            .as_deref()
    }
}

/// The id of a notification, never read (its [`Request::id`] is `None`).
static NO_ID: RequestId = RequestId::Number(0);
