//! `tools/call`.

use std::borrow::Cow;
use std::sync::Arc;

use mcp_core::jsonrpc::echo;
use mcp_core::{ErrorObject, ForVersion};
use serde::Deserialize;
use serde_json::value::RawValue;

use crate::dispatch::call::Open;
use crate::dispatch::call::{MethodCall, Ran, framed_complete};
use crate::dispatch::reply::Payload;
use crate::error::HandlerError;
use crate::handler::invoke::Limits;
use crate::registry::ListKind;

#[derive(Deserialize)]
struct CallParams<'a> {
    #[serde(borrow)]
    name: Cow<'a, str>,
    #[serde(default, borrow)]
    arguments: Option<&'a RawValue>,
    /// 2025-11-25: run as a task (`{"ttl": ms}`); tolerated and ignored in 2026-07-28.
    #[serde(default)]
    task: Option<mcp_core::tasks::TaskMetadata>,
}

/// Calls a tool. Its failures are results with `isError` (argument validation failures too, from
/// 2025-11-25 on or as configured); protocol errors are for requests that fail the
/// `CallToolRequest` schema (`arguments` that is not an object) or name no tool.
///
/// Arguments naming a property the tool's schema does not are refused before the tool runs,
/// unless the tool (or the server) accepts unknown arguments.
pub(super) async fn call<S: Open>(call: MethodCall<'_, S>) -> Result<Payload, ErrorObject> {
    let (call, p) = S::open::<CallParams<'_>>(call)?;
    let server = call.server;
    let live = server.live();
    if live.capabilities.tools.is_none() {
        return Err(ErrorObject::method_not_found(call.method()));
    }
    let p = p?;
    if let Some(args) = p.arguments {
        check_object(args)?;
    }
    let unknown_tool = || ErrorObject::invalid_params(format!("unknown tool '{}'", echo(&p.name)));
    // A tool the caller's view does not see is unknown, exactly as one that does not exist.
    if let Some(view) = super::lists::view(&call)
        && !live.catalog.view_sees(&view, ListKind::Tools, &p.name)
    {
        return Err(unknown_tool());
    }
    let Some(&index) = live.catalog.tool_index.get(p.name.as_ref()) else {
        if let Some(&i) = live.catalog.exposed_index.get(p.name.as_ref()) {
            let exposed = &live.catalog.exposed[i];
            tracing::Span::current().record("item", p.name.as_ref());
            call.authorize(exposed.scopes())?;
            let start = super::exposed::local_tool(exposed, p.arguments);
            let (name, timeout_ms) = (p.name.into_owned(), exposed.timeout_ms());
            return Box::pin(mounted(call, &name, timeout_ms, None, start)).await;
        }
        if let Some(found) = live.catalog.mounted.tool(&p.name) {
            tracing::Span::current().record("item", p.name.as_ref());
            #[cfg(feature = "http")]
            if let (Some(headers), Some(mirrored)) = (&call.scope.headers, &found.mirrored) {
                crate::dispatch::headers::check_arguments(headers, mirrored, p.arguments)?;
            }
            let (forward, timeout_ms) = (Arc::clone(&found.mount.forward), found.mount.timeout_ms);
            let output = found.output.clone();
            let start =
                super::exposed::mounted_tool(forward, found.remote, found.shown, p.arguments);
            let name = p.name.into_owned();
            // Boxed, like the task below: a mounted tool's state would otherwise be part of
            // every `tools/call`'s future (and of every future around it).
            return Box::pin(mounted(call, &name, timeout_ms, output, start)).await;
        }
        return Err(unknown_tool());
    };
    tracing::Span::current().record("item", p.name.as_ref());
    let entry = &live.catalog.tools[index];
    call.authorize(entry.record.scopes)?;
    #[cfg(feature = "http")]
    if let Some(headers) = &call.scope.headers {
        crate::dispatch::headers::check_arguments(headers, &entry.mirrored, p.arguments)?;
    }
    let v = call.scope.version;
    let id = call.id;
    let limits = Limits {
        concurrency: entry.limit.as_deref(),
        timeout_ms: entry.record.timeout_ms,
    };
    let name = entry.descriptor.name.as_str();
    // A transformed tool's arguments: checked against the schema the client sees, then named
    // as the tool takes them.
    let mapped;
    let (arguments, invalid) = match entry.args.as_deref().map(|m| m.apply(p.arguments)) {
        Some(Ok(raw)) => {
            mapped = raw;
            (Some(&*mapped), None)
        }
        Some(Err(message)) => (p.arguments, Some(message)),
        None => (p.arguments, None),
    };
    let unknown = invalid.or_else(|| {
        let known = entry.known_properties.as_deref()?;
        let text = arguments.map_or("{}", RawValue::get);
        crate::validation::unknown_properties(text, known)
    });
    let plan = super::tasks::plan(&call, &entry.record, p.task.as_ref())?;
    let outcome = match (unknown, plan) {
        (Some(message), _) => Err(HandlerError::InvalidArguments(message)),
        (None, Some(plan)) => {
            let arguments = arguments.map(RawValue::to_owned);
            let task = super::tasks::call_tool(call, Arc::clone(&live), index, arguments, plan);
            return Box::pin(task).await;
        }
        (None, None) => {
            let arguments = arguments.map(RawValue::to_owned);
            match call
                .run(
                    limits,
                    |ctx| entry.call(ctx, arguments),
                    |r| r.as_ref().map_or(true, |r| r.is_error == Some(true)),
                )
                .await
            {
                Ran::Answered(answer) => return answer,
                Ran::TimedOut(ms) => Err(HandlerError::Tool(crate::error::ToolError::new(
                    format!("tool '{name}' timed out after {ms} ms"),
                ))),
                Ran::Done(outcome) => outcome,
            }
        }
    };
    // A hand-written output schema's check (compiled when the catalog was built); a derived
    // schema has none (`validation::output`).
    crate::validation::check_outcome(entry.output.as_deref(), name, &outcome)?;
    let mut result = super::outcome::tool_result(server, name, v, outcome)?;
    result.for_version(v);
    let failed = result.is_error == Some(true);
    framed_complete(server, id, &mut result, v, |r| {
        (&mut r.result_type, &mut r.meta)
    })
    .map(|p| p.tool_error_if(failed))
}

/// A call of a mounted server's tool, forwarded there (see `registry::mounted`), or of a local
/// resource or prompt exposed as a tool; its result is shaped for this request's revision,
/// after it is checked against the mounted tool's `outputSchema` (`output`, unless turned off).
async fn mounted(
    call: MethodCall<'_>,
    name: &str,
    timeout_ms: Option<u64>,
    output: Option<Arc<crate::validation::OutputCheck>>,
    start: impl FnOnce(
        crate::Context,
    ) -> crate::BoxFuture<'static, Result<mcp_core::CallToolResult, HandlerError>>,
) -> Result<Payload, ErrorObject> {
    let (server, id, v) = (call.server, call.id, call.scope.version);
    let limits = Limits {
        concurrency: None,
        timeout_ms,
    };
    let failed = |r: &Result<mcp_core::CallToolResult, HandlerError>| {
        r.as_ref().map_or(true, |r| r.is_error == Some(true))
    };
    let outcome = match call.run(limits, start, failed).await {
        Ran::Answered(answer) => return answer,
        Ran::TimedOut(ms) => Err(HandlerError::Tool(crate::error::ToolError::new(format!(
            "tool '{name}' timed out after {ms} ms"
        )))),
        Ran::Done(outcome) => outcome,
    };
    crate::validation::check_outcome(output.as_deref(), name, &outcome)?;
    let mut result = super::outcome::tool_result(server, name, v, outcome)?;
    result.for_version(v);
    let failed = result.is_error == Some(true);
    framed_complete(server, id, &mut result, v, |r| {
        (&mut r.result_type, &mut r.meta)
    })
    .map(|p| p.tool_error_if(failed))
}

/// `arguments` is an object by the `CallToolRequest` schema: anything else is a malformed
/// request, -32602 in every revision (the spec's tools page, "Error Handling"), before any tool
/// is looked up. `null` never gets here: it counts as absent. Read from the raw text's first byte.
fn check_object(arguments: &RawValue) -> Result<(), ErrorObject> {
    let got = match arguments.get().as_bytes().first() {
        Some(b'{') => return Ok(()),
        Some(b'[') => "an array",
        Some(b'"') => "a string",
        Some(b't' | b'f') => "a boolean",
        _ => "a number",
    };
    Err(ErrorObject::invalid_params(format!(
        "invalid params: `arguments` must be an object, got {got}"
    )))
}
