//! A mounted tool's call through its transform (`transform`): its arguments checked against
//! the schema the client sees and named as the remote takes them, then forwarded as the tool
//! it is, or as the read of the resource or the get of the prompt it exposes (whose answer
//! becomes the tool's content); and a local resource or prompt exposed as a tool, run here.

use std::sync::Arc;

use mcp_core::{CallToolResult, ContentBlock, ResourceContents};
use serde_json::value::RawValue;

use crate::error::HandlerError;
use crate::future::BoxFuture;
use crate::handler::context::Context;
use crate::registry::mounted::Forward;
use crate::registry::transformed::{Exposed, ExposedTool};
use crate::registry::{PromptArguments, ResourceRequest};
use crate::transform::apply::{Found, Runs, prompt_arguments};
use crate::transform::templated::{expand, matched};

/// What starts a forwarded `tools/call` of a mounted tool (`remote`, transformed by `shown`).
pub(super) fn mounted_tool(
    forward: Arc<dyn Forward>,
    remote: Arc<str>,
    shown: Found<'_>,
    arguments: Option<&RawValue>,
) -> impl FnOnce(Context) -> BoxFuture<'static, Result<CallToolResult, HandlerError>> + use<> {
    let (runs, mapped) = match shown {
        Found::Tool(m) => (
            m.runs.clone(),
            match m.args.as_deref().map(|a| a.apply(arguments)) {
                Some(Ok(raw)) => Ok(Some(raw)),
                Some(Err(message)) => Err(message),
                None => Ok(arguments.map(RawValue::to_owned)),
            },
        ),
        _ => (Runs::Tool, Ok(arguments.map(RawValue::to_owned))),
    };
    move |ctx| match (runs, mapped) {
        (_, Err(message)) => Box::pin(async move { Err(HandlerError::InvalidArguments(message)) }),
        (Runs::Tool, Ok(args)) => forward.call_tool(ctx, remote, args),
        (Runs::Resource, Ok(_)) => {
            let read = forward.read_resource(ctx, remote.to_string());
            Box::pin(async move { read.await.map(contents_result) })
        }
        (Runs::Template(template), Ok(args)) => match expand(&template, args.as_deref()) {
            Ok(uri) => {
                let read = forward.read_resource(ctx, uri);
                Box::pin(async move { read.await.map(contents_result) })
            }
            Err(message) => Box::pin(async move { Err(HandlerError::InvalidArguments(message)) }),
        },
        (Runs::Prompt, Ok(args)) => {
            let args = PromptArguments(prompt_arguments(args.as_deref()));
            let get = forward.get_prompt(ctx, remote, args);
            Box::pin(async move {
                get.await.map(|r| {
                    CallToolResult::new(r.messages.into_iter().map(|m| m.content).collect())
                })
            })
        }
    }
}

/// A resource's contents as a tool's: a text block per text, an embedded resource per blob.
fn contents_result(contents: Vec<ResourceContents>) -> CallToolResult {
    let blocks = contents
        .into_iter()
        .map(|c| match c {
            ResourceContents::Text(t) => ContentBlock::text(t.text),
            blob @ ResourceContents::Blob(_) => ContentBlock::embedded(blob),
        })
        .collect();
    CallToolResult::new(blocks)
}

/// What starts a `tools/call` of a local resource or prompt exposed as a tool.
pub(super) fn local_tool(
    e: &ExposedTool,
    arguments: Option<&RawValue>,
) -> impl FnOnce(Context) -> BoxFuture<'static, Result<CallToolResult, HandlerError>> + use<> {
    let checked = match &e.check {
        Some(check) => check.apply(arguments).map(Some),
        None => Ok(arguments.map(RawValue::to_owned)),
    };
    let runs = e.runs.clone();
    move |ctx| match (runs, checked) {
        (_, Err(message)) => Box::pin(async move { Err(HandlerError::InvalidArguments(message)) }),
        (Exposed::Resource(resource), Ok(_)) => {
            let request =
                ResourceRequest::new(resource.uri, std::iter::empty::<(String, String)>());
            let read = (resource.read)(ctx, request);
            Box::pin(async move { read.await.map(contents_result) })
        }
        (Exposed::Template(resource, template), Ok(args)) => {
            let read = expand(&template, args.as_deref())
                .and_then(|uri| matched(&template, &uri).map(|vars| (uri, vars)));
            match read {
                Ok((uri, vars)) => {
                    let read = (resource.read)(ctx, ResourceRequest::new(uri, vars));
                    Box::pin(async move { read.await.map(contents_result) })
                }
                Err(message) => {
                    Box::pin(async move { Err(HandlerError::InvalidArguments(message)) })
                }
            }
        }
        (Exposed::Prompt(prompt), Ok(args)) => {
            let args = PromptArguments(prompt_arguments(args.as_deref()));
            let get = (prompt.get)(ctx, args);
            Box::pin(async move {
                get.await.map(|r| {
                    CallToolResult::new(r.messages.into_iter().map(|m| m.content).collect())
                })
            })
        }
    }
}
