//! `completion/complete`: the completion hooks of prompt arguments and template variables.

use mcp_core::jsonrpc::echo;
use mcp_core::{
    CompleteRequestParams, CompleteResult, CompletionReference, ErrorObject, ForVersion,
};

use crate::completion::CompletionRequest;
use crate::dispatch::call::{MethodCall, Ran, mark_complete, timed_out};
use crate::dispatch::reply::Payload;
use crate::handler::invoke::{Limits, error_object};
use crate::registry::CompletionRecord;
use crate::registry::mounted::MountedItems;
use std::sync::Arc;

/// Completes an argument of a prompt or a variable of a resource template.
///
/// The hook runs like a handler (its injected parameters extracted from the request's context,
/// panics caught, the item's `timeout_ms` applied), but outside the item's `max_concurrency`
/// slots: completing never waits behind slow reads.
pub(super) async fn complete(call: MethodCall<'_>) -> Result<Payload, ErrorObject> {
    let server = call.server;
    let live = server.live();
    if live.capabilities.completions.is_none() {
        return Err(ErrorObject::method_not_found(call.method()));
    }
    let catalog = &live.catalog;
    let p: CompleteRequestParams = call.params()?;
    let v = call.scope.version;
    let item = match &p.r#ref {
        CompletionReference::Prompt { name, .. } => match catalog.prompt_index.get(name.as_str()) {
            Some(&i) => {
                let r = &catalog.prompts[i].record;
                call.authorize(r.scopes)?;
                Some((r.name, r.completions, r.timeout_ms))
            }
            None => {
                let Some(found) = catalog.mounted.prompt(name) else {
                    return Err(ErrorObject::invalid_params(format!(
                        "unknown prompt '{}'",
                        echo(name)
                    )));
                };
                let mut remote = p.clone();
                remote.r#ref = CompletionReference::Prompt {
                    name: found.remote.to_string(),
                    title: None,
                };
                return Box::pin(mounted(call, found.mount, remote)).await;
            }
        },
        CompletionReference::Resource { uri } => {
            match catalog.templates.iter().find(|t| t.record.uri == uri) {
                Some(t) => {
                    let r = &t.record;
                    call.authorize(r.scopes)?;
                    Some((r.name, r.completions, r.timeout_ms))
                }
                None if catalog.resource_index.contains_key(uri.as_str()) => {
                    if let Some((record, ..)) = catalog.find_resource(uri) {
                        call.authorize(record.scopes)?;
                    }
                    None
                }
                None => {
                    if let Some(found) = catalog.mounted.template(uri) {
                        let mut remote = p.clone();
                        remote.r#ref = CompletionReference::Resource {
                            uri: found.remote.to_owned(),
                        };
                        return Box::pin(mounted(call, found.mount, remote)).await;
                    }
                    // A mounted fixed resource has nothing to complete.
                    if catalog.mounted.resource(uri).is_some() {
                        None
                    } else {
                        return Err(ErrorObject::invalid_params(format!(
                            "unknown resource template '{}'",
                            echo(uri)
                        )));
                    }
                }
            }
        }
        #[allow(unreachable_patterns)]
        _ => {
            return Err(ErrorObject::invalid_params(
                "unsupported completion reference",
            ));
        }
    };
    let hook: Option<(&str, &CompletionRecord, Option<u64>)> =
        item.and_then(|(name, hooks, timeout_ms)| {
            let hook = hooks.iter().find(|h| h.argument == p.argument.name)?;
            Some((name, hook, timeout_ms))
        });
    let id = call.id;
    let values = match hook {
        None => Vec::new(),
        Some((name, hook, timeout_ms)) => {
            let mut request =
                CompletionRequest::new(p.argument.name.clone(), p.argument.value.clone());
            if let Some(args) = p.context.and_then(|c| c.arguments) {
                request.context.extend(args);
            }
            let limits = Limits {
                concurrency: None,
                timeout_ms,
            };
            match call
                .run(limits, |ctx| (hook.complete)(ctx, request), Result::is_err)
                .await
            {
                Ran::Answered(answer) => return answer,
                Ran::TimedOut(ms) => return Err(timed_out("completion of", name, ms)),
                Ran::Done(Ok(values)) => values,
                Ran::Done(Err(err)) => {
                    return Err(error_object(name, err, || {
                        ErrorObject::invalid_params("completion failed")
                    }));
                }
            }
        }
    };
    let mut result = CompleteResult::new(values);
    result.for_version(v);
    mark_complete(server, &mut result.result_type, &mut result.meta, v);
    Payload::framed(id, &result)
}

/// Forwards the completion to the mounted server (`params` name its prompt or template).
async fn mounted(
    call: MethodCall<'_>,
    mount: &MountedItems,
    params: CompleteRequestParams,
) -> Result<Payload, ErrorObject> {
    let (server, id, v) = (call.server, call.id, call.scope.version);
    // The request's `_meta` is ours (the mounted server's client writes its own).
    let mut params = params;
    params.meta = None;
    let forward = Arc::clone(&mount.forward);
    let limits = Limits {
        concurrency: None,
        timeout_ms: mount.timeout_ms,
    };
    let what = params.argument.name.clone();
    let start = |ctx| forward.complete(ctx, params);
    let mut result = match call.run(limits, start, Result::is_err).await {
        Ran::Answered(answer) => return answer,
        Ran::TimedOut(ms) => return Err(timed_out("completion of", &what, ms)),
        Ran::Done(Ok(result)) => result,
        Ran::Done(Err(err)) => {
            return Err(error_object(&what, err, || {
                ErrorObject::invalid_params("completion failed")
            }));
        }
    };
    result.for_version(v);
    mark_complete(server, &mut result.result_type, &mut result.meta, v);
    Payload::framed(id, &result)
}
