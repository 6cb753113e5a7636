//! Middleware over MCP, not over bytes: a [`Layer`] sees each message a client sends, typed
//! (its [`Method`](mcp_core::Method) from `mcp-core`'s table, its target, revision, transport,
//! principal and `_meta`), and what it came to ([`Outcome`]: a result, a tool's business
//! error, a JSON-RPC error, a cancellation), and may answer instead of the method
//! (a short-circuit).
//!
//! ```
//! use mcp_runtime::middleware::{Outcome, from_fn};
//! use mcp_runtime::prelude::*;
//! use mcp_runtime::protocol::{ErrorObject, Method};
//!
//! let server = Server::builder(server_info!())
//!     // First added, outermost: it sees the request first and the outcome last.
//!     .layer(from_fn(|request, next| {
//!         Box::pin(async move {
//!             if request.method() == Method::CallTool && request.target() == Some("forbidden") {
//!                 return Outcome::error(ErrorObject::new(-32000, "not today"));
//!             }
//!             next.run().await
//!         })
//!     }))
//!     .build()
//!     .unwrap();
//! # let _ = server;
//! ```
//!
//! # Where layers run
//!
//! In the connection, after the envelope is parsed, the method read from the table and the
//! era and revision resolved, and around the method: every transport (stdio, Streamable HTTP
//! of both eras, the legacy SSE endpoint, the in-memory pair, any `Transport`) goes through
//! that one place, and so do a gateway's calls forwarded to a mounted server (a mount's item
//! is called through the gateway's method) and `mcp-proxy` (a gateway). Client notifications
//! (`notifications/cancelled`, `notifications/initialized`, ...) pass through too, as
//! [`Kind::Notification`]; their outcome is [`OutcomeKind::Notified`], and a layer that does
//! not call `next` drops them. A request the era rules refuse before there is a revision to
//! serve it in (no session, an unsupported revision in `_meta`), and a message that is not
//! JSON-RPC, are answered before the layers.
//!
//! # What the server sends
//!
//! A layer that asks to ([`Layer::sees_outgoing`]; [`FromFn::with_outgoing`] for a closure)
//! also sees what the server sends the client, as requests whose
//! [`direction`](Request::direction) is [`Direction::Outgoing`]: the requests a handler makes
//! through its [`Context`](crate::Context) (`elicitation/create`, `sampling/createMessage`,
//! `roots/list`; their id is the server's, `s-N`) and the notifications (progress, log
//! messages, `notifications/*/list_changed`, `notifications/resources/updated`).
//!
//! - A request's outcome is the client's answer: a layer that answers instead (an
//!   [`Outcome::result`] or an [`Outcome::error`]) is what the handler receives, and the
//!   client never sees the request. A request that got no answer (the client went away, the
//!   server's client-request timeout) is an internal error to the layers; the handler sees
//!   what happened ([`InteractionError`](crate::InteractionError)).
//! - A notification's outcome is [`OutcomeKind::Notified`]; a layer that does not call `next`
//!   drops it. The hub's notifications (list changes, resource updates) pass a connection's
//!   layers in a task of the connection's, in order (at most 64 wait; more are dropped, as a
//!   full outbound queue drops them).
//!
//! Other layers are not handed these messages: a layer written for the client's calls (a rate
//! limit, an audit log, the metrics of served operations) would count the server's own. In the
//! stateless era the server asks no questions of its own (they are `input_required` results
//! of the client's request, which the layers see), and `subscriptions/listen` streams and task
//! status notifications do not pass the layers.
//!
//! ```
//! use mcp_runtime::middleware::{Outcome, from_fn};
//! use mcp_runtime::prelude::*;
//! use mcp_runtime::protocol::Method;
//!
//! let server = Server::builder(server_info!())
//!     .layer(
//!         from_fn(|request, next| {
//!             Box::pin(async move {
//!                 // The server answers its own `roots/list`: the client is not asked.
//!                 if request.is_outgoing() && request.method() == Method::ListRoots {
//!                     return Outcome::result(&serde_json::json!({"roots": []})).unwrap();
//!                 }
//!                 next.run().await
//!             })
//!         })
//!         .with_outgoing(),
//!     )
//!     .build()
//!     .unwrap();
//! # let _ = server;
//! ```
//!
//! # Before authorization
//!
//! Layers run around the method, so around its authorization (`MethodCall::authorize`):
//! authorization is still decided once, by the method, on the item it looked up from its own
//! reading of the params. A layer therefore sees refused calls too (their outcome is the
//! refusal, -32000 with `data.reason = "insufficient_scope"`), which is what a rate limit that
//! counts every attempt and an audit log want; the principal is known before (the HTTP gate
//! verified the token). A layer cannot grant what the method refuses.
//!
//! # Why not `tower::Service`
//!
//! A tower service takes its request by value and has `poll_ready`: the dispatcher would have
//! to build an owned request per call (copy the params, the id), box it, and poll readiness it
//! never needs (admission and limits are the connection's). [`Layer::call`] borrows the
//! dispatcher's [`Request`] for the call and returns a [`BoxFuture`]; [`Next::run`] calls the
//! layer after it, or the method. Layers compose like tower's `ServiceBuilder`: the first
//! added is the outermost.
//!
//! # Cost
//!
//! With no layer the dispatcher checks `layers.is_empty()` once per message and takes its
//! usual path: no request view is built, nothing is boxed; so does what the server sends
//! (also when no layer [asked](Layer::sees_outgoing) to see it). With layers, each message
//! builds one [`Request`] on the stack and boxes one future per layer and one for the method;
//! when the whole chain of a handler's request is the crate's own metrics and tracing layers,
//! the connection runs their work inline around the method's future (no box or dynamic call
//! per layer; the same functions as their [`Layer::call`]).
//! The target and `_meta` are read from the params once, when a layer first asks, and
//! without parsing them in the common case (no escape, the `name` first): a look at the
//! quotes; `_meta` is parsed only when [`Request::meta`] is called.
//!
//! # Panics
//!
//! A layer that panics is caught like a handler: the client receives a masked internal error
//! (`internal error, id …`, the panic in the server's log) and the server keeps serving.

mod items;
mod outcome;
mod request;
mod scan;

use std::sync::Arc;

use mcp_core::ErrorObject;

use crate::future::BoxFuture;
use crate::handler::invoke::{CatchUnwind, mask};

pub(crate) use items::{Invalidate, Items};
pub(crate) use outcome::Payload;
pub use outcome::{Outcome, OutcomeKind};
pub use request::{Direction, Kind, Request, TransportKind};

/// A middleware layer: runs around every message a client sends (see the [module
/// docs](self)). It calls `next.run()` to go on (to the next layer, then the method) and
/// returns its outcome, or returns an outcome of its own instead.
///
/// ```
/// use mcp_runtime::BoxFuture;
/// use mcp_runtime::middleware::{Layer, Next, Outcome, Request};
/// use std::sync::atomic::{AtomicU64, Ordering};
///
/// #[derive(Default)]
/// struct Count(AtomicU64);
///
/// impl Layer for Count {
///     fn call<'a>(&'a self, request: &'a Request<'a>, next: Next<'a>) -> BoxFuture<'a, Outcome> {
///         self.0.fetch_add(1, Ordering::Relaxed);
///         let _ = request;
///         next.run()
///     }
/// }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a middleware layer",
    note = "implement `mcp_runtime::middleware::Layer`, or wrap a closure with `mcp_runtime::middleware::from_fn`"
)]
pub trait Layer: std::any::Any + Send + Sync {
    /// Handles `request`, calling `next` to go on.
    ///
    /// ```
    /// use mcp_runtime::middleware::{Layer, Next, Outcome, Request};
    ///
    /// struct Pass;
    ///
    /// impl Layer for Pass {
    ///     fn call<'a>(&'a self, _: &'a Request<'a>, next: Next<'a>) -> mcp_runtime::BoxFuture<'a, Outcome> {
    ///         next.run()
    ///     }
    /// }
    /// ```
    fn call<'a>(&'a self, request: &'a Request<'a>, next: Next<'a>) -> BoxFuture<'a, Outcome>;

    /// Whether this layer also sees what the server sends the client ([`Direction::Outgoing`]:
    /// its requests to the client and its notifications). `false` unless a layer says so: a
    /// layer written for the client's calls (a rate limit, an audit log, the metrics of
    /// served operations) is not handed the server's own messages.
    ///
    /// ```
    /// use mcp_runtime::middleware::{Layer, Next, Outcome, Request};
    ///
    /// struct Both;
    ///
    /// impl Layer for Both {
    ///     fn call<'a>(&'a self, _: &'a Request<'a>, next: Next<'a>) -> mcp_runtime::BoxFuture<'a, Outcome> {
    ///         next.run()
    ///     }
    ///
    ///     fn sees_outgoing(&self) -> bool {
    ///         true
    ///     }
    /// }
    /// assert!(Both.sees_outgoing());
    /// ```
    fn sees_outgoing(&self) -> bool {
        false
    }
}

/// What comes after a layer: the layers inside it, then the method.
///
/// ```
/// use mcp_runtime::middleware::{Next, Outcome};
///
/// async fn go_on(next: Next<'_>) -> Outcome {
///     next.run().await
/// }
/// # let _ = go_on;
/// ```
pub struct Next<'a> {
    /// The server's layers outside the application's (metrics, the command line's), first.
    outer: &'a [Arc<dyn Layer>],
    rest: &'a [Arc<dyn Layer>],
    request: &'a Request<'a>,
    endpoint: Endpoint<'a>,
}

/// The method, run at the end of the chain: its future, made before the chain runs (a future
/// does nothing until polled: a layer that answers instead drops it unstarted). Boxed, not
/// pinned in the caller: the connection's future, which a server without layers polls too,
/// stays the size it is.
pub(crate) type Endpoint<'a> = BoxFuture<'a, Outcome>;

impl<'a> Next<'a> {
    /// Runs the rest of the chain: the next layer, or the method.
    ///
    /// ```
    /// use mcp_runtime::middleware::from_fn;
    ///
    /// let pass = from_fn(|_request, next| next.run());
    /// # let _ = pass;
    /// ```
    pub fn run(self) -> BoxFuture<'a, Outcome> {
        let Next {
            mut outer,
            mut rest,
            request,
            endpoint,
        } = self;
        // What the server sends passes only the layers that asked to see it.
        let skip = |layer: &Arc<dyn Layer>| request.is_outgoing() && !layer.sees_outgoing();
        while let Some((layer, tail)) = outer.split_first() {
            outer = tail;
            if !skip(layer) {
                let next = Next {
                    outer,
                    rest,
                    request,
                    endpoint,
                };
                return layer.call(request, next);
            }
        }
        while let Some((layer, tail)) = rest.split_first() {
            rest = tail;
            if !skip(layer) {
                let next = Next {
                    outer: &[],
                    rest,
                    request,
                    endpoint,
                };
                return layer.call(request, next);
            }
        }
        endpoint
    }
}

impl std::fmt::Debug for Next<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Next")
            .field("layers", &(self.outer.len() + self.rest.len()))
            .finish_non_exhaustive()
    }
}

/// A layer made of a closure (see [`from_fn`]).
///
/// ```
/// use mcp_runtime::middleware::{FromFn, from_fn};
///
/// let layer = from_fn(|_request, next| next.run());
/// let _: &FromFn<_> = &layer;
/// ```
#[derive(Clone)]
pub struct FromFn<F> {
    f: F,
    outgoing: bool,
}

impl<F> FromFn<F> {
    /// The same layer, seeing what the server sends too ([`Layer::sees_outgoing`]).
    ///
    /// ```
    /// use mcp_runtime::middleware::{Layer, from_fn};
    ///
    /// let both = from_fn(|_request, next| next.run()).with_outgoing();
    /// assert!(both.sees_outgoing());
    /// ```
    #[must_use]
    pub fn with_outgoing(mut self) -> Self {
        self.outgoing = true;
        self
    }
}

impl<F> std::fmt::Debug for FromFn<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FromFn")
    }
}

/// A layer from a closure taking the request and what comes next and returning a boxed
/// future of the outcome (`Box::pin(async move { .. })`).
///
/// ```
/// use mcp_runtime::middleware::from_fn;
/// use mcp_runtime::prelude::*;
///
/// let timing = from_fn(|request, next| {
///     Box::pin(async move {
///         let started = std::time::Instant::now();
///         let outcome = next.run().await;
///         tracing::info!(method = ?request.method(), kind = ?outcome.kind(),
///             micros = started.elapsed().as_micros() as u64, "served");
///         outcome
///     })
/// });
/// let builder = Server::builder(server_info!()).layer(timing);
/// # let _ = builder;
/// ```
pub fn from_fn<F>(f: F) -> FromFn<F>
where
    F: for<'a> Fn(&'a Request<'a>, Next<'a>) -> BoxFuture<'a, Outcome> + Send + Sync + 'static,
{
    FromFn { f, outgoing: false }
}

impl<F> Layer for FromFn<F>
where
    F: for<'a> Fn(&'a Request<'a>, Next<'a>) -> BoxFuture<'a, Outcome> + Send + Sync + 'static,
{
    fn call<'a>(&'a self, request: &'a Request<'a>, next: Next<'a>) -> BoxFuture<'a, Outcome> {
        (self.f)(request, next)
    }

    fn sees_outgoing(&self) -> bool {
        self.outgoing
    }
}

/// One layer of a chain, shared.
type Shared = Arc<dyn Layer>;

/// A server's layers: the application's (`ServerBuilder::layer`), and outside them the
/// server's own (`ServerBuilder::metrics`, and the ones the command line turns on).
#[derive(Clone, Default)]
pub(crate) struct Layers {
    /// The application's layers, outermost first.
    inner: Vec<Arc<dyn Layer>>,
    /// The layers the builder put outside the application's, outermost first.
    outer: Vec<Arc<dyn Layer>>,
    /// Set once, before serving, by the command line: its layers (OpenTelemetry when
    /// `OTEL_EXPORTER_OTLP_ENDPOINT` asks, metrics when `--metrics` does) in front of `outer`.
    /// When set, it is the whole outer chain.
    late: std::sync::OnceLock<Box<[Arc<dyn Layer>]>>,
    /// Whether `ServerBuilder::otel` added its layer (the command line then adds none).
    #[cfg(feature = "otel")]
    pub(crate) otel: bool,
}

impl std::fmt::Debug for Layers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Layers")
            .field("len", &(self.inner.len() + self.outer().len()))
            .finish()
    }
}

impl Layers {
    /// Adds `layer` inside the application's layers already there.
    pub(crate) fn push(&mut self, layer: Arc<dyn Layer>) {
        self.inner.push(layer);
    }

    /// Adds `layer` outside every application layer, inside the server's own already there.
    pub(crate) fn push_outer(&mut self, layer: Arc<dyn Layer>) {
        self.outer.push(layer);
    }

    /// The layers outside the application's, outermost first.
    #[inline]
    fn outer(&self) -> &[Arc<dyn Layer>] {
        match self.late.get() {
            Some(late) => late,
            None => &self.outer,
        }
    }

    /// The layers a client's message passes, outermost first: the server's own (outside), then
    /// the application's.
    #[inline]
    pub(crate) fn incoming(&self) -> (&[Shared], &[Shared]) {
        (self.outer(), &self.inner)
    }

    /// Whether there is none (the dispatcher's one check).
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.inner.is_empty() && self.outer().is_empty()
    }

    /// Whether a layer asked to see what the server sends ([`Layer::sees_outgoing`]): without
    /// one, the server's messages to the client skip the layers (one `is_empty` check when
    /// there is no layer at all).
    #[inline]
    pub(crate) fn sees_outgoing(&self) -> bool {
        !self.is_empty()
            && (self
                .inner
                .iter()
                .chain(self.outer())
                .any(|layer| layer.sees_outgoing()))
    }

    /// Puts `layers` (outermost first) outside all the others, once (the command line's, before
    /// it serves); whether it did.
    #[cfg(feature = "cli")]
    pub(crate) fn set_outermost(&self, layers: Vec<Arc<dyn Layer>>) -> bool {
        let all: Box<[Arc<dyn Layer>]> = layers
            .into_iter()
            .chain(self.outer.iter().cloned())
            .collect();
        self.late.set(all).is_ok()
    }

    /// Runs `request` through the layers to `endpoint`; a panic anywhere in the chain (the
    /// method's own are caught inside it) is a masked internal error.
    pub(crate) async fn run<'a>(
        &'a self,
        request: &'a Request<'a>,
        endpoint: Endpoint<'a>,
    ) -> Outcome {
        let next = Next {
            outer: self.outer(),
            rest: &self.inner,
            request,
            endpoint,
        };
        caught(request, next.run()).await
    }
}

/// `chain`'s outcome; a panic in it (the method's own are caught inside it) is a masked
/// internal error.
pub(crate) async fn caught<F>(request: &Request<'_>, chain: F) -> Outcome
where
    F: std::future::Future<Output = Outcome> + Unpin,
{
    match CatchUnwind(chain).await {
        Ok(outcome) => outcome,
        Err(panic) => {
            let name = request.method().name().unwrap_or("unknown");
            let text = mask(name, &panic.into());
            Outcome::error(ErrorObject::internal(text))
        }
    }
}
