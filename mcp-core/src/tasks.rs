//! Tasks: long-running requests answered with a handle the client polls.
//!
//! Two revisions define them, with different wire shapes:
//!
//! * **2025-11-25** (core, experimental): the client asks for a task with a `task` member in the
//!   `tools/call` params; the server answers `{"task": {...}}`, and the client uses `tasks/get`,
//!   `tasks/result` (blocks until the task ends), `tasks/list` and `tasks/cancel`. A task's
//!   durations are `ttl` and `pollInterval`.
//! * **2026-07-28** (the extension `io.modelcontextprotocol/tasks`): the server decides, for
//!   clients that declare the extension; the answer is the flat task with `resultType: "task"`;
//!   `tasks/get` inlines the result, `tasks/update` carries the client's input, `tasks/cancel`
//!   answers an empty result. Durations are `ttlMs` and `pollIntervalMs`.
//!
//! [`Task`] holds the fields both share and writes either shape with [`Task::to_wire`].
//!
//! ```
//! use mcp_runtime_core::tasks::{Task, TaskStatus};
//!
//! let task = Task::new("t-1", TaskStatus::Working, "2026-01-02T03:04:05Z").with_ttl_ms(60_000);
//! let old = serde_json::Value::Object(task.to_wire(false));
//! assert_eq!(old["ttl"], 60_000);
//! let new = serde_json::Value::Object(task.to_wire(true));
//! assert_eq!(new["ttlMs"], 60_000);
//! assert!(new.get("ttl").is_none());
//! ```

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The identifier of the tasks extension (2026-07-28).
pub const EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// The `_meta` key that ties a message to its task (2025-11-25).
pub const RELATED_TASK_KEY: &str = "io.modelcontextprotocol/related-task";

/// Where a task is in its life.
///
/// ```
/// use mcp_runtime_core::tasks::TaskStatus;
/// assert_eq!(serde_json::to_string(&TaskStatus::InputRequired).unwrap(), r#""input_required""#);
/// assert!(TaskStatus::Cancelled.is_terminal());
/// assert!(!TaskStatus::Working.is_terminal());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum TaskStatus {
    /// The request is being processed.
    Working,
    /// The server waits for the client's input.
    InputRequired,
    /// The request finished with a result (a tool's `isError` result too, from 2026-07-28 on).
    Completed,
    /// The request failed with a JSON-RPC error (2025-11-25: also a tool's `isError` result).
    Failed,
    /// The request was cancelled.
    Cancelled,
}

impl TaskStatus {
    /// `completed`, `failed` and `cancelled`: nothing changes a task after them.
    pub fn is_terminal(self) -> bool {
        matches!(self, Self::Completed | Self::Failed | Self::Cancelled)
    }

    /// The status as written on the wire.
    ///
    /// ```
    /// assert_eq!(mcp_runtime_core::tasks::TaskStatus::Failed.as_str(), "failed");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Working => "working",
            Self::InputRequired => "input_required",
            Self::Completed => "completed",
            Self::Failed => "failed",
            Self::Cancelled => "cancelled",
        }
    }
}

/// Whether a tool runs as a task (`execution.taskSupport` of 2025-11-25).
///
/// ```
/// use mcp_runtime_core::tasks::TaskSupport;
/// assert_eq!(TaskSupport::default(), TaskSupport::Forbidden);
/// assert_eq!(serde_json::to_string(&TaskSupport::Optional).unwrap(), r#""optional""#);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskSupport {
    /// Never as a task (the default).
    #[default]
    Forbidden,
    /// As a task or as a plain call.
    Optional,
    /// Only as a task.
    Required,
}

/// A tool's `execution` member (2025-11-25).
///
/// ```
/// use mcp_runtime_core::tasks::{TaskSupport, ToolExecution};
/// let e = ToolExecution::new(TaskSupport::Required);
/// assert_eq!(serde_json::to_string(&e).unwrap(), r#"{"taskSupport":"required"}"#);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolExecution {
    /// Whether the tool runs as a task.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_support: Option<TaskSupport>,
}

impl ToolExecution {
    /// An `execution` naming the tool's task support.
    pub fn new(task_support: TaskSupport) -> Self {
        Self {
            task_support: Some(task_support),
        }
    }
}

/// The `task` member of a task-augmented request (2025-11-25).
///
/// ```
/// use mcp_runtime_core::tasks::TaskMetadata;
/// let m: TaskMetadata = serde_json::from_str(r#"{"ttl":60000}"#).unwrap();
/// assert_eq!(m.ttl, Some(60_000));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TaskMetadata {
    /// The lifetime the client asks for, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl: Option<u64>,
}

/// The state of a task as both revisions show it.
///
/// ```
/// use mcp_runtime_core::tasks::{Task, TaskStatus};
/// let t = Task::new("t", TaskStatus::Completed, "2026-01-01T00:00:00Z").with_poll_interval_ms(500);
/// assert_eq!(t.to_wire(false)["pollInterval"], 500);
/// assert_eq!(t.to_wire(true)["ttlMs"], serde_json::Value::Null);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Task {
    /// The task's identifier, made by the server.
    pub task_id: String,
    /// Its status.
    pub status: TaskStatus,
    /// A human-readable note on the status.
    pub status_message: Option<String>,
    /// When it was created (ISO 8601).
    pub created_at: String,
    /// When it last changed (ISO 8601).
    pub last_updated_at: String,
    /// How long after creation it may be discarded, in milliseconds (`None`: unlimited).
    pub ttl_ms: Option<u64>,
    /// How often the client should poll, in milliseconds.
    pub poll_interval_ms: Option<u64>,
}

impl Task {
    /// A task created (and last updated) at `created_at`, with no TTL.
    pub fn new(task_id: impl Into<String>, status: TaskStatus, created_at: &str) -> Self {
        Self {
            task_id: task_id.into(),
            status,
            status_message: None,
            created_at: created_at.to_owned(),
            last_updated_at: created_at.to_owned(),
            ttl_ms: None,
            poll_interval_ms: None,
        }
    }

    /// Sets the TTL.
    #[must_use]
    pub fn with_ttl_ms(mut self, ttl: u64) -> Self {
        self.ttl_ms = Some(ttl);
        self
    }

    /// Sets the poll interval.
    #[must_use]
    pub fn with_poll_interval_ms(mut self, interval: u64) -> Self {
        self.poll_interval_ms = Some(interval);
        self
    }

    /// The task's members as `stateless` (2026-07-28: `ttlMs`, `pollIntervalMs`) or handshake
    /// era (2025-11-25: `ttl`, `pollInterval`) peers read them. `ttl` is always present (`null`
    /// for unlimited), as both schemas require.
    pub fn to_wire(&self, stateless: bool) -> Map<String, Value> {
        let (ttl, poll) = if stateless {
            ("ttlMs", "pollIntervalMs")
        } else {
            ("ttl", "pollInterval")
        };
        let mut m = Map::new();
        m.insert("taskId".into(), Value::String(self.task_id.clone()));
        m.insert("status".into(), Value::String(self.status.as_str().into()));
        if let Some(msg) = &self.status_message {
            m.insert("statusMessage".into(), Value::String(msg.clone()));
        }
        m.insert("createdAt".into(), Value::String(self.created_at.clone()));
        m.insert(
            "lastUpdatedAt".into(),
            Value::String(self.last_updated_at.clone()),
        );
        m.insert(ttl.into(), self.ttl_ms.map_or(Value::Null, Value::from));
        if let Some(p) = self.poll_interval_ms {
            m.insert(poll.into(), Value::from(p));
        }
        m
    }
}

/// The `_meta` member that ties a message to task `task_id` (2025-11-25).
///
/// ```
/// let m = mcp_runtime_core::tasks::related_task_meta("t-1");
/// assert_eq!(m["io.modelcontextprotocol/related-task"]["taskId"], "t-1");
/// ```
pub fn related_task_meta(task_id: &str) -> Map<String, Value> {
    let mut related = Map::new();
    related.insert("taskId".into(), Value::String(task_id.to_owned()));
    let mut m = Map::new();
    m.insert(RELATED_TASK_KEY.into(), Value::Object(related));
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_shapes_of_both_revisions() {
        let mut t = Task::new("abc", TaskStatus::InputRequired, "2026-01-01T00:00:00Z")
            .with_ttl_ms(1000)
            .with_poll_interval_ms(200);
        t.status_message = Some("waiting".into());
        t.last_updated_at = "2026-01-01T00:00:01Z".into();
        let old: Value = serde_json::from_str(
            r#"{"taskId":"abc","status":"input_required","statusMessage":"waiting","createdAt":"2026-01-01T00:00:00Z","lastUpdatedAt":"2026-01-01T00:00:01Z","ttl":1000,"pollInterval":200}"#,
        )
        .unwrap();
        assert_eq!(Value::Object(t.to_wire(false)), old);
        let new: Value = serde_json::from_str(
            r#"{"taskId":"abc","status":"input_required","statusMessage":"waiting","createdAt":"2026-01-01T00:00:00Z","lastUpdatedAt":"2026-01-01T00:00:01Z","ttlMs":1000,"pollIntervalMs":200}"#,
        )
        .unwrap();
        assert_eq!(Value::Object(t.to_wire(true)), new);
    }

    #[test]
    fn statuses_round_trip() {
        for s in [
            TaskStatus::Working,
            TaskStatus::InputRequired,
            TaskStatus::Completed,
            TaskStatus::Failed,
            TaskStatus::Cancelled,
        ] {
            let text = serde_json::to_string(&s).unwrap();
            assert_eq!(text, format!("\"{}\"", s.as_str()));
            assert_eq!(serde_json::from_str::<TaskStatus>(&text).unwrap(), s);
        }
        assert!(serde_json::from_str::<TaskSupport>(r#""sometimes""#).is_err());
    }
}
