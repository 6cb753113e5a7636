//! The pre-serialised list pages of a catalog: one JSON text per page and revision, with the
//! stateless era's cache hints, made once per change of the items.

use std::sync::Arc;

use mcp_core::{
    CacheScope, ForVersion, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    ListToolsResult, ProtocolVersion, ResultType,
};
use serde::Serialize;

use super::{Catalog, CatalogSettings, ListKind, version_slot};

/// Pre-serialised list results of one revision: one JSON text per page.
#[derive(Default)]
pub(crate) struct Pages {
    pub(crate) tools: Vec<Arc<str>>,
    pub(crate) resources: Vec<Arc<str>>,
    pub(crate) templates: Vec<Arc<str>>,
    pub(crate) prompts: Vec<Arc<str>>,
}

impl Catalog {
    pub(super) fn pages_for(&self, v: ProtocolVersion, s: &CatalogSettings<'_>) -> Pages {
        Pages {
            tools: paginate(
                &self.tools,
                s,
                v,
                |t| t.descriptor.clone(),
                |items, next| {
                    let mut r = ListToolsResult::new(items);
                    r.next_cursor = next;
                    r
                },
            ),
            resources: paginate(
                &self.resources,
                s,
                v,
                |r| r.descriptor.clone(),
                |items, next| {
                    let mut r = ListResourcesResult::new(items);
                    r.next_cursor = next;
                    r
                },
            ),
            templates: paginate(
                &self.templates,
                s,
                v,
                |t| t.descriptor.clone(),
                |items, next| {
                    let mut r = ListResourceTemplatesResult::new(items);
                    r.next_cursor = next;
                    r
                },
            ),
            prompts: paginate(
                &self.prompts,
                s,
                v,
                |p| p.descriptor.clone(),
                |items, next| {
                    let mut r = ListPromptsResult::new(items);
                    r.next_cursor = next;
                    r
                },
            ),
        }
    }

    /// The pre-serialised page for a cursor, or `None` for an invalid cursor.
    pub(crate) fn page(
        &self,
        v: ProtocolVersion,
        kind: ListKind,
        cursor: Option<&str>,
    ) -> Option<Arc<str>> {
        let pages = &self.pages[version_slot(v)];
        let list = match kind {
            ListKind::Tools => &pages.tools,
            ListKind::Resources => &pages.resources,
            ListKind::Templates => &pages.templates,
            ListKind::Prompts => &pages.prompts,
        };
        let index = match cursor {
            None => 0,
            Some(c) => decode_cursor(c)?,
        };
        list.get(index).map(Arc::clone)
    }
}

/// List results of the stateless era carry cache hints, `resultType` and `serverInfo`.
trait Stamp {
    fn stamp(&mut self, v: ProtocolVersion, s: &CatalogSettings<'_>);
}

macro_rules! stamp {
    ($($t:ty),*) => {$(
        impl Stamp for $t {
            fn stamp(&mut self, v: ProtocolVersion, s: &CatalogSettings<'_>) {
                if v.has_cache_hints() {
                    self.ttl_ms = Some(s.ttl_ms);
                    self.cache_scope = Some(CacheScope::Public);
                    self.result_type = Some(ResultType::Complete);
                    self.meta = Some(s.server_info_meta.clone());
                }
            }
        }
    )*};
}
stamp!(
    ListToolsResult,
    ListResourcesResult,
    ListResourceTemplatesResult,
    ListPromptsResult
);

/// Cursor `n` (as text) is the index of the next page.
fn encode_cursor(page: usize) -> String {
    format!("p{page}")
}

fn decode_cursor(cursor: &str) -> Option<usize> {
    cursor.strip_prefix('p')?.parse().ok().filter(|n| *n > 0)
}

fn paginate<E, D, R: Serialize + ForVersion + Stamp>(
    items: &[E],
    s: &CatalogSettings<'_>,
    v: ProtocolVersion,
    descriptor: impl Fn(&E) -> D,
    result: impl Fn(Vec<D>, Option<String>) -> R,
) -> Vec<Arc<str>> {
    let chunks: Vec<&[E]> = if items.is_empty() {
        vec![&[]]
    } else {
        items.chunks(s.page_size).collect()
    };
    let count = chunks.len();
    chunks
        .into_iter()
        .enumerate()
        .map(|(i, chunk)| {
            let next = (i + 1 < count).then(|| encode_cursor(i + 1));
            let mut r = result(chunk.iter().map(&descriptor).collect(), next);
            r.for_version(v);
            r.stamp(v, s);
            Arc::from(serde_json::to_string(&r).unwrap_or_default())
        })
        .collect()
}
