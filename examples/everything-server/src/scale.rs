//! Fixtures of the scale-out tests (`tests/scale-out`): several replicas of this server behind a
//! load balancer, each told its name in `MCP_NODE_ID`. Each tool says which replica ran it, so a
//! test can assert that a hop between replicas really happened.
//!
//! | tool | what it shows |
//! | --- | --- |
//! | `scale_whoami` | the replica that ran the call |
//! | `scale_slow` | a slow call that counts how it ended (completed or cancelled) on its replica |
//! | `scale_stats` | those counts, for the replica that answers |
//! | `scale_progress_cut` | progress before and after closing its own SSE stream (resumption) |
//! | `scale_add_tool` | registers `scale_added` on the replica that runs it (a `list_changed`) |
//! | `scale_remove_tool` | unregisters it again |

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use mcp_runtime::prelude::*;
use schemars::JsonSchema;
use serde::Serialize;

/// The replica's name: `MCP_NODE_ID`, or `"-"` when it is not set.
fn node() -> String {
    std::env::var("MCP_NODE_ID").unwrap_or_else(|_| "-".to_owned())
}

/// `scale_slow` calls started, completed and stopped before completing, on this replica.
static STARTED: AtomicU64 = AtomicU64::new(0);
static COMPLETED: AtomicU64 = AtomicU64::new(0);
static CANCELLED: AtomicU64 = AtomicU64::new(0);

/// Counts a `scale_slow` call as cancelled when it is dropped, or wakes on its cancellation
/// token, before it completed.
struct Ending {
    completed: bool,
}

impl Drop for Ending {
    fn drop(&mut self) {
        if !self.completed {
            CANCELLED.fetch_add(1, Ordering::SeqCst);
        }
    }
}

/// Says which replica ran the call.
#[tool(read_only)]
async fn scale_whoami() -> String {
    format!("replica {}", node())
}

/// Takes `duration_ms` milliseconds (at most one minute) unless it is cancelled first; reports
/// progress 0 at once. Its replica counts how each call ended (`scale_stats`).
#[tool(read_only)]
async fn scale_slow(
    ctx: Context,
    /// How long the call takes, in milliseconds (at most 60000)
    duration_ms: u64,
) -> String {
    STARTED.fetch_add(1, Ordering::SeqCst);
    let mut ending = Ending { completed: false };
    ctx.progress(
        0.0,
        Some(1.0),
        Some(&format!("started on replica {}", node())),
    )
    .await;
    let wait = Duration::from_millis(duration_ms.min(60_000));
    tokio::select! {
        () = tokio::time::sleep(wait) => {
            ending.completed = true;
            COMPLETED.fetch_add(1, Ordering::SeqCst);
            format!("completed on replica {}", node())
        }
        () = ctx.cancellation().cancelled() => format!("cancelled on replica {}", node()),
    }
}

// How the `scale_slow` calls of one replica went.
#[derive(Debug, Serialize, JsonSchema)]
struct Stats {
    /// The replica (`MCP_NODE_ID`)
    node: String,
    /// Calls started
    started: u64,
    /// Calls that ran to the end
    completed: u64,
    /// Calls stopped before the end (cancelled)
    cancelled: u64,
}

/// The `scale_slow` counts of the replica that answers.
#[tool(read_only)]
async fn scale_stats() -> Json<Stats> {
    Json(Stats {
        node: node(),
        started: STARTED.load(Ordering::SeqCst),
        completed: COMPLETED.load(Ordering::SeqCst),
        cancelled: CANCELLED.load(Ordering::SeqCst),
    })
}

/// Reports progress 1 to `steps` (at most 100), every 100 ms; after `cut_after` of them it
/// closes its SSE stream (SEP-1699), so the client resumes with `Last-Event-ID`, possibly on
/// another replica, and must see every later step exactly once.
#[tool(read_only)]
async fn scale_progress_cut(
    ctx: Context,
    /// How many progress steps (at most 100)
    steps: u32,
    /// After how many steps the stream is closed
    cut_after: u32,
) -> String {
    let steps = steps.min(100);
    for step in 1..=steps {
        ctx.progress(f64::from(step), Some(f64::from(steps)), None)
            .await;
        if step == cut_after {
            ctx.close_stream().await;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    format!("{steps} steps on replica {}", node())
}

/// Registers the tool `scale_added` on the replica that runs the call (clients are sent
/// `notifications/tools/list_changed`); says whether it was new.
#[tool]
async fn scale_add_tool(ctx: Context) -> String {
    let added = ctx.server().add_tool(scale_added::TOOL).is_ok();
    format!(
        "scale_added {} on replica {}",
        if added { "added" } else { "already there" },
        node()
    )
}

/// Unregisters `scale_added` from the replica that runs the call; says whether it was there.
#[tool]
async fn scale_remove_tool(ctx: Context) -> String {
    let removed = ctx.server().remove_tool("scale_added");
    format!(
        "scale_added {} on replica {}",
        if removed { "removed" } else { "absent" },
        node()
    )
}

/// A tool that exists only once `scale_add_tool` registered it (it belongs to no server of the
/// registry: `server = "scale-added"`).
#[tool(read_only, server = "scale-added")]
async fn scale_added() -> String {
    format!("scale_added on replica {}", node())
}
