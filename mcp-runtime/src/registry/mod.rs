//! The registry: records collected at link time (or given to the builder), checked and turned
//! into protocol descriptors once, at start-up; the list pages of a revision are serialised
//! once, on its first list request.

mod checks;
mod descriptors;
#[cfg(feature = "http")]
pub(crate) mod mirror;
pub(crate) mod mounted;
mod paginate;
mod record;
#[cfg(feature = "auth")]
mod seen;
pub(crate) mod transformed;
mod views;

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use mcp_core::{
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, Prompt,
    PromptArgument, ProtocolVersion, Resource, ResourceTemplate, Tool, UriTemplate,
};
use tokio::sync::Semaphore;

pub(crate) use descriptors::KnownProperties;
use descriptors::{icons, meta, tool_descriptor};
use paginate::{decode_cursor, paginate};
pub use record::{
    CacheHint, CompleteFn, CompletionRecord, IconRecord, InputSchema, Location, PromptArgRecord,
    PromptArguments, PromptGetFn, PromptRecord, ResourceReadFn, ResourceRecord, ResourceRequest,
    StateNeedsFn, ToolCallFn, ToolHints, ToolRecord,
};

pub use crate::data::ToolArgumentFns;
use crate::error::Error;
use crate::handler::context::StateMap;

use crate::schema::SchemaProfile;
use crate::transform::view::Tags;

/// Every record `#[tool]` registered in this binary (all servers).
///
/// ```
/// let count = mcp_runtime::registry::tools().count();
/// assert_eq!(count, 0); // nothing is annotated in this doctest
/// ```
pub fn tools() -> impl Iterator<Item = &'static ToolRecord> {
    inventory::iter::<ToolRecord>.into_iter()
}

/// Every record `#[resource]` registered in this binary (all servers).
///
/// ```
/// assert_eq!(mcp_runtime::registry::resources().count(), 0);
/// ```
pub fn resources() -> impl Iterator<Item = &'static ResourceRecord> {
    inventory::iter::<ResourceRecord>.into_iter()
}

/// Every record `#[prompt]` registered in this binary (all servers).
///
/// ```
/// assert_eq!(mcp_runtime::registry::prompts().count(), 0);
/// ```
pub fn prompts() -> impl Iterator<Item = &'static PromptRecord> {
    inventory::iter::<PromptRecord>.into_iter()
}

/// A tool ready to serve.
pub(crate) struct ToolEntry {
    pub(crate) record: ToolRecord,
    pub(crate) descriptor: Tool,
    /// Slots for calls in flight, from `max_concurrency`.
    pub(crate) limit: Option<Arc<Semaphore>>,
    /// Parameters mirrored in `Mcp-Param-*` headers (stateless era, HTTP).
    #[cfg(feature = "http")]
    pub(crate) mirrored: Vec<mirror::HeaderParam>,
    /// The properties a call may give, when others are refused; `None` when any property is
    /// accepted.
    pub(crate) known_properties: Option<KnownProperties>,
    /// The bounds of a generated input schema, checked with the parse (see `validation`).
    pub(crate) bounds: Option<Arc<crate::validation::Bounds>>,
    /// How a call's arguments become the tool's, when a transform changed them.
    pub(crate) args: Option<Arc<crate::transform::args::ArgMap>>,
    /// Its tags (from a transform).
    pub(crate) tags: Tags,
    /// Its output schema compiled, when its results are checked (a schema that is not derived,
    /// validation on): decided here, once; `None` for every derived schema.
    pub(crate) output: Option<Arc<crate::validation::OutputCheck>>,
}

impl ToolEntry {
    /// The tool's call, its arguments checked against its bounds too.
    pub(crate) fn call(
        &self,
        ctx: crate::handler::context::Context,
        arguments: Option<Box<serde_json::value::RawValue>>,
    ) -> crate::future::BoxFuture<'static, Result<mcp_core::CallToolResult, crate::HandlerError>>
    {
        crate::validation::with_bounds(self.bounds.as_ref(), (self.record.call)(ctx, arguments))
    }
}

/// A fixed-URI resource ready to serve.
pub(crate) struct ResourceEntry {
    pub(crate) record: ResourceRecord,
    pub(crate) descriptor: Resource,
    /// Slots for reads in flight, from `max_concurrency`.
    pub(crate) limit: Option<Arc<Semaphore>>,
    /// Its tags (from a transform).
    pub(crate) tags: Tags,
}

/// A resource template ready to serve.
pub(crate) struct TemplateEntry {
    pub(crate) record: ResourceRecord,
    pub(crate) template: UriTemplate,
    pub(crate) descriptor: ResourceTemplate,
    /// Slots for reads in flight (whatever URI they matched), from `max_concurrency`.
    pub(crate) limit: Option<Arc<Semaphore>>,
    /// Its tags (from a transform).
    pub(crate) tags: Tags,
}

/// A prompt ready to serve.
pub(crate) struct PromptEntry {
    pub(crate) record: PromptRecord,
    pub(crate) descriptor: Prompt,
    /// Slots for gets in flight, from `max_concurrency`.
    pub(crate) limit: Option<Arc<Semaphore>>,
    /// How a get's arguments become the prompt's, when a transform changed them.
    pub(crate) args: Option<Arc<crate::transform::apply::PromptArgMap>>,
    /// Its tags (from a transform).
    pub(crate) tags: Tags,
}

/// The semaphore of an item with `max_concurrency`: one permit per call in flight.
fn limit(max_concurrency: Option<u32>) -> Option<Arc<Semaphore>> {
    max_concurrency.map(|n| Arc::new(Semaphore::new(n.max(1) as usize)))
}

/// Pre-serialised list results of one revision: one JSON text per page.
#[derive(Default)]
pub(crate) struct Pages {
    pub(crate) tools: Vec<Arc<str>>,
    pub(crate) resources: Vec<Arc<str>>,
    pub(crate) templates: Vec<Arc<str>>,
    pub(crate) prompts: Vec<Arc<str>>,
}

/// Which list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ListKind {
    Tools,
    Resources,
    Templates,
    Prompts,
}

/// The checked, sorted items of one server, with descriptors and pages built.
pub(crate) struct Catalog {
    pub(crate) tools: Vec<ToolEntry>,
    pub(crate) tool_index: HashMap<Box<str>, usize>,
    pub(crate) resources: Vec<ResourceEntry>,
    pub(crate) resource_index: HashMap<&'static str, usize>,
    pub(crate) templates: Vec<TemplateEntry>,
    pub(crate) prompts: Vec<PromptEntry>,
    pub(crate) prompt_index: HashMap<Box<str>, usize>,
    /// Local resources and prompts exposed as tools (listed after the local tools).
    pub(crate) exposed: Vec<transformed::ExposedTool>,
    pub(crate) exposed_index: HashMap<Box<str>, usize>,
    /// Items re-exported from other servers (after the local ones in every list).
    pub(crate) mounted: mounted::Mounted,
    /// The skill files' descriptors (listed after the registered resources).
    skill_files: Vec<Resource>,
    /// Indexed by `version_slot`; each revision's pages are built on its first list request.
    pages: Vec<OnceLock<Pages>>,
    /// What the pages are built with.
    page_settings: PageSettings,
    /// Whether any local item of each list declares scopes, by `ListKind as usize` (`auth`).
    #[cfg(feature = "auth")]
    scoped: [bool; 4],
    /// The pages of each view a `Visibility` rule gave (bounded; see `views`).
    views: views::ViewPages,
}

/// The settings the list pages are built with, kept for building them on first use.
struct PageSettings {
    page_size: usize,
    ttl_ms: u64,
    server_info_meta: mcp_core::Meta,
}

/// The index of a revision in per-version tables.
pub(crate) fn version_slot(v: ProtocolVersion) -> usize {
    ProtocolVersion::ALL
        .iter()
        .position(|x| *x == v)
        .unwrap_or(0)
}

/// Settings that shape descriptors and pages.
pub(crate) struct CatalogSettings<'a> {
    pub(crate) profile: SchemaProfile,
    pub(crate) page_size: usize,
    pub(crate) ttl_ms: u64,
    pub(crate) server_info_meta: &'a mcp_core::Meta,
    /// The application state given to the builder, against which handlers' needs are checked.
    pub(crate) state: &'a StateMap,
    /// The server's default for tools that do not say whether unknown arguments are accepted.
    pub(crate) allow_unknown_args: bool,
    /// How widgets (MCP Apps) are presented.
    pub(crate) apps: crate::apps::AppsOptions,
    /// What becomes of the local items.
    pub(crate) transforms: &'a crate::transform::Transforms,
    /// The skills served: their files are resources too (after the registered ones).
    pub(crate) skills: Option<&'a crate::skills::SkillSet>,
    /// The server's default for tools with a hand-written output schema that do not say
    /// whether their results are checked against it.
    pub(crate) validate_output: bool,
}

impl Catalog {
    /// Checks and builds everything; the only place descriptors are made.
    pub(crate) fn build(
        mut tools: Vec<ToolRecord>,
        mut resources: Vec<ResourceRecord>,
        mut prompts: Vec<PromptRecord>,
        mounts: &[Arc<mounted::MountedItems>],
        settings: &CatalogSettings<'_>,
    ) -> Result<Catalog, Error> {
        tools.sort_by(|a, b| a.name.cmp(b.name));
        resources.sort_by(|a, b| a.name.cmp(b.name).then(a.uri.cmp(b.uri)));
        prompts.sort_by(|a, b| a.name.cmp(b.name));
        checks::unique("tool", tools.iter().map(|t| (t.name, t.location)))?;
        checks::unique("prompt", prompts.iter().map(|p| (p.name, p.location)))?;
        checks::unique("resource", resources.iter().map(|r| (r.uri, r.location)))?;
        checks::state(&tools, &resources, &prompts, settings.state)?;
        let mounted = mounted::Mounted::new(mounts)?;
        let skill_files: Vec<Resource> = settings
            .skills
            .map(|s| s.descriptors().cloned().collect())
            .unwrap_or_default();
        if let Some(r) = resources
            .iter()
            .find(|r| skill_files.iter().any(|f| f.uri == r.uri))
        {
            return Err(Error::InvalidItem {
                kind: "resource",
                name: r.name.to_owned(),
                location: r.location.to_string(),
                reason: format!("its URI `{}` is a skill file's", r.uri),
            });
        }

        let mut tool_entries = Vec::with_capacity(tools.len());
        for record in tools {
            let (mut descriptor, known_properties) =
                tool_descriptor(&record, settings.profile, settings.allow_unknown_args)?;
            crate::apps::tool_meta(record.ui, &settings.apps, &mut descriptor.meta).map_err(
                |reason| Error::InvalidItem {
                    kind: "tool",
                    name: record.name.to_owned(),
                    location: record.location.to_string(),
                    reason,
                },
            )?;
            #[cfg(feature = "http")]
            let mirrored = mirror::header_params(&descriptor.input_schema);
            let bounds = match record.input_schema {
                // The schema as schemars makes it (with the `format` of integers, which says
                // which bounds are the type's own), not as the profile serves it; made again
                // only for a tool whose served schema names a bound at all.
                InputSchema::Generated(generate)
                    if crate::validation::Bounds::named_in(&descriptor.input_schema) =>
                {
                    crate::validation::Bounds::of_schema(
                        generate(&mut schemars::SchemaGenerator::default()).as_value(),
                    )
                }
                _ => None,
            };
            let output = crate::validation::OutputCheck::decide(
                descriptor.output_schema.as_ref(),
                record.output_schema_derived,
                record.validate_output,
                settings.validate_output,
            )
            .map_err(|reason| Error::InvalidItem {
                kind: "tool",
                name: record.name.to_owned(),
                location: record.location.to_string(),
                reason,
            })?;
            tool_entries.push(ToolEntry {
                output,
                args: None,
                tags: crate::transform::view::tags_of(record.tags),
                bounds,
                limit: limit(record.max_concurrency),
                record,
                descriptor,
                #[cfg(feature = "http")]
                mirrored,
                known_properties,
            });
        }

        let mut resource_entries = Vec::new();
        let mut template_entries = Vec::new();
        resources.retain(|r| crate::apps::served(r.mime_type, r.uri, &settings.apps));
        for record in resources {
            let template = UriTemplate::parse(record.uri).map_err(|e| Error::InvalidItem {
                kind: "resource",
                name: record.name.to_owned(),
                location: record.location.to_string(),
                reason: format!("URI template: {e}"),
            })?;
            let mut meta = meta("resource", record.name, record.location, record.meta)?;
            crate::apps::resource_meta(
                record.mime_type,
                record.uri,
                record.description,
                &settings.apps,
                &mut meta,
            );
            if template.is_literal() {
                let mut d = Resource::new(record.uri, record.name);
                d.title = record.title.map(str::to_owned);
                d.description = record.description.map(str::to_owned);
                d.mime_type = record.mime_type.map(str::to_owned);
                d.icons = icons(record.icons);
                d.meta = meta;
                resource_entries.push(ResourceEntry {
                    tags: crate::transform::view::tags_of(record.tags),
                    limit: limit(record.max_concurrency),
                    record,
                    descriptor: d,
                });
            } else {
                let mut d = ResourceTemplate::new(record.uri, record.name);
                d.title = record.title.map(str::to_owned);
                d.description = record.description.map(str::to_owned);
                d.mime_type = record.mime_type.map(str::to_owned);
                d.icons = icons(record.icons);
                d.meta = meta;
                template_entries.push(TemplateEntry {
                    tags: crate::transform::view::tags_of(record.tags),
                    limit: limit(record.max_concurrency),
                    record,
                    template,
                    descriptor: d,
                });
            }
        }

        let mut prompt_entries = Vec::with_capacity(prompts.len());
        for record in prompts {
            let mut d = Prompt::new(record.name);
            d.title = record.title.map(str::to_owned);
            d.description = record.description.map(str::to_owned);
            if !record.arguments.is_empty() {
                d.arguments = Some(
                    record
                        .arguments
                        .iter()
                        .map(|a| {
                            let mut arg = PromptArgument::new(a.name);
                            arg.title = a.title.map(str::to_owned);
                            arg.description = a.description.map(str::to_owned);
                            arg.required = Some(a.required);
                            arg
                        })
                        .collect(),
                );
            }
            d.icons = icons(record.icons);
            d.meta = meta("prompt", record.name, record.location, record.meta)?;
            prompt_entries.push(PromptEntry {
                args: None,
                tags: crate::transform::view::tags_of(record.tags),
                limit: limit(record.max_concurrency),
                record,
                descriptor: d,
            });
        }

        let exposed = transformed::exposed(
            settings.transforms,
            &tool_entries,
            &resource_entries,
            &template_entries,
            &prompt_entries,
        )?;
        transformed::apply(
            settings.transforms,
            &mut tool_entries,
            &mut resource_entries,
            &mut template_entries,
            &mut prompt_entries,
        )?;
        #[cfg(feature = "auth")]
        let scoped = seen::scoped(
            &tool_entries,
            &resource_entries,
            &template_entries,
            &prompt_entries,
        );
        Ok(Catalog {
            #[cfg(feature = "auth")]
            scoped,
            tool_index: tool_entries
                .iter()
                .enumerate()
                .map(|(i, t)| (t.descriptor.name.as_str().into(), i))
                .collect(),
            tools: tool_entries,
            resource_index: resource_entries
                .iter()
                .enumerate()
                .map(|(i, r)| (r.record.uri, i))
                .collect(),
            resources: resource_entries,
            templates: template_entries,
            prompt_index: prompt_entries
                .iter()
                .enumerate()
                .map(|(i, p)| (p.descriptor.name.as_str().into(), i))
                .collect(),
            prompts: prompt_entries,
            exposed_index: exposed
                .iter()
                .enumerate()
                .map(|(i, e)| (e.descriptor.name.as_str().into(), i))
                .collect(),
            exposed,
            mounted,
            views: Default::default(),
            skill_files,
            pages: ProtocolVersion::ALL
                .iter()
                .map(|_| OnceLock::new())
                .collect(),
            page_settings: PageSettings {
                page_size: settings.page_size,
                ttl_ms: settings.ttl_ms,
                server_info_meta: settings.server_info_meta.clone(),
            },
        })
    }

    fn pages_for(&self, v: ProtocolVersion) -> Pages {
        let (s, m) = (&self.page_settings, &self.mounted);
        let (tools, prompts) = (m.tools(&self.tool_index), m.prompts(&self.prompt_index));
        let resources = self.resources.iter().map(|r| &r.descriptor);
        let resources = resources.chain(&self.skill_files);
        let templates = self.templates.iter().map(|t| &t.descriptor);
        Pages {
            tools: paginate::<ListToolsResult>(
                self.tools
                    .iter()
                    .map(|t| &t.descriptor)
                    .chain(self.exposed.iter().map(|e| &e.descriptor))
                    .chain(tools),
                s,
                v,
            ),
            resources: paginate::<ListResourcesResult>(resources.chain(m.resources()), s, v),
            templates: paginate::<ListResourceTemplatesResult>(
                templates.chain(m.templates()),
                s,
                v,
            ),
            prompts: paginate::<ListPromptsResult>(
                self.prompts.iter().map(|p| &p.descriptor).chain(prompts),
                s,
                v,
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
        let index = cursor.map_or(Some(0), decode_cursor)?;
        self.pages_of(v, kind).get(index).map(Arc::clone)
    }

    /// Every pre-serialised page of a list (built on its revision's first list request).
    fn pages_of(&self, v: ProtocolVersion, kind: ListKind) -> &[Arc<str>] {
        let pages = self.pages[version_slot(v)].get_or_init(|| self.pages_for(v));
        match kind {
            ListKind::Tools => &pages.tools,
            ListKind::Resources => &pages.resources,
            ListKind::Templates => &pages.templates,
            ListKind::Prompts => &pages.prompts,
        }
    }

    /// The fixed resource or matching template for a URI, with matched variables and the
    /// entry's `max_concurrency` semaphore (`None` when it has no limit).
    pub(crate) fn find_resource(
        &self,
        uri: &str,
    ) -> Option<(&ResourceRecord, ResourceRequest, Option<&Arc<Semaphore>>)> {
        if let Some(&i) = self.resource_index.get(uri) {
            let r = &self.resources[i];
            return Some((
                &r.record,
                ResourceRequest::new(uri, std::iter::empty::<(String, String)>()),
                r.limit.as_ref(),
            ));
        }
        self.templates.iter().find_map(|t| {
            t.template
                .match_uri(uri)
                .map(|vars| (&t.record, ResourceRequest::new(uri, vars), t.limit.as_ref()))
        })
    }
}

#[cfg(test)]
mod tests;
