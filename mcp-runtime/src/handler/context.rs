//! The per-request [`Context`] and the [`FromContext`] extractor trait.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::fmt;
use std::ops::Deref;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, Mutex};

use mcp_core::{
    ClientCapabilities, Implementation, LoggingLevel, ProgressToken, ProtocolVersion, RequestId,
};
use serde::Serialize;
use tokio::sync::Notify;

use crate::error::HandlerError;
use crate::handler::peer::Interact;
use crate::outbound::{Outbound, Sink};
use crate::sync::lock;
use crate::wire;

/// Application state handed to the builder, shared by every request.
pub(crate) type StateMap = HashMap<TypeId, Arc<dyn Any + Send + Sync>>;

/// Where a request's log messages may go, per era.
#[derive(Debug, Clone)]
pub(crate) enum LogGate {
    /// Handshake era: the session's `logging/setLevel` level (severity index, 255 = off).
    Session(Arc<AtomicU8>),
    /// Stateless era: the request's `_meta` log level; `None` means send nothing.
    Request(Option<LoggingLevel>),
}

/// Everything a handler may ask about the request it serves.
pub(crate) struct ContextInner {
    pub(crate) request_id: Option<RequestId>,
    pub(crate) version: ProtocolVersion,
    pub(crate) progress_token: Option<ProgressToken>,
    pub(crate) meta: crate::handler::sent_meta::SentMeta,
    /// `meta` as a map, made when the handler first asks.
    pub(crate) meta_map: std::sync::OnceLock<Option<mcp_core::Meta>>,
    pub(crate) client_info: Option<Arc<Implementation>>,
    pub(crate) client_capabilities: Option<Arc<ClientCapabilities>>,
    pub(crate) log_gate: LogGate,
    pub(crate) peer: Option<Sink>,
    pub(crate) state: Arc<StateMap>,
    pub(crate) cancel: Cancellation,
    pub(crate) last_progress: Mutex<Option<f64>>,
    /// How `elicit`, `sample` and `roots` reach the client.
    pub(crate) interact: Interact,
    /// A protocol error an interaction recorded (missing capability, malformed answer); it
    /// replaces the handler's error.
    pub(crate) fault: Mutex<Option<mcp_core::ErrorObject>>,
    /// The shared state of the server serving the request (`Context::server` gives its
    /// handle). The one reference of `handler` to `server`: the server holds records whose
    /// functions take a `Context`, so the two types refer to each other (ARCHITECTURE.md,
    /// "Layers"; `tests/it/module_cycles.rs` names this edge as the only one allowed).
    pub(crate) server: Arc<crate::server::ServerInner>,
    /// What the request came over: the server's messages to the client go the same way (the
    /// layers see it).
    pub(crate) via: crate::server::outgoing::Via,
    /// The verified caller (feature `auth`, a protected HTTP endpoint).
    #[cfg(feature = "auth")]
    pub(crate) auth: Option<Arc<crate::caller::Claims>>,
}

/// The request a handler is serving: progress, logging, cancellation, request metadata, client
/// information and application state.
///
/// Ask for it by adding a parameter of type `Context` to a `#[tool]`, `#[resource]` or
/// `#[prompt]` function; it is injected and never appears in the input schema. It is cheap to
/// clone.
///
/// ```standalone_crate
/// use mcp_runtime::prelude::*;
///
/// /// Counts to three, reporting progress.
/// #[tool]
/// async fn count(ctx: Context) -> String {
///     for i in 1..=3 {
///         ctx.progress(i as f64, Some(3.0), None).await;
///     }
///     ctx.log(LoggingLevel::Info, "counted").await;
///     "done".to_string()
/// }
/// # fn main() {}
/// ```
#[derive(Clone)]
pub struct Context {
    pub(crate) inner: Arc<ContextInner>,
}

impl fmt::Debug for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context")
            .field("request_id", &self.inner.request_id)
            .field("version", &self.inner.version)
            .field("progress_token", &self.inner.progress_token)
            .finish_non_exhaustive()
    }
}

impl Context {
    /// The JSON-RPC id of the request (`None` when a tool runs from the command line).
    pub fn request_id(&self) -> Option<&RequestId> {
        self.inner.request_id.as_ref()
    }

    /// The protocol revision this request is served in.
    pub fn protocol_version(&self) -> ProtocolVersion {
        self.inner.version
    }

    /// The request's `_meta` object, as sent.
    pub fn meta(&self) -> Option<&mcp_core::Meta> {
        let inner = &*self.inner;
        if inner.meta.is_none(inner.version) {
            return None;
        }
        inner
            .meta_map
            .get_or_init(|| {
                inner.meta.build(crate::handler::sent_meta::Typed {
                    version: inner.version,
                    client_info: inner.client_info.as_deref(),
                    client_caps: inner.client_capabilities.as_deref(),
                })
            })
            .as_ref()
    }

    /// The client's name and version, from `initialize` or the request's `_meta`.
    pub fn client_info(&self) -> Option<&Implementation> {
        self.inner.client_info.as_deref()
    }

    /// The client's capabilities, from `initialize` or the request's `_meta`.
    pub fn client_capabilities(&self) -> Option<&ClientCapabilities> {
        self.inner.client_capabilities.as_deref()
    }

    /// A token that is cancelled when the client cancels this request.
    ///
    /// The handler's future is dropped on cancellation anyway; the token is for work the handler
    /// spawned on its own.
    pub fn cancellation(&self) -> &Cancellation {
        &self.inner.cancel
    }

    /// Whether the client asked for progress (sent a `progressToken`).
    pub fn wants_progress(&self) -> bool {
        self.inner.progress_token.is_some()
    }

    /// Reports progress. Sent only when the client sent a progress token, and only when
    /// `progress` is greater than the last value reported (the spec requires it to increase).
    pub async fn progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) {
        let Some(token) = &self.inner.progress_token else {
            return;
        };
        {
            let mut last = lock(&self.inner.last_progress);
            if !progress.is_finite() || last.is_some_and(|prev| progress <= prev) {
                return;
            }
            *last = Some(progress);
        }
        let Some(peer) = &self.inner.peer else { return };
        let mut params = mcp_core::ProgressNotificationParams::new(token.clone(), progress);
        params.total = total;
        params.message = message.map(str::to_owned);
        if let Some(task) = self.task() {
            // 2026-07-28 tasks have no progress; 2025-11-25 ones tag it with the task.
            if self.inner.version.is_stateless() {
                return;
            }
            params.meta = Some(mcp_core::tasks::related_task_meta(task.task_id()));
        }
        mcp_core::ForVersion::for_version(&mut params, self.inner.version);
        let msg = wire::notification("notifications/progress", &params);
        self.send_notification(peer, msg).await;
    }

    /// Sends a log message to the client (`notifications/message`), if the client's level lets it
    /// through: the session level set by `logging/setLevel` in the handshake era, the request's
    /// `_meta` log level in the stateless era (no level there means no message).
    pub async fn log(&self, level: LoggingLevel, data: impl Serialize) {
        self.log_as(level, None, data).await;
    }

    /// Like [`log`](Self::log), naming the logger.
    pub async fn log_as(&self, level: LoggingLevel, logger: Option<&str>, data: impl Serialize) {
        let allowed = match &self.inner.log_gate {
            LogGate::Session(min) => level.severity() >= min.load(Ordering::Relaxed),
            LogGate::Request(Some(min)) => level >= *min,
            LogGate::Request(None) => false,
        };
        let (true, Some(peer)) = (allowed, &self.inner.peer) else {
            return;
        };
        let data = match serde_json::to_value(data) {
            Ok(v) => v,
            Err(_) => return,
        };
        let mut params = mcp_core::LoggingMessageNotificationParams::new(level, data);
        params.logger = logger.map(str::to_owned);
        let msg = wire::notification("notifications/message", &params);
        self.send_notification(peer, msg).await;
    }

    /// Closes the HTTP connection carrying this request's SSE stream without ending the request
    /// (handshake era, Streamable HTTP): the client reconnects with `GET` + `Last-Event-ID` and
    /// receives what follows, the reply included. Elsewhere it does nothing.
    ///
    /// ```
    /// use mcp_runtime::prelude::*;
    ///
    /// /// Works long; lets the client poll instead of holding a connection.
    /// async fn long_job(ctx: Context) -> String {
    ///     ctx.close_stream().await;
    ///     tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    ///     "done".into()
    /// }
    /// ```
    pub async fn close_stream(&self) {
        if self.inner.version.is_stateless() {
            return;
        }
        if let Some(peer) = &self.inner.peer {
            let _ = peer.send(Outbound::CloseStream).await;
        }
    }

    /// Records the first protocol error of an interaction.
    pub(crate) fn record_fault(&self, err: mcp_core::ErrorObject) {
        let mut fault = lock(&self.inner.fault);
        fault.get_or_insert(err);
    }

    /// The least severity this request's log messages go out at (the session's, a severity
    /// index, in the handshake era; the request's `_meta` level in the stateless era).
    #[cfg(feature = "client")]
    pub(crate) fn log_threshold(&self) -> Option<u8> {
        match &self.inner.log_gate {
            LogGate::Session(min) => Some(min.load(Ordering::Relaxed)).filter(|s| *s <= 7),
            LogGate::Request(level) => level.map(LoggingLevel::severity),
        }
    }

    /// Takes the recorded protocol error, if any.
    pub(crate) fn take_fault(&self) -> Option<mcp_core::ErrorObject> {
        lock(&self.inner.fault).take()
    }

    /// Reads application state given to the builder with `.state(value)`.
    pub fn state<T: Send + Sync + 'static>(&self) -> Option<Arc<T>> {
        State::<T>::from_context(self).ok().map(State::into_inner)
    }
}

/// A cancellation flag that can be awaited: set when the client cancels the request (or the
/// server shuts down), and read or awaited by the handler.
///
/// It is not `tokio_util::sync::CancellationToken`, and is named apart from it: it has no child
/// tokens or drop guards, only the flag, its setter and the future that waits for it (which a
/// handler `select!`s on beside its work).
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let token = mcp_runtime::Cancellation::new();
/// assert!(!token.is_cancelled());
/// token.cancel();
/// token.cancelled().await; // returns at once
/// # });
/// ```
#[derive(Debug, Clone, Default)]
pub struct Cancellation {
    inner: Arc<(AtomicBool, Notify)>,
}

impl Cancellation {
    /// A token that is not cancelled.
    pub fn new() -> Self {
        Self::default()
    }

    /// Cancels it and wakes every waiter.
    pub fn cancel(&self) {
        self.inner.0.store(true, Ordering::Release);
        self.inner.1.notify_waiters();
    }

    /// Whether it was cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.inner.0.load(Ordering::Acquire)
    }

    /// Resolves once it is cancelled.
    pub async fn cancelled(&self) {
        loop {
            let notified = self.inner.1.notified();
            if self.is_cancelled() {
                return;
            }
            notified.await;
        }
    }
}

/// Types a handler can take as a parameter that come from the request context instead of the
/// arguments (the extractor pattern).
///
/// Implement it for your own types and mark the parameter `#[ctx]`, or name the type `Context` or
/// `State`. Completion hooks take the same parameters.
///
/// ```
/// use mcp_runtime::{Context, FromContext, HandlerError};
///
/// /// The calling client's name.
/// struct ClientName(String);
///
/// impl FromContext for ClientName {
///     fn from_context(ctx: &Context) -> Result<Self, HandlerError> {
///         Ok(ClientName(ctx.client_info().map(|i| i.name.clone()).unwrap_or_default()))
///     }
/// }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be injected into a handler",
    label = "not a context type",
    note = "injected parameters implement `FromContext`: use `Context`, `State<T>`, or implement `FromContext` for your type"
)]
pub trait FromContext: Sized {
    /// Extracts the value.
    fn from_context(ctx: &Context) -> Result<Self, HandlerError>;

    /// Declares the application state this extractor reads, so that
    /// [`ServerBuilder::build`](crate::ServerBuilder::build) refuses a server that was not given
    /// it (naming the handler and the type) instead of failing every call. The default declares
    /// nothing; [`State<T>`] declares `T`.
    ///
    /// An extractor that reads state declares it, most simply through `State`:
    ///
    /// ```
    /// use mcp_runtime::{Context, FromContext, HandlerError, State, StateNeeds};
    ///
    /// struct Db;
    /// impl Db {
    ///     fn user(&self, _token: &str) -> Option<String> { Some("ada".into()) }
    /// }
    ///
    /// /// The user behind the request's token.
    /// struct User(String);
    ///
    /// impl FromContext for User {
    ///     fn from_context(ctx: &Context) -> Result<Self, HandlerError> {
    ///         let db = State::<Db>::from_context(ctx)?;
    ///         let token = ctx.meta().and_then(|m| m.get("token")).and_then(|t| t.as_str());
    ///         let user = token.and_then(|t| db.user(t));
    ///         user.map(User).ok_or_else(|| HandlerError::invalid_arguments("unknown token"))
    ///     }
    ///
    ///     fn state_needs(needs: &mut StateNeeds) {
    ///         State::<Db>::state_needs(needs);
    ///     }
    /// }
    ///
    /// let mut needs = StateNeeds::new();
    /// User::state_needs(&mut needs);
    /// assert_eq!(needs.type_names().collect::<Vec<_>>(), [std::any::type_name::<Db>()]);
    /// ```
    fn state_needs(needs: &mut StateNeeds) {
        let _ = needs;
    }
}

impl FromContext for Context {
    fn from_context(ctx: &Context) -> Result<Self, HandlerError> {
        Ok(ctx.clone())
    }
}

/// The application state types that handlers need, collected from their injected parameters
/// (see [`FromContext::state_needs`]) and checked when the server is built.
///
/// ```
/// use mcp_runtime::StateNeeds;
///
/// struct Db;
/// let mut needs = StateNeeds::new();
/// needs.add::<Db>();
/// needs.add::<Db>(); // once is enough
/// assert_eq!(needs.type_names().count(), 1);
/// ```
#[derive(Debug, Clone, Default)]
pub struct StateNeeds {
    types: Vec<(TypeId, &'static str)>,
}

impl StateNeeds {
    /// No needs yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Declares that `T` must be given to the builder with `.state(value)`.
    pub fn add<T: 'static>(&mut self) {
        let id = TypeId::of::<T>();
        if !self.types.iter().any(|(t, _)| *t == id) {
            self.types.push((id, std::any::type_name::<T>()));
        }
    }

    /// The names of the types needed, in the order first declared.
    pub fn type_names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.types.iter().map(|(_, name)| *name)
    }

    /// The first type needed and missing from `state`, by name.
    pub(crate) fn first_missing(&self, state: &StateMap) -> Option<&'static str> {
        self.types
            .iter()
            .find(|(id, _)| !state.contains_key(id))
            .map(|(_, name)| *name)
    }
}

/// Application state of type `T`, given to the builder with `.state(value)`.
///
/// It dereferences to `T`, so a newtype's own field reads as usual (`greeting.0` on a
/// `State<Greeting>` is the `Greeting`'s field). [`ServerBuilder::build`](crate::ServerBuilder::build)
/// refuses a server whose handlers take a `State<T>` it was not given.
///
/// ```standalone_crate
/// use mcp_runtime::prelude::*;
///
/// struct Db { greeting: String }
///
/// /// Greets from the database.
/// #[tool]
/// async fn greet(db: State<Db>) -> String {
///     db.greeting.clone()
/// }
///
/// let server = Server::builder(server_info!()).tool(greet::TOOL).state(Db { greeting: "hi".into() });
/// # let _ = server;
/// ```
///
/// A handler is a plain function, so a test can call it with a state of its own:
///
/// ```
/// use mcp_runtime::State;
///
/// struct Greeting(&'static str);
///
/// fn greet(greeting: State<Greeting>, name: &str) -> String {
///     format!("{}, {name}!", greeting.0)
/// }
///
/// assert_eq!(greet(State::new(Greeting("Hi")), "Ada"), "Hi, Ada!");
/// ```
///
/// A `State<T>` takes any `T` in a handler's signature, so that a `T` that cannot be shared
/// (not `Send + Sync`) is reported once, where it is given to the builder
/// ([`StateValue`]), not at every handler.
pub struct State<T> {
    value: Arc<dyn Shared<T>>,
}

/// A shared `T` seen through a trait object, so that a `State<T>` is `Send + Sync` whatever `T`
/// a signature names; the one implementation is for a [`StateValue`], so nothing else is ever
/// held.
trait Shared<T>: Send + Sync {
    fn shared(&self) -> &T;
    fn shared_arc(self: Arc<Self>) -> Arc<T>;
}

impl<T: StateValue> Shared<T> for T {
    fn shared(&self) -> &T {
        self
    }

    fn shared_arc(self: Arc<Self>) -> Arc<T> {
        self
    }
}

/// `value` as the builder's state map keeps it: the `Arc<dyn Shared<T>>` a `State<T>` clones.
pub(crate) fn held<T: StateValue>(value: T) -> Arc<dyn Any + Send + Sync> {
    let shared: Arc<dyn Shared<T>> = Arc::new(value);
    Arc::new(shared)
}

/// What [`ServerBuilder::state`](crate::ServerBuilder::state) takes: a value every request may
/// share, across threads (`Send + Sync + 'static`).
///
/// ```
/// use std::sync::Mutex;
///
/// fn shared<T: mcp_runtime::StateValue>() {}
/// shared::<Mutex<Vec<String>>>(); // a `RefCell` or an `Rc` would not do
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the server's state: every request shares it, across threads",
    label = "not `Send + Sync + 'static`",
    note = "state must be `Send + Sync + 'static`: use a `Mutex` or an `RwLock` (`std::sync`) instead of a `RefCell` or a `Cell`, an `Arc` instead of an `Rc`, and owned data instead of references"
)]
pub trait StateValue: Send + Sync + 'static {}

// Reported as `StateValue` itself, once.
#[diagnostic::do_not_recommend]
impl<T: Send + Sync + 'static> StateValue for T {}

impl<T: StateValue> State<T> {
    /// A state holding `value` (for calling a handler directly, in tests).
    pub fn new(value: T) -> Self {
        Self::from(Arc::new(value))
    }

    /// The shared value.
    ///
    /// ```
    /// let state = mcp_runtime::State::new(5);
    /// assert_eq!(*state.into_inner(), 5);
    /// ```
    pub fn into_inner(self) -> Arc<T> {
        <dyn Shared<T> as Shared<T>>::shared_arc(self.value)
    }
}

impl<T: StateValue> From<Arc<T>> for State<T> {
    fn from(value: Arc<T>) -> Self {
        Self { value }
    }
}

impl<T> Clone for State<T> {
    fn clone(&self) -> Self {
        Self {
            value: Arc::clone(&self.value),
        }
    }
}

impl<T: fmt::Debug> fmt::Debug for State<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("State").field(&**self).finish()
    }
}

impl<T> Deref for State<T> {
    type Target = T;
    fn deref(&self) -> &T {
        <dyn Shared<T> as Shared<T>>::shared(&*self.value)
    }
}

impl<T> AsRef<T> for State<T> {
    fn as_ref(&self) -> &T {
        self
    }
}

impl<T: 'static> FromContext for State<T> {
    fn from_context(ctx: &Context) -> Result<Self, HandlerError> {
        let held = ctx.inner.state.get(&TypeId::of::<T>());
        match held.and_then(|h| h.downcast_ref::<Arc<dyn Shared<T>>>()) {
            Some(value) => Ok(State {
                value: Arc::clone(value),
            }),
            None => Err(HandlerError::internal(format!(
                "no state of type `{}`: give it to the server builder with `.state(value)`",
                std::any::type_name::<T>()
            ))),
        }
    }

    fn state_needs(needs: &mut StateNeeds) {
        needs.add::<T>();
    }
}
