//! The server's own items transformed (`ServerBuilder::transform`), once, when the catalog is
//! built: descriptors replaced, hidden items dropped, each transformed item given the mapping of
//! its arguments and its tags. A transform naming no item, or not fitting its item, stops the
//! build.

use std::sync::Arc;

use mcp_core::Tool;

use super::{PromptEntry, PromptRecord, ResourceEntry, ResourceRecord, TemplateEntry, ToolEntry};
use crate::error::Error;
use crate::transform::args::ArgMap;
use crate::transform::view::{Tags, merged};
use crate::transform::{Transforms, apply, templated};

fn invalid(kind: &'static str, name: &str, location: String, reason: String) -> Error {
    Error::InvalidItem {
        kind,
        name: name.to_owned(),
        location,
        reason: format!("its transform does not fit: {reason}"),
    }
}

/// Applies `transforms` to the local items; `Err` for a transform that names nothing or does not
/// fit.
pub(super) fn apply(
    t: &Transforms,
    tools: &mut Vec<ToolEntry>,
    resources: &mut Vec<ResourceEntry>,
    templates: &mut Vec<TemplateEntry>,
    prompts: &mut Vec<PromptEntry>,
) -> Result<(), Error> {
    if t.is_empty() {
        return Ok(());
    }
    for tt in &t.tools {
        if !tools.iter().any(|e| e.record.name == tt.name) {
            return Err(Error::Config(format!(
                "transform of tool `{}`: the server has no such tool",
                tt.name
            )));
        }
    }
    for pt in &t.prompts {
        if !prompts.iter().any(|e| e.record.name == pt.name) {
            return Err(Error::Config(format!(
                "transform of prompt `{}`: the server has no such prompt",
                pt.name
            )));
        }
    }
    for rt in &t.resources {
        let known = resources.iter().any(|e| e.record.uri == rt.uri)
            || templates.iter().any(|e| e.record.uri == rt.uri);
        if !known {
            return Err(Error::Config(format!(
                "transform of resource `{}`: the server has no such resource",
                rt.uri
            )));
        }
    }
    let mut kept = Vec::with_capacity(tools.len());
    for mut e in tools.drain(..) {
        let r = &e.record;
        match apply::tool(e.descriptor.clone(), t.tool(r.name)) {
            Ok(None) => {}
            Ok(Some(shown)) => {
                e.descriptor = shown.descriptor;
                e.args = shown.args;
                e.tags = merged(&e.tags, &shown.tags);
                // The headers mirror the arguments as the client names them.
                #[cfg(feature = "http")]
                if e.args.is_some() {
                    e.mirrored = super::mirror::header_params(&e.descriptor.input_schema);
                }
                kept.push(e);
            }
            Err(why) => return Err(invalid("tool", r.name, r.location.to_string(), why)),
        }
    }
    *tools = kept;
    let mut kept = Vec::with_capacity(prompts.len());
    for mut e in prompts.drain(..) {
        let r = &e.record;
        match apply::prompt(e.descriptor.clone(), t.prompt(r.name)) {
            Ok(None) => {}
            Ok(Some(shown)) => {
                e.descriptor = shown.descriptor;
                e.args = shown.args;
                e.tags = merged(&e.tags, &shown.tags);
                kept.push(e);
            }
            Err(why) => return Err(invalid("prompt", r.name, r.location.to_string(), why)),
        }
    }
    *prompts = kept;
    resources.retain_mut(|e| {
        let d = &mut e.descriptor;
        match t.resource(e.record.uri, &mut d.title, &mut d.description) {
            Some(tags) => {
                e.tags = merged(&e.tags, &tags);
                true
            }
            None => false,
        }
    });
    templates.retain_mut(|e| {
        let d = &mut e.descriptor;
        match t.resource(e.record.uri, &mut d.title, &mut d.description) {
            Some(tags) => {
                e.tags = merged(&e.tags, &tags);
                true
            }
            None => false,
        }
    });
    Ok(())
}

/// A local resource or prompt exposed as a tool (`ResourceTool`, `PromptTool`).
pub(crate) struct ExposedTool {
    pub(crate) descriptor: Tool,
    pub(crate) runs: Exposed,
    /// The tool's arguments checked against its schema (a prompt's).
    pub(crate) check: Option<Arc<ArgMap>>,
    pub(crate) tags: Tags,
}

/// What an exposed tool runs.
#[derive(Clone)]
pub(crate) enum Exposed {
    /// A read of a fixed-URI resource.
    Resource(ResourceRecord),
    /// A read of the resource a template (parsed once, here) expands to with the tool's
    /// arguments.
    Template(ResourceRecord, Arc<mcp_core::UriTemplate>),
    /// A get of a prompt.
    Prompt(PromptRecord),
}

impl ExposedTool {
    /// The OAuth scopes its resource or prompt declares.
    pub(crate) fn scopes(&self) -> &'static [&'static str] {
        match &self.runs {
            Exposed::Resource(r) | Exposed::Template(r, _) => r.scopes,
            Exposed::Prompt(p) => p.scopes,
        }
    }

    /// Its resource's or prompt's timeout.
    pub(crate) fn timeout_ms(&self) -> Option<u64> {
        match &self.runs {
            Exposed::Resource(r) | Exposed::Template(r, _) => r.timeout_ms,
            Exposed::Prompt(p) => p.timeout_ms,
        }
    }
}

/// The local resources and prompts `t` exposes as tools, made from the items as registered
/// (before their own transforms: a hidden prompt may still be exposed); `Err` for one naming
/// nothing, or a name a tool has already.
pub(super) fn exposed(
    t: &Transforms,
    tools: &[ToolEntry],
    resources: &[ResourceEntry],
    templates: &[TemplateEntry],
    prompts: &[PromptEntry],
) -> Result<Vec<ExposedTool>, Error> {
    let mut out: Vec<ExposedTool> = Vec::new();
    let taken = |name: &str, out: &[ExposedTool]| {
        let taken = t.tools.iter().any(|tt| tt.rename.as_deref() == Some(name))
            || tools.iter().any(|e| e.record.name == name)
            || out.iter().any(|e| e.descriptor.name == name);
        if taken || !crate::transform::apply::valid_tool_name(name) {
            return Err(Error::Config(format!(
                "exposed tool `{name}`: the name is a tool's already, or breaks the tool-name rules"
            )));
        }
        Ok(())
    };
    for rt in &t.resource_tools {
        taken(&rt.tool, &out)?;
        if let Some(r) = resources.iter().find(|e| e.record.uri == rt.uri) {
            let (descriptor, tags) =
                templated::resource_tool(rt, r.descriptor.description.as_deref());
            out.push(ExposedTool {
                descriptor,
                runs: Exposed::Resource(r.record),
                check: None,
                tags,
            });
            continue;
        }
        let Some(r) = templates.iter().find(|e| e.record.uri == rt.uri) else {
            return Err(Error::Config(format!(
                "resource tool `{}`: the server has no resource or template `{}`",
                rt.tool, rt.uri
            )));
        };
        let (descriptor, tags) =
            templated::template_tool(rt, &r.template, r.descriptor.description.as_deref());
        let check = crate::transform::args::rewrite(&descriptor.input_schema, &[])
            .ok()
            .map(|(_, m)| Arc::new(m));
        out.push(ExposedTool {
            descriptor,
            runs: Exposed::Template(r.record, Arc::new(r.template.clone())),
            check,
            tags,
        });
    }
    for pt in &t.prompt_tools {
        taken(&pt.tool, &out)?;
        let Some(p) = prompts.iter().find(|e| e.record.name == pt.prompt) else {
            return Err(Error::Config(format!(
                "prompt tool `{}`: the server has no prompt `{}`",
                pt.tool, pt.prompt
            )));
        };
        let (descriptor, tags) = apply::prompt_tool(pt, &p.descriptor);
        let check = crate::transform::args::rewrite(&descriptor.input_schema, &[])
            .ok()
            .map(|(_, m)| Arc::new(m));
        out.push(ExposedTool {
            descriptor,
            runs: Exposed::Prompt(p.record),
            check,
            tags,
        });
    }
    Ok(out)
}
