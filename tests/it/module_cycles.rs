//! No module cycles in `mcp-core`, `mcp-macros`, `mcp-io`, `mcp-client` and `mcp-runtime`: the
//! references between their modules, read from the sources with `syn`, form no cycle; and no
//! source file of the five passes 600 lines.
//!
//! A reference is a path that names a module of the same crate: `use crate::a::B`,
//! `crate::a::f()` anywhere in code (also inside macro invocations), `super::…`, `self::…`, or a
//! path starting with a child module's name. A path through one of the crate root's re-exports
//! (`crate::Error`) refers to the module that the root re-exports it from. The crate root itself
//! declares and re-exports everything, so it is not part of the graph; neither are code under
//! `#[cfg(test)]`, doc comments and other attributes.
//!
//! Two levels are checked, each with its own graph:
//!
//! - the top-level modules (`meta`, `dispatch`, `http`, …), a directory module standing for
//!   everything in it;
//! - inside each directory module (`http/`), its submodules and the directory module's own file
//!   (`http/mod.rs`). A submodule naming its parent (`super::Shared`) is not an edge: the parent
//!   declares its children, so between the two only the parent's references to a child count.
//!
//! `mcp_core_has_no_module_cycles`, `mcp_macros_has_no_module_cycles`,
//! `mcp_io_has_no_module_cycles`, `mcp_client_has_no_module_cycles` and
//! `mcp_runtime_has_no_module_cycles` must pass; the failure message lists every reference of the
//! cycle found.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use proc_macro2::{Spacing, TokenStream, TokenTree};
use syn::visit::{self, Visit};

/// A module path inside the crate, without `crate` (the root is the empty path).
pub(crate) type ModPath = Vec<String>;

/// Every edge, from → to → one reference that makes it (as evidence in the report).
type Edges = BTreeMap<ModPath, BTreeMap<ModPath, String>>;

/// Reads a source file; `None` when it does not exist.
pub(crate) type Read<'a> = &'a dyn Fn(&Path) -> Option<String>;

/// The parsed sources of one crate.
#[derive(Default)]
pub(crate) struct Crate {
    /// Each module that has a file of its own, with that file (parsed).
    pub(crate) files: Vec<(ModPath, PathBuf, syn::File)>,
    /// Every module, with or without a file of its own, → the module whose file holds it.
    modules: BTreeMap<ModPath, ModPath>,
    /// Names the crate root re-exports → the module each comes from.
    root_exports: BTreeMap<String, ModPath>,
}

/// Whether `attrs` hold `#[cfg(test)]`.
fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.parse_args::<syn::Ident>()
                .is_ok_and(|ident| ident == "test")
    })
}

/// The attributes of an item.
fn item_attrs(item: &syn::Item) -> &[syn::Attribute] {
    use syn::Item;
    match item {
        Item::Const(i) => &i.attrs,
        Item::Enum(i) => &i.attrs,
        Item::ExternCrate(i) => &i.attrs,
        Item::Fn(i) => &i.attrs,
        Item::ForeignMod(i) => &i.attrs,
        Item::Impl(i) => &i.attrs,
        Item::Macro(i) => &i.attrs,
        Item::Mod(i) => &i.attrs,
        Item::Static(i) => &i.attrs,
        Item::Struct(i) => &i.attrs,
        Item::Trait(i) => &i.attrs,
        Item::TraitAlias(i) => &i.attrs,
        Item::Type(i) => &i.attrs,
        Item::Union(i) => &i.attrs,
        Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

/// The value of a `#[path = "…"]` attribute.
fn path_attr(attrs: &[syn::Attribute]) -> Option<String> {
    attrs.iter().find_map(|a| match &a.meta {
        syn::Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    })
}

/// Every path a `use` tree imports, as segments (`use a::{b, c::d}` gives `a::b` and `a::c::d`);
/// a trailing `self` is dropped and a glob gives the path it globs.
fn use_paths(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<(Vec<String>, String)>) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_paths(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) if n.ident == "self" => {
            let name = prefix.last().cloned().unwrap_or_default();
            out.push((prefix.clone(), name));
        }
        syn::UseTree::Name(n) => {
            let mut path = prefix.clone();
            path.push(n.ident.to_string());
            out.push((path, n.ident.to_string()));
        }
        syn::UseTree::Rename(r) => {
            let mut path = prefix.clone();
            path.push(r.ident.to_string());
            out.push((path, r.rename.to_string()));
        }
        syn::UseTree::Glob(_) => out.push((prefix.clone(), String::new())),
        syn::UseTree::Group(g) => {
            for tree in &g.items {
                use_paths(tree, prefix, out);
            }
        }
    }
}

impl Crate {
    /// Parses the crate whose root is `lib`, following its `mod` declarations as rustc does
    /// (`name.rs`, `name/mod.rs` or `#[path]`), skipping `#[cfg(test)]` modules.
    pub(crate) fn load(read: Read<'_>, lib: &Path) -> Self {
        let mut krate = Self::default();
        krate.load_file(read, lib, Vec::new());
        let root = krate
            .files
            .iter()
            .position(|(m, ..)| m.is_empty())
            .expect("the crate root was loaded");
        let mut exports = Vec::new();
        for item in &krate.files[root].2.items {
            if let syn::Item::Use(u) = item
                && !is_test_only(&u.attrs)
            {
                use_paths(&u.tree, &mut Vec::new(), &mut exports);
            }
        }
        for (path, name) in exports {
            if name.is_empty() {
                continue;
            }
            if let Some(abs) = krate.absolute(&path, &[]) {
                let module = krate.longest_module(&abs);
                if !module.is_empty() {
                    krate.root_exports.insert(name, module);
                }
            }
        }
        krate
    }

    fn load_file(&mut self, read: Read<'_>, path: &Path, module: ModPath) {
        let src = read(path).unwrap_or_else(|| panic!("cannot read {}", path.display()));
        let file = syn::parse_file(&src)
            .unwrap_or_else(|e| panic!("cannot parse {}: {e}", path.display()));
        // Children of `lib.rs` and `mod.rs` live beside them, those of `a.rs` in `a/`.
        let is_dir_root = matches!(
            path.file_name().and_then(|n| n.to_str()),
            Some("lib.rs" | "main.rs" | "mod.rs")
        );
        let dir = if is_dir_root {
            path.parent().unwrap_or(Path::new("")).to_owned()
        } else {
            path.with_extension("")
        };
        self.modules.insert(module.clone(), module.clone());
        self.load_items(read, &file.items, &module, &module, &dir);
        self.files.push((module, path.to_owned(), file));
    }

    fn load_items(
        &mut self,
        read: Read<'_>,
        items: &[syn::Item],
        file_module: &ModPath,
        module: &ModPath,
        dir: &Path,
    ) {
        for item in items {
            let syn::Item::Mod(m) = item else { continue };
            if is_test_only(&m.attrs) {
                continue;
            }
            let name = m.ident.to_string();
            let mut child = module.clone();
            child.push(name.clone());
            if let Some((_, inner)) = &m.content {
                self.modules.insert(child.clone(), file_module.clone());
                self.load_items(read, inner, file_module, &child, &dir.join(&name));
            } else {
                let path = match path_attr(&m.attrs) {
                    Some(p) => dir.join(p),
                    None => {
                        let flat = dir.join(format!("{name}.rs"));
                        if read(&flat).is_some() {
                            flat
                        } else {
                            dir.join(&name).join("mod.rs")
                        }
                    }
                };
                self.load_file(read, &path, child);
            }
        }
    }

    /// `segments` as seen from `module`, made absolute, if it starts inside the crate.
    fn absolute(&self, segments: &[String], module: &[String]) -> Option<ModPath> {
        let first = segments.first()?;
        match first.as_str() {
            "crate" => Some(segments[1..].to_vec()),
            "self" => Some([module, &segments[1..]].concat()),
            "super" => {
                let ups = segments.iter().take_while(|s| *s == "super").count();
                let base = module.get(..module.len().checked_sub(ups)?)?;
                Some([base, &segments[ups..]].concat())
            }
            _ => {
                let mut child = module.to_vec();
                child.push(first.clone());
                self.modules
                    .contains_key(&child)
                    .then(|| [module, segments].concat())
            }
        }
    }

    /// The longest prefix of `abs` that is a module (the root if none is).
    fn longest_module(&self, abs: &[String]) -> ModPath {
        (0..=abs.len())
            .rev()
            .map(|n| abs[..n].to_vec())
            .find(|p| self.modules.contains_key(p))
            .unwrap_or_default()
    }

    /// The file module that `segments`, seen from `module`, refers to: through the root's
    /// re-exports for `crate::Name`; `None` for the root, other crates and local names.
    fn target(&self, segments: &[String], module: &[String]) -> Option<ModPath> {
        let abs = self.absolute(segments, module)?;
        let mut found = self.longest_module(&abs);
        if found.is_empty() {
            found = self.root_exports.get(abs.first()?)?.clone();
        }
        self.modules.get(&found).cloned()
    }

    /// The references between file modules (the root excluded).
    fn edges(&self) -> Edges {
        let mut edges = Edges::new();
        for (module, path, file) in &self.files {
            if module.is_empty() {
                continue;
            }
            let mut refs = Refs {
                krate: self,
                file_module: module,
                module: module.clone(),
                found: Vec::new(),
            };
            refs.visit_file(file);
            for (to, text) in refs.found {
                edges
                    .entry(module.clone())
                    .or_default()
                    .entry(to)
                    .or_insert_with(|| format!("{}: {text}", path.display()));
            }
        }
        edges
    }
}

/// Collects the references of one file.
struct Refs<'a> {
    krate: &'a Crate,
    file_module: &'a ModPath,
    /// The module being visited (an inline module inside the file, or the file's own).
    module: ModPath,
    found: Vec<(ModPath, String)>,
}

impl Refs<'_> {
    fn reference(&mut self, segments: &[String]) {
        if let Some(to) = self.krate.target(segments, &self.module)
            && !to.is_empty()
            && to != *self.file_module
        {
            self.found.push((to, segments.join("::")));
        }
    }

    /// Paths inside macro input (`tokio::select! { … crate::a::f() … }`): `a::b…` runs of
    /// tokens of at least two segments, not preceded by `::` or `$` (`$crate` belongs to the
    /// caller of a `macro_rules!`).
    fn scan(&mut self, tokens: TokenStream) {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        let is_colon = |t: Option<&TokenTree>, spacing: Option<Spacing>| {
            matches!(t, Some(TokenTree::Punct(p))
                if p.as_char() == ':' && spacing.is_none_or(|s| p.spacing() == s))
        };
        let mut i = 0;
        while i < tokens.len() {
            match &tokens[i] {
                TokenTree::Group(g) => self.scan(g.stream()),
                TokenTree::Ident(ident) => {
                    let after_colons = i >= 2
                        && is_colon(tokens.get(i - 2), Some(Spacing::Joint))
                        && is_colon(tokens.get(i - 1), None);
                    let after_dollar = i >= 1
                        && matches!(&tokens[i - 1], TokenTree::Punct(p) if p.as_char() == '$');
                    let mut segments = vec![ident.to_string()];
                    let mut j = i + 1;
                    while is_colon(tokens.get(j), Some(Spacing::Joint))
                        && is_colon(tokens.get(j + 1), None)
                        && let Some(TokenTree::Ident(next)) = tokens.get(j + 2)
                    {
                        segments.push(next.to_string());
                        j += 3;
                    }
                    if segments.len() > 1 && !after_colons && !after_dollar {
                        self.reference(&segments);
                    }
                    i = j;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
    }
}

impl<'ast> Visit<'ast> for Refs<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        if !is_test_only(item_attrs(item)) {
            visit::visit_item(self, item);
        }
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        // A module with a file of its own is visited as that file.
        if let Some((_, items)) = &m.content {
            self.module.push(m.ident.to_string());
            for item in items {
                self.visit_item(item);
            }
            self.module.pop();
        }
    }

    fn visit_impl_item(&mut self, item: &'ast syn::ImplItem) {
        let attrs: &[syn::Attribute] = match item {
            syn::ImplItem::Const(i) => &i.attrs,
            syn::ImplItem::Fn(i) => &i.attrs,
            syn::ImplItem::Type(i) => &i.attrs,
            syn::ImplItem::Macro(i) => &i.attrs,
            _ => &[],
        };
        if !is_test_only(attrs) {
            visit::visit_impl_item(self, item);
        }
    }

    fn visit_attribute(&mut self, _: &'ast syn::Attribute) {
        // Doc comments, `cfg`, `derive`, lints: not references.
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        let mut paths = Vec::new();
        use_paths(&u.tree, &mut Vec::new(), &mut paths);
        for (path, _) in paths {
            self.reference(&path);
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        if path.leading_colon.is_none() {
            let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
            self.reference(&segments);
        }
        visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.scan(mac.tokens.clone());
        visit::visit_macro(self, mac);
    }
}

/// `edges` with each module replaced by `group(module)`; edges whose ends are dropped (`None`)
/// or merged into one group disappear.
fn collapse(edges: &Edges, group: impl Fn(&ModPath, bool) -> Option<ModPath>) -> Edges {
    let mut out = Edges::new();
    for (from, tos) in edges {
        for (to, why) in tos {
            let (Some(a), Some(b)) = (group(from, true), group(to, false)) else {
                continue;
            };
            if a != b {
                out.entry(a)
                    .or_default()
                    .entry(b)
                    .or_insert_with(|| format!("{} -> {}: {why}", name(from), name(to)));
            }
        }
    }
    out
}

/// `a::b`, or `crate` for the root.
fn name(module: &[String]) -> String {
    if module.is_empty() {
        "crate".to_owned()
    } else {
        module.join("::")
    }
}

/// The strongly connected components of more than one module (Tarjan).
fn tangles(edges: &Edges) -> Vec<Vec<ModPath>> {
    struct State<'a> {
        edges: &'a Edges,
        index: BTreeMap<&'a ModPath, usize>,
        low: BTreeMap<&'a ModPath, usize>,
        stack: Vec<&'a ModPath>,
        on_stack: BTreeSet<&'a ModPath>,
        out: Vec<Vec<ModPath>>,
    }
    fn connect<'a>(s: &mut State<'a>, v: &'a ModPath) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in s.edges.get(v).into_iter().flat_map(BTreeMap::keys) {
            if !s.index.contains_key(w) {
                connect(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.on_stack.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.push(w.clone());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.out.push(component);
            }
        }
    }
    let mut s = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    let nodes: BTreeSet<&ModPath> = edges
        .iter()
        .flat_map(|(from, tos)| std::iter::once(from).chain(tos.keys()))
        .collect();
    for v in nodes {
        if !s.index.contains_key(v) {
            connect(&mut s, v);
        }
    }
    s.out.sort();
    s.out
}

/// One shortest cycle through the first module of `component`, as its edges' evidence.
fn one_cycle(edges: &Edges, component: &[ModPath]) -> Vec<String> {
    let start = &component[0];
    let inside: BTreeSet<&ModPath> = component.iter().collect();
    let mut came_from: BTreeMap<&ModPath, &ModPath> = BTreeMap::new();
    let mut queue = VecDeque::from([start]);
    let mut last = None;
    'search: while let Some(v) = queue.pop_front() {
        for w in edges.get(v).into_iter().flat_map(BTreeMap::keys) {
            if w == start {
                last = Some(v);
                break 'search;
            }
            if inside.contains(w) && !came_from.contains_key(w) {
                came_from.insert(w, v);
                queue.push_back(w);
            }
        }
    }
    let mut path = vec![start];
    let mut v = last.expect("a component has a cycle through each of its modules");
    while v != start {
        path.push(v);
        v = came_from[v];
    }
    path.push(start);
    path.reverse();
    path.windows(2).map(|w| edges[w[0]][w[1]].clone()).collect()
}

/// A reference allowed to close a cycle: from exactly the module `from` to the module `to` (or
/// one inside it), for the reason given. Every other reference between the two modules' trees
/// still counts, so a knot cannot spread beyond the one module it names.
struct Knot {
    from: &'static str,
    to: &'static str,
    why: &'static str,
}

/// The knots of mcp-runtime. A handler's `Context` reaches the server that serves it, and the
/// server holds the records whose functions take a `Context`: the two types refer to each other,
/// so the one file that declares the context's handle (`handler/context.rs`) may name the
/// server's shared state; nothing else in `handler` may.
const RUNTIME_KNOTS: &[Knot] = &[Knot {
    from: "handler::context",
    to: "server",
    why: "the context's typed handle to its server (ContextInner::server)",
}];

/// `edges` without the knots' edges; fails when a knot is stale (its reference is gone).
fn untie(mut edges: Edges, knots: &[Knot]) -> Edges {
    let split = |m: &str| -> ModPath { m.split("::").map(str::to_owned).collect() };
    for knot in knots {
        let (from, to) = (split(knot.from), split(knot.to));
        let tos = edges.get_mut(&from);
        let before = tos.as_ref().map_or(0, |t| t.len());
        if let Some(tos) = tos {
            tos.retain(|target, _| !target.starts_with(&to));
        }
        let after = edges.get(&from).map_or(0, |t| t.len());
        assert!(
            after < before,
            "the knot {} -> {} ({}) is stale: no such reference is left; remove it",
            knot.from,
            knot.to,
            knot.why
        );
    }
    edges
}

/// Every cycle of `krate`, at the top level and inside each directory module, described.
fn cycles(krate: &Crate) -> Vec<String> {
    cycles_but(krate, &[])
}

/// [`cycles`], with the references of `knots` left out.
fn cycles_but(krate: &Crate, knots: &[Knot]) -> Vec<String> {
    let edges = untie(krate.edges(), knots);
    let mut levels = vec![(
        "top-level modules".to_owned(),
        collapse(&edges, |m, _| m.first().map(|first| vec![first.clone()])),
    )];
    let dirs: BTreeSet<&ModPath> = krate
        .files
        .iter()
        .filter(|(m, p, _)| !m.is_empty() && p.ends_with("mod.rs"))
        .map(|(m, ..)| m)
        .collect();
    for dir in dirs {
        let graph = collapse(&edges, |m, is_from| {
            if !m.starts_with(dir) {
                return None;
            }
            if m.len() == dir.len() {
                // The directory's own file: a target only for its children's `super::`, which
                // does not count.
                return is_from.then(|| dir.clone());
            }
            Some(m[..=dir.len()].to_vec())
        });
        levels.push((format!("modules inside `{}`", name(dir)), graph));
    }
    let mut found = Vec::new();
    for (level, graph) in levels {
        for component in tangles(&graph) {
            let names: Vec<String> = component.iter().map(|m| name(m)).collect();
            let mut text = format!("cycle among {level}: {}", names.join(", "));
            for step in one_cycle(&graph, &component) {
                let _ = write!(text, "\n    {step}");
            }
            text.push_str("\n  every reference between them:");
            for from in &component {
                for (to, why) in graph.get(from).into_iter().flatten() {
                    if component.contains(to) {
                        let _ = write!(text, "\n    {why}");
                    }
                }
            }
            found.push(text);
        }
    }
    found
}

/// Fails, listing each cycle with the references that make it, if the crate in `dir` (beside
/// the `tests` crate) has any.
fn assert_no_cycles(dir: &str) {
    assert_no_cycles_but(dir, &[]);
}

/// [`assert_no_cycles`], with the references of `knots` allowed.
fn assert_no_cycles_but(dir: &str, knots: &[Knot]) {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let read = |p: &Path| std::fs::read_to_string(workspace.join(p)).ok();
    let krate = Crate::load(&read, &Path::new(dir).join("src/lib.rs"));
    assert!(krate.files.len() > 1, "no modules found under {dir}/src");
    let found = cycles_but(&krate, knots);
    assert!(
        found.is_empty(),
        "{dir} has module cycles:\n{}",
        found.join("\n")
    );
}

#[test]
fn mcp_core_has_no_module_cycles() {
    assert_no_cycles("mcp-core");
}

#[test]
fn mcp_macros_has_no_module_cycles() {
    assert_no_cycles("mcp-macros");
}

#[test]
fn mcp_io_has_no_module_cycles() {
    assert_no_cycles("mcp-io");
}

#[test]
fn mcp_client_has_no_module_cycles() {
    assert_no_cycles("mcp-client");
}

#[test]
fn mcp_runtime_has_no_module_cycles() {
    assert_no_cycles_but("mcp-runtime", RUNTIME_KNOTS);
}

/// The checker itself, on small made-up crates.
mod checker {
    use super::*;

    fn check(files: &[(&str, &str)]) -> Vec<String> {
        let files: BTreeMap<PathBuf, String> = files
            .iter()
            .map(|(p, src)| (Path::new("src").join(p), (*src).to_owned()))
            .collect();
        let read = |p: &Path| files.get(p).cloned();
        cycles(&Crate::load(&read, Path::new("src/lib.rs")))
    }

    fn check_but(files: &[(&str, &str)], knots: &[Knot]) -> Vec<String> {
        let files: BTreeMap<PathBuf, String> = files
            .iter()
            .map(|(p, src)| (Path::new("src").join(p), (*src).to_owned()))
            .collect();
        let read = |p: &Path| files.get(p).cloned();
        cycles_but(&Crate::load(&read, Path::new("src/lib.rs")), knots)
    }

    const KNOT: &[Knot] = &[Knot {
        from: "h::ctx",
        to: "s",
        why: "test",
    }];

    #[test]
    fn a_knot_unties_its_one_module_and_no_other() {
        let tied = [
            ("lib.rs", "mod h; mod s;"),
            ("h/mod.rs", "pub mod ctx; pub mod ask;"),
            (
                "h/ctx.rs",
                "pub struct Ctx(std::sync::Arc<crate::s::Inner>);",
            ),
            ("h/ask.rs", "pub fn ask(_: &super::ctx::Ctx) {}"),
            ("s.rs", "pub struct Inner(fn(crate::h::ctx::Ctx));"),
        ];
        assert!(
            !check(&tied).is_empty(),
            "the cycle is there without the knot"
        );
        assert_eq!(check_but(&tied, KNOT), Vec::<String>::new());
        let mut spread = tied;
        spread[3] = ("h/ask.rs", "pub fn ask(_: &crate::s::Inner) {}");
        let found = check_but(&spread, KNOT);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].contains("h::ask -> s"), "{}", found[0]);
    }

    #[test]
    #[should_panic(expected = "the knot h::ctx -> s (test) is stale")]
    fn a_stale_knot_fails() {
        check_but(
            &[
                ("lib.rs", "mod h; mod s;"),
                ("h/mod.rs", "pub mod ctx;"),
                ("h/ctx.rs", "pub struct Ctx;"),
                ("s.rs", "pub struct Inner(fn(crate::h::ctx::Ctx));"),
            ],
            KNOT,
        );
    }

    #[test]
    fn finds_a_cycle_of_uses_and_names_its_references() {
        let found = check(&[
            ("lib.rs", "mod a; mod b; mod c;"),
            ("a.rs", "use crate::b::B; pub struct A;"),
            ("b.rs", "pub struct B(crate::c::C);"),
            ("c.rs", "pub fn f() { let _ = crate::a::A; }"),
        ]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].starts_with("cycle among top-level modules: a, b, c"));
        assert!(
            found[0].contains("a -> b: src/a.rs: crate::b::B"),
            "{}",
            found[0]
        );
        assert!(
            found[0].contains("c -> a: src/c.rs: crate::a::A"),
            "{}",
            found[0]
        );
    }

    #[test]
    fn follows_root_re_exports_groups_super_and_macros() {
        let found = check(&[
            ("lib.rs", "mod a; mod b; pub use a::{A, Other as Renamed};"),
            (
                "a.rs",
                "pub struct A; pub struct Other; fn f() { tokio::select! { _ = crate::b::g() => {} } }",
            ),
            (
                "b.rs",
                "pub async fn g() {} fn h() -> crate::Renamed { todo!() }",
            ),
        ]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].contains("b -> a: src/b.rs: crate::Renamed"),
            "{}",
            found[0]
        );
        assert!(
            found[0].contains("a -> b: src/a.rs: crate::b::g"),
            "{}",
            found[0]
        );
    }

    #[test]
    fn ignores_tests_docs_other_crates_and_the_root() {
        let found = check(&[
            (
                "lib.rs",
                "mod a; mod b; pub use b::B; pub mod prelude { pub use crate::a::A; }",
            ),
            (
                "a.rs",
                "/// Like [`crate::b::B`].\npub struct A(serde_json::Value);\n#[cfg(test)] mod tests { use crate::b::B; }",
            ),
            (
                "b.rs",
                "use crate::a::A; pub struct B(A); fn f() -> crate::prelude::A { todo!() }",
            ),
        ]);
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn directory_modules_count_as_one_at_the_top_and_are_checked_inside() {
        let files = [
            (
                "lib.rs",
                "mod d; mod e; #[path = \"other.rs\"] mod renamed;",
            ),
            (
                "d/mod.rs",
                "mod x; mod y; pub(crate) struct Shared; use x::X;",
            ),
            ("d/x.rs", "pub struct X(super::y::Y, super::Shared);"),
            (
                "d/y.rs",
                "pub struct Y(Box<self::Z>); pub struct Z(Box<crate::d::x::X>);",
            ),
            ("e.rs", "pub struct E(crate::d::Shared);"),
            ("other.rs", "pub struct O(crate::e::E);"),
        ];
        let found = check(&files);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with("cycle among modules inside `d`: d::x, d::y"),
            "{}",
            found[0]
        );

        let mut with_top_cycle = files.to_vec();
        with_top_cycle[2] = ("d/x.rs", "pub struct X(crate::renamed::O);");
        let found = check(&with_top_cycle);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with("cycle among top-level modules: d, e, renamed"),
            "{}",
            found[0]
        );
    }
}

/// The source files under `dir` (recursively) that pass `limit` lines, with their line counts.
/// Tests count too: a file's `#[cfg(test)]` module is part of what a reader scrolls through.
fn long_files(dir: &Path, limit: usize) -> Vec<(PathBuf, usize)> {
    fn walk(dir: &Path, limit: usize, long: &mut Vec<(PathBuf, usize)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
            .flatten()
            .map(|entry| entry.path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, limit, long);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let lines = std::fs::read_to_string(&path)
                    .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
                    .lines()
                    .count();
                if lines > limit {
                    long.push((path, lines));
                }
            }
        }
    }
    let mut long = Vec::new();
    walk(dir, limit, &mut long);
    long
}

/// A file that passes 600 lines is asking to be split by concern (ARCHITECTURE.md).
#[test]
fn no_source_file_of_the_five_crates_passes_600_lines() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut long = Vec::new();
    for krate in [
        "mcp-core",
        "mcp-macros",
        "mcp-io",
        "mcp-client",
        "mcp-runtime",
    ] {
        let src = workspace.join(krate).join("src");
        assert!(src.join("lib.rs").is_file(), "no {}", src.display());
        long.extend(long_files(&src, 600));
    }
    assert!(long.is_empty(), "files over 600 lines: {long:?}");
}

#[test]
fn the_size_rule_finds_a_long_file_in_a_subfolder() {
    let dir = std::env::temp_dir().join(format!("module-cycles-size-{}", std::process::id()));
    let nested = dir.join("a/b");
    std::fs::create_dir_all(&nested).expect("create the made-up crate");
    std::fs::write(dir.join("lib.rs"), "mod a;\n".repeat(600)).expect("write");
    std::fs::write(nested.join("long.rs"), "//\n".repeat(601)).expect("write");
    std::fs::write(nested.join("notes.md"), "x\n".repeat(700)).expect("write");
    let found = long_files(&dir, 600);
    std::fs::remove_dir_all(&dir).expect("remove the made-up crate");
    assert_eq!(found, [(nested.join("long.rs"), 601)]);
}
