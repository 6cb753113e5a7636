//! List pages as one [`View`] sees them: the items whose tags the view sees, paginated anew,
//! built once per view and revision (`transform::view::PerView`, bounded) and shared by every
//! caller with that view. A caller the server also hides unpermitted items from (feature
//! `auth`) gets that view's items less those its scopes do not cover: its permissions are which
//! of the catalog's distinct scope lists (the `scopes = [..]` of its items, a handful in
//! practice) its token covers, one bit each, and the pages are kept per view and permissions
//! too. A catalog with more than 64 distinct scope lists makes such a caller's pages for the
//! request.

use std::sync::{Arc, OnceLock};

use mcp_core::{
    CacheScope, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    ListToolsResult, ProtocolVersion,
};

use super::paginate::{decode_cursor, paginate_as};
use super::{Catalog, ListKind, Pages, version_slot};
use crate::transform::View;

/// Which items a page keeps: by their tags and (local items) scopes.
type Keep<'a> = &'a dyn Fn(&[Box<str>], &[&str]) -> bool;

/// Whether the caller's token covers an item's scopes.
type Sees<'a> = &'a dyn Fn(&[&str]) -> bool;

/// The scopes one item declares.
type Scopes = &'static [&'static str];

/// The pages of each view (and permissions), and the scope lists permissions are told by.
#[derive(Default)]
pub(crate) struct ViewPages {
    per: crate::transform::view::PerView<Pages>,
    /// Every distinct non-empty scope list of the local items, found on first use.
    scope_lists: OnceLock<Vec<Scopes>>,
}

/// Past this many distinct scope lists, permissions do not fit a `u64`.
const MAX_SCOPE_LISTS: usize = 64;

impl Catalog {
    /// The page of `kind` at `cursor` for revision `v` as `view` sees it (`sees`: whether the
    /// caller's scopes cover an item's, when the server hides by scope); `None` for an invalid
    /// cursor. Pages are `cacheScope: "private"` (stateless era): they differ between callers.
    pub(crate) fn page_viewed(
        &self,
        v: ProtocolVersion,
        kind: ListKind,
        cursor: Option<&str>,
        view: &View,
        sees: Option<Sees<'_>>,
    ) -> Option<Arc<str>> {
        let index = cursor.map_or(Some(0), decode_cursor)?;
        let pick = |pages: &Pages| {
            let list = match kind {
                ListKind::Tools => &pages.tools,
                ListKind::Resources => &pages.resources,
                ListKind::Templates => &pages.templates,
                ListKind::Prompts => &pages.prompts,
            };
            list.get(index).map(Arc::clone)
        };
        let slot = version_slot(v);
        let Some(sees) = sees else {
            let built = self.views.per.get(view, slot, u64::MAX, || {
                self.pages_kept(v, &|tags, _| view.sees(tags))
            });
            return pick(&built);
        };
        let keep = |tags: &[Box<str>], scopes: &[&str]| {
            view.sees(tags) && (scopes.is_empty() || sees(scopes))
        };
        match self.permissions(sees) {
            Some(mask) => pick(
                &self
                    .views
                    .per
                    .get(view, slot, mask, || self.pages_kept(v, &keep)),
            ),
            None => pick(&self.pages_kept(v, &keep)),
        }
    }

    /// Which of the catalog's scope lists `sees` covers, one bit each (all bits when the
    /// catalog has none); `None` past [`MAX_SCOPE_LISTS`].
    fn permissions(&self, sees: Sees<'_>) -> Option<u64> {
        let lists = self.views.scope_lists.get_or_init(|| self.scope_lists());
        if lists.len() > MAX_SCOPE_LISTS {
            return None;
        }
        let mut mask = u64::MAX;
        for (bit, list) in lists.iter().enumerate() {
            if !sees(list) {
                mask &= !(1 << bit);
            }
        }
        Some(mask)
    }

    /// Every distinct non-empty scope list the local items declare, in catalog order.
    fn scope_lists(&self) -> Vec<Scopes> {
        let all = (self.tools.iter().map(|t| t.record.scopes))
            .chain(self.exposed.iter().map(|e| e.scopes()))
            .chain(self.resources.iter().map(|r| r.record.scopes))
            .chain(self.templates.iter().map(|t| t.record.scopes))
            .chain(self.prompts.iter().map(|p| p.record.scopes));
        let mut lists: Vec<Scopes> = Vec::new();
        for list in all {
            if !list.is_empty() && !lists.contains(&list) {
                lists.push(list);
            }
        }
        lists
    }

    /// Every list's pages of the items `keep` keeps.
    fn pages_kept(&self, v: ProtocolVersion, keep: Keep<'_>) -> Pages {
        let (s, m) = (&self.page_settings, &self.mounted);
        let private = CacheScope::Private;
        let scopes = |s: &'static [&'static str]| s;
        let tools = self
            .tools
            .iter()
            .filter(|t| keep(&t.tags, scopes(t.record.scopes)))
            .map(|t| &t.descriptor)
            .chain(
                self.exposed
                    .iter()
                    .filter(|e| keep(&e.tags, scopes(e.scopes())))
                    .map(|e| &e.descriptor),
            )
            .chain(
                m.tools(&self.tool_index)
                    .filter(|t| keep(m.tags(ListKind::Tools, &t.name), &[])),
            );
        let resources = self
            .resources
            .iter()
            .filter(|r| keep(&r.tags, scopes(r.record.scopes)))
            .map(|r| &r.descriptor)
            .chain(
                m.resources()
                    .filter(|r| keep(m.tags(ListKind::Resources, &r.uri), &[])),
            );
        let templates = self
            .templates
            .iter()
            .filter(|t| keep(&t.tags, scopes(t.record.scopes)))
            .map(|t| &t.descriptor)
            .chain(
                m.templates()
                    .filter(|t| keep(m.tags(ListKind::Templates, &t.uri_template), &[])),
            );
        let prompts = self
            .prompts
            .iter()
            .filter(|p| keep(&p.tags, scopes(p.record.scopes)))
            .map(|p| &p.descriptor)
            .chain(
                m.prompts(&self.prompt_index)
                    .filter(|p| keep(m.tags(ListKind::Prompts, &p.name), &[])),
            );
        Pages {
            tools: paginate_as::<ListToolsResult>(tools, s, v, private),
            resources: paginate_as::<ListResourcesResult>(resources, s, v, private),
            templates: paginate_as::<ListResourceTemplatesResult>(templates, s, v, private),
            prompts: paginate_as::<ListPromptsResult>(prompts, s, v, private),
        }
    }

    /// Whether `view` sees the item of `kind` named `name` (a local item's tags, else a
    /// mounted one's).
    pub(crate) fn view_sees(&self, view: &View, kind: ListKind, name: &str) -> bool {
        let local = match kind {
            ListKind::Tools => (self.tool_index.get(name).map(|&i| &self.tools[i].tags))
                .or_else(|| self.exposed_index.get(name).map(|&i| &self.exposed[i].tags)),
            ListKind::Prompts => self.prompt_index.get(name).map(|&i| &self.prompts[i].tags),
            ListKind::Resources | ListKind::Templates => self
                .resource_index
                .get(name)
                .map(|&i| &self.resources[i].tags)
                .or_else(|| {
                    let t = self.templates.iter().find(|t| t.record.uri == name);
                    t.map(|t| &t.tags)
                }),
        };
        match local {
            Some(tags) => view.sees(tags),
            None => view.sees(self.mounted.tags(kind, name)),
        }
    }
}
