//! Operations mapped to tools: names, descriptions, input and output schemas, request plans.

use serde_json::{Map, Value, json};

use crate::error::OpenApiError;
use crate::plan::{Body, BodyArgs, Location, Media, Param, RequestPlan, Style};
use crate::pointer::join;
use crate::refs::Resolver;
use crate::security::{self, Requirement};
use crate::{OpenApiTool, Options};

/// The HTTP methods of a path item, in the order their tools are listed.
pub(crate) const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// The longest tool name the MCP spec allows.
const MAX_NAME: usize = 128;

/// A name made of the tool-name characters (`A-Za-z0-9_-.`): each other character becomes
/// `_` (one `_` for a run of them, none at the end), at most 128 bytes.
pub(crate) fn sanitize(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut replaced = false;
    for c in raw.chars() {
        if c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_') {
            out.push(c);
            replaced = false;
        } else {
            if !replaced && !out.ends_with('_') {
                out.push('_');
            }
            replaced = true;
        }
    }
    if replaced && out.ends_with('_') {
        out.pop();
    }
    out.truncate(MAX_NAME);
    out
}

/// The tool name of an operation: its `operationId`, else `method_path`.
pub(crate) fn tool_name(operation_id: Option<&str>, method: &str, path: &str) -> String {
    let from_id = operation_id.map(sanitize).unwrap_or_default();
    if !from_id.is_empty() {
        return from_id;
    }
    sanitize(&format!("{method}_{path}"))
}

/// One operation and where it is.
pub(crate) struct Op<'a> {
    pub(crate) path: &'a str,
    pub(crate) method: &'a str,
    pub(crate) item: &'a Value,
    pub(crate) op: &'a Value,
    pub(crate) at: String,
}

/// The tool of one operation.
pub(crate) fn map(
    r: &mut Resolver<'_>,
    op: &Op<'_>,
    options: &Options,
    global_security: Option<&Value>,
) -> Result<OpenApiTool, OpenApiError> {
    let text = |k: &str| op.op.get(k).and_then(Value::as_str).map(str::trim);
    let operation_id = text("operationId").filter(|s| !s.is_empty());
    let generated = tool_name(operation_id, op.method, op.path);
    let name = options
        .names
        .get(operation_id.unwrap_or(&generated))
        .or_else(|| options.names.get(&generated))
        .cloned()
        .unwrap_or(generated);
    if name.is_empty() {
        return Err(OpenApiError::unmappable(&op.at, "no tool name can be made"));
    }
    let description = match (text("summary"), text("description")) {
        (Some(s), Some(d)) if !s.is_empty() && !d.is_empty() && s != d => {
            Some(format!("{s}\n\n{d}"))
        }
        (Some(s), _) if !s.is_empty() => Some(s.to_owned()),
        (_, Some(d)) if !d.is_empty() => Some(d.to_owned()),
        // A model picks tools by their descriptions: without one, what the call does.
        _ => Some(format!("{} {}", op.method.to_ascii_uppercase(), op.path)),
    };
    let mut properties = Map::new();
    let mut required = Vec::new();
    let params = parameters(r, op, &mut properties, &mut required)?;
    let body = match op.op.get("requestBody") {
        Some(b) => Some(body(
            r,
            b,
            &join(&op.at, "requestBody"),
            &mut properties,
            &mut required,
        )?),
        None => None,
    };
    // No parameters: `{"type": "object"}`, as a Rust tool without arguments lists it.
    let mut input = if properties.is_empty() {
        json!({"type": "object"})
    } else {
        json!({"type": "object", "properties": properties})
    };
    if !required.is_empty() {
        input["required"] = json!(required);
    }
    let (output_schema, wrap_output) = output(r, op)?;
    let security = requirements(r, op.op.get("security").or(global_security), &op.at)?;
    let tags = match op.op.get("tags") {
        Some(Value::Array(t)) => t
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    };
    Ok(OpenApiTool {
        name,
        description,
        input_schema: input,
        output_schema,
        tags,
        operation_id: operation_id.map(str::to_owned),
        pointer: op.at.clone(),
        plan: RequestPlan {
            method: op.method.to_ascii_uppercase(),
            path: op.path.to_owned(),
            params,
            body,
            security,
            wrap_output,
        },
    })
}

/// The path item's and the operation's parameters (the operation's win by name and `in`).
fn parameters(
    r: &mut Resolver<'_>,
    op: &Op<'_>,
    properties: &mut Map<String, Value>,
    required: &mut Vec<String>,
) -> Result<Vec<Param>, OpenApiError> {
    let mut all: Vec<(Value, String)> = Vec::new();
    let item_at = op.at.rsplit_once('/').map_or("", |(a, _)| a).to_owned();
    for (owner, at) in [(op.item, item_at), (op.op, op.at.clone())] {
        let Some(Value::Array(list)) = owner.get("parameters") else {
            continue;
        };
        for (i, p) in list.iter().enumerate() {
            let (p, p_at) = r.object(p, &join(&join(&at, "parameters"), &i.to_string()))?;
            let key = |v: &Value| (v.get("name").cloned(), v.get("in").cloned());
            all.retain(|(q, _)| key(q) != key(p));
            all.push((p.clone(), p_at));
        }
    }
    let mut out = Vec::with_capacity(all.len());
    for (p, at) in all {
        let name = p.get("name").and_then(Value::as_str).unwrap_or_default();
        let location = match p.get("in").and_then(Value::as_str) {
            Some("path") => Location::Path,
            Some("query") => Location::Query,
            Some("header") => Location::Header,
            Some("cookie") => Location::Cookie,
            other => {
                return Err(OpenApiError::unmappable(
                    &join(&at, "in"),
                    format!("unknown parameter location {other:?}"),
                ));
            }
        };
        if name.is_empty() {
            return Err(OpenApiError::unmappable(
                &join(&at, "name"),
                "a parameter without a name",
            ));
        }
        if location == Location::Header
            && ["accept", "content-type", "authorization"]
                .contains(&name.to_ascii_lowercase().as_str())
        {
            // The spec says these header parameters are ignored.
            continue;
        }
        let style = match p.get("style").and_then(Value::as_str) {
            None => match location {
                Location::Path | Location::Header => Style::Simple,
                _ => Style::Form,
            },
            Some("simple") => Style::Simple,
            Some("label") => Style::Label,
            Some("matrix") => Style::Matrix,
            Some("form") => Style::Form,
            Some("spaceDelimited") => Style::SpaceDelimited,
            Some("pipeDelimited") => Style::PipeDelimited,
            Some("deepObject") => Style::DeepObject,
            Some(other) => {
                return Err(OpenApiError::unmappable(
                    &join(&at, "style"),
                    format!("unknown style '{other}'"),
                ));
            }
        };
        let explode = p
            .get("explode")
            .and_then(Value::as_bool)
            .unwrap_or(style == Style::Form);
        let must = location == Location::Path || p.get("required") == Some(&Value::Bool(true));
        let mut schema = match (p.get("schema"), p.get("content")) {
            (Some(s), _) => r.schema(s, &join(&at, "schema"))?,
            (None, Some(Value::Object(content))) => match content.iter().next() {
                Some((media, m)) => match m.get("schema") {
                    Some(s) => r.schema(s, &join(&join(&join(&at, "content"), media), "schema"))?,
                    None => json!({}),
                },
                None => json!({}),
            },
            _ => json!({}),
        };
        if let (Value::Object(s), Some(d)) = (&mut schema, p.get("description")) {
            s.entry("description").or_insert_with(|| d.clone());
        }
        let argument = if properties.contains_key(name) {
            let suffix = format!("{name}__{}", p["in"].as_str().unwrap_or_default());
            if properties.contains_key(&suffix) {
                return Err(OpenApiError::unmappable(
                    &at,
                    format!("two parameters named '{name}'"),
                ));
            }
            suffix
        } else {
            name.to_owned()
        };
        properties.insert(argument.clone(), schema);
        if must {
            required.push(argument.clone());
        }
        out.push(Param {
            argument,
            name: name.to_owned(),
            location,
            style,
            explode,
            required: must,
        });
    }
    Ok(out)
}

/// The media type of a content map that we can send or read: JSON first, then a form.
fn pick(content: &Map<String, Value>, form: bool) -> Option<(&str, &Value, Media)> {
    let json = content.iter().find(|(k, _)| {
        let base = k
            .split(';')
            .next()
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase();
        base == "application/json" || base.ends_with("+json")
    });
    if let Some((k, v)) = json {
        return Some((k, v, Media::Json));
    }
    if form {
        let f = content
            .iter()
            .find(|(k, _)| k.starts_with("application/x-www-form-urlencoded"));
        return f.map(|(k, v)| (k.as_str(), v, Media::Form));
    }
    None
}

/// The request body: an object's properties become arguments when none of them is already one.
fn body(
    r: &mut Resolver<'_>,
    value: &Value,
    at: &str,
    properties: &mut Map<String, Value>,
    required: &mut Vec<String>,
) -> Result<Body, OpenApiError> {
    let (b, at) = r.object(value, at)?;
    let must = b.get("required") == Some(&Value::Bool(true));
    let Some(Value::Object(content)) = b.get("content") else {
        return Err(OpenApiError::unmappable(
            &at,
            "a request body without content",
        ));
    };
    let Some((media_type, media, kind)) = pick(content, true) else {
        let types: Vec<&str> = content.keys().map(String::as_str).collect();
        return Err(OpenApiError::unmappable(
            &join(&at, "content"),
            format!("no JSON or form media type among {types:?}"),
        ));
    };
    let schema_at = join(&join(&join(&at, "content"), media_type), "schema");
    let schema = match media.get("schema") {
        Some(s) => r.schema(s, &schema_at)?,
        None => json!({}),
    };
    let members = match (&schema.get("type"), schema.get("properties")) {
        (Some(Value::String(t)), Some(Value::Object(p))) if t == "object" => Some(p),
        (None, Some(Value::Object(p))) => Some(p),
        _ => None,
    };
    let flat = members.filter(|m| !m.is_empty() && m.keys().all(|k| !properties.contains_key(k)));
    let content_type = media_type.to_owned();
    if let Some(members) = flat {
        let inner: Vec<&str> = match schema.get("required") {
            Some(Value::Array(r)) => r.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let names: Vec<String> = members.keys().cloned().collect();
        for (k, v) in members {
            properties.insert(k.clone(), v.clone());
            if must && inner.contains(&k.as_str()) {
                required.push(k.clone());
            }
        }
        return Ok(Body {
            media: kind,
            content_type,
            arguments: BodyArgs::Members(names),
            required: must,
        });
    }
    let mut name = "body".to_owned();
    while properties.contains_key(&name) {
        name.push('_');
    }
    properties.insert(name.clone(), schema);
    if must {
        required.push(name.clone());
    }
    Ok(Body {
        media: kind,
        content_type,
        arguments: BodyArgs::Whole(name),
        required: must,
    })
}

/// The output schema of the first 2xx response with a JSON schema, wrapped unless an object.
fn output(r: &mut Resolver<'_>, op: &Op<'_>) -> Result<(Option<Value>, bool), OpenApiError> {
    let Some(Value::Object(responses)) = op.op.get("responses") else {
        return Ok((None, false));
    };
    let mut codes: Vec<&String> = responses.keys().filter(|k| k.starts_with('2')).collect();
    codes.sort_by_key(|k| (k.as_str() == "2XX" || k.as_str() == "2xx", k.as_str()));
    for code in codes {
        let at = join(&join(&op.at, "responses"), code);
        let (resp, at) = r.object(&responses[code.as_str()], &at)?;
        let Some(Value::Object(content)) = resp.get("content") else {
            continue;
        };
        let Some((media_type, media, _)) = pick(content, false) else {
            continue;
        };
        let Some(schema) = media.get("schema") else {
            continue;
        };
        let schema = r.schema(
            schema,
            &join(&join(&join(&at, "content"), media_type), "schema"),
        )?;
        if is_object(&schema) {
            return Ok((Some(schema), false));
        }
        let wrapped =
            json!({"type": "object", "properties": {"result": schema}, "required": ["result"]});
        return Ok((Some(wrapped), true));
    }
    Ok((None, false))
}

/// Whether every value the schema allows is an object.
fn is_object(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(_) => false,
        None => {
            if schema.get("properties").is_some() {
                return true;
            }
            ["allOf", "oneOf", "anyOf"]
                .iter()
                .any(|k| match schema.get(*k) {
                    Some(Value::Array(list)) if !list.is_empty() => {
                        if *k == "allOf" {
                            list.iter().any(is_object)
                        } else {
                            list.iter().all(is_object)
                        }
                    }
                    _ => false,
                })
        }
    }
}

/// The security alternatives, their schemes looked up in `components.securitySchemes`.
fn requirements(
    r: &mut Resolver<'_>,
    security: Option<&Value>,
    at: &str,
) -> Result<Vec<Requirement>, OpenApiError> {
    let Some(Value::Array(list)) = security else {
        return Ok(Vec::new());
    };
    let mut out = Vec::with_capacity(list.len());
    for (i, alternative) in list.iter().enumerate() {
        let Value::Object(names) = alternative else {
            continue;
        };
        let mut req = Vec::with_capacity(names.len());
        let mut usable = true;
        for name in names.keys() {
            let here = join(&join(&join(at, "security"), &i.to_string()), name);
            let defined = r.root.pointer(&format!(
                "/components/securitySchemes/{}",
                name.replace('~', "~0").replace('/', "~1")
            ));
            let Some(defined) = defined else {
                return Err(OpenApiError::unmappable(
                    &here,
                    format!("no security scheme '{name}' in #/components/securitySchemes"),
                ));
            };
            let (defined, _) = r.object(defined, &here)?;
            match security::scheme(defined) {
                Some(scheme) => req.push((name.clone(), scheme)),
                None => usable = false,
            }
        }
        if usable {
            out.push(req);
        }
    }
    Ok(out)
}
