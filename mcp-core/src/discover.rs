//! `server/discover` and the result-level fields of the stateless era (2026-07-28):
//! `resultType` and the cache hints `ttlMs` / `cacheScope`; and [`InputResponses`], what a
//! request retried after an `input_required` result carries.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::lifecycle::ServerCapabilities;
use crate::meta::Meta;
use crate::version::{ForVersion, ProtocolVersion};

/// Answers to the `inputRequests` of an earlier `input_required` result, by key (raw client
/// results), sent as `inputResponses` when the client retries the request (2026-07-28).
///
/// ```
/// use mcp_runtime_core::{CallToolRequestParams, InputResponses};
///
/// let params: CallToolRequestParams = serde_json::from_str(
///     r#"{"name":"book","inputResponses":{"elicit-0":{"action":"accept","content":{}}}}"#,
/// )
/// .unwrap();
/// let answers: &InputResponses = params.input_responses.as_ref().unwrap();
/// assert_eq!(answers["elicit-0"]["action"], "accept");
/// ```
pub type InputResponses = BTreeMap<String, Value>;

/// The `resultType` of a 2026-07-28 result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ResultType {
    /// `"complete"`: the request is answered.
    Complete,
    /// `"input_required"`: the client must supply input and retry (see
    /// [`InputRequiredResult`](crate::InputRequiredResult)).
    InputRequired,
}

/// Who may share a cached result (2026-07-28).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum CacheScope {
    /// Any client may reuse the result.
    Public,
    /// Only the client (credentials) that received the result may reuse it.
    Private,
}

/// Applies the `resultType` rule: required on 2026-07-28 (defaults to `complete`), absent before.
pub(crate) fn result_type_for(v: ProtocolVersion, result_type: &mut Option<ResultType>) {
    if v.has_result_type() {
        result_type.get_or_insert(ResultType::Complete);
    } else {
        *result_type = None;
    }
}

/// Applies the cache-hint rule: required on 2026-07-28 complete results (defaulting to
/// "do not cache": `0` ms, `private`), absent before.
pub(crate) fn cache_hints_for(
    v: ProtocolVersion,
    ttl_ms: &mut Option<u64>,
    cache_scope: &mut Option<CacheScope>,
) {
    if v.has_cache_hints() {
        ttl_ms.get_or_insert(0);
        cache_scope.get_or_insert(CacheScope::Private);
    } else {
        *ttl_ms = None;
        *cache_scope = None;
    }
}

/// The result of `server/discover` (2026-07-28).
///
/// ```
/// use mcp_runtime_core::{CacheScope, DiscoverResult, ServerCapabilities};
///
/// let result = DiscoverResult::new(vec!["2026-07-28".into()], ServerCapabilities::default())
///     .with_instructions("Call `add` to add numbers");
/// assert_eq!(result.cache_scope, CacheScope::Private);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct DiscoverResult {
    /// Every protocol revision the server supports.
    pub supported_versions: Vec<String>,
    /// What the server offers.
    pub capabilities: ServerCapabilities,
    /// Hints for the model on how to use the server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<String>,
    /// How long the client may cache this result, in milliseconds.
    pub ttl_ms: u64,
    /// Who may share the cached result.
    pub cache_scope: CacheScope,
    /// `complete` (set by [`ForVersion`] when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType>,
    /// Result `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl DiscoverResult {
    /// A result with no caching (`ttlMs: 0`, `private`).
    #[must_use]
    pub fn new(supported_versions: Vec<String>, capabilities: ServerCapabilities) -> Self {
        Self {
            supported_versions,
            capabilities,
            instructions: None,
            ttl_ms: 0,
            cache_scope: CacheScope::Private,
            result_type: None,
            meta: None,
        }
    }

    /// Sets the cache hints.
    #[must_use]
    pub fn with_cache(mut self, ttl_ms: u64, cache_scope: CacheScope) -> Self {
        self.ttl_ms = ttl_ms;
        self.cache_scope = cache_scope;
        self
    }

    with_options! {
        with_instructions => instructions: String,
        with_meta => meta: Meta,
    }
}

impl ForVersion for DiscoverResult {
    fn for_version(&mut self, v: ProtocolVersion) {
        self.capabilities.for_version(v);
        result_type_for(v, &mut self.result_type);
    }
}

/// A result with no content (`ping`, `logging/setLevel`, `resources/subscribe`, ...).
///
/// ```
/// use mcp_runtime_core::{EmptyResult, ForVersion, ProtocolVersion};
///
/// let json = serde_json::to_string(&EmptyResult::new().into_version(ProtocolVersion::LATEST));
/// assert_eq!(json.unwrap(), r#"{"resultType":"complete"}"#);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct EmptyResult {
    /// `complete` on 2026-07-28 (set by [`ForVersion`] when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType>,
    /// Result `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl EmptyResult {
    /// An empty result.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    with_options! {
        with_meta => meta: Meta,
    }
}

impl ForVersion for EmptyResult {
    fn for_version(&mut self, v: ProtocolVersion) {
        result_type_for(v, &mut self.result_type);
    }
}
