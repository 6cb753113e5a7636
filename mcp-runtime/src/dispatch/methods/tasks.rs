//! Tasks on the wire: a `tools/call` run as a task, and `tasks/get`, `tasks/result`,
//! `tasks/list`, `tasks/cancel` (2025-11-25) and `tasks/get`, `tasks/update`, `tasks/cancel`
//! (2026-07-28, the `io.modelcontextprotocol/tasks` extension).
//!
//! Who may touch a task: its owner only. In the handshake era that is the session (the
//! connection); in the stateless era, the subject of the request's credentials over HTTP (the
//! `Authorization` header, hashed; requests without one share the anonymous subject and rely on
//! the task id's 256 random bits), or the connection on other transports.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::task::Poll;

use mcp_core::jsonrpc::echo;
use mcp_core::tasks::{EXTENSION, TaskMetadata, TaskStatus, TaskSupport};
use mcp_core::{CallToolResult, ErrorObject, ForVersion, ProtocolVersion};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use tokio::sync::{mpsc, oneshot};

use crate::dispatch::call::{MethodCall, input_required, mark_complete};
use crate::dispatch::reply::Payload;
use crate::dispatch::route::Route;
use crate::handler::ask::missing_capability;
use crate::handler::context::{Cancellation, Context};
use crate::handler::invoke::{Invoked, Limits, invoke};
use crate::handler::peer::{Interact, TaskPort};
use crate::handler::rounds::Round;
use crate::outbound::{Outbound, Sink};
use crate::registry::ToolRecord;
use crate::server::{Live, ServerInner};
use crate::tasks::running::{Hooks, Running};
use crate::tasks::wire;
use crate::tasks::{TaskManager, TaskRecord};

/// How a `tools/call` runs as a task.
pub(super) enum Plan {
    /// 2025-11-25: the client asked for a task (with this TTL, if any); it exists before the
    /// tool starts.
    Asked(Option<u64>),
    /// 2026-07-28: the server decides. The tool's first steps run in the request: if it
    /// finishes, or asks the client something, before it first waits, the answer is a plain
    /// result or an `input_required` round; otherwise it continues as a task.
    Server,
}

/// Whether this call runs as a task; the errors of a tool that must and cannot.
pub(super) fn plan(
    call: &MethodCall<'_>,
    tool: &ToolRecord,
    task: Option<&TaskMetadata>,
) -> Result<Option<Plan>, ErrorObject> {
    let support = tool.task_support;
    let v = call.scope.version;
    if v.is_stateless() {
        // Most tools are never tasks: no look at the client's capabilities for them.
        if support == TaskSupport::Forbidden {
            return Ok(None);
        }
        return match (support, declares_extension(call)) {
            (_, true) => Ok(Some(Plan::Server)),
            (TaskSupport::Required, false) => Err(needs_extension(tool.name)),
            (_, false) => Ok(None),
        };
    }
    if v != ProtocolVersion::V2025_11_25 {
        // Tasks do not exist before 2025-11-25: every tool runs as a plain call.
        return Ok(None);
    }
    match (support, task) {
        (TaskSupport::Forbidden, Some(_)) => Err(ErrorObject::method_not_found(&format!(
            "tools/call as a task: tool '{}' does not support task execution (execution.taskSupport is \"forbidden\")",
            echo(tool.name)
        ))),
        (_, Some(meta)) => Ok(Some(Plan::Asked(meta.ttl))),
        (TaskSupport::Required, None) => Err(ErrorObject::method_not_found(&format!(
            "tools/call without a task: tool '{}' must run as a task (execution.taskSupport is \"required\"); add `\"task\": {{}}` to the params",
            echo(tool.name)
        ))),
        (_, None) => Ok(None),
    }
}

fn declares_extension(call: &MethodCall<'_>) -> bool {
    call.scope
        .client_caps
        .as_ref()
        .and_then(|c| c.extensions.as_ref())
        .is_some_and(|e| e.contains_key(EXTENSION))
}

/// -32021 naming the tasks extension.
fn needs_extension(tool: &str) -> ErrorObject {
    let mut err = missing_capability(&format!("extensions.{EXTENSION}"));
    err.message = format!(
        "MissingRequiredClientCapabilityError: tool '{}' runs only as a task; declare the client capability extensions[\"{EXTENSION}\"]",
        echo(tool)
    );
    err
}

/// The owner of the tasks this request creates or touches: in the stateless era the subject
/// the auth gate verified (a refreshed token still reaches its tasks), else a digest of the
/// request's credentials; in the handshake era the session (which the gate binds to a subject).
fn owner(call: &MethodCall<'_>) -> String {
    #[cfg(feature = "auth")]
    if call.scope.version.is_stateless()
        && let Some(caller) = &call.scope.caller
    {
        return format!("verified:{}", caller.subject);
    }
    #[cfg(feature = "http")]
    if call.scope.version.is_stateless()
        && let Some(headers) = &call.scope.headers
    {
        use sha2::Digest;
        return match headers.get(http::header::AUTHORIZATION) {
            Some(credentials) => {
                let digest = sha2::Sha256::digest(credentials.as_bytes());
                let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
                format!("subject:{hex}")
            }
            None => "subject:anonymous".into(),
        };
    }
    format!("session:{}", call.link.task_owner())
}

/// A sink whose messages reach `out` without ever making the sender wait: dropped when `out`
/// is full (nobody reads it, say, when an HTTP session has no `GET` stream open).
fn forwarder(out: Sink) -> Sink {
    let (tx, mut rx) = mpsc::channel::<Outbound>(16);
    crate::background::spawn(async move {
        while let Some(m) = rx.recv().await {
            let _ = out.try_send(m);
        }
    });
    tx
}

/// Aborts a spawned handler unless disarmed.
struct AbortOnDrop(Option<tokio::task::AbortHandle>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        if let Some(h) = self.0.take() {
            h.abort();
        }
    }
}

/// How the first steps of a call the server may turn into a task ended.
enum First {
    /// It finished, or stopped on a question, in the request.
    Ended(Invoked<CallToolResult>, Context),
    /// It went on as this task.
    Task(Arc<Running>),
    /// It would have become a task, but none could be created.
    Refused(ErrorObject),
}

/// Runs a `tools/call` as a task (see [`Plan`]).
pub(super) async fn call_tool(
    mut call: MethodCall<'_>,
    live: Arc<Live>,
    index: usize,
    arguments: Option<Box<RawValue>>,
    plan: Plan,
) -> Result<Payload, ErrorObject> {
    let server = Arc::clone(call.server);
    let manager = Arc::clone(&server.tasks);
    let owner = owner(&call);
    let principal = crate::principal::current().map_or_else(|| owner.clone(), |p| p.to_string());
    let id = call.id.clone();
    let cancel = Cancellation::new();
    call.cancel = Some(cancel.clone());
    match plan {
        Plan::Asked(ttl) => {
            let notices = call.link.out.clone().map(forwarder);
            let ttl = manager.ttl_ms(ttl);
            let running = manager
                .create(owner, &principal, false, ttl, notices.clone(), cancel)
                .await?;
            let port = Arc::new(TaskPort {
                round: None,
                pending: Some(Arc::clone(&call.link.pending)),
                task: OnceLock::new(),
            });
            let _ = port.task.set(Arc::new(Hooks(Arc::clone(&running))));
            if let Some(sink) = notices {
                call.scope.peer = sink;
            }
            let ctx = call.into_context(Interact::Task(port));
            let run = Run {
                server: Arc::clone(&server),
                manager: Arc::clone(&manager),
                live,
                index,
                arguments,
            };
            let r = Arc::clone(&running);
            let handle = crate::background::spawn(async move {
                let entry = &run.live.catalog.tools[run.index];
                let (args, handler_ctx) = (run.arguments.clone(), ctx.clone());
                let work = invoke(run.limits(), None, move || entry.call(handler_ctx, args));
                run.finish(&r, ctx, Box::pin(work)).await;
            });
            running.set_abort(handle.abort_handle());
            let body = wire::created(&running.snapshot(), &server.server_info_meta);
            Payload::framed(&id, &body)
        }
        Plan::Server => {
            let round = Arc::new(Round::from_request(
                &server.state_key,
                "tools/call",
                call.params,
                crate::dispatch::call::replica(&server),
            )?);
            let params = call.params.map(RawValue::to_owned);
            let port = Arc::new(TaskPort {
                round: Some(Arc::clone(&round)),
                pending: None,
                task: OnceLock::new(),
            });
            let ctx = call.into_context(Interact::Task(Arc::clone(&port)));
            let (first_tx, first_rx) = oneshot::channel::<First>();
            let run = Run {
                server: Arc::clone(&server),
                manager: Arc::clone(&manager),
                live,
                index,
                arguments,
            };
            let handle = crate::background::spawn(async move {
                let entry = &run.live.catalog.tools[run.index];
                let (args, handler_ctx) = (run.arguments.clone(), ctx.clone());
                let work = invoke(run.limits(), port.round.as_deref(), move || {
                    entry.call(handler_ctx, args)
                });
                let mut work: Pin<Box<dyn Future<Output = _> + Send + '_>> = Box::pin(work);
                let first = std::future::poll_fn(|cx| Poll::Ready(work.as_mut().poll(cx))).await;
                if let Poll::Ready(ended) = first {
                    let _ = first_tx.send(First::Ended(ended, ctx));
                    return;
                }
                let ttl = run.manager.ttl_ms(None);
                let created = run
                    .manager
                    .create(owner, &principal, true, ttl, None, cancel);
                let running = match created.await {
                    Ok(r) => r,
                    // A tool that may run as a plain call does when the store refuses the task.
                    Err(_) if entry.record.task_support == TaskSupport::Optional => {
                        let ended = work.await;
                        let _ = first_tx.send(First::Ended(ended, ctx));
                        return;
                    }
                    Err(err) => {
                        let _ = first_tx.send(First::Refused(err));
                        return;
                    }
                };
                let _ = port.task.set(Arc::new(Hooks(Arc::clone(&running))));
                if first_tx.send(First::Task(Arc::clone(&running))).is_err() {
                    // Nobody will learn the task's id.
                    running.cancel().await;
                    run.manager.forget(&running.id);
                    return;
                }
                run.finish(&running, ctx, work).await;
            });
            let mut guard = AbortOnDrop(Some(handle.abort_handle()));
            let first = first_rx
                .await
                .map_err(|_| ErrorObject::internal("the tool stopped unexpectedly"))?;
            match first {
                First::Task(running) => {
                    guard.0 = None;
                    running.set_abort(handle.abort_handle());
                    let body = wire::created(&running.snapshot(), &server.server_info_meta);
                    Payload::framed(&id, &body)
                }
                First::Refused(err) => Err(err),
                First::Ended(Invoked::NeedsInput, _) => {
                    input_required(&server, &id, "tools/call", params.as_deref(), &round)
                }
                First::Ended(ended, ctx) => {
                    let v = ctx.protocol_version();
                    let name = run_name(&server, index);
                    let live = server.live();
                    let output = live
                        .catalog
                        .tools
                        .get(index)
                        .and_then(|t| t.output.as_deref());
                    let mut result = ended_result(&server, &name, v, ended, &ctx, output)?;
                    result.for_version(v);
                    mark_complete(&server, &mut result.result_type, &mut result.meta, v);
                    Payload::framed(&id, &result)
                }
            }
        }
    }
}

fn run_name(server: &ServerInner, index: usize) -> String {
    server
        .live()
        .catalog
        .tools
        .get(index)
        .map_or_else(String::new, |t| t.record.name.to_owned())
}

/// A tool's outcome as its result, or the protocol error that replaces it.
fn ended_result(
    server: &ServerInner,
    name: &str,
    v: ProtocolVersion,
    ended: Invoked<CallToolResult>,
    ctx: &Context,
    output: Option<&crate::validation::OutputCheck>,
) -> Result<CallToolResult, ErrorObject> {
    match ended {
        Invoked::Done(outcome) => {
            let failed = outcome.as_ref().map_or(true, |r| r.is_error == Some(true));
            match ctx.take_fault() {
                Some(fault) if failed => Err(fault),
                _ => {
                    crate::validation::check_outcome(output, name, &outcome)?;
                    super::outcome::tool_result(server, name, v, outcome)
                }
            }
        }
        Invoked::TimedOut(ms) => Ok(CallToolResult::error_text(format!(
            "tool '{name}' timed out after {ms} ms"
        ))),
        Invoked::NeedsInput => Err(ErrorObject::internal(
            "the task asked for input outside of it",
        )),
    }
}

/// What a task's handler runs with.
struct Run {
    server: Arc<ServerInner>,
    manager: Arc<TaskManager>,
    live: Arc<Live>,
    index: usize,
    arguments: Option<Box<RawValue>>,
}

impl Run {
    fn limits(&self) -> Limits<'_> {
        let entry = &self.live.catalog.tools[self.index];
        Limits {
            concurrency: entry.limit.as_deref(),
            timeout_ms: entry.record.timeout_ms,
        }
    }

    /// Runs the handler to its end (within the task's TTL) and records the outcome.
    async fn finish(
        &self,
        running: &Running,
        ctx: Context,
        work: Pin<Box<dyn Future<Output = Invoked<CallToolResult>> + Send + '_>>,
    ) {
        let task = running.snapshot();
        let left = task
            .created_at_ms
            .saturating_add(task.ttl_ms)
            .saturating_sub(crate::tasks::now_ms());
        let v = ctx.protocol_version();
        let entry = &self.live.catalog.tools[self.index];
        let (name, output) = (entry.record.name, entry.output.as_deref());
        let finished =
            match tokio::time::timeout(std::time::Duration::from_millis(left), work).await {
                Err(_) => crate::tasks::Finished::Error(ErrorObject::internal(
                    "the task outlived its TTL and was stopped",
                )),
                Ok(ended) => match ended_result(&self.server, name, v, ended, &ctx, output) {
                    Ok(mut result) => {
                        result.for_version(v);
                        mark_complete(&self.server, &mut result.result_type, &mut result.meta, v);
                        let is_error = result.is_error == Some(true);
                        let value = serde_json::to_value(&result).unwrap_or(Value::Null);
                        crate::tasks::Finished::Result(value, is_error)
                    }
                    Err(err) => crate::tasks::Finished::Error(err),
                },
            };
        self.manager.finish(running, finished).await;
    }
}

#[derive(Deserialize)]
struct TaskIdParams {
    #[serde(rename = "taskId")]
    task_id: String,
}

#[derive(Deserialize)]
struct ListParams {
    #[serde(default)]
    cursor: Option<String>,
}

#[derive(Deserialize)]
struct UpdateParams {
    #[serde(rename = "taskId")]
    task_id: String,
    #[serde(rename = "inputResponses")]
    input_responses: Map<String, Value>,
}

/// `{"resultType": "complete"}` with the server's identity: the acknowledgement of
/// `tasks/cancel` and `tasks/update` (2026-07-28).
fn ack(server: &ServerInner) -> Value {
    let mut m = Map::new();
    m.insert("resultType".into(), Value::String("complete".into()));
    m.insert(
        "_meta".into(),
        Value::Object(server.server_info_meta.clone()),
    );
    Value::Object(m)
}

/// The tasks methods.
pub(super) async fn method(call: MethodCall<'_>) -> Result<Payload, ErrorObject> {
    let manager = gate(&call)?;
    let stateless = call.scope.version.is_stateless();
    let owner = owner(&call);
    let server = call.server;
    match call.route {
        Route::TaskGet => {
            let p: TaskIdParams = call.params()?;
            let task = manager.get(&owner, &p.task_id).await?;
            call.result(&wire::detailed(&task, stateless))
        }
        Route::TaskResult => {
            let p: TaskIdParams = call.params()?;
            let task = manager.wait(&owner, &p.task_id).await?;
            payload_of(&call, task)
        }
        Route::TaskList => {
            let p: ListParams = call.params()?;
            if let Some(cursor) = &p.cursor
                && manager
                    .store
                    .get(&owner, cursor)
                    .await
                    .ok()
                    .flatten()
                    .is_none()
            {
                return Err(ErrorObject::invalid_params(format!(
                    "invalid cursor '{}'",
                    echo(cursor)
                )));
            }
            let page = server.options.page_size;
            let mut tasks = manager
                .store
                .list(&owner, p.cursor.as_deref(), page + 1)
                .await
                .map_err(|e| ErrorObject::internal(e.to_string()))?;
            let mut m = Map::new();
            if tasks.len() > page {
                tasks.truncate(page);
                if let Some(last) = tasks.last() {
                    m.insert("nextCursor".into(), Value::String(last.id.clone()));
                }
            }
            let list = tasks
                .iter()
                .map(|t| Value::Object(wire::task(t).to_wire(false)))
                .collect();
            m.insert("tasks".into(), Value::Array(list));
            call.result(&Value::Object(m))
        }
        Route::TaskCancel => {
            let p: TaskIdParams = call.params()?;
            let cancelled = manager.cancel(&owner, &p.task_id).await?;
            // The handler may run on another replica: it stops there too.
            if let (crate::tasks::Cancelled::Now(_), Some(scale)) = (&cancelled, &server.scale) {
                let id = p.task_id.clone();
                scale.announce(crate::scale::BusMessage::TaskCancelled { id });
            }
            match cancelled {
                _ if stateless => call.result(&ack(server)),
                crate::tasks::Cancelled::Now(task) => {
                    call.result(&Value::Object(wire::task(&task).to_wire(false)))
                }
                crate::tasks::Cancelled::Ended(task) => Err(ErrorObject::invalid_params(format!(
                    "Cannot cancel task: already in terminal status '{}'",
                    task.status.as_str()
                ))),
            }
        }
        Route::TaskUpdate if stateless => {
            let p: UpdateParams = call.params()?;
            manager.get(&owner, &p.task_id).await?;
            if let Some(running) = manager.local(&p.task_id) {
                running.answer(p.input_responses).await;
            }
            call.result(&ack(server))
        }
        _ => Err(ErrorObject::method_not_found(call.method())),
    }
}

/// The task manager, if this request may use tasks: -32021 for a stateless request that does
/// not declare the extension, -32601 where the server offers no tasks.
fn gate(call: &MethodCall<'_>) -> Result<Arc<TaskManager>, ErrorObject> {
    let v = call.scope.version;
    if v.is_stateless() && !declares_extension(call) {
        let mut err = missing_capability(&format!("extensions.{EXTENSION}"));
        err.message = format!(
            "MissingRequiredClientCapabilityError: {} needs the client capability extensions[\"{EXTENSION}\"]",
            call.method()
        );
        return Err(err);
    }
    let offered = call.server.live().capabilities.tasks.is_some();
    let era_ok = v.is_stateless() || v == ProtocolVersion::V2025_11_25;
    if offered && era_ok {
        Ok(Arc::clone(&call.server.tasks))
    } else {
        Err(ErrorObject::method_not_found(call.method()))
    }
}

/// `tasks/result`: exactly what the `tools/call` would have answered, tagged with the task.
fn payload_of(call: &MethodCall<'_>, task: TaskRecord) -> Result<Payload, ErrorObject> {
    if let Some(err) = task.error {
        return Err(err);
    }
    match (task.status, task.result) {
        (TaskStatus::Cancelled, _) | (_, None) => Err(ErrorObject::invalid_params(format!(
            "task '{}' was cancelled: it has no result",
            echo(&task.id)
        ))),
        (_, Some(mut result)) => {
            if let Value::Object(m) = &mut result {
                let meta = m
                    .entry("_meta")
                    .or_insert_with(|| Value::Object(Map::new()));
                if let Value::Object(meta) = meta {
                    meta.extend(mcp_core::tasks::related_task_meta(&task.id));
                }
            }
            call.result(&result)
        }
    }
}
