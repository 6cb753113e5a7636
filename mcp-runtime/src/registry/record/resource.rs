//! [`ResourceRecord`]: one resource or resource template, as `#[resource]` (or `#[widget]`)
//! generates it or as a program makes it by hand.

use super::{CompletionRecord, IconRecord, Location, ResourceReadFn, StateNeedsFn, no_state};

/// One registered resource (fixed URI) or resource template (URI with variables).
///
/// `#[resource]` makes one (`my_resource::RESOURCE`); by hand, [`new`](Self::new) and the
/// `with_*` setters, all `const`:
///
/// ```
/// use mcp_runtime::prelude::*;
/// use mcp_runtime::registry::{ResourceRecord, ResourceRequest};
/// use mcp_runtime::{BoxFuture, HandlerError};
/// use mcp_runtime::protocol::ResourceContents;
///
/// fn motd(_: Context, request: ResourceRequest) -> BoxFuture<'static, Result<Vec<ResourceContents>, HandlerError>> {
///     Box::pin(async move { Ok(vec![ResourceContents::text(request.uri, "hello")]) })
/// }
///
/// const MOTD: ResourceRecord = ResourceRecord::new("motd", "text://motd", motd)
///     .with_mime_type("text/plain")
///     .with_description("The message of the day.");
///
/// let server = Server::builder(server_info!()).resource(MOTD).build().unwrap();
/// # let _ = server;
/// assert_eq!(MOTD.mime_type, Some("text/plain"));
/// ```
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct ResourceRecord {
    /// Resource name (defaults to the fn name).
    pub name: &'static str,
    /// Human-readable title.
    pub title: Option<&'static str>,
    /// Description.
    pub description: Option<&'static str>,
    /// URI, or RFC 6570 URI template when it has variables.
    pub uri: &'static str,
    /// MIME type.
    pub mime_type: Option<&'static str>,
    /// Icons.
    pub icons: &'static [IconRecord],
    /// `_meta` as JSON object text.
    pub meta: Option<&'static str>,
    /// The read.
    pub read: ResourceReadFn,
    /// The state types its injected parameters need.
    pub state_needs: StateNeedsFn,
    /// Completion hooks of template variables.
    pub completions: &'static [CompletionRecord],
    /// Which server this belongs to.
    pub server: &'static str,
    /// Per-read timeout in milliseconds.
    pub timeout_ms: Option<u64>,
    /// Most reads of this resource (or template) in flight at once (per server).
    pub max_concurrency: Option<u32>,
    /// Its cache hint ([`CacheHint`](super::CacheHint)); see [`with_cache`](Self::with_cache).
    pub cache: Option<super::CacheHint>,
    /// Declaration site.
    pub location: Location,
    /// The OAuth scopes a caller needs to read this resource (`scopes = [..]`; enforced by the HTTP
    /// transports with the `auth` feature, where a broader scope may imply them).
    pub scopes: &'static [&'static str],
    /// Its tags, which a [`Visibility`](crate::transform::Visibility) rule decides by (transforms
    /// may add more).
    pub tags: &'static [&'static str],
}

impl ResourceRecord {
    /// The resource `name` at `uri` (a template when it has `{variables}`) and its read;
    /// declared where this is called (see [`with_location`](Self::with_location)), of the
    /// default server, with nothing else: no title, description, MIME type, icons, `_meta`,
    /// state, completions, limits or scopes.
    #[track_caller]
    pub const fn new(name: &'static str, uri: &'static str, read: ResourceReadFn) -> Self {
        Self {
            name,
            title: None,
            description: None,
            uri,
            mime_type: None,
            icons: &[],
            meta: None,
            read,
            state_needs: no_state,
            completions: &[],
            server: "",
            timeout_ms: None,
            max_concurrency: None,
            cache: None,
            location: Location::caller(),
            scopes: &[],
            tags: &[],
        }
    }

    /// Its human-readable title.
    pub const fn with_title(mut self, title: &'static str) -> Self {
        self.title = Some(title);
        self
    }

    /// Its description.
    pub const fn with_description(mut self, description: &'static str) -> Self {
        self.description = Some(description);
        self
    }

    /// The MIME type of its contents.
    pub const fn with_mime_type(mut self, mime_type: &'static str) -> Self {
        self.mime_type = Some(mime_type);
        self
    }

    /// Its icons.
    pub const fn with_icons(mut self, icons: &'static [IconRecord]) -> Self {
        self.icons = icons;
        self
    }

    /// Its `_meta`, as the text of a JSON object (checked when the server is built).
    pub const fn with_meta(mut self, meta: &'static str) -> Self {
        self.meta = Some(meta);
        self
    }

    /// The state types its injected parameters need (checked when the server is built).
    pub const fn with_state_needs(mut self, state_needs: StateNeedsFn) -> Self {
        self.state_needs = state_needs;
        self
    }

    /// The completion hooks of its template variables.
    pub const fn with_completions(mut self, completions: &'static [CompletionRecord]) -> Self {
        self.completions = completions;
        self
    }

    /// The named server it belongs to.
    pub const fn with_server(mut self, server: &'static str) -> Self {
        self.server = server;
        self
    }

    /// How long one read may run, in milliseconds.
    pub const fn with_timeout_ms(mut self, timeout_ms: u64) -> Self {
        self.timeout_ms = Some(timeout_ms);
        self
    }

    /// How many reads of it may run at once, server-wide.
    pub const fn with_max_concurrency(mut self, max_concurrency: u32) -> Self {
        self.max_concurrency = Some(max_concurrency);
        self
    }

    /// Its cache hint: `resources/read` of it carries `ttlMs: ttl_ms` and `cacheScope: scope`
    /// in 2026-07-28 (no hint exists before), and the [`Cache`](crate::cache::Cache) layer
    /// keeps its results that long. Without one, a read says `ttlMs: 0`, `private`.
    ///
    /// ```
    /// use mcp_runtime::protocol::CacheScope;
    /// use mcp_runtime::registry::{ResourceRecord, ResourceRequest};
    /// use mcp_runtime::{BoxFuture, Context, HandlerError};
    /// use mcp_runtime::protocol::ResourceContents;
    ///
    /// fn read(_: Context, r: ResourceRequest) -> BoxFuture<'static, Result<Vec<ResourceContents>, HandlerError>> {
    ///     Box::pin(async move { Ok(vec![ResourceContents::text(r.uri, "v1")]) })
    /// }
    /// const VERSION: ResourceRecord =
    ///     ResourceRecord::new("version", "text://version", read).with_cache(60_000, CacheScope::Public);
    /// assert_eq!(VERSION.cache.map(|c| c.ttl_ms), Some(60_000));
    /// ```
    pub const fn with_cache(mut self, ttl_ms: u64, scope: mcp_core::CacheScope) -> Self {
        self.cache = Some(super::CacheHint::new(ttl_ms, scope));
        self
    }

    /// Where it was declared, for the messages about duplicate URIs.
    pub const fn with_location(mut self, location: Location) -> Self {
        self.location = location;
        self
    }

    /// The OAuth scopes a caller needs to read it (feature `auth`).
    pub const fn with_scopes(mut self, scopes: &'static [&'static str]) -> Self {
        self.scopes = scopes;
        self
    }

    /// Its tags: a [`Visibility`](crate::transform::Visibility) rule shows it or not by them.
    ///
    /// ```
    /// # fn demo(record: mcp_runtime::registry::ResourceRecord) {
    /// let tagged = record.with_tags(&["admin"]);
    /// assert_eq!(tagged.tags, ["admin"]);
    /// # }
    /// ```
    pub const fn with_tags(mut self, tags: &'static [&'static str]) -> Self {
        self.tags = tags;
        self
    }
}
