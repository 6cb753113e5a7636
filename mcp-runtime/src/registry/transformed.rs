//! The server's own items transformed (`ServerBuilder::transform`), once, when the catalog is
//! built: descriptors replaced, hidden items dropped, each transformed item given the mapping of
//! its arguments and its tags. A transform naming no item, or not fitting its item, stops the
//! build.

use super::{PromptEntry, ResourceEntry, TemplateEntry, ToolEntry};
use crate::error::Error;
use crate::transform::view::merged;
use crate::transform::{Transforms, apply};

fn invalid(kind: &'static str, name: &str, location: String, reason: String) -> Error {
    Error::InvalidItem {
        kind,
        name: name.to_owned(),
        location,
        reason: format!("its transform does not fit: {reason}"),
    }
}

/// Applies `transforms` to the local items; `Err` for a transform that names nothing or does not
/// fit, or a resource or prompt exposed as a tool (mounted servers' only).
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
    if let Some(rt) = t.resource_tools.first() {
        return Err(Error::Config(format!(
            "resource tool `{}`: resources and prompts are exposed as tools on mounted servers \
             only (ServerBuilder::mount_with)",
            rt.tool
        )));
    }
    if let Some(pt) = t.prompt_tools.first() {
        return Err(Error::Config(format!(
            "prompt tool `{}`: resources and prompts are exposed as tools on mounted servers \
             only (ServerBuilder::mount_with)",
            pt.tool
        )));
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
