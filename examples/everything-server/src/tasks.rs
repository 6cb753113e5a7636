//! Tasks (FIXTURES.md §6.1, the `tasks-*` scenarios): tools that run as tasks, written as plain
//! tool bodies. In 2026-07-28 the server turns a call into a task when the client declares the
//! `io.modelcontextprotocol/tasks` extension; in 2025-11-25 the client asks with `task`.

use std::time::Duration;

use mcp_runtime::HandlerError;
use mcp_runtime::prelude::*;
use mcp_runtime::protocol::ErrorObject;
use schemars::JsonSchema;
use serde::Deserialize;

/// Greets someone at once (never a task).
#[tool]
async fn greet(
    /// Who to greet
    name: String,
) -> String {
    format!("Hello, {name}!")
}

/// Computes for `seconds` seconds, then reports what it computed; `seconds: 0` answers at once.
#[tool(task = "optional")]
async fn slow_compute(
    ctx: Context,
    /// How long to work, in seconds
    seconds: u64,
    /// A label echoed in the result
    label: Option<String>,
) -> String {
    let label = label.unwrap_or_else(|| "job".into());
    for second in 0..seconds.min(3600) {
        ctx.report_status(&format!("{label}: {second} of {seconds} s"))
            .await;
        ctx.progress(second as f64, Some(seconds as f64), None)
            .await;
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    format!("computed {label} in {seconds} s")
}

/// Works for a second, then fails with a tool error (it runs only as a task).
#[tool(task = "required")]
async fn failing_job() -> Result<String, ToolError> {
    tokio::time::sleep(Duration::from_secs(1)).await;
    Err(ToolError::new("the job failed: the input data is corrupt"))
}

/// Works briefly, then fails with a JSON-RPC error (a protocol-level failure).
#[tool(task = "optional")]
async fn protocol_error_job() -> Result<String, HandlerError> {
    tokio::time::sleep(Duration::from_millis(200)).await;
    Err(HandlerError::Protocol(ErrorObject::internal(
        "the job's backend is unreachable",
    )))
}

// A yes/no confirmation.
#[derive(Debug, Deserialize, JsonSchema)]
struct Confirm {
    confirm: bool,
}

// A name.
#[derive(Debug, Deserialize, JsonSchema)]
struct Named {
    name: String,
}

/// Deletes a file once the user confirms (asked while the task runs).
#[tool(task = "optional")]
async fn confirm_delete(
    ctx: Context,
    /// The file to delete
    filename: String,
) -> Result<String, ToolError> {
    ctx.continue_as_task().await;
    let answer = ctx
        .elicit::<Confirm>(&format!("Delete {filename}?"))
        .await?;
    Ok(match answer {
        Elicitation::Accept(Confirm { confirm: true }) => format!("deleted {filename}"),
        _ => format!("kept {filename}"),
    })
}

/// Asks two questions at once while running as a task, then reports both answers.
#[tool(task = "optional")]
async fn multi_input(ctx: Context) -> Result<String, ToolError> {
    ctx.continue_as_task().await;
    let (name, confirm) = tokio::join!(
        ctx.elicit::<Named>("Your name?"),
        ctx.elicit::<Confirm>("Proceed?")
    );
    let name = name?.accepted().map_or_else(|| "nobody".into(), |n| n.name);
    let confirm = confirm?.accepted().is_some_and(|c| c.confirm);
    Ok(format!("name {name}, confirmed {confirm}"))
}

/// Asks the user's name first (an `input_required` round of the call), then greets them from
/// a task.
#[tool(task = "required")]
async fn test_tool_with_task(ctx: Context) -> Result<String, ToolError> {
    let name = match ctx
        .elicit::<Named>("What is your name?")
        .key("user_name")
        .await?
    {
        Elicitation::Accept(n) => n.name,
        _ => return Err(ToolError::new("no name given")),
    };
    ctx.continue_as_task().await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    Ok(format!("Hello, {name}! (from a task)"))
}
