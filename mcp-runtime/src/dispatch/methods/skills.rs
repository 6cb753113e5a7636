//! The skills extension's methods: `skills/list`, `skills/get` and `resources/directory/read`
//! (and, from `resources`, the read of a skill file).
//!
//! The extension is specified "against base protocol revision `2026-07-28` or later", and it is
//! declared in `capabilities.extensions`, which only that revision has: a handshake-era client
//! never sees the declaration, and "Clients issue `skills/list` and `skills/get` only after
//! observing the server's declaration". So these methods are -32601 in the handshake era (as
//! for a server without skills), while the files stay ordinary resources in both eras: "To a
//! client that does not implement this extension, `skill://` resources are ordinary resources."

use std::borrow::Cow;
use std::sync::Arc;

use mcp_core::ErrorObject;
use mcp_core::jsonrpc::echo;
use serde::Deserialize;

use crate::dispatch::call::{MethodCall, framed_complete};
use crate::dispatch::reply::Payload;
use crate::skills::{DirectoryError, Served};

#[derive(Deserialize)]
struct ListParams<'a> {
    #[serde(default, borrow)]
    cursor: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct UriParams<'a> {
    #[serde(borrow)]
    uri: Cow<'a, str>,
    #[serde(default, borrow)]
    cursor: Option<Cow<'a, str>>,
}

/// The served skills, when this request may use them: a stateless request to a server with
/// skills; -32601 otherwise.
fn served(call: &MethodCall<'_>) -> Result<Arc<Served>, ErrorObject> {
    match &call.server.live().skills {
        Some(served) if call.scope.version.is_stateless() => Ok(Arc::clone(served)),
        _ => Err(ErrorObject::method_not_found(call.method())),
    }
}

/// `skills/list`: the prepared page at the cursor.
pub(super) fn list(call: &MethodCall<'_>) -> Result<Payload, ErrorObject> {
    let served = served(call)?;
    let p: ListParams<'_> = call.params()?;
    served
        .page(p.cursor.as_deref())
        .map(Payload::Shared)
        .ok_or_else(|| ErrorObject::invalid_params("invalid cursor"))
}

/// `skills/get`: the entry of the skill whose `SKILL.md` is at `uri`.
pub(super) fn get(call: &MethodCall<'_>) -> Result<Payload, ErrorObject> {
    let served = served(call)?;
    let p: UriParams<'_> = call.params()?;
    let Some(mut result) = served.get(&p.uri) else {
        return Err(
            ErrorObject::invalid_params(format!("No skill is served at {}", echo(&p.uri)))
                .with_data(serde_json::json!({ "uri": echo(&p.uri) })),
        );
    };
    framed_complete(call.server, call.id, &mut result, call.scope.version, |r| {
        (&mut r.result_type, &mut r.meta)
    })
}

/// `resources/directory/read`: one page of a directory's direct children.
pub(super) fn read_directory(call: &MethodCall<'_>) -> Result<Payload, ErrorObject> {
    let served = served(call)?;
    let p: UriParams<'_> = call.params()?;
    let uri = echo(&p.uri);
    let mut page = match served.directory(&p.uri, p.cursor.as_deref()) {
        Ok(page) => page,
        Err(DirectoryError::NotDirectory) => {
            return Err(ErrorObject::invalid_params(format!(
                "{uri} is not a directory resource"
            )));
        }
        Err(DirectoryError::Missing) => {
            return Err(ErrorObject::invalid_params(format!(
                "No directory resource is served at {uri}"
            )));
        }
        Err(DirectoryError::Cursor) => return Err(ErrorObject::invalid_params("invalid cursor")),
    };
    framed_complete(call.server, call.id, &mut page, call.scope.version, |r| {
        (&mut r.result_type, &mut r.meta)
    })
}
