//! What a layer of this crate may ask the server about a request's item, without naming the
//! server (`middleware` sits below it): [`Items`], given to each [`Request`](super::Request) by
//! the connection, and [`Invalidate`], what such a layer is told when the server's items or a
//! resource change (the notification hub calls it). The [`Cache`](crate::cache::Cache) layer is
//! their one user.

use std::sync::Weak;

use mcp_core::{CacheScope, Method};

/// The server's answers about the item a request names.
pub(crate) trait Items: Send + Sync {
    /// The cache hint (`ttl_ms`, scope) of `method`'s item `target`, when its results may be
    /// kept: a resource or a prompt with a hint, a read-only tool with one that never runs as
    /// a task.
    fn cache_hint(&self, method: Method, target: &str) -> Option<(u64, CacheScope)>;
    /// Registers `watcher` for the server's list changes and resource updates; `false` when
    /// the server already holds as many watchers as it keeps.
    fn watch(&self, watcher: Weak<dyn Invalidate>) -> bool;
    /// This server, told apart from every other server the process made.
    fn server_key(&self) -> usize;
}

/// Told when results kept for a server's items may be stale.
pub(crate) trait Invalidate: Send + Sync {
    /// `notifications/resources/updated` for `uri`.
    fn resource_updated(&self, server: usize, uri: &str);
    /// The list of the items `method` serves changed (`tools/call` for the tools, ...).
    fn list_changed(&self, server: usize, method: Method);
}

/// A request's [`Items`], shown in `Debug` by name only.
#[derive(Clone, Copy)]
pub(crate) struct ItemsRef<'a>(pub(crate) &'a dyn Items);

impl std::fmt::Debug for ItemsRef<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Items")
    }
}
