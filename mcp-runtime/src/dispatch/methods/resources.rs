//! `resources/read`, `resources/subscribe` and `resources/unsubscribe`.

use std::borrow::Cow;
use std::sync::Arc;

use mcp_core::jsonrpc::{echo, error_codes};
use mcp_core::{EmptyResult, ErrorObject, ForVersion, ProtocolVersion, ReadResourceResult};
use serde::Deserialize;

use crate::dispatch::call::{MethodCall, Ran, mark_complete, timed_out};
use crate::dispatch::reply::Payload;
use crate::handler::invoke::{Limits, error_object};
use crate::registry::ListKind;
use crate::sync::lock;

#[derive(Deserialize)]
struct UriParams<'a> {
    #[serde(borrow)]
    uri: Cow<'a, str>,
}

/// Reads a fixed resource or a template's match.
pub(super) async fn read(call: MethodCall<'_>) -> Result<Payload, ErrorObject> {
    let server = call.server;
    let live = server.live();
    if live.capabilities.resources.is_none() {
        return Err(ErrorObject::method_not_found(call.method()));
    }
    let p: UriParams<'_> = call.params()?;
    let v = call.scope.version;
    let id = call.id;
    // A resource the caller's view does not see is not found, as one that does not exist.
    let view = super::lists::view(&call);
    let hidden = |uri: &str| {
        view.as_ref()
            .is_some_and(|view| !live.catalog.view_sees(view, ListKind::Resources, uri))
    };
    let found = live.catalog.find_resource(&p.uri);
    if hidden(found.as_ref().map_or(&*p.uri, |(r, _, _)| r.uri)) {
        return Err(not_found(&p.uri, v));
    }
    let Some((record, request, limit)) = found else {
        if let Some(served) = &live.skills
            && let Some(file) = served.set.file(&p.uri)
        {
            if let Some((path, generate)) = &file.generate {
                let contents = generated(&p.uri, file, path, generate).await?;
                return finish(server, id, vec![contents], v, None);
            }
            let hint = crate::registry::CacheHint {
                ttl_ms: served.ttl_ms(),
                scope: mcp_core::CacheScope::Public,
            };
            return finish(server, id, vec![file.contents.clone()], v, Some(hint));
        }
        let Some(found) = live.catalog.mounted.resource(&p.uri) else {
            return Err(not_found(&p.uri, v));
        };
        let (forward, remote) = (Arc::clone(&found.mount.forward), found.remote.to_owned());
        let limits = Limits {
            concurrency: None,
            timeout_ms: found.mount.timeout_ms,
        };
        let start = |ctx| forward.read_resource(ctx, remote);
        let contents = match call.run(limits, start, Result::is_err).await {
            Ran::Answered(answer) => return answer,
            Ran::TimedOut(ms) => return Err(timed_out("resource", &p.uri, ms)),
            Ran::Done(Ok(c)) => c,
            Ran::Done(Err(err)) => return Err(error_object(&p.uri, err, || not_found(&p.uri, v))),
        };
        return finish(server, id, contents, v, None);
    };
    call.authorize(record.scopes)?;
    tracing::Span::current().record("item", record.name);
    let limits = Limits {
        concurrency: limit.map(|l| &**l),
        timeout_ms: record.timeout_ms,
    };
    let contents = match call
        .run(limits, |ctx| (record.read)(ctx, request), Result::is_err)
        .await
    {
        Ran::Answered(answer) => return answer,
        Ran::TimedOut(ms) => return Err(timed_out("resource", record.name, ms)),
        Ran::Done(Ok(c)) if c.is_empty() => return Err(not_found(&p.uri, v)),
        Ran::Done(Ok(c)) => c,
        Ran::Done(Err(err)) => return Err(error_object(record.name, err, || not_found(&p.uri, v))),
    };
    finish(server, id, contents, v, record.cache)
}

/// The read's result, shaped for the revision: in 2026-07-28 with the resource's cache hint
/// (`ttl_ms`, `cache_scope` of `#[resource]`), or `ttlMs: 0`, `private` without one (a
/// mounted resource's included: the gateway does not know how long the remote's stays fresh).
/// A generated skill file, made by its skill's function now (not cached: it may differ at each
/// read). A failure is logged and answered as an internal error without its reason.
async fn generated(
    uri: &str,
    file: &crate::skills::File,
    path: &str,
    generate: &crate::skills::Generate,
) -> Result<mcp_core::ResourceContents, ErrorObject> {
    let mime = file.descriptor.mime_type.as_deref().unwrap_or("text/plain");
    match generate(path.to_owned()).await {
        Ok(bytes) if bytes.len() as u64 <= mcp_core::skills::MAX_TOTAL_BYTES => {
            Ok(crate::skills::contents(uri, mime, &bytes))
        }
        Ok(bytes) => {
            tracing::warn!(
                uri,
                size = bytes.len(),
                "a generated skill file is over 16 MiB"
            );
            Err(ErrorObject::internal(format!(
                "{} could not be generated",
                echo(uri)
            )))
        }
        Err(e) => {
            tracing::warn!(uri, error = %e, "generating a skill file failed");
            Err(ErrorObject::internal(format!(
                "{} could not be generated",
                echo(uri)
            )))
        }
    }
}

fn finish(
    server: &crate::server::ServerInner,
    id: &mcp_core::RequestId,
    contents: Vec<mcp_core::ResourceContents>,
    v: ProtocolVersion,
    hint: Option<crate::registry::CacheHint>,
) -> Result<Payload, ErrorObject> {
    let mut result = ReadResourceResult::new(contents);
    result.for_version(v);
    if v.has_cache_hints() {
        let (ttl, scope) = hint.map_or((0, mcp_core::CacheScope::Private), |h| (h.ttl_ms, h.scope));
        result.ttl_ms = Some(ttl);
        result.cache_scope = Some(scope);
    }
    mark_complete(server, &mut result.result_type, &mut result.meta, v);
    Payload::framed(id, &result)
}

/// `resources/subscribe` (`on`) and `resources/unsubscribe`. A mounted resource's subscription
/// is held on its server too, while the session holds it.
pub(super) fn subscribe(call: &MethodCall<'_>, on: bool) -> Result<Payload, ErrorObject> {
    let live = call.server.live();
    if live.capabilities.resources.is_none() {
        return Err(ErrorObject::method_not_found(call.method()));
    }
    let p: UriParams<'_> = call.params()?;
    let done = || call.result(&EmptyResult::new().into_version(call.scope.version));
    if !on {
        call.link.subscriptions.remove(&p.uri);
        // Released on the mounted server with the last of our sessions holding it.
        let held = lock(&call.link.held).remove(&*p.uri);
        drop(held);
        return done();
    }
    let mut held = None;
    if let Some((record, ..)) = live.catalog.find_resource(&p.uri) {
        call.authorize(record.scopes)?;
    } else if let Some(found) = live.catalog.mounted.resource(&p.uri)
        && !call.link.subscriptions.contains(&p.uri)
    {
        held = Some(found.mount.forward.subscribe(found.remote.to_owned())?);
    }
    if !call.link.subscriptions.add(&p.uri) {
        return Err(ErrorObject::invalid_params(
            "too many resource subscriptions on this session",
        ));
    }
    if let Some(held) = held {
        lock(&call.link.held).insert(p.uri.into_owned(), held);
    }
    done()
}

/// The revision's "resource not found": -32002 up to 2025-11-25, -32602 from 2026-07-28.
pub(super) fn not_found(uri: &str, v: ProtocolVersion) -> ErrorObject {
    let data = serde_json::json!({ "uri": echo(uri) });
    let message = format!("resource not found: {}", echo(uri));
    if v.is_stateless() {
        ErrorObject::invalid_params(message).with_data(data)
    } else {
        ErrorObject::new(error_codes::RESOURCE_NOT_FOUND, message).with_data(data)
    }
}
