//! A call that runs as a task, or may become one: where its questions and status reports go.
//!
//! The handler's code is the same as for a plain call; only its [`Interact`](super::peer::Interact)
//! differs. In the handshake era (2025-11-25) questions are requests to the client on the
//! session, tagged with the task, and the task shows `input_required` while one waits. In the
//! stateless era (2026-07-28) a call starts as a multi round-trip request: questions asked before
//! it becomes a task are `input_required` rounds of the `tools/call` itself; once it is a task,
//! they park the task in `input_required` until `tasks/update` answers them.

use mcp_core::InputRequest;
use mcp_core::tasks::TaskStatus;
use serde_json::value::RawValue;

use crate::future::BoxFuture;

/// Why a question could not be put through a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum InputError {
    /// The task has as many questions waiting as it allows.
    Busy,
    /// The task ended (cancelled, expired): nobody will answer.
    Closed,
}

/// What the task manager offers a running task (implemented above this module, by `tasks`).
pub(crate) trait TaskHooks: Send + Sync {
    /// The task's id.
    fn task_id(&self) -> &str;
    /// Stateless era: asks the client through the task (`inputRequests` on `tasks/get`) and
    /// waits for the answer `tasks/update` brings.
    fn input(
        &self,
        key: String,
        request: InputRequest,
    ) -> BoxFuture<'static, Result<Box<RawValue>, InputError>>;
    /// Records a status change (`working` or `input_required`) and its message.
    fn status(&self, status: TaskStatus, message: Option<String>) -> BoxFuture<'static, ()>;
}
