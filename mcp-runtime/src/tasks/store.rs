//! Where tasks are kept: the [`TaskStore`] trait, its plain-data [`TaskRecord`], and the
//! in-memory default, [`MemoryTaskStore`].
//!
//! A store holds what a client can ask about a task (status, timestamps, outstanding questions,
//! the final result or error), never the running handler: records are serialisable data, so a
//! store shared by several server instances (Redis, a database) can implement the trait.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use mcp_core::ErrorObject;
use mcp_core::tasks::TaskStatus;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::future::BoxFuture;
use crate::sync::lock;

/// Milliseconds since the Unix epoch, the clock of task records.
pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// One task as a store keeps it: plain, serialisable data.
///
/// ```
/// use mcp_runtime::tasks::TaskRecord;
/// use mcp_runtime::protocol::tasks::TaskStatus;
///
/// let task = TaskRecord::new("t-1", "session:abc", 60_000, 500);
/// assert_eq!(task.status, TaskStatus::Working);
/// let text = serde_json::to_string(&task).unwrap();
/// assert_eq!(serde_json::from_str::<TaskRecord>(&text).unwrap(), task);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TaskRecord {
    /// The task's id (random, unguessable).
    pub id: String,
    /// Who created it: `session:<id>` (handshake era) or `subject:<id>` (stateless era). Only
    /// its owner sees, polls, updates or cancels a task.
    pub owner: String,
    /// Its status.
    pub status: TaskStatus,
    /// A note on the status.
    pub status_message: Option<String>,
    /// Created, in milliseconds since the Unix epoch.
    pub created_at_ms: u64,
    /// Last changed, in milliseconds since the Unix epoch.
    pub updated_at_ms: u64,
    /// How long after creation the task (and its result) is kept.
    pub ttl_ms: u64,
    /// How often clients should poll.
    pub poll_interval_ms: u64,
    /// Questions waiting for the client's answers (stateless era), by key.
    pub input_requests: BTreeMap<String, Value>,
    /// The final result, as the original request would have returned it.
    pub result: Option<Value>,
    /// The JSON-RPC error the request failed with.
    pub error: Option<ErrorObject>,
    /// Whether the task was created by a stateless (2026-07-28) request.
    pub stateless: bool,
    /// Whose share of the store it takes ([`TaskLimits::stored_per_principal`]): the principal
    /// of the request that created it (see [`principal`](crate::principal)); the owner when
    /// empty.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub principal: String,
}

impl TaskRecord {
    /// A `working` task of `owner`, created now.
    pub fn new(id: impl Into<String>, owner: impl Into<String>, ttl_ms: u64, poll_ms: u64) -> Self {
        let now = now_ms();
        Self {
            id: id.into(),
            owner: owner.into(),
            status: TaskStatus::Working,
            status_message: None,
            created_at_ms: now,
            updated_at_ms: now,
            ttl_ms,
            poll_interval_ms: poll_ms,
            input_requests: BTreeMap::new(),
            result: None,
            error: None,
            stateless: false,
            principal: String::new(),
        }
    }

    /// Whose share of the store it takes: its principal, else its owner.
    ///
    /// ```
    /// let mut task = mcp_runtime::tasks::TaskRecord::new("t", "session:a", 1_000, 100);
    /// assert_eq!(task.share_key(), "session:a");
    /// task.principal = "peer:192.0.2.1".into();
    /// assert_eq!(task.share_key(), "peer:192.0.2.1");
    /// ```
    pub fn share_key(&self) -> &str {
        if self.principal.is_empty() {
            &self.owner
        } else {
            &self.principal
        }
    }

    /// Whether its TTL has elapsed at `now` (milliseconds since the epoch).
    ///
    /// ```
    /// let task = mcp_runtime::tasks::TaskRecord::new("t", "o", 1_000, 100);
    /// assert!(!task.expired_at(task.created_at_ms + 1_000));
    /// assert!(task.expired_at(task.created_at_ms + 1_001));
    /// ```
    pub fn expired_at(&self, now: u64) -> bool {
        now > self.created_at_ms.saturating_add(self.ttl_ms)
    }
}

/// Why a store refused or failed.
///
/// ```
/// use mcp_runtime::tasks::TaskStoreError;
/// let e = TaskStoreError::LimitReached("16 live tasks per client".into());
/// assert_eq!(e.to_string(), "too many tasks: 16 live tasks per client");
/// let e = TaskStoreError::backend(std::io::Error::other("connection reset"));
/// assert_eq!(e.to_string(), "task store failure: connection reset");
/// assert!(std::error::Error::source(&e).is_some());
/// ```
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum TaskStoreError {
    /// A bound on tasks is reached; the client may try again later.
    #[error("too many tasks: {0}")]
    LimitReached(String),
    /// The store itself failed (connection lost, …); the cause is kept as the source.
    #[error("task store failure: {0}")]
    Backend(#[source] Arc<dyn std::error::Error + Send + Sync + 'static>),
}

impl TaskStoreError {
    /// A [`Backend`](Self::Backend) failure caused by `error`.
    ///
    /// ```
    /// use mcp_runtime::tasks::TaskStoreError;
    /// let e = TaskStoreError::backend("the store is read-only");
    /// assert!(matches!(e, TaskStoreError::Backend(_)));
    /// ```
    pub fn backend(error: impl Into<crate::error::BoxError>) -> Self {
        Self::Backend(Arc::from(error.into()))
    }
}

/// Keeps tasks for the task manager. Implement it to keep them elsewhere than in memory (say,
/// shared by several instances behind a load balancer); the runtime keeps the running handlers
/// and calls the store for everything a client asks.
///
/// Every method is asynchronous and takes or returns plain [`TaskRecord`]s. A store enforces
/// its own bounds in [`create`](Self::create), forgets tasks whose TTL elapsed, and never
/// changes a task again once it is in a terminal status.
///
/// ```
/// use mcp_runtime::tasks::{MemoryTaskStore, TaskLimits, TaskRecord, TaskStore};
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let store = MemoryTaskStore::new(TaskLimits::default());
/// store.create(TaskRecord::new("t-1", "session:a", 60_000, 500)).await.unwrap();
/// assert!(store.get("session:a", "t-1").await.unwrap().is_some());
/// assert!(store.get("session:b", "t-1").await.unwrap().is_none(), "another owner sees nothing");
/// # });
/// ```
pub trait TaskStore: Send + Sync + 'static {
    /// Stores a new task, unless one of the store's bounds refuses it. When it returns, a
    /// [`get`](Self::get) of the task finds it.
    fn create(&self, task: TaskRecord) -> BoxFuture<'_, Result<(), TaskStoreError>>;

    /// The task `id`, if `owner` created it and its TTL has not elapsed.
    fn get<'a>(
        &'a self,
        owner: &'a str,
        id: &'a str,
    ) -> BoxFuture<'a, Result<Option<TaskRecord>, TaskStoreError>>;

    /// Replaces the state of a stored task. Returns `false`, changing nothing, when the task is
    /// gone or already in a terminal status (a cancelled task stays cancelled).
    fn update(&self, task: TaskRecord) -> BoxFuture<'_, Result<bool, TaskStoreError>>;

    /// Up to `limit` of `owner`'s tasks, oldest first, after the task `after` (a page cursor).
    fn list<'a>(
        &'a self,
        owner: &'a str,
        after: Option<&'a str>,
        limit: usize,
    ) -> BoxFuture<'a, Result<Vec<TaskRecord>, TaskStoreError>>;
}

/// Bounds on the tasks a store keeps.
///
/// ```
/// use mcp_runtime::tasks::TaskLimits;
/// let limits = TaskLimits::default().with_live_per_owner(4);
/// assert_eq!(limits.live_per_owner, 4);
/// assert_eq!(limits.live_total, 1024);
/// assert_eq!(limits.stored_per_principal, 512);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct TaskLimits {
    /// Tasks not yet finished, per owner (session or subject). Default 16.
    pub live_per_owner: usize,
    /// Tasks not yet finished, over the whole store. Default 1024.
    pub live_total: usize,
    /// Tasks kept, finished ones included (until their TTL elapses). Default 8192.
    pub stored_total: usize,
    /// Tasks kept, finished ones included, per principal (the token's subject, else the peer
    /// address, else the owner; see [`principal`](crate::principal)). Default 512: one client
    /// filling its share leaves the rest of the store to the others.
    pub stored_per_principal: usize,
}

impl Default for TaskLimits {
    fn default() -> Self {
        Self {
            live_per_owner: 16,
            live_total: 1024,
            stored_total: 8192,
            stored_per_principal: 512,
        }
    }
}

impl TaskLimits {
    /// Sets [`live_per_owner`](Self::live_per_owner).
    #[must_use]
    pub fn with_live_per_owner(mut self, n: usize) -> Self {
        self.live_per_owner = n;
        self
    }

    /// Sets [`live_total`](Self::live_total).
    #[must_use]
    pub fn with_live_total(mut self, n: usize) -> Self {
        self.live_total = n;
        self
    }

    /// Sets [`stored_total`](Self::stored_total).
    #[must_use]
    pub fn with_stored_total(mut self, n: usize) -> Self {
        self.stored_total = n;
        self
    }

    /// Sets [`stored_per_principal`](Self::stored_per_principal).
    ///
    /// ```
    /// let limits = mcp_runtime::tasks::TaskLimits::default().with_stored_per_principal(64);
    /// assert_eq!(limits.stored_per_principal, 64);
    /// ```
    #[must_use]
    pub fn with_stored_per_principal(mut self, n: usize) -> Self {
        self.stored_per_principal = n;
        self
    }
}

/// The default [`TaskStore`]: a table in memory, bounded by [`TaskLimits`], that forgets each
/// task once its TTL has elapsed (results are kept until then).
///
/// ```
/// use mcp_runtime::tasks::{MemoryTaskStore, TaskLimits, TaskRecord, TaskStore};
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let store = MemoryTaskStore::new(TaskLimits::default().with_live_per_owner(1));
/// store.create(TaskRecord::new("a", "session:1", 60_000, 500)).await.unwrap();
/// let refused = store.create(TaskRecord::new("b", "session:1", 60_000, 500)).await;
/// assert!(refused.is_err(), "one live task per owner");
/// store.create(TaskRecord::new("c", "session:2", 60_000, 500)).await.unwrap();
/// # });
/// ```
#[derive(Debug)]
pub struct MemoryTaskStore {
    limits: TaskLimits,
    tasks: Mutex<HashMap<String, TaskRecord>>,
}

impl MemoryTaskStore {
    /// An empty store with these bounds.
    pub fn new(limits: TaskLimits) -> Self {
        Self {
            limits,
            tasks: Mutex::new(HashMap::new()),
        }
    }

    fn table(&self) -> std::sync::MutexGuard<'_, HashMap<String, TaskRecord>> {
        lock(&self.tasks)
    }

    /// How many tasks are kept (expired ones are dropped first).
    ///
    /// ```
    /// let store = mcp_runtime::tasks::MemoryTaskStore::new(Default::default());
    /// assert_eq!(store.len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        let mut table = self.table();
        sweep(&mut table, now_ms());
        table.len()
    }

    /// Whether no task is kept.
    ///
    /// ```
    /// assert!(mcp_runtime::tasks::MemoryTaskStore::new(Default::default()).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn create_now(&self, task: TaskRecord) -> Result<(), TaskStoreError> {
        let mut table = self.table();
        sweep(&mut table, now_ms());
        let limits = &self.limits;
        let key = task.share_key();
        let kept = table.values().filter(|t| t.share_key() == key).count();
        if kept >= limits.stored_per_principal {
            return Err(TaskStoreError::LimitReached(format!(
                "at most {} tasks kept per client",
                limits.stored_per_principal
            )));
        }
        if table.len() >= limits.stored_total {
            return Err(TaskStoreError::LimitReached(format!(
                "the server keeps at most {} tasks",
                limits.stored_total
            )));
        }
        let live = table.values().filter(|t| !t.status.is_terminal());
        let (mut total, mut mine) = (0, 0);
        for t in live {
            total += 1;
            if t.owner == task.owner {
                mine += 1;
            }
        }
        if mine >= limits.live_per_owner {
            return Err(TaskStoreError::LimitReached(format!(
                "at most {} unfinished tasks per client",
                limits.live_per_owner
            )));
        }
        if total >= limits.live_total {
            return Err(TaskStoreError::LimitReached(format!(
                "at most {} unfinished tasks on the server",
                limits.live_total
            )));
        }
        table.insert(task.id.clone(), task);
        Ok(())
    }

    fn get_now(&self, owner: &str, id: &str) -> Option<TaskRecord> {
        let mut table = self.table();
        let task = table.get(id)?;
        if task.expired_at(now_ms()) {
            table.remove(id);
            return None;
        }
        (task.owner == owner).then(|| task.clone())
    }

    fn update_now(&self, task: TaskRecord) -> bool {
        let mut table = self.table();
        match table.get_mut(&task.id) {
            Some(old) if !old.status.is_terminal() && old.owner == task.owner => {
                *old = task;
                true
            }
            _ => false,
        }
    }

    fn list_now(&self, owner: &str, after: Option<&str>, limit: usize) -> Vec<TaskRecord> {
        let mut table = self.table();
        sweep(&mut table, now_ms());
        let mut mine: Vec<&TaskRecord> = table.values().filter(|t| t.owner == owner).collect();
        mine.sort_by(|a, b| (a.created_at_ms, &a.id).cmp(&(b.created_at_ms, &b.id)));
        let start = match after.and_then(|id| table.get(id)) {
            Some(a) if a.owner == owner => {
                let key = (a.created_at_ms, &a.id);
                mine.partition_point(|t| (t.created_at_ms, &t.id) <= key)
            }
            _ => 0,
        };
        mine.into_iter().skip(start).take(limit).cloned().collect()
    }
}

impl Default for MemoryTaskStore {
    fn default() -> Self {
        Self::new(TaskLimits::default())
    }
}

/// Drops the tasks whose TTL has elapsed.
fn sweep(table: &mut HashMap<String, TaskRecord>, now: u64) {
    table.retain(|_, t| !t.expired_at(now));
}

impl TaskStore for MemoryTaskStore {
    fn create(&self, task: TaskRecord) -> BoxFuture<'_, Result<(), TaskStoreError>> {
        let outcome = self.create_now(task);
        Box::pin(std::future::ready(outcome))
    }

    fn get<'a>(
        &'a self,
        owner: &'a str,
        id: &'a str,
    ) -> BoxFuture<'a, Result<Option<TaskRecord>, TaskStoreError>> {
        Box::pin(std::future::ready(Ok(self.get_now(owner, id))))
    }

    fn update(&self, task: TaskRecord) -> BoxFuture<'_, Result<bool, TaskStoreError>> {
        Box::pin(std::future::ready(Ok(self.update_now(task))))
    }

    fn list<'a>(
        &'a self,
        owner: &'a str,
        after: Option<&'a str>,
        limit: usize,
    ) -> BoxFuture<'a, Result<Vec<TaskRecord>, TaskStoreError>> {
        Box::pin(std::future::ready(Ok(self.list_now(owner, after, limit))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block<T>(f: BoxFuture<'_, T>) -> T {
        let waker = std::task::Waker::noop();
        let mut cx = std::task::Context::from_waker(waker);
        let mut f = f;
        match f.as_mut().poll(&mut cx) {
            std::task::Poll::Ready(v) => v,
            std::task::Poll::Pending => panic!("the memory store never waits"),
        }
    }

    /// The reason of a [`TaskStoreError::LimitReached`], the only error expected.
    fn refusal(created: Result<(), TaskStoreError>) -> String {
        match created {
            Err(TaskStoreError::LimitReached(why)) => why,
            other => panic!("expected a limit, got {other:?}"),
        }
    }

    #[test]
    fn bounds_on_live_tasks_per_owner_overall_and_stored() {
        let store = MemoryTaskStore::new(TaskLimits {
            live_per_owner: 2,
            live_total: 3,
            stored_total: 4,
            stored_per_principal: 100,
        });
        let new = |id: &str, owner: &str| TaskRecord::new(id, owner, 60_000, 100);
        block(store.create(new("a1", "a"))).unwrap();
        block(store.create(new("a2", "a"))).unwrap();
        assert_eq!(
            refusal(block(store.create(new("a3", "a")))),
            "at most 2 unfinished tasks per client"
        );
        block(store.create(new("b1", "b"))).unwrap();
        assert_eq!(
            refusal(block(store.create(new("c1", "c")))),
            "at most 3 unfinished tasks on the server"
        );
        // A finished task no longer counts as live, but is kept (its result) until its TTL.
        let mut done = block(store.get("a", "a1")).unwrap().unwrap();
        done.status = TaskStatus::Completed;
        assert!(block(store.update(done.clone())).unwrap());
        block(store.create(new("a3", "a"))).unwrap();
        assert_eq!(store.len(), 4);
        assert_eq!(
            refusal(block(store.create(new("d1", "d")))),
            "the server keeps at most 4 tasks"
        );
        // Terminal tasks never change again.
        done.status = TaskStatus::Working;
        assert!(!block(store.update(done)).unwrap());
        assert_eq!(
            block(store.get("a", "a1")).unwrap().unwrap().status,
            TaskStatus::Completed
        );
    }

    #[test]
    fn a_principal_over_its_share_is_refused_and_others_are_not() {
        let store = MemoryTaskStore::new(TaskLimits::default().with_stored_per_principal(3));
        let new = |id: &str, owner: &str, principal: &str| {
            let mut t = TaskRecord::new(id, owner, 60_000, 100);
            t.principal = principal.into();
            t.status = TaskStatus::Completed;
            t
        };
        // One peer's tasks over several sessions (owners) count together.
        for (i, owner) in ["s1", "s2", "s3"].iter().enumerate() {
            block(store.create(new(&format!("a{i}"), owner, "peer:a"))).unwrap();
        }
        assert_eq!(
            refusal(block(store.create(new("a4", "s4", "peer:a")))),
            "at most 3 tasks kept per client"
        );
        block(store.create(new("b1", "s5", "peer:b"))).unwrap();
        // Without a principal, the owner is the share.
        block(store.create(new("c1", "s6", ""))).unwrap();
        assert_eq!(store.len(), 5);
    }

    #[test]
    fn expired_tasks_are_forgotten() {
        let store = MemoryTaskStore::default();
        let mut old = TaskRecord::new("old", "o", 1_000, 100);
        old.created_at_ms -= 1_001;
        block(store.create(old)).unwrap();
        block(store.create(TaskRecord::new("new", "o", 1_000, 100))).unwrap();
        assert!(block(store.get("o", "old")).unwrap().is_none());
        assert!(block(store.get("o", "new")).unwrap().is_some());
        assert_eq!(store.len(), 1);
    }

    #[test]
    fn owners_see_only_their_tasks_and_pages_follow_creation() {
        let store = MemoryTaskStore::default();
        for (i, owner) in ["x", "y", "x", "x"].iter().enumerate() {
            let mut t = TaskRecord::new(format!("t{i}"), *owner, 60_000, 100);
            t.created_at_ms += i as u64;
            block(store.create(t)).unwrap();
        }
        let ids = |v: Vec<TaskRecord>| v.into_iter().map(|t| t.id).collect::<Vec<_>>();
        assert_eq!(ids(block(store.list("x", None, 2)).unwrap()), ["t0", "t2"]);
        assert_eq!(ids(block(store.list("x", Some("t2"), 2)).unwrap()), ["t3"]);
        assert_eq!(ids(block(store.list("y", None, 10)).unwrap()), ["t1"]);
        assert!(block(store.get("y", "t0")).unwrap().is_none());
        let mut foreign = block(store.get("x", "t0")).unwrap().unwrap();
        foreign.owner = "y".into();
        assert!(
            !block(store.update(foreign)).unwrap(),
            "an update names the owner"
        );
    }
}
