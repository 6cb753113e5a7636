//! An audit log as a middleware layer: one structured record per call ([`AuditRecord`]): when,
//! who (the principal), what (method and target), how it ended (result, a tool's `isError`,
//! a JSON-RPC error with its code, cancelled), how long it took, the trace id, the session,
//! the transport and the request id; the arguments only when asked, through a redaction hook.
//!
//! ```
//! use mcp_runtime::audit::Audit;
//! use mcp_runtime::prelude::*;
//!
//! let server = Server::builder(server_info!())
//!     .layer(Audit::new()) // records as `tracing` events, target `mcp::audit`, level INFO
//!     .build()
//!     .unwrap();
//! # let _ = server;
//! ```
//!
//! # Where it goes
//!
//! By default each record is a `tracing` event of target [`TARGET`] (`mcp::audit`) at level
//! INFO, message `audit`, with the fields `time` (RFC 3339, UTC), `principal`, `method`,
//! `target`, `outcome` (`result`, `tool_error`, `error`, `cancelled`, `notified`),
//! `error_code`, `duration_us`, `trace_id`, `session_id`, `transport`, `version`,
//! `request_id` and `arguments` (JSON text); a field with no value is left out. A subscriber
//! filter such as `mcp::audit=info` sends them where audit logs go. [`Audit::sink`] gives them
//! to an [`AuditSink`] of your own as well (a closure will do); [`Audit::tracing`]`(false)`
//! turns the events off.
//!
//! A sink is called on the call's path, synchronously, once per record: it must be quick
//! and must not block (push to a bounded queue, a non-blocking writer). [`ChannelSink`] is
//! one: a bounded channel your task drains, where a record that finds it full is dropped and
//! counted ([`ChannelSink::dropped`]) instead of waiting. A sink that panics loses that record
//! only (the panic is caught; the call goes on).
//!
//! # What is recorded
//!
//! Every request a client sends, `initialize` and `ping` included, with its outcome as the
//! client saw it: a call refused by a layer inside this one, or by the method's authorization,
//! is recorded with that refusal. Add the audit layer first (outermost) to see what every
//! other layer did. Notifications (`notifications/initialized`, `notifications/cancelled`,
//! ...) are not recorded unless [`Audit::notifications`]`(true)`. A call whose future is
//! dropped before it ends (on a stream transport a cancelled request's task is aborted, see
//! [`OutcomeKind::Cancelled`](crate::middleware::OutcomeKind::Cancelled)) is recorded as
//! cancelled when it is dropped.
//!
//! The trace id is the one of `params._meta.traceparent` when it is a valid W3C
//! `traceparent` (the MCP semantic conventions carry trace context there); else, with feature
//! `otel`, the current OpenTelemetry span's when valid (inside the `otel::Tracing` layer, that
//! is the call's SERVER span).
//!
//! # Arguments
//!
//! Not recorded unless [`Audit::with_arguments`]: a `tools/call`'s `arguments`, the params of
//! any other method (without `_meta`). [`Audit::redact`] gives them to a hook that may change
//! them (mask a password, drop a member) before anything is recorded. Params with a duplicate
//! `arguments` member, or that are not JSON objects, are recorded without arguments.

mod record;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Instant, SystemTime};

use mcp_core::Method;
use serde::Deserialize;
use serde_json::Value;

use crate::future::BoxFuture;
use crate::middleware::{Kind, Layer, Next, Outcome, Request};

pub use record::{AuditOutcome, AuditRecord};

/// The `tracing` target of the audit events.
///
/// ```
/// assert_eq!(mcp_runtime::audit::TARGET, "mcp::audit");
/// ```
pub const TARGET: &str = "mcp::audit";

/// Where audit records go besides (or instead of) `tracing`; implemented by closures taking an
/// [`AuditRecord`]. Called synchronously on the call's path: it must be quick and must not
/// block (see the [module docs](self)).
///
/// ```
/// use mcp_runtime::audit::{AuditRecord, AuditSink};
/// use std::sync::atomic::{AtomicU64, Ordering};
///
/// #[derive(Default)]
/// struct Count(AtomicU64);
///
/// impl AuditSink for Count {
///     fn record(&self, _: AuditRecord) {
///         self.0.fetch_add(1, Ordering::Relaxed);
///     }
/// }
/// ```
pub trait AuditSink: Send + Sync + 'static {
    /// Takes one record.
    ///
    /// ```
    /// use mcp_runtime::audit::{AuditRecord, AuditSink};
    ///
    /// let sink = |record: AuditRecord| eprintln!("{}", record.method_name());
    /// fn takes(_: &impl AuditSink) {}
    /// takes(&sink);
    /// ```
    fn record(&self, record: AuditRecord);
}

impl<F> AuditSink for F
where
    F: Fn(AuditRecord) + Send + Sync + 'static,
{
    fn record(&self, record: AuditRecord) {
        self(record)
    }
}

/// A sink that hands records to a bounded channel drained by a task of yours; a record that
/// finds the channel full (or its receiver gone) is dropped and counted, never waited for.
///
/// ```
/// use mcp_runtime::audit::{Audit, ChannelSink};
///
/// # #[mcp_runtime::main(flavor = "current_thread")]
/// # async fn main() {
/// let (sink, mut records) = ChannelSink::new(1024);
/// let dropped = sink.clone();
/// let layer = Audit::new().tracing(false).sink(sink);
/// tokio::spawn(async move {
///     while let Some(record) = records.recv().await {
///         let _ = record; // write it to the audit store
///     }
/// });
/// assert_eq!(dropped.dropped(), 0);
/// # let _ = layer;
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct ChannelSink {
    sender: tokio::sync::mpsc::Sender<AuditRecord>,
    dropped: Arc<AtomicU64>,
}

impl ChannelSink {
    /// A sink holding at most `capacity` records not yet received (at least one), and its
    /// receiver.
    ///
    /// ```
    /// let (sink, records) = mcp_runtime::audit::ChannelSink::new(16);
    /// # let _ = (sink, records);
    /// ```
    pub fn new(capacity: usize) -> (Self, tokio::sync::mpsc::Receiver<AuditRecord>) {
        let (sender, receiver) = tokio::sync::mpsc::channel(capacity.max(1));
        let dropped = Arc::new(AtomicU64::new(0));
        (Self { sender, dropped }, receiver)
    }

    /// How many records were dropped: the channel was full, or its receiver gone.
    ///
    /// ```
    /// let (sink, _records) = mcp_runtime::audit::ChannelSink::new(16);
    /// assert_eq!(sink.dropped(), 0);
    /// ```
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }
}

impl AuditSink for ChannelSink {
    fn record(&self, record: AuditRecord) {
        if self.sender.try_send(record).is_err() {
            self.dropped.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// The redaction hook: the method, the target, and the arguments to change in place.
type Redact = dyn Fn(Method, Option<&str>, &mut Value) + Send + Sync;

/// The audit layer (see the [module docs](self)): add it with `ServerBuilder::layer`, first
/// to see what the other layers did.
///
/// ```
/// use mcp_runtime::audit::{Audit, AuditRecord};
/// use mcp_runtime::prelude::*;
///
/// let audit = Audit::new()
///     .with_arguments()
///     .redact(|_method, _target, args| {
///         if let Some(password) = args.get_mut("password") {
///             *password = "***".into();
///         }
///     })
///     .sink(|record: AuditRecord| eprintln!("{record:?}"));
/// let server = Server::builder(server_info!()).layer(audit).build().unwrap();
/// # let _ = server;
/// ```
#[must_use]
pub struct Audit {
    tracing: bool,
    sinks: Vec<Box<dyn AuditSink>>,
    arguments: bool,
    redact: Option<Box<Redact>>,
    notifications: bool,
}

impl std::fmt::Debug for Audit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Audit")
            .field("tracing", &self.tracing)
            .field("sinks", &self.sinks.len())
            .field("arguments", &self.arguments)
            .field("redact", &self.redact.is_some())
            .field("notifications", &self.notifications)
            .finish()
    }
}

impl Default for Audit {
    fn default() -> Self {
        Self::new()
    }
}

impl Audit {
    /// The layer: records every request as a `tracing` event, without arguments.
    ///
    /// ```
    /// let audit = mcp_runtime::audit::Audit::new();
    /// # let _ = audit;
    /// ```
    pub fn new() -> Self {
        Self {
            tracing: true,
            sinks: Vec::new(),
            arguments: false,
            redact: None,
            notifications: false,
        }
    }

    /// Whether records are `tracing` events (target `mcp::audit`, INFO); on by default.
    ///
    /// ```
    /// let quiet = mcp_runtime::audit::Audit::new().tracing(false);
    /// # let _ = quiet;
    /// ```
    pub fn tracing(mut self, on: bool) -> Self {
        self.tracing = on;
        self
    }

    /// Gives every record to `sink` as well (sinks are called in the order added).
    ///
    /// ```
    /// use mcp_runtime::audit::{Audit, AuditRecord};
    ///
    /// let audit = Audit::new().sink(|r: AuditRecord| eprintln!("{}", r.method_name()));
    /// # let _ = audit;
    /// ```
    pub fn sink(mut self, sink: impl AuditSink) -> Self {
        self.sinks.push(Box::new(sink));
        self
    }

    /// Records the arguments: a `tools/call`'s `arguments`, the params (without `_meta`) of
    /// other methods, after the [`redact`](Self::redact) hook.
    ///
    /// ```
    /// let audit = mcp_runtime::audit::Audit::new().with_arguments();
    /// # let _ = audit;
    /// ```
    pub fn with_arguments(mut self) -> Self {
        self.arguments = true;
        self
    }

    /// The hook every recorded argument value goes through first, with the method and target:
    /// it changes the value in place (only with [`with_arguments`](Self::with_arguments)).
    ///
    /// ```
    /// use mcp_runtime::audit::Audit;
    /// use mcp_runtime::protocol::Method;
    ///
    /// let audit = Audit::new().with_arguments().redact(|method, target, args| {
    ///     if method == Method::CallTool && target == Some("login") {
    ///         *args = serde_json::json!("redacted");
    ///     }
    /// });
    /// # let _ = audit;
    /// ```
    pub fn redact<F>(mut self, hook: F) -> Self
    where
        F: Fn(Method, Option<&str>, &mut Value) + Send + Sync + 'static,
    {
        self.redact = Some(Box::new(hook));
        self
    }

    /// Whether notifications the client sends are recorded too (off by default: they are not
    /// calls; their outcome is [`AuditOutcome::Notified`]).
    ///
    /// ```
    /// let audit = mcp_runtime::audit::Audit::new().notifications(true);
    /// # let _ = audit;
    /// ```
    pub fn notifications(mut self, on: bool) -> Self {
        self.notifications = on;
        self
    }

    /// The arguments of `request`, as recorded.
    fn arguments_of(&self, request: &Request<'_>) -> Option<Value> {
        if !self.arguments {
            return None;
        }
        let text = request.params()?.get();
        let mut args = if request.method() == Method::CallTool {
            #[derive(Deserialize)]
            struct Call {
                #[serde(default)]
                arguments: Option<Value>,
            }
            serde_json::from_str::<Call>(text).ok()?.arguments?
        } else {
            let mut params = serde_json::from_str::<serde_json::Map<String, Value>>(text).ok()?;
            params.remove("_meta");
            Value::Object(params)
        };
        if let Some(hook) = &self.redact {
            hook(request.method(), request.target(), &mut args);
        }
        Some(args)
    }

    /// Writes `record` to the sinks.
    fn write(&self, record: AuditRecord) {
        if self.tracing {
            emit(&record);
        }
        if let Some((last, first)) = self.sinks.split_last() {
            for sink in first {
                let copy = record.clone();
                let _ = catch_unwind(AssertUnwindSafe(|| sink.record(copy)));
            }
            let _ = catch_unwind(AssertUnwindSafe(|| last.record(record)));
        }
    }
}

/// The `tracing` event of `record`.
fn emit(r: &AuditRecord) {
    let arguments = r.arguments.as_ref().map(|a| a.to_string());
    let request_id = r.request_id.as_ref().map(|id| id.to_string());
    tracing::info!(
        target: TARGET,
        time = %r.time_rfc3339(),
        principal = r.principal.as_deref(),
        method = r.method_name(),
        target = r.target.as_deref(),
        outcome = r.outcome.as_str(),
        error_code = r.outcome.code().map(i64::from),
        duration_us = u64::try_from(r.duration.as_micros()).unwrap_or(u64::MAX),
        trace_id = r.trace_id.as_deref(),
        session_id = r.session_id.as_deref(),
        transport = r.transport.as_str(),
        version = r.version.map(|v| v.as_str()),
        request_id = request_id.as_deref(),
        arguments = arguments.as_deref(),
        "audit"
    );
}

/// The trace id of `request`: its `_meta.traceparent`'s, else the current span's.
fn trace_id(request: &Request<'_>) -> Option<String> {
    let sent = request
        .meta()
        .and_then(|m| m.get("traceparent")?.as_str())
        .and_then(record::trace_id_of);
    if let Some(id) = sent {
        return Some(id.to_owned());
    }
    #[cfg(feature = "otel")]
    {
        use opentelemetry::trace::TraceContextExt;
        let cx = opentelemetry::Context::current();
        let span = cx.span();
        let context = span.span_context();
        if context.is_valid() {
            return Some(context.trace_id().to_string());
        }
    }
    None
}

/// A call in progress: writes its record when it ends, or as cancelled when it is dropped.
struct Pending<'a> {
    audit: &'a Audit,
    started: Instant,
    record: Option<AuditRecord>,
}

impl Pending<'_> {
    fn finish(mut self, outcome: AuditOutcome) {
        self.end(outcome);
    }

    fn end(&mut self, outcome: AuditOutcome) {
        if let Some(mut record) = self.record.take() {
            record.outcome = outcome;
            record.duration = self.started.elapsed();
            self.audit.write(record);
        }
    }
}

impl Drop for Pending<'_> {
    fn drop(&mut self) {
        self.end(AuditOutcome::Cancelled);
    }
}

impl Layer for Audit {
    fn call<'a>(&'a self, request: &'a Request<'a>, next: Next<'a>) -> BoxFuture<'a, Outcome> {
        if request.kind() == Kind::Notification && !self.notifications {
            return next.run();
        }
        Box::pin(async move {
            // In the async block: inside `otel::Tracing`, its span's context is current here.
            let pending = Pending {
                audit: self,
                started: Instant::now(),
                record: Some(AuditRecord {
                    time: SystemTime::now(),
                    principal: request.principal().map(str::to_owned),
                    method: request.method(),
                    target: request.target().map(str::to_owned),
                    outcome: AuditOutcome::Cancelled,
                    duration: Default::default(),
                    trace_id: trace_id(request),
                    session_id: request.session_id().map(str::to_owned),
                    transport: request.transport(),
                    version: request.version(),
                    request_id: request.id().cloned(),
                    arguments: self.arguments_of(request),
                }),
            };
            let outcome = next.run().await;
            pending.finish(AuditOutcome::of(&outcome));
            outcome
        })
    }
}
