//! Long-running tools as tasks: the task manager, its options and its pluggable store.
//!
//! A tool marked `#[tool(task = "optional")]` (or `"required"`) can answer a `tools/call` with
//! a task handle that the client polls, in both protocol eras; the tool's body does not change.
//! The [`TaskStore`] keeps what clients ask about (status, questions, result) as plain records;
//! the running handlers stay in the instance that runs them. [`MemoryTaskStore`] is the
//! default; give another with [`TaskOptions::with_store`].
//!
//! # Both eras
//!
//! - **2025-11-25**: tools list `execution.taskSupport`; the client asks for a task with
//!   `"task": {"ttl": ms}` in the `tools/call` params and gets `{"task": {...}}` at once. It polls
//!   `tasks/get`, waits on `tasks/result` (the tool's result, tagged with
//!   `_meta["io.modelcontextprotocol/related-task"]`), pages `tasks/list` and cancels with
//!   `tasks/cancel`. Progress, `notifications/tasks/status` and the task's questions to the client
//!   (elicitation, sampling, roots: the task shows `input_required` meanwhile) go to the session's
//!   stream. A `required` tool called without `task` gets -32601, a tool without task support
//!   called with it too.
//! - **2026-07-28** (extension `io.modelcontextprotocol/tasks`): for a request declaring the
//!   extension, the server decides. The tool starts in the request; if it ends, or asks the client
//!   something, before it first waits on its own work (or calls
//!   [`Context::continue_as_task`](crate::Context::continue_as_task)), the answer is its result or
//!   an `input_required` round as for any call; otherwise it continues as a task and the answer is
//!   the task (`resultType: "task"`). Its later questions park the task in `input_required`
//!   (`inputRequests` on `tasks/get`) until `tasks/update` answers them. A `required` tool called
//!   by a client without the extension gets -32021.
//!
//! In both, a task keeps running when the connection that created it closes, `tasks/cancel`
//! drops the handler, a task still running when its TTL elapses is stopped, and results are kept
//! until the TTL elapses. Only a task's creator sees it: the session in the handshake era; in the
//! stateless era over HTTP the credentials' subject (the `Authorization` header, hashed; requests
//! without one share one anonymous subject and rely on the ids' 256 random bits).
//!
//! ```standalone_crate
//! use mcp_runtime::prelude::*;
//! use mcp_runtime::tasks::{TaskLimits, TaskOptions};
//! use std::time::Duration;
//!
//! /// Renders the report; takes minutes.
//! #[tool(task = "optional")]
//! async fn render(ctx: Context) -> String {
//!     ctx.report_status("rendering").await;
//!     "report.pdf".into()
//! }
//!
//! let server = Server::builder(server_info!())
//!     .tool(render::TOOL)
//!     .tasks(
//!         TaskOptions::default()
//!             .with_default_ttl(Duration::from_secs(600))
//!             .with_limits(TaskLimits::default().with_live_per_owner(4)),
//!     )
//!     .build()
//!     .unwrap();
//! # let _ = server;
//! ```

mod manager;
pub(crate) mod running;
mod store;
pub(crate) mod wire;

use std::sync::Arc;
use std::time::Duration;

pub(crate) use manager::{Cancelled, Finished, TaskManager};
pub(crate) use store::now_ms;
pub use store::{MemoryTaskStore, TaskLimits, TaskRecord, TaskStore, TaskStoreError};

/// Declares tasks in the capabilities: `tasks` (2025-11-25) and the extension (2026-07-28).
pub(crate) fn advertise(caps: &mut mcp_core::ServerCapabilities) {
    let tasks = serde_json::json!({"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}});
    if let serde_json::Value::Object(tasks) = tasks {
        caps.tasks = Some(tasks);
    }
    caps.extensions
        .get_or_insert_with(mcp_core::Meta::new)
        .insert(mcp_core::tasks::EXTENSION.into(), serde_json::json!({}));
}

/// How the server runs tasks: their lifetime, the poll interval it suggests, its bounds, and
/// where tasks are kept.
///
/// ```
/// use mcp_runtime::tasks::TaskOptions;
/// use std::time::Duration;
///
/// let options = TaskOptions::default().with_poll_interval(Duration::from_millis(250));
/// assert_eq!(options.poll_interval, Duration::from_millis(250));
/// assert_eq!(options.default_ttl, Duration::from_secs(3600));
/// ```
#[derive(Clone)]
#[non_exhaustive]
pub struct TaskOptions {
    /// How long a task and its result are kept when the client does not say (default 1 hour).
    pub default_ttl: Duration,
    /// The longest TTL granted, whatever the client asks (default 24 hours). A task still
    /// running when its TTL elapses is stopped and fails.
    pub max_ttl: Duration,
    /// How often clients should poll (default 1 s).
    pub poll_interval: Duration,
    /// Bounds of the default store (ignored with [`with_store`](Self::with_store)).
    pub limits: TaskLimits,
    /// Where tasks are kept; a [`MemoryTaskStore`] with [`limits`](Self::limits) when `None`.
    pub store: Option<Arc<dyn TaskStore>>,
}

impl std::fmt::Debug for TaskOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TaskOptions")
            .field("default_ttl", &self.default_ttl)
            .field("max_ttl", &self.max_ttl)
            .field("poll_interval", &self.poll_interval)
            .field("limits", &self.limits)
            .field("store", &self.store.as_ref().map(|_| "custom"))
            .finish()
    }
}

impl Default for TaskOptions {
    fn default() -> Self {
        Self {
            default_ttl: Duration::from_secs(3600),
            max_ttl: Duration::from_secs(24 * 3600),
            poll_interval: Duration::from_secs(1),
            limits: TaskLimits::default(),
            store: None,
        }
    }
}

impl TaskOptions {
    /// Sets [`default_ttl`](Self::default_ttl).
    #[must_use]
    pub fn with_default_ttl(mut self, ttl: Duration) -> Self {
        self.default_ttl = ttl;
        self
    }

    /// Sets [`max_ttl`](Self::max_ttl).
    #[must_use]
    pub fn with_max_ttl(mut self, ttl: Duration) -> Self {
        self.max_ttl = ttl;
        self
    }

    /// Sets [`poll_interval`](Self::poll_interval).
    #[must_use]
    pub fn with_poll_interval(mut self, interval: Duration) -> Self {
        self.poll_interval = interval;
        self
    }

    /// Sets [`limits`](Self::limits).
    #[must_use]
    pub fn with_limits(mut self, limits: TaskLimits) -> Self {
        self.limits = limits;
        self
    }

    /// Keeps tasks in `store` instead of memory.
    ///
    /// ```
    /// use mcp_runtime::tasks::{MemoryTaskStore, TaskOptions};
    /// use std::sync::Arc;
    ///
    /// let store = Arc::new(MemoryTaskStore::default());
    /// let options = TaskOptions::default().with_store(store.clone());
    /// assert!(options.store.is_some());
    /// ```
    #[must_use]
    pub fn with_store(mut self, store: Arc<dyn TaskStore>) -> Self {
        self.store = Some(store);
        self
    }
}
