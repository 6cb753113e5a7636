//! Transforms applied to descriptors: once when a catalog is built (local items), once per
//! remote list (mounted items).

use std::collections::HashMap;
use std::sync::Arc;

use mcp_core::{Prompt, Tool};
use serde_json::{Value, json};

use super::args::{ArgMap, rewrite};
use super::templated::{resource_tool, template_tool};
use super::view::{Tags, merged, tags_of};
use super::{ArgValue, PromptTool, PromptTransform, ToolTransform, Transforms};
use std::collections::BTreeMap;

/// A prompt's arguments, by name.
pub(crate) type PromptArguments = BTreeMap<String, String>;

/// A tool as the client sees it: its descriptor, the mapping of its calls' arguments (when its
/// arguments are transformed) and its tags.
pub(crate) struct Shown<D, A> {
    pub(crate) descriptor: D,
    pub(crate) args: Option<Arc<A>>,
    pub(crate) tags: Tags,
}

impl Transforms {
    /// The transform of the tool `name`.
    pub(crate) fn tool(&self, name: &str) -> Option<&ToolTransform> {
        self.tools.iter().find(|t| t.name == name)
    }

    /// The transform of the prompt `name`.
    pub(crate) fn prompt(&self, name: &str) -> Option<&PromptTransform> {
        self.prompts.iter().find(|t| t.name == name)
    }

    /// Whether the resource (or template) `uri` is hidden, its tags, and its new title and
    /// description.
    pub(crate) fn resource(
        &self,
        uri: &str,
        title: &mut Option<String>,
        description: &mut Option<String>,
    ) -> Option<Tags> {
        let Some(t) = self.resources.iter().find(|t| t.uri == uri) else {
            return Some(Tags::default());
        };
        if t.hidden {
            return None;
        }
        if t.title.is_some() {
            title.clone_from(&t.title);
        }
        if t.description.is_some() {
            description.clone_from(&t.description);
        }
        Some(tags_of(&t.tags))
    }
}

/// Whether `name` is a tool name by the spec's rules: 1-128 of `A-Za-z0-9_-.`.
pub(crate) fn valid_tool_name(name: &str) -> bool {
    (1..=128).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

/// `tool` transformed by `t`: `Ok(None)` when hidden, `Err` when the transform does not fit it.
pub(crate) fn tool(
    mut tool: Tool,
    t: Option<&ToolTransform>,
) -> Result<Option<Shown<Tool, ArgMap>>, String> {
    let Some(t) = t else {
        return Ok(Some(Shown {
            descriptor: tool,
            args: None,
            tags: Tags::default(),
        }));
    };
    if t.hidden {
        return Ok(None);
    }
    if let Some(name) = &t.rename {
        if !valid_tool_name(name) {
            return Err(format!("the new name `{name}` breaks the tool-name rules"));
        }
        tool.name.clone_from(name);
    }
    if t.title.is_some() {
        tool.title.clone_from(&t.title);
    }
    if t.description.is_some() {
        tool.description.clone_from(&t.description);
    }
    if let Some(over) = &t.annotations {
        let a = tool.annotations.get_or_insert_with(Default::default);
        let pick = |mine: &mut Option<bool>, theirs: Option<bool>| {
            if theirs.is_some() {
                *mine = theirs;
            }
        };
        if over.title.is_some() {
            a.title.clone_from(&over.title);
        }
        pick(&mut a.read_only_hint, over.read_only_hint);
        pick(&mut a.destructive_hint, over.destructive_hint);
        pick(&mut a.idempotent_hint, over.idempotent_hint);
        pick(&mut a.open_world_hint, over.open_world_hint);
    }
    let args = if t.args.is_empty() {
        None
    } else {
        let (schema, map) = rewrite(&tool.input_schema, &t.args)?;
        tool.input_schema = schema;
        Some(Arc::new(map))
    };
    Ok(Some(Shown {
        descriptor: tool,
        args,
        tags: tags_of(&t.tags),
    }))
}

/// What a call of a transformed prompt does with its arguments.
#[derive(Debug, Default)]
pub(crate) struct PromptArgMap {
    /// Shown name → original name.
    renamed: Vec<(String, String)>,
    /// Shown name → value given when absent.
    defaults: Vec<(String, String)>,
    /// Original name → value given on every call.
    fixed: Vec<(String, String)>,
    /// Shown names that must be given.
    required: Vec<String>,
}

impl PromptArgMap {
    /// The arguments as the prompt takes them; `Err` names every required argument missing.
    pub(crate) fn apply(&self, mut args: PromptArguments) -> Result<PromptArguments, String> {
        let missing: Vec<String> = self
            .required
            .iter()
            .filter(|r| !args.contains_key(*r))
            .map(|r| format!("missing required argument '{r}'"))
            .collect();
        match missing.as_slice() {
            [] => {}
            [one] => return Err(one.clone()),
            many => {
                let lines: Vec<String> = many.iter().map(|m| format!("\n- {m}")).collect();
                return Err(format!("{} problems:{}", many.len(), lines.concat()));
            }
        }
        for (fixed, _) in &self.fixed {
            args.remove(fixed);
        }
        for (name, value) in &self.defaults {
            args.entry(name.clone()).or_insert_with(|| value.clone());
        }
        for (shown, original) in &self.renamed {
            if let Some(value) = args.remove(shown) {
                args.insert(original.clone(), value);
            }
        }
        for (name, value) in &self.fixed {
            args.insert(name.clone(), value.clone());
        }
        Ok(args)
    }
}

/// `prompt` transformed by `t`: `Ok(None)` when hidden.
pub(crate) fn prompt(
    mut prompt: Prompt,
    t: Option<&PromptTransform>,
) -> Result<Option<Shown<Prompt, PromptArgMap>>, String> {
    let Some(t) = t else {
        return Ok(Some(Shown {
            descriptor: prompt,
            args: None,
            tags: Tags::default(),
        }));
    };
    if t.hidden {
        return Ok(None);
    }
    if let Some(name) = &t.rename {
        prompt.name.clone_from(name);
    }
    if t.title.is_some() {
        prompt.title.clone_from(&t.title);
    }
    if t.description.is_some() {
        prompt.description.clone_from(&t.description);
    }
    let mut map = PromptArgMap::default();
    let mut declared = prompt.arguments.take().unwrap_or_default();
    for (name, a) in &t.args {
        let Some(i) = declared.iter().position(|d| d.name == *name) else {
            return Err(format!("it has no argument `{name}`"));
        };
        let text = |v: &Value| match v {
            Value::String(s) => Ok(s.clone()),
            _ => Err(format!("the value of `{name}` is not a string")),
        };
        match &a.value {
            ArgValue::Fixed(v) => {
                map.fixed.push((name.clone(), text(v)?));
                declared.remove(i);
                continue;
            }
            ArgValue::Default(v) => {
                let shown = a.rename.clone().unwrap_or_else(|| name.clone());
                map.defaults.push((shown, text(v)?));
                declared[i].required = Some(false);
            }
            ArgValue::None => {}
        }
        let d = &mut declared[i];
        if let Some(new) = &a.rename {
            map.renamed.push((new.clone(), name.clone()));
            d.name.clone_from(new);
        }
        if a.description.is_some() {
            d.description.clone_from(&a.description);
        }
    }
    map.required = declared
        .iter()
        .filter(|d| d.required == Some(true))
        .map(|d| d.name.clone())
        .collect();
    if !declared.is_empty() {
        prompt.arguments = Some(declared);
    }
    let args = (!t.args.is_empty()).then(|| Arc::new(map));
    Ok(Some(Shown {
        descriptor: prompt,
        args,
        tags: tags_of(&t.tags),
    }))
}

/// The tool of a [`PromptTool`]: the prompt's arguments as string properties.
pub(crate) fn prompt_tool(t: &PromptTool, prompt: &Prompt) -> (Tool, Tags) {
    let mut properties = serde_json::Map::new();
    let mut required = Vec::new();
    for a in prompt.arguments.iter().flatten() {
        let mut p = json!({"type": "string"});
        if let Some(d) = &a.description {
            p["description"] = Value::String(d.clone());
        }
        properties.insert(a.name.clone(), p);
        if a.required == Some(true) {
            required.push(Value::String(a.name.clone()));
        }
    }
    let mut schema = json!({"type": "object", "properties": properties});
    if !required.is_empty() {
        schema["required"] = Value::Array(required);
    }
    let mut tool = Tool::new(&t.tool, schema);
    tool.description = t.description.clone().or_else(|| prompt.description.clone());
    (tool, tags_of(&t.tags))
}

/// A tool's arguments as a prompt's (strings; other values as their JSON text).
pub(crate) fn prompt_arguments(arguments: Option<&serde_json::value::RawValue>) -> PromptArguments {
    let mut args = PromptArguments::new();
    let given: serde_json::Map<String, Value> = arguments
        .and_then(|raw| serde_json::from_str(raw.get()).ok())
        .unwrap_or_default();
    for (k, v) in given {
        let text = match v {
            Value::String(s) => s,
            Value::Null => continue,
            other => other.to_string(),
        };
        args.insert(k, text);
    }
    args
}

/// What a mounted tool runs on its server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Runs {
    /// The remote tool of that name.
    Tool,
    /// A read of the remote resource of that URI.
    Resource,
    /// A read of the remote resource this template (the remote's) expands to with the
    /// arguments.
    Template(Arc<mcp_core::UriTemplate>),
    /// A get of the remote prompt of that name.
    Prompt,
}

/// A mounted tool or prompt with its transform: its remote name (or URI), what it runs there,
/// its arguments' mapping and its tags.
#[derive(Debug)]
pub(crate) struct Mapped<A> {
    pub(crate) remote: Arc<str>,
    pub(crate) runs: Runs,
    pub(crate) args: Option<Arc<A>>,
    pub(crate) tags: Tags,
}

/// The transform of a mounted item a request names.
#[derive(Clone, Copy)]
pub(crate) enum Found<'a> {
    Tool(&'a Mapped<ArgMap>),
    Prompt(&'a Mapped<PromptArgMap>),
    Resource,
}

/// A mount's remote lists transformed (remote names, before the prefix), each tool and prompt
/// with what it maps to.
pub(crate) struct Transformed {
    pub(crate) tools: Vec<(Tool, Mapped<ArgMap>)>,
    pub(crate) resources: Vec<mcp_core::Resource>,
    pub(crate) templates: Vec<mcp_core::ResourceTemplate>,
    pub(crate) prompts: Vec<(Prompt, Mapped<PromptArgMap>)>,
    /// Tags of resources and templates, by our URI (the prefix applied).
    pub(crate) resource_tags: HashMap<Box<str>, Tags>,
}

impl Transformed {
    /// Remote lists, not transformed yet.
    pub(crate) fn plain(
        tools: Vec<Tool>,
        resources: Vec<mcp_core::Resource>,
        templates: Vec<mcp_core::ResourceTemplate>,
        prompts: Vec<Prompt>,
    ) -> Self {
        fn plain<A>(name: &str, runs: Runs) -> Mapped<A> {
            Mapped {
                remote: Arc::from(name),
                runs,
                args: None,
                tags: Tags::default(),
            }
        }
        Self {
            tools: tools
                .into_iter()
                .map(|t| {
                    let m = plain(&t.name, Runs::Tool);
                    (t, m)
                })
                .collect(),
            resources,
            templates,
            prompts: prompts
                .into_iter()
                .map(|p| {
                    let m = plain(&p.name, Runs::Prompt);
                    (p, m)
                })
                .collect(),
            resource_tags: HashMap::new(),
        }
    }
}

/// `remote` transformed by `transforms` (an item a transform does not fit is left out, logged).
pub(crate) fn remote_lists(
    remote: Transformed,
    transforms: &Transforms,
    prefix: &str,
) -> Transformed {
    let ours = |uri: &str| match prefix {
        "" => uri.to_owned(),
        p => format!("{p}+{uri}"),
    };
    let mut out = Transformed {
        tools: Vec::with_capacity(remote.tools.len()),
        resources: Vec::with_capacity(remote.resources.len()),
        templates: Vec::with_capacity(remote.templates.len()),
        prompts: Vec::with_capacity(remote.prompts.len()),
        resource_tags: HashMap::new(),
    };
    for (t, _) in remote.tools {
        let remote_name: Arc<str> = Arc::from(t.name.as_str());
        let own = remote_tags(t.meta.as_ref());
        match tool(t, transforms.tool(&remote_name)) {
            Ok(None) => {}
            Ok(Some(shown)) => out.tools.push((
                shown.descriptor,
                Mapped {
                    remote: remote_name,
                    runs: Runs::Tool,
                    args: shown.args,
                    tags: merged(&own, &shown.tags),
                },
            )),
            Err(e) => {
                tracing::warn!(prefix, tool = %remote_name, "mounted tool left out: its transform does not fit: {e}")
            }
        }
    }
    for t in &transforms.resource_tools {
        if let Some(r) = remote.resources.iter().find(|r| r.uri == t.uri) {
            let (descriptor, tags) = resource_tool(t, r.description.as_deref());
            out.tools
                .push((descriptor, exposed_as(&t.uri, Runs::Resource, None, tags)));
            continue;
        }
        let template = remote.templates.iter().find(|r| r.uri_template == t.uri);
        let parsed = template.and_then(|r| mcp_core::UriTemplate::parse(&r.uri_template).ok());
        let (Some(r), Some(parsed)) = (template, parsed.map(Arc::new)) else {
            tracing::warn!(prefix, uri = %t.uri, "resource tool left out: the mounted server lists no such resource or template");
            continue;
        };
        let (descriptor, tags) = template_tool(t, &parsed, r.description.as_deref());
        let check = rewrite(&descriptor.input_schema, &[])
            .ok()
            .map(|(_, m)| Arc::new(m));
        out.tools.push((
            descriptor,
            exposed_as(&t.uri, Runs::Template(parsed), check, tags),
        ));
    }
    for t in &transforms.prompt_tools {
        let Some((p, _)) = remote.prompts.iter().find(|(p, _)| p.name == t.prompt) else {
            tracing::warn!(prefix, prompt = %t.prompt, "prompt tool left out: the mounted server lists no such prompt");
            continue;
        };
        let (descriptor, tags) = prompt_tool(t, p);
        let check = rewrite(&descriptor.input_schema, &[])
            .ok()
            .map(|(_, m)| Arc::new(m));
        out.tools
            .push((descriptor, exposed_as(&t.prompt, Runs::Prompt, check, tags)));
    }
    for mut r in remote.resources {
        match transforms.resource(&r.uri, &mut r.title, &mut r.description) {
            None => {}
            Some(tags) => {
                let tags = merged(&remote_tags(r.meta.as_ref()), &tags);
                if !tags.is_empty() {
                    out.resource_tags.insert(ours(&r.uri).into(), tags);
                }
                out.resources.push(r);
            }
        }
    }
    for mut r in remote.templates {
        match transforms.resource(&r.uri_template, &mut r.title, &mut r.description) {
            None => {}
            Some(tags) => {
                let tags = merged(&remote_tags(r.meta.as_ref()), &tags);
                if !tags.is_empty() {
                    out.resource_tags.insert(ours(&r.uri_template).into(), tags);
                }
                out.templates.push(r);
            }
        }
    }
    for (p, _) in remote.prompts {
        let remote_name: Arc<str> = Arc::from(p.name.as_str());
        let own = remote_tags(p.meta.as_ref());
        match prompt(p, transforms.prompt(&remote_name)) {
            Ok(None) => {}
            Ok(Some(shown)) => out.prompts.push((
                shown.descriptor,
                Mapped {
                    remote: remote_name,
                    runs: Runs::Prompt,
                    args: shown.args,
                    tags: merged(&own, &shown.tags),
                },
            )),
            Err(e) => {
                tracing::warn!(prefix, prompt = %remote_name, "mounted prompt left out: its transform does not fit: {e}")
            }
        }
    }
    out
}

/// The tags a mounted server gives an item itself: FastMCP's, in `_meta._fastmcp.tags`.
fn remote_tags(meta: Option<&mcp_core::Meta>) -> Tags {
    let list = meta
        .and_then(|m| m.get("_fastmcp"))
        .and_then(|f| f.get("tags"))
        .and_then(Value::as_array);
    list.into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(Box::from)
        .collect()
}

fn exposed_as(remote: &str, runs: Runs, args: Option<Arc<ArgMap>>, tags: Tags) -> Mapped<ArgMap> {
    Mapped {
        remote: Arc::from(remote),
        runs,
        args,
        tags,
    }
}

#[cfg(test)]
mod tests {
    use mcp_core::PromptArgument;

    use super::*;
    use crate::transform::ArgTransform;

    #[test]
    fn a_prompt_is_renamed_with_its_arguments() {
        let mut p = Prompt::new("greet");
        let mut who = PromptArgument::new("who");
        who.required = Some(true);
        let mut tone = PromptArgument::new("tone");
        tone.required = Some(true);
        p.arguments = Some(vec![who, tone, PromptArgument::new("lang")]);
        let t = PromptTransform::new("greet")
            .rename("hello")
            .arg("who", ArgTransform::rename("name"))
            .arg("tone", ArgTransform::new().default(json!("warm")))
            .arg("lang", ArgTransform::fixed(json!("en")));
        let shown = prompt(p, Some(&t)).unwrap().unwrap();
        assert_eq!(
            serde_json::to_value(&shown.descriptor).unwrap(),
            json!({"name": "hello", "arguments": [
                {"name": "name", "required": true},
                {"name": "tone", "required": false}
            ]})
        );
        let map = shown.args.unwrap();
        let mut given = PromptArguments::default();
        given.insert("name".into(), "Ada".into());
        given.insert("lang".into(), "fr".into());
        let got = map.apply(given).unwrap();
        let want: Vec<(&str, &str)> = vec![("lang", "en"), ("tone", "warm"), ("who", "Ada")];
        let got: Vec<(&str, &str)> = got.iter().map(|(k, v)| (&**k, &**v)).collect();
        assert_eq!(got, want);
        assert_eq!(
            map.apply(PromptArguments::default()).unwrap_err(),
            "missing required argument 'name'"
        );
    }
}
