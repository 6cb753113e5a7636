//! What a handler's [`Context`] knows and does about the task it runs as (see
//! [`tasks`](crate::tasks)): its id, its status message, and where it becomes a task.

use std::sync::Arc;

use crate::handler::context::Context;

impl Context {
    /// The task this call runs as, if it is one.
    pub(crate) fn task(&self) -> Option<&Arc<dyn crate::handler::task_port::TaskHooks>> {
        match &self.inner.interact {
            crate::handler::peer::Interact::Task(port) => port.hooks(),
            _ => None,
        }
    }

    /// The id of the task this call runs as (see [`tasks`](crate::tasks)), `None` for a plain
    /// call; the same tool body serves both.
    ///
    /// ```
    /// use mcp_runtime::prelude::*;
    ///
    /// /// Says where it runs.
    /// async fn whereabouts(ctx: Context) -> String {
    ///     match ctx.task_id() {
    ///         Some(id) => format!("task {id}"),
    ///         None => "a plain call".into(),
    ///     }
    /// }
    /// ```
    pub fn task_id(&self) -> Option<&str> {
        self.task().map(|t| t.task_id())
    }

    /// Marks where a tool that may become a task stops answering in the request (2026-07-28,
    /// where the server decides): questions asked before it are `input_required` rounds of the
    /// `tools/call`; at this point the call turns into a task, and later questions park the task
    /// in `input_required` until `tasks/update` answers them. A tool that first waits on its own
    /// work (I/O, a timer) turns into a task there anyway. Elsewhere (a plain call, a task
    /// already, 2025-11-25 where the client decides) it returns at once.
    ///
    /// ```
    /// use mcp_runtime::prelude::*;
    ///
    /// /// Deletes a file once the user confirms, as a task.
    /// async fn delete(ctx: Context, file: String) -> Result<String, ToolError> {
    ///     ctx.continue_as_task().await;
    ///     ctx.report_status(&format!("waiting for confirmation to delete {file}")).await;
    ///     Ok(format!("deleted {file}"))
    /// }
    /// ```
    pub async fn continue_as_task(&self) {
        if let crate::handler::peer::Interact::Task(port) = &self.inner.interact
            && port.hooks().is_none()
        {
            tokio::task::yield_now().await;
        }
    }

    /// Sets the `statusMessage` clients see on `tasks/get` (and in status notifications) while
    /// this call runs as a task; does nothing in a plain call.
    ///
    /// ```
    /// use mcp_runtime::prelude::*;
    ///
    /// /// Exports the catalogue, page by page.
    /// async fn export(ctx: Context) -> String {
    ///     for page in 1..=3 {
    ///         ctx.report_status(&format!("page {page} of 3")).await;
    ///         ctx.progress(page as f64, Some(3.0), None).await;
    ///     }
    ///     "exported".into()
    /// }
    /// ```
    pub async fn report_status(&self, message: &str) {
        if let Some(task) = self.task() {
            task.status(
                mcp_core::tasks::TaskStatus::Working,
                Some(message.to_owned()),
            )
            .await;
        }
    }
}
