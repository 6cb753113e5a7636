//! Middleware on the client's outgoing requests: a [`Layer`] sees each request the client
//! sends, typed (its [`Method`](mcp_core::Method) from `mcp-core`'s table, its target, revision, `_meta`), and
//! its outcome (the answer or the [`ClientError`]), and may answer instead of the server (a
//! short-circuit). The server's own seam is `mcp_runtime::middleware`; this one lives here
//! because the client never depends on the server.
//!
//! Layers compose like tower's `ServiceBuilder`: the first added
//! ([`ClientBuilder::layer`](crate::ClientBuilder::layer)) is the outermost. With none, a
//! request takes its usual path: one `is_empty` check, nothing built or boxed. A layer runs
//! outside the request's time limit and before the era's `_meta` is stamped on the params.
//!
//! # What the server sends
//!
//! A layer that asks to ([`Layer::sees_incoming`], [`FromFn::with_incoming`]) also sees what
//! the server sends the client, as [`Direction::Incoming`] requests: its questions
//! (`elicitation/create`, `sampling/createMessage`, `roots/list`, `ping`; handshake era),
//! around the [`ClientHandler`](crate::ClientHandler) that answers them (a layer may answer
//! instead: its result, or its [`ClientError::Rpc`], is what the server receives), and its
//! notifications (progress, log messages, `list_changed`, ...), before the client handles them
//! (a layer that does not call `next` drops one). A notification's layers run on the client's
//! reader, in the order the notifications came: a layer must not wait there for an answer
//! of the server. The stateless era's `input_required` questions are answered inside the
//! request that got them, which the layers see.
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

use std::sync::Arc;

use serde::Serialize;
use serde_json::{Map, Value};

mod request;

pub use request::{Direction, Request, TransportKind};

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

    /// Whether this layer also sees what the server sends the client ([`Direction::Incoming`]:
    /// its questions and notifications); `false` unless a layer says so.
    ///
    /// ```
    /// use mcp_runtime_client::middleware::{Layer, Next, Outcome, Request};
    ///
    /// struct Both;
    ///
    /// impl Layer for Both {
    ///     fn call<'a>(&'a self, _: &'a Request<'a>, next: Next<'a>) -> mcp_runtime_client::BoxFuture<'a, Outcome> {
    ///         next.run()
    ///     }
    ///
    ///     fn sees_incoming(&self) -> bool {
    ///         true
    ///     }
    /// }
    /// assert!(Both.sees_incoming());
    /// ```
    fn sees_incoming(&self) -> bool {
        false
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
        self.0
            .as_ref()
            .ok()
            .map(Answer::text)
            .filter(|t| !t.is_empty())
    }

    /// A notification of the server's was handled (notifications are never answered).
    ///
    /// ```
    /// use mcp_runtime_client::middleware::Outcome;
    ///
    /// let handled = Outcome::notified();
    /// assert!(handled.failure().is_none() && handled.text().is_none());
    /// ```
    pub fn notified() -> Self {
        Self(Ok(Answer(String::new())))
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
        let Next {
            mut rest,
            request,
            endpoint,
            meta,
        } = self;
        // What the server sends passes only the layers that asked to see it.
        while let Some((layer, tail)) = rest.split_first() {
            rest = tail;
            if !request.is_incoming() || layer.sees_incoming() {
                let next = Next {
                    rest,
                    request,
                    endpoint,
                    meta,
                };
                return layer.call(request, next);
            }
        }
        endpoint(meta)
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
pub struct FromFn<F> {
    f: F,
    incoming: bool,
}

impl<F> FromFn<F> {
    /// The same layer, seeing what the server sends too ([`Layer::sees_incoming`]).
    ///
    /// ```
    /// use mcp_runtime_client::middleware::{Layer, from_fn};
    ///
    /// let both = from_fn(|_request, next| next.run()).with_incoming();
    /// assert!(both.sees_incoming());
    /// ```
    #[must_use]
    pub fn with_incoming(mut self) -> Self {
        self.incoming = true;
        self
    }
}

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
    FromFn { f, incoming: false }
}

impl<F> Layer for FromFn<F>
where
    F: for<'a> Fn(&'a Request<'a>, Next<'a>) -> BoxFuture<'a, Outcome> + Send + Sync + 'static,
{
    fn call<'a>(&'a self, request: &'a Request<'a>, next: Next<'a>) -> BoxFuture<'a, Outcome> {
        (self.f)(request, next)
    }

    fn sees_incoming(&self) -> bool {
        self.incoming
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

    /// Whether a layer asked to see what the server sends ([`Layer::sees_incoming`]).
    #[inline]
    pub(crate) fn sees_incoming(&self) -> bool {
        !self.0.is_empty() && self.0.iter().any(|layer| layer.sees_incoming())
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
