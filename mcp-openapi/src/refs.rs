//! Local `$ref`s resolved: objects of the document (parameters, bodies, responses) looked up
//! through their references, and schemas expanded in place with cycles and depth bounded.
//!
//! A schema that refers to itself, directly or through others, is expanded until the
//! reference would repeat on its own path; there it becomes a bounded stand-in: the target's
//! `type` (when it names one) and a description naming the reference. Past
//! [`MAX_REF_DEPTH`](crate::MAX_REF_DEPTH) nested references the same stand-in is used, and
//! the whole expansion of one document is bounded by [`MAX_NODES`](crate::MAX_NODES) values.
//! OpenAPI 3.0's schema dialect is rewritten as JSON Schema (`nullable`, boolean
//! `exclusiveMinimum`/`exclusiveMaximum`, `example`); the keywords JSON Schema does not know
//! (`discriminator`, `xml`, `externalDocs`) are dropped.

use serde_json::{Map, Value};

use crate::error::OpenApiError;
use crate::pointer;

/// Schema expansion over one document.
pub(crate) struct Resolver<'a> {
    pub(crate) root: &'a Value,
    /// Whether the document is OpenAPI 3.0 (its schema dialect is rewritten).
    pub(crate) v30: bool,
    /// Values still allowed to be produced.
    budget: usize,
}

impl<'a> Resolver<'a> {
    pub(crate) fn new(root: &'a Value, v30: bool) -> Self {
        Self {
            root,
            v30,
            budget: crate::MAX_NODES,
        }
    }

    /// `value` (at `at`), or what its `$ref` chain points to, with the pointer of the result.
    pub(crate) fn object(
        &self,
        value: &'a Value,
        at: &str,
    ) -> Result<(&'a Value, String), OpenApiError> {
        let (mut value, mut at) = (value, at.to_owned());
        for _ in 0..crate::MAX_REF_DEPTH {
            let Some(reference) = value.get("$ref").and_then(Value::as_str) else {
                return Ok((value, at));
            };
            value = self.target(reference, &at)?;
            at = reference.to_owned();
        }
        Err(OpenApiError::TooLarge {
            pointer: at,
            what: format!("more than {} chained references", crate::MAX_REF_DEPTH),
        })
    }

    fn target(&self, reference: &str, at: &str) -> Result<&'a Value, OpenApiError> {
        pointer::lookup(self.root, reference).ok_or_else(|| OpenApiError::Ref {
            pointer: pointer::join(at, "$ref"),
            reference: reference.to_owned(),
        })
    }

    /// The schema at `at`, every local reference expanded.
    pub(crate) fn schema(&mut self, schema: &Value, at: &str) -> Result<Value, OpenApiError> {
        let mut stack = Vec::new();
        self.expand(schema, at, &mut stack)
    }

    fn spend(&mut self, at: &str) -> Result<(), OpenApiError> {
        if self.budget == 0 {
            return Err(OpenApiError::TooLarge {
                pointer: at.to_owned(),
                what: format!("schemas expand to more than {} values", crate::MAX_NODES),
            });
        }
        self.budget -= 1;
        Ok(())
    }

    fn expand(
        &mut self,
        value: &Value,
        at: &str,
        stack: &mut Vec<String>,
    ) -> Result<Value, OpenApiError> {
        self.spend(at)?;
        let Value::Object(map) = value else {
            // `true`, `false`, or something that is no schema: kept as it is.
            return Ok(value.clone());
        };
        if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
            let target = self.target(reference, at)?;
            if stack.iter().any(|r| r == reference) || stack.len() >= crate::MAX_REF_DEPTH {
                return Ok(stand_in(target, reference));
            }
            stack.push(reference.to_owned());
            let expanded = self.expand(target, reference, stack);
            stack.pop();
            let mut expanded = expanded?;
            // 3.1 allows keywords beside `$ref`: they apply too (ours win over the target's).
            if let Value::Object(out) = &mut expanded {
                let mut siblings = map.clone();
                siblings.remove("$ref");
                if let Value::Object(extra) = self.expand(&Value::Object(siblings), at, stack)? {
                    out.extend(extra);
                }
            }
            return Ok(expanded);
        }
        let mut out = Map::with_capacity(map.len());
        for (k, v) in map {
            let here = pointer::join(at, k);
            let v = match (k.as_str(), v) {
                ("discriminator" | "xml" | "externalDocs", _) => continue,
                (
                    "properties" | "patternProperties" | "$defs" | "definitions"
                    | "dependentSchemas",
                    Value::Object(named),
                ) => {
                    let mut each = Map::with_capacity(named.len());
                    for (name, schema) in named {
                        let s = self.expand(schema, &pointer::join(&here, name), stack)?;
                        each.insert(name.clone(), s);
                    }
                    Value::Object(each)
                }
                ("allOf" | "anyOf" | "oneOf" | "prefixItems" | "items", Value::Array(list)) => {
                    let mut each = Vec::with_capacity(list.len());
                    for (i, schema) in list.iter().enumerate() {
                        let s =
                            self.expand(schema, &pointer::join(&here, &i.to_string()), stack)?;
                        each.push(s);
                    }
                    Value::Array(each)
                }
                (
                    "items"
                    | "additionalProperties"
                    | "not"
                    | "if"
                    | "then"
                    | "else"
                    | "contains"
                    | "propertyNames"
                    | "unevaluatedItems"
                    | "unevaluatedProperties"
                    | "additionalItems",
                    schema,
                ) => self.expand(schema, &here, stack)?,
                // Everything else (`enum`, `default`, `examples`, ...) is data.
                (_, data) => {
                    for _ in 0..weight(data) {
                        self.spend(&here)?;
                    }
                    data.clone()
                }
            };
            out.insert(k.clone(), v);
        }
        if self.v30 {
            dialect_30(&mut out);
        }
        Ok(Value::Object(out))
    }
}

/// How many values `data` holds (what copying it costs of the budget).
fn weight(data: &Value) -> usize {
    match data {
        Value::Array(items) => 1 + items.iter().map(weight).sum::<usize>(),
        Value::Object(map) => 1 + map.values().map(weight).sum::<usize>(),
        _ => 1,
    }
}

/// What a repeated (or too deep) reference becomes: its target's type and a description.
fn stand_in(target: &Value, reference: &str) -> Value {
    let mut out = Map::new();
    if let Some(t) = target.get("type").filter(|t| t.is_string()) {
        out.insert("type".into(), t.clone());
    }
    out.insert(
        "description".into(),
        Value::String(format!("{reference} (recursive, not expanded further)")),
    );
    Value::Object(out)
}

/// OpenAPI 3.0's schema keywords as JSON Schema's.
fn dialect_30(schema: &mut Map<String, Value>) {
    if schema.remove("nullable") == Some(Value::Bool(true)) {
        match schema.get_mut("type") {
            Some(Value::String(t)) => {
                let t = std::mem::take(t);
                schema.insert("type".into(), serde_json::json!([t, "null"]));
            }
            Some(_) => {}
            None => {
                if let Some(Value::Array(choices)) = schema.get_mut("enum")
                    && !choices.contains(&Value::Null)
                {
                    choices.push(Value::Null);
                }
            }
        }
    }
    for (flag, bound) in [
        ("exclusiveMinimum", "minimum"),
        ("exclusiveMaximum", "maximum"),
    ] {
        match schema.get(flag) {
            Some(Value::Bool(true)) => {
                if let Some(n) = schema.remove(bound) {
                    schema.insert(flag.into(), n);
                } else {
                    schema.remove(flag);
                }
            }
            Some(Value::Bool(false)) => {
                schema.remove(flag);
            }
            _ => {}
        }
    }
    if let Some(example) = schema.remove("example") {
        schema
            .entry("examples")
            .or_insert_with(|| Value::Array(vec![example]));
    }
}
