//! A resource template exposed as a tool ([`ResourceTool`] naming a template): the template's
//! variables are the tool's arguments (strings, every one required), and a call reads the
//! resource the template expands to with them.

use std::collections::BTreeMap;

use mcp_core::{Tool, UriTemplate};
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use super::ResourceTool;
use super::view::Tags;

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
    let mut tool = Tool::new(&t.tool, schema);
    tool.description = t.description.clone().or(description.map(str::to_owned));
    let mut a = mcp_core::ToolAnnotations::new().read_only(true);
    a.destructive_hint = Some(false);
    tool.annotations = Some(a);
    (tool, t.tags.iter().map(|t| t.as_str().into()).collect())
}

/// The URI `template` expands to with a call's (checked) arguments, and the variables as the
/// template matches that URI back: what a `resources/read` of it would give the handler.
/// `Err` for arguments that are not one string per variable, or values the template cannot
/// carry (a URI that does not match back).
pub(crate) fn expand(
    template: &str,
    arguments: Option<&RawValue>,
) -> Result<(String, BTreeMap<String, String>), String> {
    let template = UriTemplate::parse(template).map_err(|e| e.to_string())?;
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
    let uri = template.expand(&vars);
    match template.match_uri(&uri) {
        Some(matched) => Ok((uri, matched)),
        None => Err(format!(
            "the arguments do not make a URI of {}: {uri}",
            template.as_str()
        )),
    }
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
        let (uri, vars) = expand("logs://{day}/{name}", Some(&args)).unwrap();
        assert_eq!(uri, "logs://2026-12-04/a%20b");
        assert_eq!(vars.get("name").map(String::as_str), Some("a b"));
        let bad = RawValue::from_string(r#"{"day": 4}"#.into()).unwrap();
        assert_eq!(
            expand("logs://{day}/{name}", Some(&bad)).unwrap_err(),
            "property 'day': expected a string, got 4"
        );
    }
}
