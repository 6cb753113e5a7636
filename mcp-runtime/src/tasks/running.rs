//! One task whose handler runs on this instance: its authoritative state, written through to
//! the store; the questions it waits on; what stops it; who is woken when it changes.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use mcp_core::InputRequest;
use mcp_core::tasks::TaskStatus;
use serde_json::Value;
use serde_json::value::RawValue;
use tokio::sync::{Notify, oneshot};
use tokio::task::AbortHandle;

use crate::future::BoxFuture;
use crate::handler::context::Cancellation;
use crate::handler::task_port::{InputError, TaskHooks};
use crate::outbound::{Outbound, Sink};
use crate::sync::lock;
use crate::tasks::store::{TaskRecord, TaskStore, now_ms};
use crate::tasks::wire;

/// Questions one task may have waiting at once.
const MAX_INPUTS: usize = 32;

/// A task running here.
pub(crate) struct Running {
    pub(crate) id: String,
    /// The state clients see; written to the store by [`sync`](Self::sync).
    record: Mutex<TaskRecord>,
    /// Orders the writes to the store, so the last one holds the latest state.
    write: tokio::sync::Mutex<Option<TaskStatus>>,
    /// Answers awaited, by input key (stateless era).
    inputs: Mutex<HashMap<String, oneshot::Sender<Box<RawValue>>>>,
    /// Woken at every change (`tasks/result` waits on it).
    pub(crate) changed: Notify,
    /// Aborts the handler's task.
    abort: Mutex<Option<AbortHandle>>,
    /// Cancelled with the task: the handler's `ctx.cancellation()`.
    pub(crate) cancel: Cancellation,
    /// Handshake era: where `notifications/tasks/status` go.
    notices: Option<Sink>,
    store: Arc<dyn TaskStore>,
}

impl Running {
    pub(crate) fn new(
        record: TaskRecord,
        store: Arc<dyn TaskStore>,
        notices: Option<Sink>,
        cancel: Cancellation,
    ) -> Self {
        Self {
            id: record.id.clone(),
            record: Mutex::new(record),
            write: tokio::sync::Mutex::new(None),
            inputs: Mutex::new(HashMap::new()),
            changed: Notify::new(),
            abort: Mutex::new(None),
            cancel,
            notices,
            store,
        }
    }

    /// The current state.
    pub(crate) fn snapshot(&self) -> TaskRecord {
        lock(&self.record).clone()
    }

    /// Changes the state (unless the task ended) and writes it through; `false` when the task
    /// had ended already.
    pub(crate) async fn change(&self, f: impl FnOnce(&mut TaskRecord)) -> bool {
        {
            let mut r = lock(&self.record);
            if r.status.is_terminal() {
                return false;
            }
            f(&mut r);
            r.updated_at_ms = now_ms();
        }
        self.sync().await;
        true
    }

    /// Writes the latest state to the store, wakes the waiters and, on a status change in the
    /// handshake era, notifies the client.
    async fn sync(&self) {
        let mut last = self.write.lock().await;
        let snapshot = self.snapshot();
        if let Err(err) = self.store.update(snapshot.clone()).await {
            tracing::warn!(task = %self.id, error = %err, "task state not stored");
        }
        if *last != Some(snapshot.status) {
            *last = Some(snapshot.status);
            if let Some(sink) = &self.notices {
                let params = Value::Object(wire::task(&snapshot).to_wire(false));
                let msg = crate::wire::notification("notifications/tasks/status", &params);
                let _ = sink.try_send(Outbound::Message(msg));
            }
        }
        self.changed.notify_waiters();
    }

    /// Remembers how to stop the handler; stops it at once if the task ended meanwhile.
    pub(crate) fn set_abort(&self, handle: AbortHandle) {
        let ended = lock(&self.record).status.is_terminal();
        if ended {
            handle.abort();
        } else {
            *lock(&self.abort) = Some(handle);
        }
    }

    /// Cancels the task: `cancelled`, its handler dropped. `false` if it had ended.
    pub(crate) async fn cancel(&self) -> bool {
        let changed = self
            .change(|r| {
                r.status = TaskStatus::Cancelled;
                r.status_message = Some("The task was cancelled by request.".into());
                r.input_requests.clear();
            })
            .await;
        if changed {
            self.stop();
        }
        changed
    }

    /// Drops the handler and the questions it waited on.
    pub(crate) fn stop(&self) {
        self.cancel.cancel();
        if let Some(handle) = lock(&self.abort).take() {
            handle.abort();
        }
        lock(&self.inputs).clear();
    }

    /// Delivers the client's answers (`tasks/update`); keys nobody waits for are ignored.
    pub(crate) async fn answer(&self, responses: serde_json::Map<String, Value>) {
        let mut delivered = Vec::new();
        {
            let mut inputs = lock(&self.inputs);
            for (key, value) in responses {
                let Some(tx) = inputs.remove(&key) else {
                    continue;
                };
                if let Ok(raw) = serde_json::value::to_raw_value(&value) {
                    delivered.push((key, tx, raw));
                }
            }
        }
        if delivered.is_empty() {
            return;
        }
        self.change(|r| {
            for (key, _, _) in &delivered {
                r.input_requests.remove(key);
            }
            if r.input_requests.is_empty() && r.status == TaskStatus::InputRequired {
                r.status = TaskStatus::Working;
            }
        })
        .await;
        for (_, tx, raw) in delivered {
            let _ = tx.send(raw);
        }
    }
}

/// The hooks a running task's handler reaches through its context.
pub(crate) struct Hooks(pub(crate) Arc<Running>);

impl TaskHooks for Hooks {
    fn task_id(&self) -> &str {
        &self.0.id
    }

    fn input(
        &self,
        key: String,
        request: InputRequest,
    ) -> BoxFuture<'static, Result<Box<RawValue>, InputError>> {
        let running = Arc::clone(&self.0);
        Box::pin(async move {
            let rx = {
                let mut inputs = lock(&running.inputs);
                if inputs.len() >= MAX_INPUTS {
                    return Err(InputError::Busy);
                }
                let (tx, rx) = oneshot::channel();
                inputs.insert(key.clone(), tx);
                rx
            };
            let request = serde_json::to_value(&request).unwrap_or(Value::Null);
            let open = running
                .change(|r| {
                    r.input_requests.insert(key, request);
                    r.status = TaskStatus::InputRequired;
                })
                .await;
            if !open {
                return Err(InputError::Closed);
            }
            rx.await.map_err(|_| InputError::Closed)
        })
    }

    fn status(&self, status: TaskStatus, message: Option<String>) -> BoxFuture<'static, ()> {
        let running = Arc::clone(&self.0);
        Box::pin(async move {
            running
                .change(|r| {
                    r.status = status;
                    if message.is_some() {
                        r.status_message = message;
                    }
                })
                .await;
        })
    }
}
