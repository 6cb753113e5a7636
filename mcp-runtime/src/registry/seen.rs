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

use super::paginate::{ListPage, decode_cursor, encode_cursor, page_text};
use super::{Catalog, ListKind};

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
        let prepared = pages.get(index)?;
        if !self.scoped[kind as usize] {
            return Some(Arc::clone(prepared));
        }
        let at = Page {
            v,
            index,
            count: pages.len(),
            prepared,
        };
        let m = &self.mounted;
        match kind {
            ListKind::Tools => self.seen::<ListToolsResult, _>(
                at,
                sees,
                &self.tools,
                |t| (t.record.scopes, &t.descriptor),
                self.exposed
                    .iter()
                    .map(|e| (e.scopes(), &e.descriptor))
                    .chain(m.tools(&self.tool_index).map(unscoped)),
            ),
            ListKind::Resources => self.seen::<ListResourcesResult, _>(
                at,
                sees,
                &self.resources,
                |r| (r.record.scopes, &r.descriptor),
                m.resources().map(unscoped),
            ),
            ListKind::Templates => self.seen::<ListResourceTemplatesResult, _>(
                at,
                sees,
                &self.templates,
                |t| (t.record.scopes, &t.descriptor),
                m.templates().map(unscoped),
            ),
            ListKind::Prompts => self.seen::<ListPromptsResult, _>(
                at,
                sees,
                &self.prompts,
                |p| (p.record.scopes, &p.descriptor),
                m.prompts(&self.prompt_index).map(unscoped),
            ),
        }
    }

    /// [`page_seen`](Self::page_seen) of one list whose local items declare scopes: its local
    /// items (`local`, read by `item`), then its mounted ones (the order the prepared pages
    /// have). The page's local items are sliced, not walked to.
    fn seen<'a, R: ListPage, E>(
        &self,
        at: Page<'_>,
        sees: &dyn Fn(&[&str]) -> bool,
        local: &'a [E],
        item: impl Fn(&'a E) -> (Scopes, &'a R::Item),
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
        let size = self.page_settings.page_size;
        let start = index * size;
        let page: Vec<_> = local
            .get(start..)
            .unwrap_or_default()
            .iter()
            .map(item)
            .chain(mounted.skip(start.saturating_sub(local.len())))
            .take(size)
            .collect();
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

/// Whether any local item of each list declares scopes, by [`ListKind`] (`kind as usize`):
/// worked out once, when the catalog is built.
pub(super) fn scoped(
    tools: &[super::ToolEntry],
    resources: &[super::ResourceEntry],
    templates: &[super::TemplateEntry],
    prompts: &[super::PromptEntry],
) -> [bool; 4] {
    [
        tools.iter().any(|t| !t.record.scopes.is_empty()),
        resources.iter().any(|r| !r.record.scopes.is_empty()),
        templates.iter().any(|t| !t.record.scopes.is_empty()),
        prompts.iter().any(|p| !p.record.scopes.is_empty()),
    ]
}

#[cfg(test)]
mod tests {
    use mcp_core::Prompt;
    use serde_json::Value;

    use super::*;
    use crate::handler::context::StateMap;
    use crate::registry::mounted::tests::Nowhere;
    use crate::registry::mounted::{MountedItems, RemoteLists};
    use crate::registry::{CatalogSettings, PromptRecord};

    fn prompt(name: &'static str, scopes: Scopes) -> PromptRecord {
        crate::registry::tests::prompt(name, None).with_scopes(scopes)
    }

    /// Local prompts `a` (needs `x`), `b`, `c` (needs `y`), then the mounted `m.p` and `m.q`,
    /// two a page: `[a, b]`, `[c, m.p]`, `[m.q]`.
    fn catalog() -> Catalog {
        let meta = mcp_core::Meta::new();
        let settings = CatalogSettings {
            skills: None,
            profile: crate::schema::SchemaProfile::default(),
            page_size: 2,
            ttl_ms: 1000,
            server_info_meta: &meta,
            state: &StateMap::new(),
            allow_unknown_args: false,
            validate_output: true,
            apps: crate::apps::AppsOptions::new(),
            transforms: &crate::transform::Transforms::new(),
        };
        let remote = RemoteLists {
            prompts: vec![Prompt::new("p"), Prompt::new("q")],
            ..RemoteLists::default()
        };
        let mount = MountedItems::new("m".into(), Arc::new(Nowhere), None, [true; 3], remote);
        let prompts = vec![prompt("a", &["x"]), prompt("b", &[]), prompt("c", &["y"])];
        Catalog::build(
            Vec::new(),
            Vec::new(),
            prompts,
            &[Arc::new(mount)],
            &settings,
        )
        .unwrap()
    }

    /// A page's prompt names, next cursor and cache scope.
    fn read(page: &str) -> (Vec<String>, Option<String>, Option<String>) {
        let v: Value = serde_json::from_str(page).unwrap();
        let text = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned);
        let names = v["prompts"].as_array().unwrap().iter();
        let names = names.map(|p| p["name"].as_str().unwrap().to_owned());
        (names.collect(), text("nextCursor"), text("cacheScope"))
    }

    #[test]
    fn pages_keep_their_cursors_and_leave_out_what_is_not_seen() {
        let c = catalog();
        let sees_x = |s: &[&str]| s.iter().all(|s| *s == "x");
        let old = ProtocolVersion::V2025_11_25;
        let prepared = |cursor| c.page(old, ListKind::Prompts, cursor).unwrap();
        let seen = |v, cursor| c.page_seen(v, ListKind::Prompts, cursor, &sees_x).unwrap();
        // Nothing hidden on the first page: the prepared page itself, no copy.
        assert!(Arc::ptr_eq(&seen(old, None), &prepared(None)));
        let s = |n: &[&str]| n.iter().map(|n| (*n).to_owned()).collect::<Vec<_>>();
        let p = |c: &str| Some(c.to_owned());
        assert_eq!(read(&seen(old, Some("p1"))), (s(&["m.p"]), p("p2"), None));
        assert_eq!(read(&prepared(Some("p1"))).0, s(&["c", "m.p"]));
        assert!(Arc::ptr_eq(&seen(old, Some("p2")), &prepared(Some("p2"))));
        // 2026-07-28: every page private, the hidden item left out, the cursors as they were.
        let new = ProtocolVersion::V2026_07_28;
        let private = p("private");
        assert_eq!(
            read(&seen(new, None)),
            (s(&["a", "b"]), p("p1"), private.clone())
        );
        assert_eq!(
            read(&seen(new, Some("p1"))),
            (s(&["m.p"]), p("p2"), private.clone())
        );
        assert_eq!(read(&seen(new, Some("p2"))), (s(&["m.q"]), None, private));
        let public = c.page(new, ListKind::Prompts, None).unwrap();
        assert_eq!(read(&public).2, p("public"));
        // A caller who sees nothing: local items gone, mounted ones kept.
        let blind = |s: &[&str]| s.is_empty();
        let page = |cursor| c.page_seen(old, ListKind::Prompts, cursor, &blind).unwrap();
        assert_eq!(read(&page(None)).0, s(&["b"]));
        assert_eq!(read(&page(Some("p1"))).0, s(&["m.p"]));
        // Invalid cursors stay invalid.
        for bad in ["p3", "p0", "x"] {
            assert!(
                c.page_seen(old, ListKind::Prompts, Some(bad), &blind)
                    .is_none()
            );
        }
        // A list whose items declare no scopes is the same for everyone: the prepared page.
        let tools = c.page_seen(new, ListKind::Tools, None, &blind).unwrap();
        assert!(Arc::ptr_eq(
            &tools,
            &c.page(new, ListKind::Tools, None).unwrap()
        ));
    }
}
