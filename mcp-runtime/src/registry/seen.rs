//! List pages as one caller sees them (feature `auth`, with
//! [`Authorization::hide_unpermitted_items`](crate::auth::Authorization::hide_unpermitted_items)):
//! the prepared pages, less the items whose scopes the caller's token does not cover.
//!
//! Pagination does not move: page `n` holds the items of the prepared page `n` that the caller
//! sees, under the same `nextCursor`. A page may be shorter than the others, or empty, and still
//! name the next one; a client that follows `nextCursor` to the end sees every item it may use
//! exactly once, and no other. Mounted items declare no scopes here: every caller sees them.

use std::sync::Arc;

use mcp_core::{
    CacheScope, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    ListToolsResult, ProtocolVersion,
};

use super::{Catalog, ListKind, ListPage, decode_cursor, encode_cursor, page_text};

/// The scopes an item declares.
type Scopes = &'static [&'static str];

/// A mounted item: it declares no scopes here.
fn unscoped<T>(item: &T) -> (Scopes, &T) {
    (&[], item)
}

/// The prepared page a request names.
#[derive(Clone, Copy)]
struct Page<'p> {
    v: ProtocolVersion,
    index: usize,
    /// How many pages the list has.
    count: usize,
    prepared: &'p Arc<str>,
}

impl Catalog {
    /// The page of `kind` at `cursor` for revision `v`, as a caller who `sees` an item by its
    /// scopes sees it; `None` for an invalid cursor. A list whose items declare no scopes is the
    /// same for everyone: the prepared page, as [`page`](Self::page) gives it. Otherwise each
    /// page is `cacheScope: "private"` (stateless era), whatever it leaves out: every page of
    /// one list answer has the same cache scope.
    pub(crate) fn page_seen(
        &self,
        v: ProtocolVersion,
        kind: ListKind,
        cursor: Option<&str>,
        sees: &dyn Fn(&[&str]) -> bool,
    ) -> Option<Arc<str>> {
        let index = cursor.map_or(Some(0), decode_cursor)?;
        let pages = self.pages_of(v, kind);
        let at = Page {
            v,
            index,
            count: pages.len(),
            prepared: pages.get(index)?,
        };
        let m = &self.mounted;
        match kind {
            ListKind::Tools => self.seen::<ListToolsResult>(
                at,
                sees,
                self.tools.iter().map(|t| (t.record.scopes, &t.descriptor)),
                m.tools(&self.tool_index).map(unscoped),
            ),
            ListKind::Resources => self.seen::<ListResourcesResult>(
                at,
                sees,
                self.resources
                    .iter()
                    .map(|r| (r.record.scopes, &r.descriptor)),
                m.resources().map(unscoped),
            ),
            ListKind::Templates => self.seen::<ListResourceTemplatesResult>(
                at,
                sees,
                self.templates
                    .iter()
                    .map(|t| (t.record.scopes, &t.descriptor)),
                m.templates().map(unscoped),
            ),
            ListKind::Prompts => self.seen::<ListPromptsResult>(
                at,
                sees,
                self.prompts
                    .iter()
                    .map(|p| (p.record.scopes, &p.descriptor)),
                m.prompts(&self.prompt_index).map(unscoped),
            ),
        }
    }

    /// [`page_seen`](Self::page_seen) of one list: its local items, then its mounted ones (the
    /// order the prepared pages have).
    fn seen<'a, R: ListPage>(
        &self,
        at: Page<'_>,
        sees: &dyn Fn(&[&str]) -> bool,
        local: impl Iterator<Item = (Scopes, &'a R::Item)> + Clone,
        mounted: impl Iterator<Item = (Scopes, &'a R::Item)>,
    ) -> Option<Arc<str>>
    where
        R::Item: 'a,
    {
        let Page {
            v,
            index,
            count,
            prepared,
        } = at;
        if local.clone().all(|(scopes, _)| scopes.is_empty()) {
            return Some(Arc::clone(prepared));
        }
        let size = self.page_settings.page_size;
        let page: Vec<_> = local.chain(mounted).skip(index * size).take(size).collect();
        let hides = page.iter().any(|(scopes, _)| !sees(scopes));
        if !hides && !v.has_cache_hints() {
            return Some(Arc::clone(prepared));
        }
        let items = page
            .into_iter()
            .filter(|(scopes, _)| sees(scopes))
            .map(|(_, item)| item.clone())
            .collect();
        let next = (index + 1 < count).then(|| encode_cursor(index + 1));
        Some(page_text::<R>(
            items,
            next,
            &self.page_settings,
            v,
            CacheScope::Private,
        ))
    }
}
