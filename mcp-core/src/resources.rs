//! Resources: `resources/list`, `resources/templates/list`, `resources/read` and the
//! handshake-era subscriptions.

use serde::{Deserialize, Serialize};

use crate::content::{Annotations, ResourceContents, entity_meta_for, icons_for, title_for};
use crate::discover::{CacheScope, InputResponses, ResultType, cache_hints_for, result_type_for};
use crate::icons::Icon;
use crate::meta::Meta;
use crate::pagination::Cursor;
use crate::version::{ForVersion, ProtocolVersion};

/// A resource the server can read.
///
/// ```
/// use mcp_runtime_core::Resource;
///
/// let r = Resource::new("file:///notes.md", "notes").with_mime_type("text/markdown");
/// assert_eq!(
///     serde_json::to_string(&r).unwrap(),
///     r#"{"uri":"file:///notes.md","name":"notes","mimeType":"text/markdown"}"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Resource {
    /// The URI.
    pub uri: String,
    /// A programmatic name.
    pub name: String,
    /// A display name (2025-06-18+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// A description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The MIME type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// The size in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// Annotations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Icons (2025-11-25+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// `_meta` (2025-06-18+).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl Resource {
    /// A resource with a URI and a name.
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> Self {
        Self {
            uri: uri.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            size: None,
            annotations: None,
            icons: None,
            meta: None,
        }
    }

    /// Sets `size` (bytes).
    #[must_use]
    pub fn with_size(mut self, size: u64) -> Self {
        self.size = Some(size);
        self
    }

    with_options! {
        with_title => title: String,
        with_description => description: String,
        with_mime_type => mime_type: String,
        with_annotations => annotations: Annotations,
        with_icons => icons: Vec<Icon>,
        with_meta => meta: Meta,
    }
}

impl ForVersion for Resource {
    fn for_version(&mut self, v: ProtocolVersion) {
        title_for(v, &mut self.title);
        icons_for(v, &mut self.icons);
        entity_meta_for(v, &mut self.meta);
        self.annotations.for_version(v);
    }
}

/// A family of resources described by an RFC 6570 URI template.
///
/// ```
/// use mcp_runtime_core::ResourceTemplate;
///
/// let t = ResourceTemplate::new("gifts://item/{id}", "gift");
/// assert_eq!(serde_json::to_value(&t).unwrap()["uriTemplate"], "gifts://item/{id}");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ResourceTemplate {
    /// The URI template.
    pub uri_template: String,
    /// A programmatic name.
    pub name: String,
    /// A display name (2025-06-18+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// A description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The MIME type of every matching resource, if they share one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Annotations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Icons (2025-11-25+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// `_meta` (2025-06-18+).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl ResourceTemplate {
    /// A template with a URI template and a name.
    pub fn new(uri_template: impl Into<String>, name: impl Into<String>) -> Self {
        Self {
            uri_template: uri_template.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            annotations: None,
            icons: None,
            meta: None,
        }
    }

    with_options! {
        with_title => title: String,
        with_description => description: String,
        with_mime_type => mime_type: String,
        with_annotations => annotations: Annotations,
        with_icons => icons: Vec<Icon>,
        with_meta => meta: Meta,
    }
}

impl ForVersion for ResourceTemplate {
    fn for_version(&mut self, v: ProtocolVersion) {
        title_for(v, &mut self.title);
        icons_for(v, &mut self.icons);
        entity_meta_for(v, &mut self.meta);
        self.annotations.for_version(v);
    }
}

/// The result of `resources/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ListResourcesResult {
    /// The resources of this page.
    pub resources: Vec<Resource>,
    /// The cursor of the next page, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<Cursor>,
    /// Cache lifetime in milliseconds (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl_ms: Option<u64>,
    /// Cache scope (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_scope: Option<CacheScope>,
    /// `complete` (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType>,
    /// Result `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl ListResourcesResult {
    /// A page of resources.
    #[must_use]
    pub fn new(resources: Vec<Resource>) -> Self {
        Self {
            resources,
            next_cursor: None,
            ttl_ms: None,
            cache_scope: None,
            result_type: None,
            meta: None,
        }
    }

    /// Sets the cache hints (sent on 2026-07-28 only).
    #[must_use]
    pub fn with_cache(mut self, ttl_ms: u64, cache_scope: CacheScope) -> Self {
        self.ttl_ms = Some(ttl_ms);
        self.cache_scope = Some(cache_scope);
        self
    }

    with_options! {
        with_next_cursor => next_cursor: Cursor,
        with_meta => meta: Meta,
    }
}

impl ForVersion for ListResourcesResult {
    fn for_version(&mut self, v: ProtocolVersion) {
        self.resources.for_version(v);
        cache_hints_for(v, &mut self.ttl_ms, &mut self.cache_scope);
        result_type_for(v, &mut self.result_type);
    }
}

/// The result of `resources/templates/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ListResourceTemplatesResult {
    /// The templates of this page.
    pub resource_templates: Vec<ResourceTemplate>,
    /// The cursor of the next page, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<Cursor>,
    /// Cache lifetime in milliseconds (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl_ms: Option<u64>,
    /// Cache scope (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_scope: Option<CacheScope>,
    /// `complete` (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType>,
    /// Result `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl ListResourceTemplatesResult {
    /// A page of templates.
    #[must_use]
    pub fn new(resource_templates: Vec<ResourceTemplate>) -> Self {
        Self {
            resource_templates,
            next_cursor: None,
            ttl_ms: None,
            cache_scope: None,
            result_type: None,
            meta: None,
        }
    }

    /// Sets the cache hints (sent on 2026-07-28 only).
    #[must_use]
    pub fn with_cache(mut self, ttl_ms: u64, cache_scope: CacheScope) -> Self {
        self.ttl_ms = Some(ttl_ms);
        self.cache_scope = Some(cache_scope);
        self
    }

    with_options! {
        with_next_cursor => next_cursor: Cursor,
        with_meta => meta: Meta,
    }
}

impl ForVersion for ListResourceTemplatesResult {
    fn for_version(&mut self, v: ProtocolVersion) {
        self.resource_templates.for_version(v);
        cache_hints_for(v, &mut self.ttl_ms, &mut self.cache_scope);
        result_type_for(v, &mut self.result_type);
    }
}

/// The params of `resources/read`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ReadResourceRequestParams {
    /// The URI to read.
    pub uri: String,
    /// Request `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Responses to an earlier `input_required` result (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_responses: Option<InputResponses>,
    /// The opaque state echoed from an earlier `input_required` result (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_state: Option<String>,
}

impl ReadResourceRequestParams {
    /// Params reading `uri`.
    pub fn new(uri: impl Into<String>) -> Self {
        Self {
            uri: uri.into(),
            meta: None,
            input_responses: None,
            request_state: None,
        }
    }
}

/// The result of `resources/read`.
///
/// ```
/// use mcp_runtime_core::{ReadResourceResult, ResourceContents};
///
/// let r = ReadResourceResult::new(vec![ResourceContents::text("file:///a", "hello")]);
/// assert_eq!(serde_json::to_value(&r).unwrap()["contents"][0]["text"], "hello");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ReadResourceResult {
    /// The contents (several for, e.g., a directory).
    pub contents: Vec<ResourceContents>,
    /// `complete` (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType>,
    /// Cache lifetime in milliseconds (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl_ms: Option<u64>,
    /// Cache scope (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_scope: Option<CacheScope>,
    /// Result `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl ReadResourceResult {
    /// A result with the given contents.
    #[must_use]
    pub fn new(contents: Vec<ResourceContents>) -> Self {
        Self {
            contents,
            result_type: None,
            ttl_ms: None,
            cache_scope: None,
            meta: None,
        }
    }

    /// Sets the cache hints (sent on 2026-07-28 only).
    #[must_use]
    pub fn with_cache(mut self, ttl_ms: u64, cache_scope: CacheScope) -> Self {
        self.ttl_ms = Some(ttl_ms);
        self.cache_scope = Some(cache_scope);
        self
    }

    with_options! {
        with_meta => meta: Meta,
    }
}

impl ForVersion for ReadResourceResult {
    fn for_version(&mut self, v: ProtocolVersion) {
        self.contents.for_version(v);
        cache_hints_for(v, &mut self.ttl_ms, &mut self.cache_scope);
        result_type_for(v, &mut self.result_type);
    }
}

/// The params of `resources/subscribe` and `resources/unsubscribe` (handshake era).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SubscribeRequestParams {
    /// The resource URI.
    pub uri: String,
    /// Request `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl SubscribeRequestParams {
    /// Params for `uri`.
    pub fn new(uri: impl Into<String>) -> Self {
        Self {
            uri: uri.into(),
            meta: None,
        }
    }
}

/// The params of `notifications/resources/updated`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ResourceUpdatedNotificationParams {
    /// The URI of the resource that changed.
    pub uri: String,
    /// Notification `_meta` (carries the subscription id on 2026-07-28).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl ResourceUpdatedNotificationParams {
    /// Params for `uri`.
    pub fn new(uri: impl Into<String>) -> Self {
        Self {
            uri: uri.into(),
            meta: None,
        }
    }

    with_options! {
        with_meta => meta: Meta,
    }
}

impl ForVersion for ResourceUpdatedNotificationParams {
    fn for_version(&mut self, _v: ProtocolVersion) {}
}
