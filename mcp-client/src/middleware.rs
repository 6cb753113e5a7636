//! Middleware on the client's outgoing requests: a [`Layer`] sees each request the client
//! sends, typed (its [`Method`] from `mcp-core`'s table, its target, revision, `_meta`), and
//! its outcome (the answer or the [`ClientError`]), and may answer instead of the server (a
//! short-circuit). The server's own seam is `mcp_runtime::middleware`; this one lives here
//! because the client never depends on the server.
//!
//! Layers compose like tower's `ServiceBuilder`: the first added
//! ([`ClientBuilder::layer`](crate::ClientBuilder::layer)) is the outermost. With none, a
//! request takes its usual path: one `is_empty` check, nothing built or boxed. A layer runs
//! outside the request's time limit and before the era's `_meta` is stamped on the params.
//!
//! ```
//! use mcp_runtime_client::Client;
//! use mcp_runtime_client::middleware::{Outcome, from_fn};
//! use mcp_runtime_client::protocol::Method;
//!
//! let builder = Client::builder().layer(from_fn(|request, next| {
//!     Box::pin(async move {
//!         if request.method() == Method::Ping {
//!             return Outcome::result(&serde_json::json!({})).unwrap();
//!         }
//!         next.run().await
//!     })
//! }));
//! # let _ = builder;
//! ```

use std::sync::{Arc, OnceLock};

use mcp_core::{Era, Method, ProtocolVersion, RequestId};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::error::ClientError;
use crate::outgoing::Answer;
use mcp_io::BoxFuture;

/// A client middleware layer: calls `next.run()` to send the request on (through the layers
/// inside it), or returns an outcome of its own.
///
/// ```
/// use mcp_runtime_client::BoxFuture;
/// use mcp_runtime_client::middleware::{Layer, Next, Outcome, Request};
///
/// struct Log;
///
/// impl Layer for Log {
///     fn call<'a>(&'a self, request: &'a Request<'a>, next: Next<'a>) -> BoxFuture<'a, Outcome> {
///         Box::pin(async move {
///             let outcome = next.run().await;
///             eprintln!("{:?}: {}", request.method(), outcome.failure().is_none());
///             outcome
///         })
///     }
/// }
/// ```
pub trait Layer: Send + Sync + 'static {
    /// Handles `request`, calling `next` to go on.
    ///
    /// ```
    /// use mcp_runtime_client::middleware::{Layer, Next, Outcome, Request};
    ///
    /// struct Pass;
    ///
    /// impl Layer for Pass {
    ///     fn call<'a>(&'a self, _: &'a Request<'a>, next: Next<'a>) -> mcp_runtime_client::BoxFuture<'a, Outcome> {
    ///         next.run()
    ///     }
    /// }
    /// ```
    fn call<'a>(&'a self, request: &'a Request<'a>, next: Next<'a>) -> BoxFuture<'a, Outcome>;
}

/// One outgoing request as a layer sees it.
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
    id: &'a RequestId,
    transport: TransportKind,
    session: Option<String>,
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
            id,
            transport,
            session,
        }
    }

    /// The JSON-RPC id the request is sent with.
    ///
    /// ```
    /// # use mcp_runtime_client::middleware::Request;
    /// fn id(request: &Request<'_>) -> String {
    ///     request.id().to_string()
    /// }
    /// # let _ = id;
    /// ```
    pub fn id(&self) -> &'a RequestId {
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

/// What an outgoing request came to: the server's answer, or why there is none.
///
/// ```
/// use mcp_runtime_client::ClientError;
/// use mcp_runtime_client::middleware::Outcome;
/// use mcp_runtime_client::protocol::ErrorObject;
///
/// let refused = Outcome::error(ClientError::Rpc(ErrorObject::new(-32000, "no")));
/// assert!(refused.failure().is_some());
/// ```
#[derive(Debug)]
pub struct Outcome(pub(crate) Result<Answer, ClientError>);

impl Outcome {
    /// Fails the request with `error`.
    ///
    /// ```
    /// use mcp_runtime_client::ClientError;
    /// use mcp_runtime_client::middleware::Outcome;
    ///
    /// let closed = Outcome::error(ClientError::Closed);
    /// # let _ = closed;
    /// ```
    pub fn error(error: ClientError) -> Self {
        Self(Err(error))
    }

    /// Answers the request with `result`, as if the server had (it must be what the method
    /// returns).
    ///
    /// ```
    /// use mcp_runtime_client::middleware::Outcome;
    ///
    /// let pong = Outcome::result(&serde_json::json!({})).unwrap();
    /// assert!(pong.failure().is_none());
    /// ```
    pub fn result<T: Serialize + ?Sized>(result: &T) -> Result<Self, serde_json::Error> {
        let result = serde_json::to_string(result)?;
        Ok(Self(Ok(Answer(format!(
            r#"{{"jsonrpc":"2.0","id":null,"result":{result}}}"#
        )))))
    }

    /// The error, when the request failed (a JSON-RPC error is `ClientError::Rpc`).
    ///
    /// ```
    /// use mcp_runtime_client::ClientError;
    /// use mcp_runtime_client::middleware::Outcome;
    ///
    /// assert!(matches!(Outcome::error(ClientError::Closed).failure(), Some(ClientError::Closed)));
    /// ```
    pub fn failure(&self) -> Option<&ClientError> {
        self.0.as_ref().err()
    }

    /// The answer's text as the server sent it (or the layer made it), when there is one.
    ///
    /// ```
    /// use mcp_runtime_client::middleware::Outcome;
    ///
    /// let pong = Outcome::result(&serde_json::json!({})).unwrap();
    /// assert!(pong.text().unwrap().ends_with(r#""result":{}}"#));
    /// ```
    pub fn text(&self) -> Option<&str> {
        self.0.as_ref().ok().map(Answer::text)
    }
}

/// What comes after a layer: the layers inside it, then the server.
///
/// ```
/// use mcp_runtime_client::middleware::{Next, Outcome};
///
/// async fn go_on(next: Next<'_>) -> Outcome {
///     next.run().await
/// }
/// # let _ = go_on;
/// ```
pub struct Next<'a> {
    rest: &'a [Arc<dyn Layer>],
    request: &'a Request<'a>,
    endpoint: Endpoint<'a>,
    meta: Map<String, Value>,
}

pub(crate) type Endpoint<'a> =
    Box<dyn FnOnce(Map<String, Value>) -> BoxFuture<'a, Outcome> + Send + 'a>;

impl<'a> Next<'a> {
    /// Runs the rest of the chain: the next layer, or the request itself.
    ///
    /// ```
    /// use mcp_runtime_client::middleware::from_fn;
    ///
    /// let pass = from_fn(|_request, next| next.run());
    /// # let _ = pass;
    /// ```
    pub fn run(self) -> BoxFuture<'a, Outcome> {
        match self.rest.split_first() {
            Some((layer, rest)) => layer.call(
                self.request,
                Next {
                    rest,
                    request: self.request,
                    endpoint: self.endpoint,
                    meta: self.meta,
                },
            ),
            None => (self.endpoint)(self.meta),
        }
    }

    /// STUB (h24-otel; main's own replaces it at the merge): entries written into the
    /// outgoing request's `params._meta`.
    ///
    /// ```
    /// use mcp_runtime_client::middleware::from_fn;
    ///
    /// let tag = from_fn(|_request, mut next| {
    ///     next.meta_mut().insert("example.com/tag".into(), "a".into());
    ///     next.run()
    /// });
    /// # let _ = tag;
    /// ```
    pub fn meta_mut(&mut self) -> &mut Map<String, Value> {
        &mut self.meta
    }
}

impl std::fmt::Debug for Next<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Next")
            .field("layers", &self.rest.len())
            .finish_non_exhaustive()
    }
}

/// A layer made of a closure (see [`from_fn`]).
///
/// ```
/// use mcp_runtime_client::middleware::{FromFn, from_fn};
///
/// let layer = from_fn(|_request, next| next.run());
/// let _: &FromFn<_> = &layer;
/// ```
#[derive(Clone)]
pub struct FromFn<F>(F);

impl<F> std::fmt::Debug for FromFn<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FromFn")
    }
}

/// A layer from a closure taking the request and what comes next, returning a boxed future
/// of the outcome.
///
/// ```
/// use mcp_runtime_client::middleware::from_fn;
///
/// let timing = from_fn(|request, next| {
///     Box::pin(async move {
///         let started = std::time::Instant::now();
///         let outcome = next.run().await;
///         eprintln!("{} took {:?}", request.method_name(), started.elapsed());
///         outcome
///     })
/// });
/// # let _ = timing;
/// ```
pub fn from_fn<F>(f: F) -> FromFn<F>
where
    F: for<'a> Fn(&'a Request<'a>, Next<'a>) -> BoxFuture<'a, Outcome> + Send + Sync + 'static,
{
    FromFn(f)
}

impl<F> Layer for FromFn<F>
where
    F: for<'a> Fn(&'a Request<'a>, Next<'a>) -> BoxFuture<'a, Outcome> + Send + Sync + 'static,
{
    fn call<'a>(&'a self, request: &'a Request<'a>, next: Next<'a>) -> BoxFuture<'a, Outcome> {
        (self.0)(request, next)
    }
}

/// A client's layers, outermost first.
#[derive(Clone, Default)]
pub(crate) struct Layers(Vec<Arc<dyn Layer>>);

impl std::fmt::Debug for Layers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Layers")
            .field("len", &self.0.len())
            .finish()
    }
}

impl Layers {
    pub(crate) fn push(&mut self, layer: Arc<dyn Layer>) {
        self.0.push(layer);
    }

    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Runs `request` through the layers to `endpoint`.
    pub(crate) async fn run<'a>(
        &'a self,
        request: &'a Request<'a>,
        endpoint: Endpoint<'a>,
    ) -> Result<Answer, ClientError> {
        let next = Next {
            rest: &self.0,
            request,
            endpoint,
            meta: Map::new(),
        };
        next.run().await.0
    }
}
