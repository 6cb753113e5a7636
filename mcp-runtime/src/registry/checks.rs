//! The build-time checks of the records: names and URIs given once, and every `State<T>` a
//! handler or a completion hook takes (through
//! [`FromContext::state_needs`](crate::FromContext::state_needs)) given to the builder, so a
//! forgotten `.state(value)` stops the build instead of failing every call.

use std::collections::HashMap;

use super::record::{
    CompletionRecord, Location, PromptRecord, ResourceRecord, StateNeedsFn, ToolRecord,
};
use crate::error::Error;
use crate::handler::context::{StateMap, StateNeeds};

/// The first name (or URI) given twice, with both declaration sites, first one first.
pub(super) fn unique<'a>(
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

/// The first item (in the order given) whose injected parameters need state that `state` lacks.
pub(super) fn state(
    tools: &[ToolRecord],
    resources: &[ResourceRecord],
    prompts: &[PromptRecord],
    state: &StateMap,
) -> Result<(), Error> {
    for tool in tools {
        item(state, tool.state_needs, tool.location, || {
            format!("tool `{}`", tool.name)
        })?;
    }
    for resource in resources {
        item(state, resource.state_needs, resource.location, || {
            format!("resource `{}`", resource.name)
        })?;
        hooks(state, resource.completions, resource.location, || {
            format!("resource `{}`", resource.name)
        })?;
    }
    for prompt in prompts {
        item(state, prompt.state_needs, prompt.location, || {
            format!("prompt `{}`", prompt.name)
        })?;
        hooks(state, prompt.completions, prompt.location, || {
            format!("prompt `{}`", prompt.name)
        })?;
    }
    Ok(())
}

fn hooks(
    state: &StateMap,
    hooks: &[CompletionRecord],
    location: Location,
    owner: impl Fn() -> String,
) -> Result<(), Error> {
    for hook in hooks {
        item(state, hook.state_needs, location, || {
            format!("the completion hook of `{}` in {}", hook.argument, owner())
        })?;
    }
    Ok(())
}

fn item(
    state: &StateMap,
    needs_of: StateNeedsFn,
    location: Location,
    item: impl FnOnce() -> String,
) -> Result<(), Error> {
    let mut needs = StateNeeds::new();
    needs_of(&mut needs);
    match needs.first_missing(state) {
        None => Ok(()),
        Some(type_name) => Err(Error::MissingState {
            item: item(),
            location: location.to_string(),
            type_name,
        }),
    }
}
