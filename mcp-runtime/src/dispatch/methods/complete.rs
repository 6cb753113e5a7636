//! `completion/complete`: the completion hooks of prompt arguments and template variables.

use mcp_core::{
    CompleteRequestParams, CompleteResult, CompletionReference, ErrorObject, ForVersion,
};

use crate::completion::CompletionRequest;
use crate::dispatch::call::{Call, mark_complete};
use crate::dispatch::reply::Payload;
use crate::error::HandlerError;
use crate::handler::invoke::error_object;

/// Completes an argument of a prompt or a variable of a resource template.
pub(super) fn complete(call: Call<'_>) -> Result<Payload, ErrorObject> {
    let server = call.server;
    let live = server.live();
    if live.capabilities.completions.is_none() {
        return Err(ErrorObject::method_not_found(call.method()));
    }
    let catalog = &live.catalog;
    let p: CompleteRequestParams = call.params()?;
    let hooks = match &p.r#ref {
        CompletionReference::Prompt { name, .. } => match catalog.prompt_index.get(name.as_str()) {
            Some(&i) => catalog.prompts[i].record.completions,
            None => {
                return Err(ErrorObject::invalid_params(format!(
                    "unknown prompt '{name}'"
                )));
            }
        },
        CompletionReference::Resource { uri } => {
            match catalog.templates.iter().find(|t| t.record.uri == uri) {
                Some(t) => t.record.completions,
                None if catalog.resource_index.contains_key(uri.as_str()) => &[],
                None => {
                    return Err(ErrorObject::invalid_params(format!(
                        "unknown resource template '{uri}'"
                    )));
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
    let mut request = CompletionRequest::new(p.argument.name.clone(), p.argument.value.clone());
    if let Some(args) = p.context.and_then(|c| c.arguments) {
        request.context.extend(args);
    }
    let values = match hooks.iter().find(|h| h.argument == p.argument.name) {
        Some(hook) => match std::panic::catch_unwind(|| (hook.complete)(&request)) {
            Ok(values) => values,
            Err(_) => {
                let err = HandlerError::internal("completion hook panicked");
                return Err(error_object("completion", err, || {
                    ErrorObject::internal("completion failed")
                }));
            }
        },
        None => Vec::new(),
    };
    let v = call.scope.version;
    let mut result = CompleteResult::new(values);
    result.for_version(v);
    mark_complete(server, &mut result.result_type, &mut result.meta, v);
    call.result(&result)
}
