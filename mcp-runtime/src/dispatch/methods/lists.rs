//! `tools/list`, `resources/list`, `resources/templates/list` and `prompts/list`: prepared pages.

use std::borrow::Cow;

use mcp_core::ErrorObject;
use serde::Deserialize;

use crate::dispatch::call::Call;
use crate::dispatch::reply::Payload;
use crate::registry::ListKind;

#[derive(Deserialize)]
struct CursorParams<'a> {
    #[serde(default, borrow)]
    cursor: Option<Cow<'a, str>>,
}

/// The page of `kind` at the request's cursor, for the request's revision.
pub(super) fn list(call: &Call<'_>, kind: ListKind) -> Result<Payload, ErrorObject> {
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
    live.catalog
        .page(call.scope.version, kind, p.cursor.as_deref())
        .map(Payload::Shared)
        .ok_or_else(|| ErrorObject::invalid_params("invalid cursor"))
}
