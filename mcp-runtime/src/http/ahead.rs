//! What a stateless-era POST reads of a request's params before dispatching it, and the check of
//! its standard headers against them.

use std::borrow::Cow;

use http::HeaderMap;
use mcp_core::{ErrorObject, RequestMeta};
use serde::Deserialize;
use serde_json::value::RawValue;

use crate::dispatch::headers as mirror;
use crate::dispatch::route::{Route, Target};
use crate::dispatch::scope::Retry;

/// The params members the stateless era mirrors in headers.
#[derive(Deserialize, Default, Debug)]
pub(crate) struct Mirrored<'a> {
    #[serde(default, borrow)]
    name: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    uri: Option<Cow<'a, str>>,
    #[serde(rename = "taskId", default, borrow)]
    task_id: Option<Cow<'a, str>>,
}

/// What a POST reads of a request's params before dispatching it: `_meta` (for the era), the
/// members the stateless era's headers mirror, and whether a retried round's members are there.
pub(crate) struct Ahead<'a> {
    pub(crate) meta: Option<Box<RequestMeta>>,
    /// `None`: not read yet (`check_headers` reads them).
    pub(crate) mirrored: Option<Mirrored<'a>>,
    pub(crate) retry: Retry,
}

/// All of [`Ahead`] in one pass over the params.
#[derive(Deserialize)]
struct OnePass<'a> {
    #[serde(rename = "_meta", default)]
    meta: Option<RequestMeta>,
    #[serde(default, borrow)]
    name: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    uri: Option<Cow<'a, str>>,
    #[serde(rename = "taskId", default, borrow)]
    task_id: Option<Cow<'a, str>>,
    #[serde(rename = "inputResponses", default)]
    input_responses: Option<serde::de::IgnoredAny>,
    #[serde(rename = "requestState", default)]
    request_state: Option<serde::de::IgnoredAny>,
}

impl<'a> Ahead<'a> {
    /// Reads the params once. When that pass fails, each part is read apart as it was before
    /// (each part's own errors, in their own places): the pass succeeds exactly when every part
    /// would, with the same values.
    pub(crate) fn read(params: &'a RawValue) -> Self {
        match serde_json::from_str::<OnePass<'a>>(params.get()) {
            Ok(p) => Self {
                meta: Some(Box::new(p.meta.unwrap_or_default())),
                mirrored: Some(Mirrored {
                    name: p.name,
                    uri: p.uri,
                    task_id: p.task_id,
                }),
                retry: Retry::known(p.input_responses.is_some() || p.request_state.is_some()),
            },
            Err(_) => Self {
                meta: RequestMeta::from_params(Some(params)).ok().map(Box::new),
                mirrored: None,
                retry: Retry::Unknown,
            },
        }
    }
}

/// Step 5 of the stateless era's validation: `Mcp-Method` and `Mcp-Name`.
pub(crate) fn check_headers(
    headers: &HeaderMap,
    method: &str,
    params: Option<&RawValue>,
    read: Option<Mirrored<'_>>,
) -> Result<(), ErrorObject> {
    let route = Route::client_request(method);
    mirror::check_method(headers, route, method)?;
    let Some(target) = route.mirrored_target() else {
        return Ok(());
    };
    let mirrored: Mirrored<'_> = match (read, params) {
        (Some(read), _) => read,
        (None, Some(p)) => serde_json::from_str(p.get())
            .map_err(|_| ErrorObject::invalid_params("invalid params"))?,
        (None, None) => Mirrored::default(),
    };
    let body_name = match target {
        Target::Uri => mirrored.uri.as_deref(),
        Target::Name => mirrored.name.as_deref(),
        Target::TaskId => mirrored.task_id.as_deref(),
        _ => None,
    };
    match body_name {
        Some(expected) => mirror::check_name(headers, expected),
        None if headers.get("mcp-name").is_none() => Err(mirror::mismatch(
            "Header mismatch: the Mcp-Name header is required for this method",
        )),
        None => Ok(()),
    }
}
