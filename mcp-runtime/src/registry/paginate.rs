//! The list pages: one page of items as each revision's list result, with its cursor, cache
//! hints, `resultType` and `serverInfo`, serialised once.

use std::sync::Arc;

use mcp_core::{
    CacheScope, ForVersion, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    ListToolsResult, Prompt, ProtocolVersion, Resource, ResourceTemplate, ResultType, Tool,
};
use serde::Serialize;

use super::PageSettings;

/// A list result: one page of items, with the stateless era's cache hints, `resultType` and
/// `serverInfo`.
pub(super) trait ListPage: Serialize + ForVersion {
    type Item: Clone;
    fn page(items: Vec<Self::Item>, next: Option<String>) -> Self;
    fn add_cache_hints(&mut self, v: ProtocolVersion, s: &PageSettings, scope: CacheScope);
}

macro_rules! list_page {
    ($($t:ty => $item:ty),*) => {$(
        impl ListPage for $t {
            type Item = $item;

            fn page(items: Vec<$item>, next: Option<String>) -> Self {
                let mut r = Self::new(items);
                r.next_cursor = next;
                r
            }

            fn add_cache_hints(&mut self, v: ProtocolVersion, s: &PageSettings, scope: CacheScope) {
                if v.has_cache_hints() {
                    self.ttl_ms = Some(s.ttl_ms);
                    self.cache_scope = Some(scope);
                    self.result_type = Some(ResultType::Complete);
                    self.meta = Some(s.server_info_meta.clone());
                }
            }
        }
    )*};
}
list_page!(
    ListToolsResult => Tool,
    ListResourcesResult => Resource,
    ListResourceTemplatesResult => ResourceTemplate,
    ListPromptsResult => Prompt
);

/// Cursor `n` (as text) is the index of the next page.
pub(super) fn encode_cursor(page: usize) -> String {
    format!("p{page}")
}

pub(super) fn decode_cursor(cursor: &str) -> Option<usize> {
    cursor.strip_prefix('p')?.parse().ok().filter(|n| *n > 0)
}

/// The pages of a list, `page_size` items each (one empty page for an empty list).
pub(super) fn paginate<'a, R: ListPage>(
    items: impl Iterator<Item = &'a R::Item>,
    s: &PageSettings,
    v: ProtocolVersion,
) -> Vec<Arc<str>>
where
    R::Item: 'a,
{
    paginate_as::<R>(items, s, v, CacheScope::Public)
}

/// [`paginate`], the pages' cache scope `scope`.
pub(super) fn paginate_as<'a, R: ListPage>(
    items: impl Iterator<Item = &'a R::Item>,
    s: &PageSettings,
    v: ProtocolVersion,
    scope: CacheScope,
) -> Vec<Arc<str>>
where
    R::Item: 'a,
{
    let (mut chunks, mut page) = (Vec::new(), Vec::new());
    for item in items {
        if page.len() == s.page_size {
            chunks.push(std::mem::take(&mut page));
        }
        page.push(item.clone());
    }
    chunks.push(page);
    let count = chunks.len();
    chunks
        .into_iter()
        .enumerate()
        .map(|(i, chunk)| {
            let next = (i + 1 < count).then(|| encode_cursor(i + 1));
            page_text::<R>(chunk, next, s, v, scope)
        })
        .collect()
}

/// One page's JSON text, as revision `v` defines the result.
pub(super) fn page_text<R: ListPage>(
    items: Vec<R::Item>,
    next: Option<String>,
    s: &PageSettings,
    v: ProtocolVersion,
    scope: CacheScope,
) -> Arc<str> {
    let mut r = R::page(items, next);
    r.for_version(v);
    r.add_cache_hints(v, s, scope);
    Arc::from(serde_json::to_string(&r).unwrap_or_default())
}
