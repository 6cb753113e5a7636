//! JSON Schema generation profiles.
//!
//! Schemas are generated once per server, at start-up, by schemars from the hidden argument struct
//! of each tool, then shaped by a [`SchemaProfile`].

use schemars::generate::SchemaSettings;
use schemars::{Schema, SchemaGenerator};
use serde_json::{Map, Value};

/// How generated schemas are shaped.
///
/// # Unknown properties and `additionalProperties`
///
/// By default a tool refuses arguments its input schema does not name (see
/// [`ServerBuilder::allow_unknown_args`](crate::ServerBuilder::allow_unknown_args)), whatever the
/// profile. Only the strict profile says so in the schema, with `"additionalProperties": false`
/// at the root: Gemini's function declarations take an OpenAPI 3.0 subset that has no
/// `additionalProperties`, and requests carrying it fail with "Invalid JSON payload received.
/// Unknown name \"additionalProperties\"" (reported against many MCP clients), so the portable
/// profile leaves it out. OpenAI's strict function calling does require `additionalProperties:
/// false`, but also every property to be required, which no schema with optional arguments
/// meets: clients send such schemas with `strict: false`, where the keyword is not needed.
///
/// ```
/// use mcp_runtime::SchemaProfile;
/// assert_eq!(SchemaProfile::default(), SchemaProfile::Portable);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum SchemaProfile {
    /// Accepted by every client seen in the wild: object root, no `$schema`, definitions inlined
    /// (`$defs` only for recursive types), `Option<T>` optional instead of a `null` union, enums as
    /// `{"type":"string","enum":[…]}`, no numeric `format`s.
    #[default]
    Portable,
    /// JSON Schema 2020-12 as schemars writes it: `$schema`, `$defs`/`$ref`, `null` unions, and
    /// `"additionalProperties": false` at the root of tools that refuse unknown arguments.
    Strict2020_12,
}

impl SchemaProfile {
    /// A generator configured for this profile.
    pub(crate) fn generator(self) -> SchemaGenerator {
        let mut settings = SchemaSettings::draft2020_12();
        if self == SchemaProfile::Portable {
            settings.inline_subschemas = true;
            settings.meta_schema = None;
        }
        settings.into_generator()
    }

    /// Applies the profile to a generated root schema.
    pub(crate) fn finish(self, schema: Schema) -> Value {
        let mut value = schema.to_value();
        if let Value::Object(root) = &mut value {
            // schemars titles the root with the hidden struct's name: never useful to a client.
            if root
                .get("title")
                .and_then(Value::as_str)
                .is_some_and(|t| t.starts_with("__mcp_"))
            {
                root.remove("title");
            }
        }
        if self == SchemaProfile::Portable {
            portable(&mut value);
            if let Value::Object(root) = &mut value {
                root.remove("$schema");
                if root
                    .get("$defs")
                    .is_some_and(|d| d.as_object().is_some_and(Map::is_empty))
                {
                    root.remove("$defs");
                }
            }
        }
        value
    }
}

impl SchemaProfile {
    /// Applies the profile to a schema written by hand or read from a document (an OpenAPI
    /// operation's): the portable rewrite, or nothing.
    #[cfg_attr(not(feature = "openapi"), allow(dead_code))]
    pub(crate) fn finish_value(self, mut value: Value) -> Value {
        if self == SchemaProfile::Portable {
            portable(&mut value);
        }
        value
    }
}

impl SchemaProfile {
    /// For a tool that refuses unknown arguments: the properties its input schema names (sorted),
    /// and, in the strict profile, `"additionalProperties": false` at the root.
    ///
    /// `None` when the root's properties cannot be listed (a flattened map or enum makes it
    /// `additionalProperties` or a combinator): then any property is accepted.
    pub(crate) fn close_root(self, schema: &mut Value) -> Option<Box<[String]>> {
        let root = schema.as_object_mut()?;
        let open = ["allOf", "anyOf", "oneOf", "$ref", "patternProperties"]
            .iter()
            .any(|key| root.contains_key(*key))
            || root
                .get("additionalProperties")
                .is_some_and(|a| a != &Value::Bool(false));
        if open {
            return None;
        }
        let known = match root.get("properties") {
            Some(Value::Object(properties)) => properties.keys().cloned().collect(),
            Some(_) => return None,
            None => Box::default(),
        };
        if self == SchemaProfile::Strict2020_12 {
            root.insert("additionalProperties".into(), Value::Bool(false));
        }
        Some(known)
    }
}

/// Whether a schema describes objects only.
pub(crate) fn is_object_schema(schema: &Schema) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("object")
}

/// Wraps a non-object output schema as `{"type":"object","properties":{"result":…}}`.
pub(crate) fn wrap_result(schema: Schema) -> Schema {
    let mut inner = schema.to_value();
    let mut defs = None;
    if let Value::Object(map) = &mut inner {
        map.remove("$schema");
        map.remove("title");
        defs = map.remove("$defs");
    }
    let mut outer = serde_json::json!({
        "type": "object",
        "properties": { "result": inner },
        "required": ["result"],
    });
    if let Some(defs) = defs {
        outer["$defs"] = defs;
    }
    Schema::try_from(outer).unwrap_or_default()
}

/// The portable rewrite, applied recursively.
fn portable(value: &mut Value) {
    match value {
        Value::Object(map) => {
            // Which rewrites can apply, from one look at the keys (most nodes need none).
            let (mut typed, mut combined, mut format) = (false, false, false);
            for (key, child) in map.iter_mut() {
                match key.as_str() {
                    "type" | "default" => typed = true,
                    "anyOf" | "oneOf" => combined = true,
                    "format" => format = true,
                    _ => {}
                }
                portable(child);
            }
            if typed {
                drop_null_type(map);
            }
            if combined {
                collapse_nullable_any_of(map);
                collapse_const_one_of(map);
            }
            if (combined || format)
                && matches!(
                    map.get("type").and_then(Value::as_str),
                    Some("number" | "integer")
                )
            {
                map.remove("format");
            }
        }
        Value::Array(items) => items.iter_mut().for_each(portable),
        _ => {}
    }
}

/// `{"type": ["string", "null"]}` → `{"type": "string"}` (and a `null` in `enum` goes too).
fn drop_null_type(map: &mut Map<String, Value>) {
    if let Some(Value::Array(types)) = map.get_mut("type") {
        types.retain(|t| t != "null");
        if types.len() == 1 {
            let only = types.remove(0);
            map.insert("type".into(), only);
        }
        if let Some(Value::Array(values)) = map.get_mut("enum") {
            values.retain(|v| !v.is_null());
        }
    }
    if map.get("default").is_some_and(Value::is_null) {
        map.remove("default");
    }
}

/// `{"anyOf": [X, {"type": "null"}]}` → X (keeping sibling keys such as `description`).
fn collapse_nullable_any_of(map: &mut Map<String, Value>) {
    for key in ["anyOf", "oneOf"] {
        let Some(Value::Array(options)) = map.get(key) else {
            continue;
        };
        let non_null: Vec<&Value> = options
            .iter()
            .filter(|o| o.get("type").and_then(Value::as_str) != Some("null"))
            .collect();
        if non_null.len() == 1 && options.len() == 2 {
            let Some(Value::Object(inner)) = non_null.first().map(|v| (*v).clone()) else {
                continue;
            };
            map.remove(key);
            for (k, v) in inner {
                map.entry(k).or_insert(v);
            }
        }
    }
}

/// `{"oneOf": [{"const": "a", "description": "A"}, {"const": "b"}]}` →
/// `{"type":"string","enum":["a","b"],"description":"- a: A"}`.
///
/// The portable shape of a string enum has no room for a description per value, so the
/// documented values are listed in the schema's own description, one per line after it.
fn collapse_const_one_of(map: &mut Map<String, Value>) {
    for key in ["oneOf", "anyOf"] {
        let Some(Value::Array(options)) = map.get(key) else {
            continue;
        };
        let mut values = Vec::with_capacity(options.len());
        let mut documented = Vec::new();
        for option in options {
            let constant = option.get("const").or_else(|| {
                option
                    .get("enum")
                    .and_then(Value::as_array)
                    .filter(|a| a.len() == 1)
                    .and_then(|a| a.first())
            });
            match constant {
                Some(Value::String(s)) => {
                    values.push(Value::String(s.clone()));
                    if let Some(doc) = option.get("description").and_then(Value::as_str) {
                        documented.push(format!("- {s}: {}", doc.replace('\n', " ")));
                    }
                }
                _ => return,
            }
        }
        if values.is_empty() {
            return;
        }
        map.remove(key);
        map.insert("type".into(), Value::String("string".into()));
        map.insert("enum".into(), Value::Array(values));
        if !documented.is_empty() {
            let list = documented.join("\n");
            let description = match map.get("description").and_then(Value::as_str) {
                Some(own) if !own.is_empty() => format!("{own}\n{list}"),
                _ => list,
            };
            map.insert("description".into(), Value::String(description));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn portable_of(v: Value) -> Value {
        SchemaProfile::Portable.finish(Schema::try_from(v).unwrap())
    }

    #[test]
    fn option_becomes_plain_type() {
        let out = portable_of(
            json!({"type":"object","properties":{"r":{"type":["string","null"],"default":null}}}),
        );
        assert_eq!(
            out,
            json!({"type":"object","properties":{"r":{"type":"string"}}})
        );
    }

    #[test]
    fn nullable_any_of_collapses() {
        let out = portable_of(
            json!({"anyOf":[{"type":"integer","format":"uint32","minimum":0},{"type":"null"}],"description":"d"}),
        );
        assert_eq!(out, json!({"type":"integer","minimum":0,"description":"d"}));
    }

    #[test]
    fn const_one_of_becomes_string_enum() {
        let out = portable_of(json!({"oneOf":[{"const":"a"},{"const":"b"}]}));
        assert_eq!(out, json!({"type":"string","enum":["a","b"]}));
    }

    #[test]
    fn documented_values_are_listed_in_the_description() {
        let out = portable_of(json!({
            "description": "The occasion",
            "oneOf": [
                {"type": "string", "const": "birthday", "description": "A birthday."},
                {"type": "string", "const": "other"},
                {"type": "string", "const": "wedding", "description": "A wedding,\nwith guests."}
            ]
        }));
        assert_eq!(
            out,
            json!({
                "type": "string",
                "enum": ["birthday", "other", "wedding"],
                "description": "The occasion\n- birthday: A birthday.\n- wedding: A wedding, with guests."
            })
        );
        let out = portable_of(json!({"oneOf": [{"const": "a", "description": "First"}]}));
        assert_eq!(
            out,
            json!({"type": "string", "enum": ["a"], "description": "- a: First"})
        );
    }

    #[test]
    fn a_closed_root_lists_its_properties() {
        let mut schema = json!({"type":"object","properties":{"b":{},"a":{}}});
        let known = SchemaProfile::Portable.close_root(&mut schema).unwrap();
        assert_eq!(&*known, ["a", "b"]);
        assert!(schema.get("additionalProperties").is_none());
        let known = SchemaProfile::Strict2020_12
            .close_root(&mut schema)
            .unwrap();
        assert_eq!(&*known, ["a", "b"]);
        assert_eq!(schema["additionalProperties"], false);
        let mut empty = json!({"type":"object"});
        assert_eq!(
            SchemaProfile::Portable
                .close_root(&mut empty)
                .unwrap()
                .len(),
            0
        );
        let mut map = json!({"type":"object","additionalProperties":{"type":"string"}});
        assert!(SchemaProfile::Strict2020_12.close_root(&mut map).is_none());
        assert_eq!(map["additionalProperties"], json!({"type":"string"}));
        let mut union = json!({"type":"object","oneOf":[]});
        assert!(SchemaProfile::Portable.close_root(&mut union).is_none());
    }

    #[test]
    fn schema_and_hidden_title_removed() {
        let out = portable_of(json!({"$schema":"x","title":"__mcp_args_f","type":"object"}));
        assert_eq!(out, json!({"type":"object"}));
    }
}
