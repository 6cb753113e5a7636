//! The registry: records collected at link time (or given to the builder), checked and turned
//! into protocol descriptors and pre-serialised list pages once, at start-up.

pub(crate) mod mirror;
mod needs;
mod pages;
mod record;

use std::collections::HashMap;
use std::sync::Arc;

use mcp_core::{
    Icon, Prompt, PromptArgument, ProtocolVersion, Resource, ResourceTemplate, Tool,
    ToolAnnotations, UriTemplate,
};
use serde_json::Value;
use tokio::sync::Semaphore;

use pages::Pages;
pub use record::{
    BoxFuture, CompleteFn, CompletionRecord, IconRecord, InputSchema, Location, PromptArgRecord,
    PromptArguments, PromptGetFn, PromptRecord, ResourceReadFn, ResourceRecord, ResourceRequest,
    StateNeedsFn, ToolCallFn, ToolHints, ToolRecord,
};

use crate::error::Error;
use crate::handler::context::StateMap;
use crate::schema::SchemaProfile;

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
    pub(crate) mirrored: Vec<mirror::HeaderParam>,
    /// The properties a call may give, when others are refused; `None` when any property is
    /// accepted.
    pub(crate) known_properties: Option<KnownProperties>,
}

/// The property names of a tool's input schema, sorted.
pub(crate) type KnownProperties = Box<[String]>;

/// A fixed-URI resource ready to serve.
pub(crate) struct ResourceEntry {
    pub(crate) record: ResourceRecord,
    pub(crate) descriptor: Resource,
    /// Slots for reads in flight, from `max_concurrency`.
    pub(crate) limit: Option<Arc<Semaphore>>,
}

/// A resource template ready to serve.
pub(crate) struct TemplateEntry {
    pub(crate) record: ResourceRecord,
    pub(crate) template: UriTemplate,
    pub(crate) descriptor: ResourceTemplate,
    /// Slots for reads in flight (whatever URI they matched), from `max_concurrency`.
    pub(crate) limit: Option<Arc<Semaphore>>,
}

/// A prompt ready to serve.
pub(crate) struct PromptEntry {
    pub(crate) record: PromptRecord,
    pub(crate) descriptor: Prompt,
    /// Slots for gets in flight, from `max_concurrency`.
    pub(crate) limit: Option<Arc<Semaphore>>,
}

/// The semaphore of an item with `max_concurrency`: one permit per call in flight.
fn limit(max_concurrency: Option<u32>) -> Option<Arc<Semaphore>> {
    max_concurrency.map(|n| Arc::new(Semaphore::new(n.max(1) as usize)))
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
    pub(crate) tool_index: HashMap<&'static str, usize>,
    pub(crate) resources: Vec<ResourceEntry>,
    pub(crate) resource_index: HashMap<&'static str, usize>,
    pub(crate) templates: Vec<TemplateEntry>,
    pub(crate) prompts: Vec<PromptEntry>,
    pub(crate) prompt_index: HashMap<&'static str, usize>,
    /// Indexed by `version_slot`.
    pub(crate) pages: Vec<Pages>,
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
}

fn icons(records: &[IconRecord]) -> Option<Vec<Icon>> {
    if records.is_empty() {
        return None;
    }
    Some(
        records
            .iter()
            .map(|r| {
                let mut icon = Icon::new(r.src);
                icon.mime_type = r.mime_type.map(str::to_owned);
                if !r.sizes.is_empty() {
                    icon.sizes = Some(r.sizes.iter().map(|s| (*s).to_owned()).collect());
                }
                icon.theme = r
                    .theme
                    .and_then(|t| serde_json::from_value(Value::String(t.to_owned())).ok());
                icon
            })
            .collect(),
    )
}

fn meta(
    kind: &'static str,
    name: &str,
    location: Location,
    text: Option<&str>,
) -> Result<Option<mcp_core::Meta>, Error> {
    let Some(text) = text else { return Ok(None) };
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => Ok(Some(map)),
        _ => Err(Error::InvalidItem {
            kind,
            name: name.to_owned(),
            location: location.to_string(),
            reason: "`meta` must be a JSON object".into(),
        }),
    }
}

/// The tool's descriptor, and the properties a call may give when unknown ones are refused.
fn tool_descriptor(
    record: &ToolRecord,
    settings: &CatalogSettings<'_>,
) -> Result<(Tool, Option<KnownProperties>), Error> {
    let profile = settings.profile;
    let invalid = |reason: String| Error::InvalidItem {
        kind: "tool",
        name: record.name.to_owned(),
        location: record.location.to_string(),
        reason,
    };
    let mut known_properties = None;
    let input_schema = match record.input_schema {
        InputSchema::Generated(generate) => {
            let mut generator = profile.generator();
            let mut schema = profile.finish(generate(&mut generator));
            // The hidden argument struct has no doc of its own: a root description comes from
            // a flattened parameter's type and is not the tool's.
            if let Some(root) = schema.as_object_mut() {
                root.remove("description");
            }
            let refuse = !record
                .allow_unknown_args
                .unwrap_or(settings.allow_unknown_args);
            if refuse {
                known_properties = profile.close_root(&mut schema);
            }
            schema
        }
        InputSchema::Raw(text) => serde_json::from_str::<Value>(text)
            .map_err(|e| invalid(format!("raw input schema is not JSON: {e}")))?,
    };
    if input_schema.get("type").and_then(Value::as_str) != Some("object") {
        return Err(invalid(
            "the input schema must have `\"type\": \"object\"` at its root".into(),
        ));
    }
    let mut generator = profile.generator();
    let output_schema = (record.output_schema)(&mut generator).map(|s| profile.finish(s));
    let mut tool = Tool::new(record.name, input_schema);
    tool.title = record.title.map(str::to_owned);
    tool.description = record.description.map(str::to_owned);
    tool.output_schema = output_schema;
    let h = record.hints;
    if h != ToolHints::NONE || record.title.is_some() {
        let mut a = ToolAnnotations::new();
        a.title = record.title.map(str::to_owned);
        a.read_only_hint = h.read_only;
        a.destructive_hint = h.destructive;
        a.idempotent_hint = h.idempotent;
        a.open_world_hint = h.open_world;
        tool.annotations = Some(a);
    }
    tool.icons = icons(record.icons);
    tool.meta = meta("tool", record.name, record.location, record.meta)?;
    Ok((tool, known_properties))
}

fn check_unique<'a>(
    kind: &'static str,
    items: impl Iterator<Item = (&'a str, Location)>,
) -> Result<(), Error> {
    let mut seen: HashMap<&str, Location> = HashMap::new();
    for (name, location) in items {
        if let Some(first) = seen.insert(name, location) {
            let (a, b) = if (first.file, first.line) <= (location.file, location.line) {
                (first, location)
            } else {
                (location, first)
            };
            return Err(Error::Duplicate {
                kind,
                name: name.to_owned(),
                first: a.to_string(),
                second: b.to_string(),
            });
        }
    }
    Ok(())
}

impl Catalog {
    /// Checks and builds everything; the only place descriptors are made.
    pub(crate) fn build(
        mut tools: Vec<ToolRecord>,
        mut resources: Vec<ResourceRecord>,
        mut prompts: Vec<PromptRecord>,
        settings: &CatalogSettings<'_>,
    ) -> Result<Catalog, Error> {
        tools.sort_by(|a, b| a.name.cmp(b.name));
        resources.sort_by(|a, b| a.name.cmp(b.name).then(a.uri.cmp(b.uri)));
        prompts.sort_by(|a, b| a.name.cmp(b.name));
        check_unique("tool", tools.iter().map(|t| (t.name, t.location)))?;
        check_unique("prompt", prompts.iter().map(|p| (p.name, p.location)))?;
        check_unique("resource", resources.iter().map(|r| (r.uri, r.location)))?;
        needs::check(&tools, &resources, &prompts, settings.state)?;

        let mut tool_entries = Vec::with_capacity(tools.len());
        for record in tools {
            let (descriptor, known_properties) = tool_descriptor(&record, settings)?;
            let mirrored = mirror::header_params(&descriptor.input_schema);
            tool_entries.push(ToolEntry {
                limit: limit(record.max_concurrency),
                record,
                descriptor,
                mirrored,
                known_properties,
            });
        }

        let mut resource_entries = Vec::new();
        let mut template_entries = Vec::new();
        for record in resources {
            let template = UriTemplate::parse(record.uri).map_err(|e| Error::InvalidItem {
                kind: "resource",
                name: record.name.to_owned(),
                location: record.location.to_string(),
                reason: format!("URI template: {e}"),
            })?;
            let meta = meta("resource", record.name, record.location, record.meta)?;
            if template.is_literal() {
                let mut d = Resource::new(record.uri, record.name);
                d.title = record.title.map(str::to_owned);
                d.description = record.description.map(str::to_owned);
                d.mime_type = record.mime_type.map(str::to_owned);
                d.icons = icons(record.icons);
                d.meta = meta;
                resource_entries.push(ResourceEntry {
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
                limit: limit(record.max_concurrency),
                record,
                descriptor: d,
            });
        }

        let mut catalog = Catalog {
            tool_index: tool_entries
                .iter()
                .enumerate()
                .map(|(i, t)| (t.record.name, i))
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
                .map(|(i, p)| (p.record.name, i))
                .collect(),
            prompts: prompt_entries,
            pages: Vec::new(),
        };
        catalog.pages = ProtocolVersion::ALL
            .iter()
            .map(|v| catalog.pages_for(*v, settings))
            .collect();
        Ok(catalog)
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
mod tests {
    use mcp_core::{GetPromptResult, ResourceContents};

    use super::*;
    use crate::error::HandlerError;
    use crate::handler::context::Context;

    fn read(
        _: Context,
        _: ResourceRequest,
    ) -> BoxFuture<Result<Vec<ResourceContents>, HandlerError>> {
        Box::pin(async { Ok(Vec::new()) })
    }

    fn get(_: Context, _: PromptArguments) -> BoxFuture<Result<GetPromptResult, HandlerError>> {
        Box::pin(async { Ok(GetPromptResult::new(Vec::new())) })
    }

    const HERE: Location = Location {
        file: file!(),
        line: 1,
        column: 1,
    };

    fn resource(
        name: &'static str,
        uri: &'static str,
        max_concurrency: Option<u32>,
    ) -> ResourceRecord {
        ResourceRecord {
            name,
            title: None,
            description: None,
            uri,
            mime_type: None,
            icons: &[],
            meta: None,
            read,
            state_needs: |_| {},
            completions: &[],
            server: "",
            timeout_ms: Some(100),
            max_concurrency,
            location: HERE,
        }
    }

    fn prompt(name: &'static str, max_concurrency: Option<u32>) -> PromptRecord {
        PromptRecord {
            name,
            title: None,
            description: None,
            icons: &[],
            meta: None,
            arguments: &[],
            get,
            state_needs: |_| {},
            completions: &[],
            server: "",
            timeout_ms: None,
            max_concurrency,
            location: HERE,
        }
    }

    fn permits(limit: Option<&Arc<Semaphore>>) -> Option<usize> {
        limit.map(|s| s.available_permits())
    }

    #[test]
    fn resources_templates_and_prompts_get_their_limit() {
        let meta = mcp_core::Meta::new();
        let settings = CatalogSettings {
            profile: SchemaProfile::default(),
            page_size: 10,
            ttl_ms: 0,
            server_info_meta: &meta,
            state: &StateMap::new(),
            allow_unknown_args: false,
        };
        let catalog = Catalog::build(
            Vec::new(),
            vec![
                resource("fixed", "x://fixed", Some(2)),
                resource("free", "x://free", None),
                resource("template", "x://t/{id}", Some(1)),
            ],
            vec![prompt("limited", Some(3)), prompt("unlimited", None)],
            &settings,
        )
        .unwrap();

        let (record, _, limit) = catalog.find_resource("x://fixed").unwrap();
        assert_eq!((record.name, permits(limit)), ("fixed", Some(2)));
        let (record, _, limit) = catalog.find_resource("x://free").unwrap();
        assert_eq!((record.name, permits(limit)), ("free", None));
        let (record, request, limit) = catalog.find_resource("x://t/7").unwrap();
        assert_eq!((record.name, permits(limit)), ("template", Some(1)));
        assert_eq!(request.var("id"), Some("7"));
        // One semaphore per template, whatever URI matched it.
        let (_, _, again) = catalog.find_resource("x://t/8").unwrap();
        assert!(Arc::ptr_eq(limit.unwrap(), again.unwrap()));
        assert_eq!(record.timeout_ms, Some(100));

        let limited = &catalog.prompts[catalog.prompt_index["limited"]];
        assert_eq!(permits(limited.limit.as_ref()), Some(3));
        let unlimited = &catalog.prompts[catalog.prompt_index["unlimited"]];
        assert!(unlimited.limit.is_none());
    }
}
