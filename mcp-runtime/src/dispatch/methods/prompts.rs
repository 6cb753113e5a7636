//! `prompts/get`.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

use mcp_core::jsonrpc::echo;
use mcp_core::{ErrorObject, ForVersion};
use serde::Deserialize;

use crate::dispatch::call::{MethodCall, Ran, mark_complete, timed_out};
use crate::dispatch::methods::resources::not_found;
use crate::dispatch::reply::Payload;
use crate::handler::invoke::{Limits, error_object};
use crate::registry::{ListKind, PromptArguments};
use crate::transform::apply::Found;

#[derive(Deserialize)]
struct GetParams<'a> {
    #[serde(borrow)]
    name: Cow<'a, str>,
    #[serde(default)]
    arguments: Option<BTreeMap<String, serde_json::Value>>,
}

/// Renders a prompt; arguments arrive as strings (other JSON values are taken as their text).
pub(super) async fn get(call: MethodCall<'_>) -> Result<Payload, ErrorObject> {
    let server = call.server;
    let live = server.live();
    if live.capabilities.prompts.is_none() {
        return Err(ErrorObject::method_not_found(call.method()));
    }
    let p: GetParams<'_> = call.params()?;
    let unknown = || ErrorObject::invalid_params(format!("unknown prompt '{}'", echo(&p.name)));
    // A prompt the caller's view does not see is unknown, exactly as one that does not exist.
    if let Some(view) = super::lists::view(&call)
        && !live.catalog.view_sees(&view, ListKind::Prompts, &p.name)
    {
        return Err(unknown());
    }
    let Some(&index) = live.catalog.prompt_index.get(p.name.as_ref()) else {
        if let Some(found) = live.catalog.mounted.prompt(&p.name) {
            let forward = Arc::clone(&found.mount.forward);
            let limits = Limits {
                concurrency: None,
                timeout_ms: found.mount.timeout_ms,
            };
            let (v, id, name) = (call.scope.version, call.id, p.name.into_owned());
            let mut args = arguments(p.arguments);
            if let Found::Prompt(m) = found.shown
                && let Some(map) = &m.args
            {
                args = PromptArguments(map.apply(args.0).map_err(ErrorObject::invalid_params)?);
            }
            let start = |ctx| forward.get_prompt(ctx, found.remote, args);
            let mut result = match call.run(limits, start, Result::is_err).await {
                Ran::Answered(answer) => return answer,
                Ran::TimedOut(ms) => return Err(timed_out("prompt", &name, ms)),
                Ran::Done(Ok(r)) => r,
                Ran::Done(Err(err)) => return Err(error_object(&name, err, || not_found("", v))),
            };
            result.for_version(v);
            mark_complete(server, &mut result.result_type, &mut result.meta, v);
            return Payload::framed(id, &result);
        }
        return Err(unknown());
    };
    tracing::Span::current().record("item", p.name.as_ref());
    let entry = &live.catalog.prompts[index];
    let record = &entry.record;
    call.authorize(record.scopes)?;
    let mut args = arguments(p.arguments);
    if let Some(map) = &entry.args {
        args = PromptArguments(map.apply(args.0).map_err(ErrorObject::invalid_params)?);
    }
    missing_arguments(record.arguments, &args)?;
    let v = call.scope.version;
    let id = call.id;
    let limits = Limits {
        concurrency: entry.limit.as_deref(),
        timeout_ms: record.timeout_ms,
    };
    let mut result = match call
        .run(limits, |ctx| (record.get)(ctx, args), Result::is_err)
        .await
    {
        Ran::Answered(answer) => return answer,
        Ran::TimedOut(ms) => return Err(timed_out("prompt", record.name, ms)),
        Ran::Done(Ok(r)) => r,
        Ran::Done(Err(err)) => {
            return Err(error_object(record.name, err, || not_found("", v)));
        }
    };
    if result.description.is_none() {
        result.description = record.description.map(str::to_owned);
    }
    result.for_version(v);
    mark_complete(server, &mut result.result_type, &mut result.meta, v);
    Payload::framed(id, &result)
}

/// Every required argument missing, told at once (the generated reads stop at the first
/// problem); "at least" when other arguments were given, which only the prompt's reads check.
fn missing_arguments(
    declared: &[crate::registry::PromptArgRecord],
    args: &PromptArguments,
) -> Result<(), ErrorObject> {
    use crate::validation::{Problem, Problems, render};
    let list: Vec<Problem> = declared
        .iter()
        .filter(|a| a.required && !args.0.contains_key(a.name))
        .map(|a| Problem {
            property: Some(a.name.to_owned()),
            message: format!("missing required argument '{}'", a.name),
        })
        .collect();
    if list.is_empty() {
        return Ok(());
    }
    let complete = args.0.is_empty();
    Err(ErrorObject::invalid_params(render(&Problems {
        list,
        complete,
    })))
}

/// A prompt's arguments as strings (other JSON values are taken as their text, `null` as absent).
fn arguments(given: Option<BTreeMap<String, serde_json::Value>>) -> PromptArguments {
    let mut args = PromptArguments::default();
    for (k, val) in given.unwrap_or_default() {
        let text = match val {
            serde_json::Value::String(s) => s,
            serde_json::Value::Null => continue,
            other => other.to_string(),
        };
        args.0.insert(k, text);
    }
    args
}
