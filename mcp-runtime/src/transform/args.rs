//! A transformed tool's arguments: the input schema rewritten once (renamed, fixed and defaulted
//! properties), and at each call the arguments checked against that schema, then given back
//! their original names, the fixed values and the defaults of what is absent.

use std::collections::BTreeMap;

use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::{ArgTransform, ArgValue};
use crate::validation::{LISTED, shown};

/// What a call of a transformed tool does with its arguments, built once with its schema.
#[derive(Debug, Default)]
pub(crate) struct ArgMap {
    /// The properties of the schema the client sees, by their shown names.
    properties: BTreeMap<Box<str>, Expect>,
    /// Required properties of that schema (shown names), in the schema's order.
    required: Vec<Box<str>>,
    /// Whether properties the schema does not name are refused (`additionalProperties: false`).
    closed: bool,
    /// Original names a client may not use: renamed or fixed away.
    taken: Vec<Box<str>>,
    /// Shown name → original name.
    renamed: Vec<(Box<str>, Box<str>)>,
    /// Shown name → value given when absent.
    defaults: Vec<(Box<str>, Value)>,
    /// Original name → value given on every call.
    fixed: Vec<(Box<str>, Value)>,
}

/// What a property of the schema takes: its JSON types (any when empty) and its `enum`.
#[derive(Debug, Default)]
struct Expect {
    types: Vec<String>,
    one_of: Option<Vec<Value>>,
}

impl Expect {
    fn of(schema: &Value) -> Self {
        let types = match schema.get("type") {
            Some(Value::String(t)) => vec![t.clone()],
            Some(Value::Array(ts)) => ts
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
            _ => Vec::new(),
        };
        let one_of = schema.get("enum").and_then(Value::as_array).cloned();
        Self { types, one_of }
    }

    /// Why `value` does not fit, if it does not.
    fn problem(&self, value: &Value) -> Option<String> {
        if !self.types.is_empty() && !self.types.iter().any(|t| fits(t, value)) {
            let expected = self.types.join(" or ");
            return Some(format!(
                "expected {}, got {}",
                article(&expected),
                describe(value)
            ));
        }
        if let Some(allowed) = &self.one_of
            && !allowed.contains(value)
        {
            let list: Vec<String> = allowed.iter().map(Value::to_string).collect();
            return Some(format!(
                "expected one of {}, got {}",
                list.join(", "),
                describe(value)
            ));
        }
        None
    }
}

/// Whether `value` is of the JSON Schema type `t`.
fn fits(t: &str, value: &Value) -> bool {
    match t {
        "string" => value.is_string(),
        "integer" => value.as_f64().is_some_and(|n| n.fract() == 0.0),
        "number" => value.is_number(),
        "boolean" => value.is_boolean(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        "null" => value.is_null(),
        _ => true,
    }
}

fn article(t: &str) -> String {
    match t.as_bytes().first() {
        Some(b'a' | b'e' | b'i' | b'o' | b'u') => format!("an {t}"),
        _ => format!("a {t}"),
    }
}

/// A JSON value in the words of the other argument messages (`integer 3`, `string "a"`).
fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("boolean {b}"),
        Value::Number(n) if n.is_f64() => format!("floating point {n}"),
        Value::Number(n) => format!("integer {n}"),
        Value::String(s) => format!("string {:?}", shown(s)),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// Rewrites `schema` (an object schema) by `args` (original name → transform): the schema the
/// client sees, and the [`ArgMap`] of calls. `Err` names what does not fit: an argument the
/// schema does not have, a new name given twice or taken, a fixed value of the wrong type.
pub(crate) fn rewrite(
    schema: &Value,
    args: &[(String, ArgTransform)],
) -> Result<(Value, ArgMap), String> {
    let mut schema = schema.clone();
    let Some(root) = schema.as_object_mut() else {
        return Err("its input schema is not an object".into());
    };
    let mut properties = match root.remove("properties") {
        Some(Value::Object(p)) => p,
        _ => Map::new(),
    };
    let mut required: Vec<String> = match root.remove("required") {
        Some(Value::Array(r)) => r
            .into_iter()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect(),
        _ => Vec::new(),
    };
    let closed = root.get("additionalProperties") == Some(&Value::Bool(false));
    let mut map = ArgMap {
        closed,
        ..ArgMap::default()
    };
    let mut moved = Map::new();
    for (name, t) in args {
        let Some(mut property) = properties.remove(name) else {
            return Err(format!("it has no argument `{name}`"));
        };
        let was_required = required.iter().any(|r| r == name);
        required.retain(|r| r != name);
        if let ArgValue::Fixed(value) = &t.value {
            if let Some(why) = Expect::of(&property).problem(value) {
                return Err(format!("the fixed value of `{name}`: {why}"));
            }
            map.taken.push(name.as_str().into());
            map.fixed.push((name.as_str().into(), value.clone()));
            continue;
        }
        let shown_name = t.rename.clone().unwrap_or_else(|| name.clone());
        if shown_name != *name {
            map.taken.push(name.as_str().into());
            map.renamed
                .push((shown_name.as_str().into(), name.as_str().into()));
        }
        if let Some(object) = property.as_object_mut() {
            if let Some(text) = &t.description {
                object.insert("description".into(), Value::String(text.clone()));
            }
            if let ArgValue::Default(value) = &t.value {
                object.insert("default".into(), value.clone());
            }
        }
        match &t.value {
            ArgValue::Default(value) => {
                if let Some(why) = Expect::of(&property).problem(value) {
                    return Err(format!("the default of `{name}`: {why}"));
                }
                map.defaults
                    .push((shown_name.as_str().into(), value.clone()));
            }
            _ if was_required => required.push(shown_name.clone()),
            _ => {}
        }
        if moved.insert(shown_name.clone(), property).is_some() {
            return Err(format!("two arguments are named `{shown_name}`"));
        }
    }
    for (name, property) in moved {
        if properties.contains_key(&name) {
            return Err(format!("the new name `{name}` is an argument's already"));
        }
        properties.insert(name, property);
    }
    map.properties = properties
        .iter()
        .map(|(k, v)| (k.as_str().into(), Expect::of(v)))
        .collect();
    map.required = required.iter().map(|r| r.as_str().into()).collect();
    if let Some(root) = schema.as_object_mut() {
        root.insert("properties".into(), Value::Object(properties));
        if !required.is_empty() {
            let required = required.into_iter().map(Value::String).collect();
            root.insert("required".into(), Value::Array(required));
        }
    }
    Ok((schema, map))
}

impl ArgMap {
    /// The arguments of a call (`None`: absent), checked against the schema the client sees,
    /// as the tool takes them; `Err` with the message of every problem found.
    pub(crate) fn apply(&self, arguments: Option<&RawValue>) -> Result<Box<RawValue>, String> {
        let mut args: Map<String, Value> = match arguments {
            Some(raw) => serde_json::from_str(raw.get())
                .map_err(|_| "arguments must be a JSON object".to_owned())?,
            None => Map::new(),
        };
        let mut problems = Vec::new();
        let mut unknown = Vec::new();
        for (key, value) in &args {
            match self.properties.get(key.as_str()) {
                Some(expect) => {
                    if let Some(why) = expect.problem(value) {
                        problems.push(format!("property '{}': {why}", shown(key)));
                    }
                }
                None if self.closed || self.taken.iter().any(|t| **t == **key) => {
                    unknown.push(format!("'{}'", shown(key)));
                }
                None => {}
            }
        }
        if !unknown.is_empty() {
            let head = if unknown.len() == 1 {
                "unknown property"
            } else {
                "unknown properties"
            };
            problems.insert(0, format!("{head} {}", unknown.join(", ")));
        }
        for name in &self.required {
            if !args.contains_key(&**name) {
                problems.push(format!("missing required property '{name}'"));
            }
        }
        if !problems.is_empty() {
            return Err(render(&problems));
        }
        for (name, value) in &self.defaults {
            if !args.contains_key(&**name) {
                args.insert(name.to_string(), value.clone());
            }
        }
        for (shown_name, original) in &self.renamed {
            if let Some(value) = args.remove(&**shown_name) {
                args.insert(original.to_string(), value);
            }
        }
        for (name, value) in &self.fixed {
            args.insert(name.to_string(), value.clone());
        }
        let text = serde_json::to_string(&args).map_err(|e| e.to_string())?;
        RawValue::from_string(text).map_err(|e| e.to_string())
    }
}

/// One problem as it is; more as `N problems:` and a line each (at most [`LISTED`]).
fn render(problems: &[String]) -> String {
    match problems {
        [one] => one.clone(),
        many => {
            let mut out = format!("{} problems:", many.len());
            for p in many.iter().take(LISTED) {
                out.push_str("\n- ");
                out.push_str(p);
            }
            if many.len() > LISTED {
                out.push_str(&format!("\n- and {} more", many.len() - LISTED));
            }
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "q": {"type": "string", "description": "query"},
                "limit": {"type": "integer"},
                "index": {"type": "string", "enum": ["public", "private"]}
            },
            "required": ["q", "limit", "index"],
            "additionalProperties": false
        })
    }

    fn args() -> Vec<(String, ArgTransform)> {
        vec![
            (
                "q".into(),
                ArgTransform::rename("query").description("What"),
            ),
            ("limit".into(), ArgTransform::new().default(json!(10))),
            ("index".into(), ArgTransform::fixed(json!("public"))),
        ]
    }

    fn call(map: &ArgMap, args: Value) -> Result<Value, String> {
        let raw = RawValue::from_string(args.to_string()).unwrap();
        map.apply(Some(&raw))
            .map(|r| serde_json::from_str(r.get()).unwrap())
    }

    #[test]
    fn the_schema_is_rewritten_and_calls_are_mapped_back() {
        let (shown, map) = rewrite(&schema(), &args()).unwrap();
        assert_eq!(
            shown,
            json!({
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "What"},
                    "limit": {"type": "integer", "default": 10}
                },
                "required": ["query"],
                "additionalProperties": false
            })
        );
        assert_eq!(
            call(&map, json!({"query": "x"})).unwrap(),
            json!({"q": "x", "limit": 10, "index": "public"})
        );
        assert_eq!(
            call(&map, json!({"query": "x", "limit": 3})).unwrap(),
            json!({"q": "x", "limit": 3, "index": "public"})
        );
    }

    #[test]
    fn calls_are_checked_against_the_shown_schema() {
        let (_, map) = rewrite(&schema(), &args()).unwrap();
        assert_eq!(
            call(&map, json!({"query": 5})).unwrap_err(),
            "property 'query': expected a string, got integer 5"
        );
        assert_eq!(
            call(&map, json!({"q": "x", "index": "private"})).unwrap_err(),
            "2 problems:\n- unknown properties 'index', 'q'\n- missing required property 'query'"
        );
        assert_eq!(
            map.apply(None).unwrap_err(),
            "missing required property 'query'"
        );
    }

    #[test]
    fn what_does_not_fit_is_told() {
        let bad = |args: Vec<(String, ArgTransform)>| rewrite(&schema(), &args).unwrap_err();
        assert_eq!(
            bad(vec![("nope".into(), ArgTransform::rename("x"))]),
            "it has no argument `nope`"
        );
        assert_eq!(
            bad(vec![("q".into(), ArgTransform::rename("limit"))]),
            "the new name `limit` is an argument's already"
        );
        assert_eq!(
            bad(vec![("limit".into(), ArgTransform::fixed(json!("ten")))]),
            "the fixed value of `limit`: expected an integer, got string \"ten\""
        );
        assert_eq!(
            bad(vec![(
                "index".into(),
                ArgTransform::new().default(json!("x"))
            )]),
            "the default of `index`: expected one of \"public\", \"private\", got string \"x\""
        );
    }
}
