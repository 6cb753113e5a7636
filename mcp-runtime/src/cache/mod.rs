//! Response caching: [`Cache`], a middleware layer that keeps the results of read-only items
//! and answers an identical request from them while they are fresh, and the per-item hints it
//! reads ([`CacheHint`](crate::registry::CacheHint)).
//!
//! ```standalone_crate
//! use mcp_runtime::cache::Cache;
//! use mcp_runtime::prelude::*;
//!
//! /// The exchange rate: the same for everyone, fresh for a minute.
//! #[tool(read_only, cache_ttl_ms = 60_000, cache_scope = "public")]
//! async fn rate(currency: String) -> String {
//!     format!("{currency}: 1.1")
//! }
//!
//! /// The caller's profile: kept per caller.
//! #[resource(uri = "app://profile", ttl_ms = 30_000, cache_scope = "private")]
//! async fn profile() -> String {
//!     "me".into()
//! }
//!
//! let cache = Cache::new().max_entries(512).max_bytes(8 << 20);
//! let server = Server::builder(server_info!())
//!     .tool(rate::TOOL)
//!     .resource(profile::RESOURCE)
//!     .layer(cache.clone())
//!     .build()
//!     .unwrap();
//! # let _ = server;
//! assert_eq!((cache.hits(), cache.misses()), (0, 0));
//! ```
//!
//! # What is cached
//!
//! A successful result of
//! - `resources/read` of a resource (or template) with a `ttl_ms` above 0
//!   (`#[resource(ttl_ms = ..)]`, [`ResourceRecord::with_cache`](crate::registry::ResourceRecord::with_cache));
//!   that hint is also what the result tells the client in 2026-07-28 (`ttlMs`, `cacheScope`);
//! - `prompts/get` of a prompt with a `cache_ttl_ms` above 0 (`#[prompt(cache_ttl_ms = ..)]`);
//! - `tools/call` of a tool annotated read-only (`readOnlyHint: true`, `#[tool(read_only)]`)
//!   with a `cache_ttl_ms` above 0, which never runs as a task (`task = "forbidden"`, the
//!   default: a call that may become a task answers with a task, not a result).
//!
//! The specification puts cache hints on `resources/read` and the list results only (caching,
//! "Cacheable Results": "Servers MUST include caching hints on results with `resultType:
//! "complete"` returned by the following operations: `server/discover`, `tools/list`,
//! `prompts/list`, `resources/list`, `resources/templates/list`, `resources/read`"), so a tool's
//! or a prompt's `cache_ttl_ms` is the server's own: nothing of it reaches the wire.
//!
//! Never cached: errors, a tool's `isError` results, cancelled requests, interim results
//! (`resultType: "input_required"`), and, as the specification says ("Results produced by
//! retrying a request through the multi round-trip requests mechanism—that is, requests
//! carrying `inputResponses` or `requestState`—MUST NOT be cached"), retries: such a request
//! is neither served from the cache nor kept. Items that declare OAuth `scopes`, and mounted
//! items (a gateway's), are never cached either: a layer runs before the method's
//! authorization, and a kept result must not reach a caller the method would refuse.
//!
//! # The key
//!
//! The server, the method, the revision, and the params without `_meta` (so a progress token,
//! a trace context or the stateless era's client identity do not split entries), their object
//! members sorted: `{"b":1,"a":2}` and `{"a":2,"b":1}` are one key. A `"private"` result (the
//! default scope) is kept apart per caller: per principal (the verified token's issuer, client
//! and subject, else the peer address of an HTTP connection) and per transport session (the
//! HTTP session, the legacy SSE stream), so one principal's private result is never served to
//! another, nor to another session of the same one. A connection with neither (stdio, the
//! in-memory pair) is one caller. A `"public"` result is shared by every caller of the server.
//!
//! # Bounds and freshness
//!
//! At most [`max_entries`](Cache::max_entries) results (default 1024), of
//! [`max_bytes`](Cache::max_bytes) in all (default 16 MiB, keys included), and
//! [`max_entries_per_caller`](Cache::max_entries_per_caller) per caller (default 256, public
//! results counting as one caller's); the least recently used go first. A result is fresh for
//! its item's TTL after it was made (`now < stored + ttl`, tokio's clock).
//!
//! # Invalidation
//!
//! [`Server::notify_resource_updated`](crate::Server::notify_resource_updated) drops the kept
//! reads of that URI; a list change ([`Server::notify_list_changed`](crate::Server::notify_list_changed),
//! or items added or removed at run time) drops every kept result of that kind (tools, prompts,
//! or resources and templates). [`Cache::clear`] drops everything. Another replica's changes
//! are not seen: each process keeps its own cache.

mod store;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use mcp_core::tasks::TaskSupport;
use mcp_core::{CacheScope, Method};
use serde_json::{Map, Value};
use tokio::time::Instant;

use crate::future::BoxFuture;
use crate::middleware::{Invalidate, Items, Kind, Layer, Next, Outcome, OutcomeKind, Request};
use crate::server::ServerInner;
use crate::sync::lock;
use store::{Bounds, Fresh, Store};

/// Most servers one cache keeps results for (a cache is usually one server's); requests to
/// more are passed through.
const MAX_SERVERS: usize = 64;

/// The response cache layer (see the [module docs](self)). Clones share one table.
///
/// ```
/// use mcp_runtime::cache::Cache;
/// use mcp_runtime::prelude::*;
///
/// let cache = Cache::new();
/// let builder = Server::builder(server_info!()).layer(cache.clone());
/// # let _ = builder;
/// assert_eq!(cache.len(), 0);
/// ```
#[derive(Clone)]
#[must_use]
pub struct Cache {
    shared: Arc<Shared>,
    bounds: Bounds,
}

struct Shared {
    store: Mutex<Store>,
    hits: AtomicU64,
    misses: AtomicU64,
}

impl std::fmt::Debug for Cache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cache")
            .field("entries", &self.len())
            .field("max_entries", &self.bounds.entries)
            .field("max_bytes", &self.bounds.bytes)
            .field("max_entries_per_caller", &self.bounds.per_context)
            .finish()
    }
}

impl Default for Cache {
    fn default() -> Self {
        Self::new()
    }
}

impl Cache {
    /// An empty cache with the default bounds (1024 entries, 16 MiB, 256 per caller).
    ///
    /// ```
    /// let cache = mcp_runtime::cache::Cache::new();
    /// assert_eq!(cache.hits(), 0);
    /// ```
    pub fn new() -> Self {
        Self {
            shared: Arc::new(Shared {
                store: Mutex::new(Store::default()),
                hits: AtomicU64::new(0),
                misses: AtomicU64::new(0),
            }),
            bounds: Bounds {
                entries: 1024,
                bytes: 16 << 20,
                per_context: 256,
            },
        }
    }

    /// At most `entries` results kept (`0`: none).
    ///
    /// ```
    /// let cache = mcp_runtime::cache::Cache::new().max_entries(100);
    /// # let _ = cache;
    /// ```
    pub fn max_entries(mut self, entries: usize) -> Self {
        self.bounds.entries = entries;
        self
    }

    /// At most `bytes` of results and keys kept; a result larger alone is not kept.
    ///
    /// ```
    /// let cache = mcp_runtime::cache::Cache::new().max_bytes(1 << 20);
    /// # let _ = cache;
    /// ```
    pub fn max_bytes(mut self, bytes: usize) -> Self {
        self.bounds.bytes = bytes;
        self
    }

    /// At most `entries` results kept for one caller (a principal, a session, or everyone's
    /// public results), so that one caller cannot push out everyone else's.
    ///
    /// ```
    /// let cache = mcp_runtime::cache::Cache::new().max_entries_per_caller(16);
    /// # let _ = cache;
    /// ```
    pub fn max_entries_per_caller(mut self, entries: usize) -> Self {
        self.bounds.per_context = entries;
        self
    }

    /// Requests answered from the cache so far.
    ///
    /// ```
    /// assert_eq!(mcp_runtime::cache::Cache::new().hits(), 0);
    /// ```
    pub fn hits(&self) -> u64 {
        self.shared.hits.load(Ordering::Relaxed)
    }

    /// Cacheable requests the cache could not answer so far (each then ran the method).
    ///
    /// ```
    /// assert_eq!(mcp_runtime::cache::Cache::new().misses(), 0);
    /// ```
    pub fn misses(&self) -> u64 {
        self.shared.misses.load(Ordering::Relaxed)
    }

    /// The number of results kept (expired ones included until they are looked up or pushed
    /// out).
    ///
    /// ```
    /// assert_eq!(mcp_runtime::cache::Cache::new().len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        lock(&self.shared.store).len()
    }

    /// Whether nothing is kept.
    ///
    /// ```
    /// assert!(mcp_runtime::cache::Cache::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Drops every kept result.
    ///
    /// ```
    /// let cache = mcp_runtime::cache::Cache::new();
    /// cache.clear();
    /// assert!(cache.is_empty());
    /// ```
    pub fn clear(&self) {
        lock(&self.shared.store).clear();
    }
}

impl Invalidate for Shared {
    fn resource_updated(&self, server: usize, uri: &str) {
        lock(&self.store).resource_updated(server, uri);
    }

    fn list_changed(&self, server: usize, method: Method) {
        lock(&self.store).list_changed(server, method);
    }
}

/// A request the cache may answer: its key and what an entry of it records.
struct Cacheable {
    key: Arc<str>,
    ttl: Duration,
    server: usize,
    method: Method,
    uri: Option<Box<str>>,
    context: Arc<str>,
}

impl Cache {
    /// The request's key and policy, when its item's results may be kept.
    fn cacheable(&self, request: &Request<'_>) -> Option<Cacheable> {
        if request.kind() != Kind::Request {
            return None;
        }
        let method = request.method();
        if !matches!(
            method,
            Method::CallTool | Method::GetPrompt | Method::ReadResource
        ) {
            return None;
        }
        let items = request.items()?;
        let target = request.target()?;
        let (ttl_ms, scope) = items.cache_hint(method, target)?;
        let mut params: Map<String, Value> = serde_json::from_str(request.params()?.get()).ok()?;
        if params.contains_key("inputResponses")
            || params.contains_key("requestState")
            || params.contains_key("task")
        {
            return None;
        }
        params.remove("_meta");
        let context: Arc<str> = match scope {
            CacheScope::Public => "public".into(),
            _ => format!(
                "private:{}:{}\n{}",
                request.principal().map_or(0, str::len),
                request.principal().unwrap_or(""),
                request.session_id().unwrap_or("-"),
            )
            .into(),
        };
        let server = items.server_key();
        let mut key = format!(
            "{server}\n{}\n{}\n{context}\n",
            method.name().unwrap_or(""),
            request.version().map_or("-", |v| v.as_str()),
        );
        canonical(&Value::Object(params), &mut key);
        // A result is kept only for a server that tells this cache of its changes.
        let mut store = lock(&self.shared.store);
        if !store.watched.contains(&server) {
            let weak: Weak<Shared> = Arc::downgrade(&self.shared);
            if store.watched.len() >= MAX_SERVERS || !items.watch(weak) {
                return None;
            }
            store.watched.push(server);
        }
        drop(store);
        Some(Cacheable {
            key: key.into(),
            ttl: Duration::from_millis(ttl_ms),
            server,
            method,
            uri: (method == Method::ReadResource).then(|| target.into()),
            context,
        })
    }
}

impl Layer for Cache {
    fn call<'a>(&'a self, request: &'a Request<'a>, next: Next<'a>) -> BoxFuture<'a, Outcome> {
        let Some(cacheable) = self.cacheable(request) else {
            return next.run();
        };
        Box::pin(async move {
            if let Some(text) = lock(&self.shared.store).get(&cacheable.key, Instant::now()) {
                self.shared.hits.fetch_add(1, Ordering::Relaxed);
                return Outcome::shared(text);
            }
            self.shared.misses.fetch_add(1, Ordering::Relaxed);
            let outcome = next.run().await;
            if outcome.kind() == OutcomeKind::Result
                && !outcome.is_interim()
                && let Some(text) = outcome.result_json()
            {
                let now = Instant::now();
                let fresh = Fresh {
                    text: text.into(),
                    expires: now + cacheable.ttl,
                    server: cacheable.server,
                    method: cacheable.method,
                    uri: cacheable.uri,
                    context: cacheable.context,
                };
                lock(&self.shared.store).insert(cacheable.key, fresh, self.bounds, now);
            }
            outcome
        })
    }
}

/// `value` as JSON text with every object's members sorted by name.
fn canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(members) => {
            let mut sorted: Vec<(&String, &Value)> = members.iter().collect();
            sorted.sort_unstable_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (i, (name, member)) in sorted.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(name.clone()).to_string());
                out.push(':');
                canonical(member, out);
            }
            out.push('}');
        }
        Value::Array(values) => {
            out.push('[');
            for (i, v) in values.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                canonical(v, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

impl Items for ServerInner {
    fn cache_hint(&self, method: Method, target: &str) -> Option<(u64, CacheScope)> {
        let live = self.live();
        let catalog = &live.catalog;
        let hint = match method {
            Method::CallTool => {
                let record = &catalog.tools[*catalog.tool_index.get(target)?].record;
                let cacheable = record.hints.read_only == Some(true)
                    && record.task_support == TaskSupport::Forbidden
                    && record.scopes.is_empty();
                cacheable.then_some(record.cache?)?
            }
            Method::GetPrompt => {
                let record = &catalog.prompts[*catalog.prompt_index.get(target)?].record;
                record.scopes.is_empty().then_some(record.cache?)?
            }
            Method::ReadResource => {
                let (record, ..) = catalog.find_resource(target)?;
                record.scopes.is_empty().then_some(record.cache?)?
            }
            _ => return None,
        };
        (hint.ttl_ms > 0).then_some((hint.ttl_ms, hint.scope))
    }

    fn watch(&self, watcher: Weak<dyn Invalidate>) -> bool {
        self.hub.watch(watcher)
    }

    fn server_key(&self) -> usize {
        self.hub.server_key()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn canonical_sorts_members_at_every_depth() {
        let value = serde_json::json!({"b": [{"y": 1, "x": "é"}], "a": null});
        let mut out = String::new();
        super::canonical(&value, &mut out);
        assert_eq!(out, r#"{"a":null,"b":[{"x":"é","y":1}]}"#);
    }
}
