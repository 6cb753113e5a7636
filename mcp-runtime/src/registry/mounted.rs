//! Items re-exported from another server (a mount): descriptors renamed once per remote list,
//! and the [`Forward`] handler that runs them there.
//!
//! A mount's tools and prompts are named `prefix.name`; its resources and templates get the URI
//! `prefix+uri` (the prefix joins the URI's scheme: `docs+file:///a.md`), which stays a valid
//! URI (a scheme may hold `+`) and a valid RFC 6570 template. Both are undone exactly when a
//! request is forwarded. An empty prefix keeps names and URIs as they are (a proxy).

// Mounts are made by the client (feature `client`); without it only the lookups are used.
#![cfg_attr(not(feature = "client"), allow(dead_code))]

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use mcp_core::{
    CallToolResult, CompleteRequestParams, CompleteResult, ErrorObject, GetPromptResult, Prompt,
    Resource, ResourceContents, ResourceTemplate, Tool, UriTemplate,
};
use serde_json::value::RawValue;

use super::PromptArguments;
use crate::error::{Error, HandlerError};
use crate::future::BoxFuture;
use crate::handler::context::Context;

/// The longest mount prefix.
pub(crate) const MAX_PREFIX: usize = 32;
/// The longest tool name the spec allows (a prefixed name over it is left out).
const MAX_TOOL_NAME: usize = 128;

/// Runs a mounted item on its server; names and URIs are the remote ones.
pub(crate) trait Forward: Send + Sync + 'static {
    fn call_tool(
        &self,
        ctx: Context,
        name: Arc<str>,
        arguments: Option<Box<RawValue>>,
    ) -> BoxFuture<'static, Result<CallToolResult, HandlerError>>;
    fn read_resource(
        &self,
        ctx: Context,
        uri: String,
    ) -> BoxFuture<'static, Result<Vec<ResourceContents>, HandlerError>>;
    fn get_prompt(
        &self,
        ctx: Context,
        name: Arc<str>,
        arguments: PromptArguments,
    ) -> BoxFuture<'static, Result<GetPromptResult, HandlerError>>;
    /// `completion/complete` of a mounted prompt's argument or template's variable (`params`
    /// name the remote prompt or template).
    fn complete(
        &self,
        _ctx: Context,
        _params: CompleteRequestParams,
    ) -> BoxFuture<'static, Result<CompleteResult, HandlerError>> {
        Box::pin(async { Ok(CompleteResult::new(Vec::new())) })
    }
    /// Subscribes to updates of the remote resource `uri` for one of our sessions (or
    /// listeners): the subscription lasts as long as what is returned.
    fn subscribe(&self, _uri: String) -> Result<Held, ErrorObject> {
        Err(ErrorObject::invalid_params(
            "resource subscriptions not supported",
        ))
    }
    /// Our sessions' levels changed: `least` is the most verbose one a session set (a severity
    /// index, 0 = debug).
    fn log_levels_changed(&self, _least: u8) {}
}

/// A subscription held on a mounted server: released when dropped.
pub(crate) type Held = Box<dyn Send + Sync>;

/// What a mounted server declared beyond its lists (our capabilities follow them).
#[derive(Clone, Copy, Default, Debug)]
pub(crate) struct Declared {
    pub(crate) logging: bool,
    pub(crate) completions: bool,
    pub(crate) subscribe: bool,
    /// `listChanged` of tools, resources and prompts.
    pub(crate) list_changed: [bool; 3],
}

/// The remote lists of one mount, as last fetched (remote names and URIs).
#[derive(Default, Clone)]
pub(crate) struct RemoteLists {
    pub(crate) tools: Vec<Tool>,
    pub(crate) resources: Vec<Resource>,
    pub(crate) templates: Vec<ResourceTemplate>,
    pub(crate) prompts: Vec<Prompt>,
}

/// What a forwarded `tools/call` needs of a mounted tool.
struct MountedTool {
    remote: Arc<str>,
    #[cfg(feature = "http")]
    mirrored: Arc<[super::mirror::HeaderParam]>,
    /// Its transform: arguments, tags, and what it runs (a tool, a resource, a prompt).
    shown: crate::transform::apply::Mapped<crate::transform::args::ArgMap>,
    /// Its `outputSchema` compiled, when its results are checked
    /// ([`MountedItems::with_output_checks`]).
    output: Option<Arc<crate::validation::OutputCheck>>,
}

/// One mount's items, renamed: built once per remote list, shared by every catalog until the
/// next list.
pub(crate) struct MountedItems {
    pub(crate) prefix: Arc<str>,
    pub(crate) forward: Arc<dyn Forward>,
    /// Per-item timeout of forwarded requests.
    pub(crate) timeout_ms: Option<u64>,
    /// Which lists the remote declared (our capabilities follow them).
    pub(crate) lists: [bool; 3],
    /// What else the remote declared.
    pub(crate) declared: Declared,
    /// Descriptors as our clients see them.
    pub(crate) tools: Vec<Tool>,
    pub(crate) resources: Vec<Resource>,
    pub(crate) templates: Vec<(ResourceTemplate, UriTemplate)>,
    pub(crate) prompts: Vec<Prompt>,
    /// Remote names by our name (tools: with the parameters mirrored in `Mcp-Param-*` headers).
    tool_names: HashMap<Box<str>, MountedTool>,
    prompt_names: HashMap<
        Box<str>,
        (
            Arc<str>,
            crate::transform::apply::Mapped<crate::transform::apply::PromptArgMap>,
        ),
    >,
    /// The tags of resources and templates (our URIs), when they have any.
    pub(crate) resource_tags: HashMap<Box<str>, crate::transform::view::Tags>,
}

impl MountedItems {
    /// The renamed items of `lists`; items whose new name breaks the spec's rules are left out
    /// (and logged).
    pub(crate) fn new(
        prefix: Arc<str>,
        forward: Arc<dyn Forward>,
        timeout_ms: Option<u64>,
        lists: [bool; 3],
        remote: RemoteLists,
    ) -> Self {
        let none = crate::transform::Transforms::new();
        Self::transformed(prefix, forward, timeout_ms, lists, remote, &none)
    }

    /// [`new`](Self::new), the items transformed by `transforms` (named as on the remote) before
    /// they are prefixed; an item a transform does not fit is left out (and logged).
    pub(crate) fn transformed(
        prefix: Arc<str>,
        forward: Arc<dyn Forward>,
        timeout_ms: Option<u64>,
        lists: [bool; 3],
        remote: RemoteLists,
        transforms: &crate::transform::Transforms,
    ) -> Self {
        let read = crate::transform::apply::Transformed::plain(
            remote.tools,
            remote.resources,
            remote.templates,
            remote.prompts,
        );
        let remote = crate::transform::apply::remote_lists(read, transforms, &prefix);
        let mut items = Self {
            resource_tags: remote.resource_tags,
            tool_names: HashMap::with_capacity(remote.tools.len()),
            prompt_names: HashMap::with_capacity(remote.prompts.len()),
            tools: Vec::with_capacity(remote.tools.len()),
            resources: Vec::with_capacity(remote.resources.len()),
            templates: Vec::with_capacity(remote.templates.len()),
            prompts: Vec::with_capacity(remote.prompts.len()),
            prefix,
            forward,
            timeout_ms,
            lists,
            declared: Declared::default(),
        };
        for (mut tool, shown) in remote.tools {
            let name = items.name(&tool.name);
            if name.len() > MAX_TOOL_NAME || !tool.name.bytes().all(tool_name_byte) {
                tracing::warn!(prefix = %items.prefix, tool = %tool.name, "mounted tool left out: its prefixed name breaks the tool-name rules");
                continue;
            }
            // Forwarded calls run plainly here: the remote's task support is not ours.
            tool.execution = None;
            let _ = std::mem::replace(&mut tool.name, name.clone());
            let entry = MountedTool {
                remote: Arc::clone(&shown.remote),
                #[cfg(feature = "http")]
                mirrored: super::mirror::header_params(&tool.input_schema).into(),
                shown,
                output: None,
            };
            if items.tool_names.insert(name.into(), entry).is_none() {
                items.tools.push(tool);
            }
        }
        for mut resource in remote.resources {
            resource.uri = items.uri(&resource.uri);
            items.resources.push(resource);
        }
        for mut template in remote.templates {
            template.uri_template = items.uri(&template.uri_template);
            match UriTemplate::parse(&template.uri_template) {
                Ok(parsed) => items.templates.push((template, parsed)),
                Err(e) => {
                    tracing::warn!(prefix = %items.prefix, template = %template.uri_template, "mounted template left out: {e}")
                }
            }
        }
        for (mut prompt, shown) in remote.prompts {
            let name = items.name(&prompt.name);
            let _ = std::mem::replace(&mut prompt.name, name.clone());
            let entry = (Arc::clone(&shown.remote), shown);
            if items.prompt_names.insert(name.into(), entry).is_none() {
                items.prompts.push(prompt);
            }
        }
        items
    }

    /// The same items, their tools' results checked against their `outputSchema` (as our
    /// clients see it) when `on`: each schema compiled once, here. The remote's schema is not
    /// derived from anything this server knows, so it is checked like a hand-written one; a
    /// schema that does not compile (a reference to another document, say) leaves its tool
    /// unchecked (and logged).
    pub(crate) fn with_output_checks(mut self, on: bool) -> Self {
        if !on {
            return self;
        }
        for tool in &self.tools {
            let Some(schema) = &tool.output_schema else {
                continue;
            };
            match crate::validation::OutputCheck::compile(schema) {
                Ok(check) => {
                    if let Some(entry) = self.tool_names.get_mut(tool.name.as_str()) {
                        entry.output = Some(Arc::new(check));
                    }
                }
                Err(e) => {
                    tracing::warn!(prefix = %self.prefix, tool = %tool.name, "a mounted tool's results are not checked: {e}")
                }
            }
        }
        self
    }

    /// The same items, with what else the remote declared.
    pub(crate) fn with_declared(mut self, declared: Declared) -> Self {
        self.declared = declared;
        self
    }

    /// A mount with nothing listed.
    #[cfg(test)]
    fn empty(prefix: Arc<str>, forward: Arc<dyn Forward>) -> Self {
        Self::new(prefix, forward, None, [false; 3], RemoteLists::default())
    }

    /// Our name of a remote tool or prompt: `prefix.name` (the name itself with no prefix).
    fn name(&self, remote: &str) -> String {
        match &*self.prefix {
            "" => remote.to_owned(),
            prefix => format!("{prefix}.{remote}"),
        }
    }

    /// Our URI of a remote resource (or template): `prefix+uri` (the URI itself with no prefix).
    pub(crate) fn uri(&self, remote: &str) -> String {
        match &*self.prefix {
            "" => remote.to_owned(),
            prefix => format!("{prefix}+{remote}"),
        }
    }

    /// The remote URI of one of our URIs, if it is under this mount's prefix.
    fn remote_uri<'u>(&self, uri: &'u str) -> Option<&'u str> {
        match &*self.prefix {
            "" => Some(uri),
            prefix => uri.strip_prefix(prefix)?.strip_prefix('+'),
        }
    }
}

fn tool_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')
}

/// Whether `prefix` can name a mount: 1-32 of `A-Za-z0-9.-`, starting with a letter (a valid
/// start of both a tool name and a URI scheme), or empty (the items keep their names).
pub(crate) fn valid_prefix(prefix: &str) -> bool {
    prefix.is_empty()
        || prefix.len() <= MAX_PREFIX
            && prefix.starts_with(|c: char| c.is_ascii_alphabetic())
            && prefix
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-'))
}

/// Every mount of a catalog, with the lookups of forwarded requests.
#[derive(Default)]
pub(crate) struct Mounted {
    pub(crate) mounts: Vec<Arc<MountedItems>>,
}

/// A mounted item found for a request: where to forward it, and its remote name or URI.
pub(crate) struct Found<'a, N> {
    pub(crate) mount: &'a MountedItems,
    pub(crate) remote: N,
    /// A tool's parameters mirrored in `Mcp-Param-*` headers, checked as a local tool's are.
    #[cfg(feature = "http")]
    pub(crate) mirrored: Option<Arc<[super::mirror::HeaderParam]>>,
    /// What its transform does to a request (a tool's or a prompt's; nothing for a resource).
    pub(crate) shown: crate::transform::apply::Found<'a>,
    /// A tool's output check (`MountedItems::with_output_checks`).
    pub(crate) output: Option<Arc<crate::validation::OutputCheck>>,
}

impl Mounted {
    /// Checks the prefixes (valid, given once). A mounted tool or prompt named like a local one
    /// is neither served nor listed (the catalog looks local items up first).
    pub(crate) fn new(mounts: &[Arc<MountedItems>]) -> Result<Self, Error> {
        let mut seen = HashSet::new();
        for m in mounts {
            if !valid_prefix(&m.prefix) {
                return Err(Error::Config(format!(
                    "mount prefix `{}` must be empty or 1-{MAX_PREFIX} of A-Za-z0-9.- starting \
                     with a letter",
                    m.prefix
                )));
            }
            if !seen.insert(&*m.prefix) {
                return Err(Error::Config(format!(
                    "mount prefix `{}` is given twice",
                    m.prefix
                )));
            }
        }
        Ok(Self {
            mounts: mounts.to_vec(),
        })
    }

    /// The mounted tool named `name` (our name).
    pub(crate) fn tool(&self, name: &str) -> Option<Found<'_, Arc<str>>> {
        self.mounts.iter().find_map(|m| {
            let tool = m.tool_names.get(name)?;
            Some(Found {
                mount: m,
                remote: Arc::clone(&tool.remote),
                #[cfg(feature = "http")]
                mirrored: Some(Arc::clone(&tool.mirrored)),
                shown: crate::transform::apply::Found::Tool(&tool.shown),
                output: tool.output.clone(),
            })
        })
    }

    /// The mounted prompt named `name` (our name).
    pub(crate) fn prompt(&self, name: &str) -> Option<Found<'_, Arc<str>>> {
        self.mounts.iter().find_map(|m| {
            let (remote, shown) = m.prompt_names.get(name)?;
            Some(Found {
                mount: m,
                remote: Arc::clone(remote),
                #[cfg(feature = "http")]
                mirrored: None,
                shown: crate::transform::apply::Found::Prompt(shown),
                output: None,
            })
        })
    }

    /// The mount serving `uri` (a listed resource, or a match of one of its templates).
    pub(crate) fn resource<'u>(&self, uri: &'u str) -> Option<Found<'_, &'u str>> {
        self.mounts.iter().find_map(|m| {
            let remote = m.remote_uri(uri)?;
            let listed = m.resources.iter().any(|r| r.uri == uri)
                || m.templates.iter().any(|(_, t)| t.match_uri(uri).is_some());
            listed.then_some(Found {
                mount: m,
                remote,
                #[cfg(feature = "http")]
                mirrored: None,
                shown: crate::transform::apply::Found::Resource,
                output: None,
            })
        })
    }

    /// The tags of the mounted tool, prompt or resource (or template) named `name` (our name).
    pub(crate) fn tags(&self, kind: super::ListKind, name: &str) -> &[Box<str>] {
        let found = self.mounts.iter().find_map(|m| match kind {
            super::ListKind::Tools => m.tool_names.get(name).map(|t| &t.shown.tags),
            super::ListKind::Prompts => m.prompt_names.get(name).map(|p| &p.1.tags),
            _ => m.resource_tags.get(name),
        });
        found.map_or(&[], |t| t)
    }

    /// The mount of the template whose (our) URI template is `uri`, and the remote template.
    pub(crate) fn template<'u>(&self, uri: &'u str) -> Option<Found<'_, &'u str>> {
        self.mounts.iter().find_map(|m| {
            m.templates.iter().find(|(t, _)| t.uri_template == uri)?;
            Some(Found {
                mount: m,
                remote: m.remote_uri(uri)?,
                #[cfg(feature = "http")]
                mirrored: None,
                shown: crate::transform::apply::Found::Resource,
                output: None,
            })
        })
    }

    /// Whether some mount relays log messages, completes (and declared prompts or resources), and
    /// forwards resource subscriptions.
    pub(crate) fn declared(&self) -> Declared {
        let mut d = Declared::default();
        for m in &self.mounts {
            d.logging |= m.declared.logging;
            d.completions |= m.declared.completions && (m.lists[1] || m.lists[2]);
            d.subscribe |= m.declared.subscribe;
            for (ours, theirs) in d.list_changed.iter_mut().zip(m.declared.list_changed) {
                *ours |= theirs;
            }
        }
        d
    }

    /// Which of tools, resources and prompts some mount offers (or its server declared).
    pub(crate) fn offers(&self) -> [bool; 3] {
        let mut offers = [false; 3];
        for m in &self.mounts {
            offers[0] |= m.lists[0] || !m.tools.is_empty();
            offers[1] |= m.lists[1] || !m.resources.is_empty() || !m.templates.is_empty();
            offers[2] |= m.lists[2] || !m.prompts.is_empty();
        }
        offers
    }

    /// The mounted tools, but those named like a local one (which is served instead).
    pub(crate) fn tools<'a>(
        &'a self,
        local: &'a HashMap<Box<str>, usize>,
    ) -> impl Iterator<Item = &'a Tool> + 'a {
        let mounted = self.mounts.iter().flat_map(|m| m.tools.iter());
        mounted.filter(|t| !local.contains_key(t.name.as_str()))
    }

    pub(crate) fn resources(&self) -> impl Iterator<Item = &Resource> + '_ {
        self.mounts.iter().flat_map(|m| m.resources.iter())
    }

    pub(crate) fn templates(&self) -> impl Iterator<Item = &ResourceTemplate> + '_ {
        self.mounts
            .iter()
            .flat_map(|m| m.templates.iter().map(|(t, _)| t))
    }

    /// The mounted prompts, but those named like a local one (which is served instead).
    pub(crate) fn prompts<'a>(
        &'a self,
        local: &'a HashMap<Box<str>, usize>,
    ) -> impl Iterator<Item = &'a Prompt> + 'a {
        let mounted = self.mounts.iter().flat_map(|m| m.prompts.iter());
        mounted.filter(|p| !local.contains_key(p.name.as_str()))
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use serde_json::json;

    /// A mount that is never asked anything (also the other registry tests').
    pub(crate) struct Nowhere;

    impl Forward for Nowhere {
        fn call_tool(
            &self,
            _: Context,
            _: Arc<str>,
            _: Option<Box<RawValue>>,
        ) -> BoxFuture<'static, Result<CallToolResult, HandlerError>> {
            Box::pin(async { Err(HandlerError::ResourceNotFound) })
        }
        fn read_resource(
            &self,
            _: Context,
            _: String,
        ) -> BoxFuture<'static, Result<Vec<ResourceContents>, HandlerError>> {
            Box::pin(async { Err(HandlerError::ResourceNotFound) })
        }
        fn get_prompt(
            &self,
            _: Context,
            _: Arc<str>,
            _: PromptArguments,
        ) -> BoxFuture<'static, Result<GetPromptResult, HandlerError>> {
            Box::pin(async { Err(HandlerError::ResourceNotFound) })
        }
    }

    #[test]
    fn names_and_uris_are_prefixed_and_found_back() {
        let remote = RemoteLists {
            tools: vec![
                Tool::new("echo", json!({"type": "object"})),
                Tool::new("bad name", json!({"type": "object"})),
                Tool::new("x".repeat(125), json!({"type": "object"})),
            ],
            resources: vec![Resource::new("file:///a.md", "a")],
            templates: vec![ResourceTemplate::new("note://{id}", "note")],
            prompts: vec![Prompt::new("greet")],
        };
        let items = MountedItems::new("docs".into(), Arc::new(Nowhere), None, [true; 3], remote);
        let mounted = Mounted::new(&[Arc::new(items)]).unwrap();
        let names: Vec<String> = mounted
            .tools(&HashMap::new())
            .map(|t| t.name.clone())
            .collect();
        let local = HashMap::from([(Box::from("docs.echo"), 0)]);
        assert_eq!(mounted.tools(&local).count(), 0);
        assert_eq!(names, ["docs.echo"]);
        assert_eq!(&*mounted.tool("docs.echo").unwrap().remote, "echo");
        assert!(mounted.tool("echo").is_none());
        assert_eq!(&*mounted.prompt("docs.greet").unwrap().remote, "greet");
        let uris: Vec<String> = mounted.resources().map(|r| r.uri.clone()).collect();
        assert_eq!(uris, ["docs+file:///a.md"]);
        assert_eq!(
            mounted.resource("docs+file:///a.md").unwrap().remote,
            "file:///a.md"
        );
        assert_eq!(
            mounted.resource("docs+note://7").unwrap().remote,
            "note://7"
        );
        assert!(mounted.resource("docs+file:///b.md").is_none());
        assert!(mounted.resource("file:///a.md").is_none());
    }

    #[test]
    fn prefixes_are_checked() {
        for good in ["", "a", "docs", "a.b-2"] {
            assert!(valid_prefix(good), "{good}");
        }
        for bad in ["1a", "a_b", "a+b", "a/b", &"a".repeat(33)] {
            assert!(!valid_prefix(bad), "{bad}");
        }
        let m = |p: &str| Arc::new(MountedItems::empty(p.into(), Arc::new(Nowhere)));
        assert!(Mounted::new(&[m("a"), m("a")]).is_err());
        assert!(Mounted::new(&[m("a_b")]).is_err());
        assert!(Mounted::new(&[m("a"), m("b")]).is_ok());
        assert!(Mounted::new(&[m(""), m("")]).is_err());
    }

    #[test]
    fn an_empty_prefix_keeps_names_and_uris() {
        let remote = RemoteLists {
            tools: vec![Tool::new("echo", json!({"type": "object"}))],
            resources: vec![Resource::new("file:///a.md", "a")],
            ..RemoteLists::default()
        };
        let items = MountedItems::new("".into(), Arc::new(Nowhere), None, [true; 3], remote);
        let mounted = Mounted::new(&[Arc::new(items)]).unwrap();
        assert_eq!(&*mounted.tool("echo").unwrap().remote, "echo");
        assert_eq!(
            mounted.resource("file:///a.md").unwrap().remote,
            "file:///a.md"
        );
    }
}
