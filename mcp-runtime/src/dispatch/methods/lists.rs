//! `tools/list`, `resources/list`, `resources/templates/list` and `prompts/list`: prepared pages
//! (with feature `auth`, less what a caller may not use when the server hides it).

use std::borrow::Cow;

use mcp_core::ErrorObject;
use serde::Deserialize;

use crate::dispatch::call::MethodCall;
use crate::dispatch::reply::Payload;
use crate::registry::ListKind;

#[derive(Deserialize)]
struct CursorParams<'a> {
    #[serde(default, borrow)]
    cursor: Option<Cow<'a, str>>,
}

/// The page of `kind` at the request's cursor, for the request's revision.
pub(super) fn list(call: &MethodCall<'_>, kind: ListKind) -> Result<Payload, ErrorObject> {
    let live = call.server.live();
    let caps = &live.capabilities;
    let enabled = match kind {
        ListKind::Tools => caps.tools.is_some(),
        ListKind::Resources | ListKind::Templates => caps.resources.is_some(),
        ListKind::Prompts => caps.prompts.is_some(),
    };
    if !enabled {
        return Err(ErrorObject::method_not_found(call.method()));
    }
    let p: CursorParams<'_> = call.params()?;
    let (v, cursor) = (call.scope.version, p.cursor.as_deref());
    // A caller the server hides unpermitted items from gets the page as it may see it, whatever
    // carries the answer (JSON, SSE, a batch, the legacy stream).
    #[cfg(feature = "auth")]
    let page = match call.scope.caller.as_ref().filter(|c| c.hides()) {
        Some(caller) => live.catalog.page_seen(v, kind, cursor, &|s| caller.sees(s)),
        None => live.catalog.page(v, kind, cursor),
    };
    #[cfg(not(feature = "auth"))]
    let page = live.catalog.page(v, kind, cursor);
    page.map(Payload::Shared)
        .ok_or_else(|| ErrorObject::invalid_params("invalid cursor"))
}
