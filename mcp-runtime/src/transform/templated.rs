//! A resource exposed as a tool ([`ResourceTool`]): a fixed URI's tool takes no arguments; a
//! template's variables are the tool's arguments (strings, every one required), and a call reads
//! the resource the template (parsed once, with the catalog or the mounted list) expands to.

use std::collections::BTreeMap;

use mcp_core::{Tool, UriTemplate};
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use super::ResourceTool;
use super::view::{Tags, tags_of};

/// The tool of a [`ResourceTool`] with `schema`, described by the resource when it says nothing
/// itself: read-only, not destructive.
fn reading_tool(t: &ResourceTool, schema: Value, description: Option<&str>) -> (Tool, Tags) {
    let mut tool = Tool::new(&t.tool, schema);
    tool.description = t.description.clone().or(description.map(str::to_owned));
    let mut a = mcp_core::ToolAnnotations::new().read_only(true);
    a.destructive_hint = Some(false);
    tool.annotations = Some(a);
    (tool, tags_of(&t.tags))
}

/// The tool of a [`ResourceTool`] naming a resource of a fixed URI: no arguments.
pub(crate) fn resource_tool(t: &ResourceTool, description: Option<&str>) -> (Tool, Tags) {
    let schema = json!({"type": "object", "properties": {}});
    reading_tool(t, schema, description)
}

/// The tool of a [`ResourceTool`] naming `template`: one string property per variable, each
/// required, described by the template.
pub(crate) fn template_tool(
    t: &ResourceTool,
    template: &UriTemplate,
    description: Option<&str>,
) -> (Tool, Tags) {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for name in template.variables() {
        if properties.contains_key(name) {
            continue;
        }
        let about = format!("`{{{name}}}` of {}", template.as_str());
        properties.insert(
            name.to_owned(),
            json!({"type": "string", "description": about}),
        );
        required.push(Value::String(name.to_owned()));
    }
    let mut schema = json!({"type": "object", "properties": properties});
    if !required.is_empty() {
        schema["required"] = Value::Array(required);
    }
    reading_tool(t, schema, description)
}

/// The URI `template` expands to with a call's (checked) arguments; `Err` for arguments that
/// are not one string per variable.
pub(crate) fn expand(
    template: &UriTemplate,
    arguments: Option<&RawValue>,
) -> Result<String, String> {
    let given: Map<String, Value> = match arguments {
        Some(raw) => serde_json::from_str(raw.get()).map_err(|e| e.to_string())?,
        None => Map::new(),
    };
    let mut vars = BTreeMap::new();
    for (k, v) in given {
        match v {
            Value::String(s) => {
                vars.insert(k, s);
            }
            other => return Err(format!("property '{k}': expected a string, got {other}")),
        }
    }
    Ok(template.expand(&vars))
}

/// The variables of `uri` as `template` matches it back: what a `resources/read` of it gives the
/// handler; `Err` for values the template cannot carry.
pub(crate) fn matched(
    template: &UriTemplate,
    uri: &str,
) -> Result<BTreeMap<String, String>, String> {
    template.match_uri(uri).ok_or_else(|| {
        format!(
            "the arguments do not make a URI of {}: {uri}",
            template.as_str()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_template_becomes_a_schema_and_arguments_a_uri() {
        let template = UriTemplate::parse("logs://{day}/{name}").unwrap();
        let (tool, _) = template_tool(
            &ResourceTool::new("log", "logs://{day}/{name}"),
            &template,
            None,
        );
        assert_eq!(
            tool.input_schema,
            json!({"type": "object", "properties": {
                "day": {"type": "string", "description": "`{day}` of logs://{day}/{name}"},
                "name": {"type": "string", "description": "`{name}` of logs://{day}/{name}"}
            }, "required": ["day", "name"]})
        );
        let args = RawValue::from_string(r#"{"day": "2026-12-04", "name": "a b"}"#.into()).unwrap();
        let uri = expand(&template, Some(&args)).unwrap();
        assert_eq!(uri, "logs://2026-12-04/a%20b");
        let vars = matched(&template, &uri).unwrap();
        assert_eq!(vars.get("name").map(String::as_str), Some("a b"));
        let bad = RawValue::from_string(r#"{"day": 4}"#.into()).unwrap();
        assert_eq!(
            expand(&template, Some(&bad)).unwrap_err(),
            "property 'day': expected a string, got 4"
        );
    }
}
