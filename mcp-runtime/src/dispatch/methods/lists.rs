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
    if let Some(view) = view(call) {
        #[cfg(feature = "auth")]
        let caller = call.scope.caller.as_ref().filter(|c| c.hides());
        #[cfg(feature = "auth")]
        let sees = caller.map(|c| move |s: &[&str]| c.sees(s));
        #[cfg(feature = "auth")]
        let sees = sees.as_ref().map(|f| f as &dyn Fn(&[&str]) -> bool);
        #[cfg(not(feature = "auth"))]
        let sees = None;
        return live
            .catalog
            .page_viewed(v, kind, cursor, &view, sees)
            .map(Payload::Shared)
            .ok_or_else(|| ErrorObject::invalid_params("invalid cursor"));
    }
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

/// The view of the request's caller, when the server has a `Visibility` rule and it hides
/// something from this caller.
pub(super) fn view(call: &MethodCall<'_>) -> Option<crate::transform::View> {
    let rule = call.server.options.visibility.as_ref()?;
    let principal = crate::principal::current();
    let version = call.scope.version;
    let mut viewer = crate::transform::Viewer::new(version);
    if !version.is_stateless() {
        let session = call.link.session_id.get().map(|s| &**s);
        viewer = viewer.with_session_id(session.unwrap_or_else(|| call.link.task_owner()));
    }
    if let Some(p) = &principal {
        viewer = viewer.with_principal(p);
    }
    let view = rule.view(&viewer);
    (!view.is_everything()).then_some(view)
}
