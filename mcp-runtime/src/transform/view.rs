//! Visibility per caller: the [`View`] a [`Visibility`] rule gives each request (by its session,
//! principal or revision, or any function of them), and which tagged items that view sees.
//!
//! A view is a value: every caller with the same view gets the same list pages, built once for
//! that view (at most [`MAX_VIEWS`] views are kept per catalog; past that, pages are made for the
//! request). An item the caller's view does not see is left out of its lists and is unknown to
//! its calls, with the error of an item that does not exist.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};

use mcp_core::ProtocolVersion;

use crate::sync::lock;

/// How many distinct views one catalog keeps the list pages of.
pub(crate) const MAX_VIEWS: usize = 64;

/// The tags of an item (none for most).
pub(crate) type Tags = Arc<[Box<str>]>;

/// Tags from a list (a record's, a transform's).
pub(crate) fn tags_of<S: AsRef<str>>(list: &[S]) -> Tags {
    list.iter().map(|t| Box::from(t.as_ref())).collect()
}

/// The tags of `a`, then those of `b` it does not have.
pub(crate) fn merged(a: &Tags, b: &Tags) -> Tags {
    if b.is_empty() {
        return Arc::clone(a);
    }
    let mut all: Vec<Box<str>> = a.to_vec();
    all.extend(b.iter().filter(|t| !a.contains(t)).cloned());
    all.into()
}

/// Which items a caller sees, by their tags: everything, only the items with one of some tags,
/// and never the items with one of some others.
///
/// ```
/// use mcp_runtime::transform::View;
/// let v = View::only(["public", "beta"]).hiding(["admin"]);
/// assert_ne!(v, View::everything());
/// assert!(View::everything().is_everything());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct View {
    only: Option<BTreeSet<Box<str>>>,
    hidden: BTreeSet<Box<str>>,
}

impl View {
    /// Every item.
    ///
    /// ```
    /// assert!(mcp_runtime::transform::View::everything().is_everything());
    /// ```
    pub fn everything() -> Self {
        Self::default()
    }

    /// Only the items tagged with one of `tags` (an untagged item is not seen).
    ///
    /// ```
    /// let v = mcp_runtime::transform::View::only(["public"]);
    /// assert!(!v.is_everything());
    /// ```
    pub fn only<S: Into<String>>(tags: impl IntoIterator<Item = S>) -> Self {
        Self {
            only: Some(tags.into_iter().map(|t| t.into().into()).collect()),
            hidden: BTreeSet::new(),
        }
    }

    /// The same view, without the items tagged with one of `tags`.
    ///
    /// ```
    /// let v = mcp_runtime::transform::View::everything().hiding(["admin"]);
    /// assert!(!v.is_everything());
    /// ```
    #[must_use]
    pub fn hiding<S: Into<String>>(mut self, tags: impl IntoIterator<Item = S>) -> Self {
        self.hidden
            .extend(tags.into_iter().map(|t| t.into().into_boxed_str()));
        self
    }

    /// Whether this view sees every item.
    ///
    /// ```
    /// assert!(mcp_runtime::transform::View::everything().hiding(Vec::<String>::new()).is_everything());
    /// ```
    pub fn is_everything(&self) -> bool {
        self.only.is_none() && self.hidden.is_empty()
    }

    /// Whether this view sees an item tagged `tags`.
    pub(crate) fn sees(&self, tags: &[Box<str>]) -> bool {
        if tags.iter().any(|t| self.hidden.contains(t)) {
            return false;
        }
        match &self.only {
            Some(only) => tags.iter().any(|t| only.contains(t)),
            None => true,
        }
    }
}

/// Who asks, as a [`Visibility`] rule sees it.
///
/// ```
/// use mcp_runtime::protocol::ProtocolVersion;
/// use mcp_runtime::transform::Viewer;
/// let viewer = Viewer::new(ProtocolVersion::V2025_11_25).with_session_id("s1");
/// assert_eq!(viewer.session_id(), Some("s1"));
/// assert_eq!(viewer.principal(), None);
/// ```
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct Viewer<'a> {
    version: ProtocolVersion,
    session_id: Option<&'a str>,
    principal: Option<&'a str>,
}

impl<'a> Viewer<'a> {
    /// A request of revision `version`, from nobody known.
    ///
    /// ```
    /// use mcp_runtime::protocol::ProtocolVersion;
    /// let v = mcp_runtime::transform::Viewer::new(ProtocolVersion::V2026_07_28);
    /// assert!(v.version().is_stateless());
    /// ```
    pub fn new(version: ProtocolVersion) -> Self {
        Self {
            version,
            session_id: None,
            principal: None,
        }
    }

    /// The same request, in session `id`.
    ///
    /// ```
    /// use mcp_runtime::protocol::ProtocolVersion;
    /// let v = mcp_runtime::transform::Viewer::new(ProtocolVersion::V2025_11_25).with_session_id("a");
    /// assert_eq!(v.session_id(), Some("a"));
    /// ```
    #[must_use]
    pub fn with_session_id(mut self, id: &'a str) -> Self {
        self.session_id = Some(id);
        self
    }

    /// The same request, from `principal`.
    ///
    /// ```
    /// use mcp_runtime::protocol::ProtocolVersion;
    /// let v = mcp_runtime::transform::Viewer::new(ProtocolVersion::V2025_11_25).with_principal("p");
    /// assert_eq!(v.principal(), Some("p"));
    /// ```
    #[must_use]
    pub fn with_principal(mut self, principal: &'a str) -> Self {
        self.principal = Some(principal);
        self
    }

    /// The request's revision (its era: `version().is_stateless()`).
    ///
    /// ```
    /// use mcp_runtime::protocol::ProtocolVersion;
    /// let v = mcp_runtime::transform::Viewer::new(ProtocolVersion::V2025_11_25);
    /// assert_eq!(v.version(), ProtocolVersion::V2025_11_25);
    /// ```
    pub fn version(&self) -> ProtocolVersion {
        self.version
    }

    /// The session: the HTTP session's id, else the connection's own (stdio, in memory: one
    /// per connection); `None` for a stateless request over HTTP.
    ///
    /// ```
    /// use mcp_runtime::protocol::ProtocolVersion;
    /// assert_eq!(mcp_runtime::transform::Viewer::new(ProtocolVersion::V2025_11_25).session_id(), None);
    /// ```
    pub fn session_id(&self) -> Option<&'a str> {
        self.session_id
    }

    /// Who the request is: the verified token's principal (`token:…`, feature `auth`), else the
    /// peer address the standalone HTTP server accepted (`peer:…`).
    ///
    /// ```
    /// use mcp_runtime::protocol::ProtocolVersion;
    /// assert_eq!(mcp_runtime::transform::Viewer::new(ProtocolVersion::V2025_11_25).principal(), None);
    /// ```
    pub fn principal(&self) -> Option<&'a str> {
        self.principal
    }
}

/// The rule that gives each request its [`View`], given to
/// [`ServerBuilder::visibility`](crate::ServerBuilder::visibility). It runs once per list or
/// call request; what it returns selects list pages built once per distinct view.
///
/// ```
/// use mcp_runtime::transform::{View, Visibility};
///
/// // Admin tools only for one principal; beta tools only in the stateless era.
/// let rule = Visibility::new(|viewer| {
///     let view = if viewer.principal() == Some("token:0:0:root") {
///         View::everything()
///     } else {
///         View::everything().hiding(["admin"])
///     };
///     if viewer.version().is_stateless() { view } else { view.hiding(["beta"]) }
/// });
/// # let _ = rule;
/// ```
#[derive(Clone)]
pub struct Visibility {
    rule: Arc<dyn Fn(&Viewer<'_>) -> View + Send + Sync>,
}

impl std::fmt::Debug for Visibility {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Visibility").finish_non_exhaustive()
    }
}

impl Visibility {
    /// The view `rule` gives each request.
    ///
    /// ```
    /// use mcp_runtime::transform::{View, Visibility};
    /// let rule = Visibility::new(|_| View::only(["public"]));
    /// # let _ = rule;
    /// ```
    pub fn new(rule: impl Fn(&Viewer<'_>) -> View + Send + Sync + 'static) -> Self {
        Self {
            rule: Arc::new(rule),
        }
    }

    /// One view per principal (`views`), `otherwise` for every other request.
    ///
    /// ```
    /// use mcp_runtime::transform::{View, Visibility};
    /// let rule = Visibility::by_principal(
    ///     [("token:0:0:ada", View::everything())],
    ///     View::everything().hiding(["admin"]),
    /// );
    /// # let _ = rule;
    /// ```
    pub fn by_principal<S: Into<String>>(
        views: impl IntoIterator<Item = (S, View)>,
        otherwise: View,
    ) -> Self {
        let views: HashMap<String, View> = views.into_iter().map(|(k, v)| (k.into(), v)).collect();
        Self::new(move |viewer| {
            viewer
                .principal()
                .and_then(|p| views.get(p))
                .unwrap_or(&otherwise)
                .clone()
        })
    }

    /// One view for handshake-era requests, another for the stateless era's.
    ///
    /// ```
    /// use mcp_runtime::transform::{View, Visibility};
    /// let rule = Visibility::by_era(View::everything().hiding(["stateless-only"]), View::everything());
    /// # let _ = rule;
    /// ```
    pub fn by_era(handshake: View, stateless: View) -> Self {
        Self::new(move |viewer| {
            if viewer.version().is_stateless() {
                stateless.clone()
            } else {
                handshake.clone()
            }
        })
    }

    /// The view of `viewer`.
    pub(crate) fn view(&self, viewer: &Viewer<'_>) -> View {
        (self.rule)(viewer)
    }
}

/// Something built once per view and revision (a catalog's list pages), at most [`MAX_VIEWS`]
/// of them kept; past that, built for the request and not kept.
pub(crate) struct PerView<P> {
    built: Mutex<HashMap<(View, usize, u64), Arc<P>>>,
}

impl<P> Default for PerView<P> {
    fn default() -> Self {
        Self {
            built: Mutex::new(HashMap::new()),
        }
    }
}

impl<P> PerView<P> {
    /// What `view` has at `slot` for callers with permissions `mask` (which of the catalog's
    /// scope lists they hold; `u64::MAX` when nothing is hidden by scope), built by `build` the
    /// first time (outside the lock).
    pub(crate) fn get(
        &self,
        view: &View,
        slot: usize,
        mask: u64,
        build: impl FnOnce() -> P,
    ) -> Arc<P> {
        let key = (view.clone(), slot, mask);
        if let Some(p) = lock(&self.built).get(&key) {
            return Arc::clone(p);
        }
        let made = Arc::new(build());
        let mut built = lock(&self.built);
        if let Some(p) = built.get(&key) {
            return Arc::clone(p);
        }
        if built.len() < MAX_VIEWS {
            built.insert(key, Arc::clone(&made));
        }
        made
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tags(t: &[&str]) -> Vec<Box<str>> {
        t.iter().map(|t| (*t).into()).collect()
    }

    #[test]
    fn views_see_by_tags() {
        let v = View::only(["public"]).hiding(["admin"]);
        assert!(v.sees(&tags(&["public"])));
        assert!(!v.sees(&tags(&["public", "admin"])));
        assert!(!v.sees(&tags(&[])));
        let all_but = View::everything().hiding(["admin"]);
        assert!(all_but.sees(&tags(&[])));
        assert!(!all_but.sees(&tags(&["admin"])));
    }

    #[test]
    fn pages_are_built_once_per_view_and_the_table_is_bounded() {
        let per = PerView::<usize>::default();
        let mut builds = 0;
        for _ in 0..3 {
            per.get(&View::only(["a"]), 0, u64::MAX, || {
                builds += 1;
                builds
            });
        }
        assert_eq!(builds, 1);
        // The same view with other permissions is another entry.
        assert_eq!(*per.get(&View::only(["a"]), 0, 0b1, || 9), 9);
        for i in 0..(MAX_VIEWS + 5) {
            per.get(&View::only([i.to_string()]), 0, u64::MAX, || 0);
        }
        assert_eq!(lock(&per.built).len(), MAX_VIEWS);
        // Past the bound, still answered.
        assert_eq!(*per.get(&View::only(["new"]), 0, u64::MAX, || 7), 7);
    }
}
