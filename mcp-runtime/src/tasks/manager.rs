//! The task manager: creates tasks durably, keeps the handlers running on this instance,
//! finishes, cancels and waits for them; everything a client can read goes through the store.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_core::ErrorObject;
use mcp_core::tasks::TaskStatus;
use serde_json::Value;

use crate::handler::context::Cancellation;
use crate::outbound::Sink;
use crate::sync::lock;
use crate::tasks::TaskOptions;
use crate::tasks::running::Running;
use crate::tasks::store::{MemoryTaskStore, TaskRecord, TaskStore, TaskStoreError};

/// How a task's handler ended.
pub(crate) enum Finished {
    /// A result; `true` when it is a tool's error result (`isError`).
    Result(Value, bool),
    /// A JSON-RPC error.
    Error(ErrorObject),
}

/// What `tasks/cancel` found.
pub(crate) enum Cancelled {
    /// The task is cancelled now.
    Now(TaskRecord),
    /// It had ended already (with this state).
    Ended(TaskRecord),
}

/// Runs and tracks tasks for one server.
pub(crate) struct TaskManager {
    pub(crate) store: Arc<dyn TaskStore>,
    pub(crate) options: TaskOptions,
    /// Tasks whose handlers run here, by id (bounded by the store's live-task limits).
    running: Mutex<HashMap<String, Arc<Running>>>,
}

/// A task store's refusal as the client sees it: a limit is the client's to know; a backend
/// failure (a Redis error names hosts, and may name more) is logged in full and masked, with the
/// correlation id that ties the two together.
fn store_error(err: TaskStoreError) -> ErrorObject {
    match err {
        TaskStoreError::LimitReached(_) => ErrorObject::invalid_request(err.to_string()),
        _ => {
            let err: crate::error::BoxError = Box::new(err);
            ErrorObject::internal(crate::handler::invoke::mask("task store", &err))
        }
    }
}

impl TaskManager {
    pub(crate) fn new(options: TaskOptions) -> Self {
        let store = options
            .store
            .clone()
            .unwrap_or_else(|| Arc::new(MemoryTaskStore::new(options.limits)));
        Self {
            store,
            options,
            running: Mutex::new(HashMap::new()),
        }
    }

    fn table(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Running>>> {
        lock(&self.running)
    }

    /// The TTL granted for a request asking `asked` milliseconds (or nothing).
    pub(crate) fn ttl_ms(&self, asked: Option<u64>) -> u64 {
        let max = self.options.max_ttl.as_millis() as u64;
        asked
            .unwrap_or(self.options.default_ttl.as_millis() as u64)
            .clamp(1, max.max(1))
    }

    /// Creates a task of `owner`, in `principal`'s share, in the store (so that `tasks/get` finds it as soon as the
    /// client learns its id) and registers it as running here.
    pub(crate) async fn create(
        &self,
        owner: String,
        principal: &str,
        stateless: bool,
        ttl_ms: u64,
        notices: Option<Sink>,
        cancel: Cancellation,
    ) -> Result<Arc<Running>, ErrorObject> {
        let poll = self.options.poll_interval.as_millis().max(1) as u64;
        let mut record = TaskRecord::new(crate::random::token(), owner, ttl_ms, poll);
        record.stateless = stateless;
        principal.clone_into(&mut record.principal);
        self.store
            .create(record.clone())
            .await
            .map_err(store_error)?;
        let running = Arc::new(Running::new(
            record.clone(),
            Arc::clone(&self.store),
            notices,
            cancel,
        ));
        self.table().insert(record.id, Arc::clone(&running));
        Ok(running)
    }

    /// The task running here under `id`.
    pub(crate) fn local(&self, id: &str) -> Option<Arc<Running>> {
        self.table().get(id).cloned()
    }

    /// Records how a task's handler ended (unless the task was cancelled meanwhile) and forgets
    /// the handler.
    pub(crate) async fn finish(&self, running: &Running, finished: Finished) {
        let stateless = running.snapshot().stateless;
        running
            .change(|r| {
                r.input_requests.clear();
                match finished {
                    Finished::Result(value, is_error) => {
                        // 2025-11-25 reports a tool's error result as a failed task; 2026-07-28
                        // keeps `failed` for JSON-RPC errors.
                        if is_error && !stateless {
                            r.status = TaskStatus::Failed;
                            r.status_message = Some("The tool reported an error.".into());
                        } else {
                            r.status = TaskStatus::Completed;
                        }
                        r.result = Some(value);
                    }
                    Finished::Error(err) => {
                        r.status = TaskStatus::Failed;
                        r.status_message = Some(err.message.clone());
                        r.error = Some(err);
                    }
                }
            })
            .await;
        self.forget(&running.id);
    }

    /// Forgets a handler that ended.
    pub(crate) fn forget(&self, id: &str) {
        let gone = self.table().remove(id);
        drop(gone);
    }

    /// The task `id` of `owner`.
    pub(crate) async fn get(&self, owner: &str, id: &str) -> Result<TaskRecord, ErrorObject> {
        match self.store.get(owner, id).await.map_err(store_error)? {
            Some(task) => Ok(task),
            None => {
                // An expired task's handler stops with it.
                if let Some(running) = self.local(id)
                    && running.snapshot().owner == owner
                {
                    running.stop();
                    self.forget(id);
                }
                Err(not_found(id))
            }
        }
    }

    /// Cancels the task `id` of `owner`: its handler is dropped.
    pub(crate) async fn cancel(&self, owner: &str, id: &str) -> Result<Cancelled, ErrorObject> {
        let task = self.get(owner, id).await?;
        if task.status.is_terminal() {
            return Ok(Cancelled::Ended(task));
        }
        if let Some(running) = self.local(id) {
            let now = running.cancel().await;
            self.forget(id);
            let state = running.snapshot();
            return Ok(if now {
                Cancelled::Now(state)
            } else {
                Cancelled::Ended(state)
            });
        }
        // Running elsewhere (a shared store): the record says so, and that instance's writes
        // no longer change it.
        let mut task = task;
        task.status = TaskStatus::Cancelled;
        task.status_message = Some("The task was cancelled by request.".into());
        task.input_requests.clear();
        task.updated_at_ms = crate::tasks::store::now_ms();
        if self.store.update(task.clone()).await.map_err(store_error)? {
            Ok(Cancelled::Now(task))
        } else {
            Ok(Cancelled::Ended(self.get(owner, id).await?))
        }
    }

    /// Waits until the task `id` of `owner` ends (2025-11-25 `tasks/result`): woken by the
    /// handler here, or polling the store at the task's interval when it runs elsewhere. The
    /// wait ends at the latest with the task's TTL.
    pub(crate) async fn wait(&self, owner: &str, id: &str) -> Result<TaskRecord, ErrorObject> {
        loop {
            let task = self.get(owner, id).await?;
            if task.status.is_terminal() {
                return Ok(task);
            }
            let poll = Duration::from_millis(task.poll_interval_ms.clamp(10, 5_000));
            match self.local(id) {
                Some(running) => {
                    let _ = tokio::time::timeout(poll, running.changed.notified()).await;
                }
                None => tokio::time::sleep(poll).await,
            }
        }
    }
}

/// -32602 for a task that does not exist, expired, or belongs to someone else.
pub(crate) fn not_found(id: &str) -> ErrorObject {
    ErrorObject::invalid_params(format!(
        "Failed to retrieve task: no task '{}' (unknown, expired, or not yours)",
        mcp_core::jsonrpc::echo(id)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_backend_failure_is_masked_and_a_limit_is_told() {
        let cause = std::io::Error::other("redis://admin:hunter2@10.0.0.7:6379 refused");
        let err = store_error(TaskStoreError::backend(cause));
        assert_eq!(err.code, mcp_core::jsonrpc::error_codes::INTERNAL_ERROR);
        assert!(
            err.message.starts_with("internal error, id "),
            "{}",
            err.message
        );
        assert!(!err.message.contains("hunter2") && !err.message.contains("10.0.0.7"));
        let err = store_error(TaskStoreError::LimitReached("64 per client".into()));
        assert_eq!(err.code, mcp_core::jsonrpc::error_codes::INVALID_REQUEST);
        assert_eq!(err.message, "too many tasks: 64 per client");
    }
}
