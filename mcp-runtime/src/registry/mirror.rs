//! Tool parameters the stateless era mirrors in `Mcp-Param-{Name}` headers, found once per tool
//! from the `x-mcp-header` annotations of its input schema.

use serde_json::Value;

/// A tool parameter mirrored into an `Mcp-Param-{Name}` header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HeaderParam {
    /// The full header name, lower-case (`mcp-param-region`).
    pub(crate) header: String,
    /// The `properties` path to the value in `arguments`.
    pub(crate) path: Vec<String>,
}

/// Finds every `x-mcp-header` annotation reachable from the root through `properties` only.
pub(crate) fn header_params(schema: &Value) -> Vec<HeaderParam> {
    fn walk(schema: &Value, path: &mut Vec<String>, out: &mut Vec<HeaderParam>) {
        let Some(props) = schema.get("properties").and_then(Value::as_object) else {
            return;
        };
        for (name, sub) in props {
            path.push(name.clone());
            if let Some(h) = sub.get("x-mcp-header").and_then(Value::as_str) {
                out.push(HeaderParam {
                    header: format!("mcp-param-{}", h.to_ascii_lowercase()),
                    path: path.clone(),
                });
            }
            walk(sub, path, out);
            path.pop();
        }
    }
    let mut out = Vec::new();
    walk(schema, &mut Vec::new(), &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn finds_annotations_through_properties_only() {
        let schema = json!({"type":"object","properties":{
            "region":{"type":"string","x-mcp-header":"Region"},
            "opts":{"type":"object","properties":{"tenant":{"type":"integer","x-mcp-header":"Tenant"}}},
            "list":{"type":"array","items":{"properties":{"x":{"x-mcp-header":"Nope"}}}}
        }});
        let found = header_params(&schema);
        assert_eq!(found.len(), 2);
        assert!(found.contains(&HeaderParam {
            header: "mcp-param-region".into(),
            path: vec!["region".into()]
        }));
        assert!(found.contains(&HeaderParam {
            header: "mcp-param-tenant".into(),
            path: vec!["opts".into(), "tenant".into()]
        }));
    }
}
