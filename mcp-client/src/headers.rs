//! The stateless era's request headers that come from a request's body: `Mcp-Name`, and the
//! `Mcp-Param-{Name}` headers mirroring the tool parameters annotated with `x-mcp-header`.

use mcp_core::method::headers::{self as codec, PARAM_PREFIX};
use serde_json::Value;

/// One annotated parameter of a tool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ParamHeader {
    /// `Mcp-Param-{x-mcp-header}`.
    pub(crate) header: String,
    /// The chain of `properties` keys from the root to the parameter.
    pub(crate) path: Vec<String>,
}

/// A header value as the spec's value encoding writes it, by the method table's codec
/// ([`codec::encode`]): plain when it is visible ASCII with inner spaces only, otherwise (and
/// when it could be read as the sentinel, or is empty) `=?base64?…?=`.
pub(crate) fn encode(value: &str) -> String {
    codec::encode(value).into_owned()
}

/// Every `x-mcp-header` of a tool's input schema, or why the tool must be excluded: an
/// annotation that is empty, not an RFC 9110 token, on a non-primitive (or `number`) property,
/// given twice (case-insensitively), or reachable other than through `properties`.
pub(crate) fn param_headers(schema: &Value) -> Result<Vec<ParamHeader>, String> {
    let mut out = Vec::new();
    walk(schema, &mut Vec::new(), &mut out)?;
    let mut seen: Vec<String> = Vec::new();
    for p in &out {
        let lower = p.header.to_ascii_lowercase();
        if seen.contains(&lower) {
            return Err(format!(
                "`x-mcp-header` `{}` is given twice",
                &p.header[PARAM_PREFIX.len()..]
            ));
        }
        seen.push(lower);
    }
    Ok(out)
}

fn walk(schema: &Value, path: &mut Vec<String>, out: &mut Vec<ParamHeader>) -> Result<(), String> {
    let Some(obj) = schema.as_object() else {
        return Ok(());
    };
    for (key, sub) in obj {
        match key.as_str() {
            "properties" => {
                let Some(props) = sub.as_object() else {
                    continue;
                };
                for (name, prop) in props {
                    path.push(name.clone());
                    if let Some(h) = prop.get("x-mcp-header") {
                        out.push(check(h, prop, path)?);
                    }
                    walk(prop, path, out)?;
                    path.pop();
                }
            }
            // An annotation anywhere else (items, composition, conditionals, $defs) makes the
            // tool invalid.
            _ => {
                if contains_annotation(sub) {
                    return Err(format!(
                        "an `x-mcp-header` is reachable through `{key}`, not through `properties` alone"
                    ));
                }
            }
        }
    }
    Ok(())
}

fn contains_annotation(v: &Value) -> bool {
    match v {
        Value::Object(o) => o
            .iter()
            .any(|(k, v)| k == "x-mcp-header" || contains_annotation(v)),
        Value::Array(a) => a.iter().any(contains_annotation),
        _ => false,
    }
}

fn check(h: &Value, prop: &Value, path: &[String]) -> Result<ParamHeader, String> {
    let at = path.join(".");
    let Some(name) = h.as_str() else {
        return Err(format!("`x-mcp-header` of `{at}` is not a string"));
    };
    if name.is_empty() {
        return Err(format!("`x-mcp-header` of `{at}` is empty"));
    }
    if let Some(c) = name.chars().find(|&c| !is_tchar(c)) {
        return Err(format!(
            "`x-mcp-header` `{}` of `{at}` has {c:?}, not an HTTP token character",
            name.escape_default()
        ));
    }
    match prop.get("type").and_then(Value::as_str) {
        Some("string" | "integer" | "boolean") => {}
        other => {
            return Err(format!(
                "`x-mcp-header` `{name}` is on `{at}` of type {}, not string, integer or boolean",
                other.unwrap_or("(none)")
            ));
        }
    }
    Ok(ParamHeader {
        header: format!("{PARAM_PREFIX}{name}"),
        path: path.to_vec(),
    })
}

fn is_tchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

/// The `Mcp-Param-*` headers of one call: the value at each parameter's path, encoded;
/// parameters absent or `null` are left out.
pub(crate) fn param_values(params: &[ParamHeader], arguments: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for p in params {
        let mut at = arguments;
        for key in &p.path {
            match at.get(key) {
                Some(v) => at = v,
                None => {
                    at = &Value::Null;
                    break;
                }
            }
        }
        let text = match at {
            Value::String(s) => encode(s),
            Value::Bool(b) => b.to_string(),
            Value::Number(n) => n.to_string(),
            _ => continue,
        };
        out.push((p.header.clone(), text));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn encodes_as_the_spec_table_says() {
        assert_eq!(encode("us-west1"), "us-west1");
        assert_eq!(encode("us west 1"), "us west 1");
        assert_eq!(encode("Hello, 世界"), "=?base64?SGVsbG8sIOS4lueVjA==?=");
        assert_eq!(encode(" padded "), "=?base64?IHBhZGRlZCA=?=");
        assert_eq!(encode("line1\nline2"), "=?base64?bGluZTEKbGluZTI=?=");
        assert_eq!(encode("\tindented"), "=?base64?CWluZGVudGVk?=");
        assert_eq!(
            encode("=?base64?literal?="),
            "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="
        );
        // Where the table's codec is stricter than the spec's minimum: an empty value, and one
        // that starts like the sentinel without ending like it, travel encoded.
        assert_eq!(encode(""), "=?base64??=");
        assert_eq!(encode("=?x"), "=?base64?PT94?=");
        for v in ["", "=?x", "Hello, 世界", " padded ", "=?base64?literal?="] {
            assert_eq!(codec::decode(&encode(v)).unwrap(), v);
        }
    }

    #[test]
    fn rejects_each_invalid_annotation() {
        let bad = [
            json!({"properties":{"v":{"type":"string","x-mcp-header":""}}}),
            json!({"properties":{"v":{"type":"object","x-mcp-header":"V"}}}),
            json!({"properties":{"v":{"type":"array","x-mcp-header":"V"}}}),
            json!({"properties":{"v":{"type":"null","x-mcp-header":"V"}}}),
            json!({"properties":{"v":{"type":"number","x-mcp-header":"V"}}}),
            json!({"properties":{"a":{"type":"string","x-mcp-header":"R"},"b":{"type":"string","x-mcp-header":"r"}}}),
            json!({"properties":{"v":{"type":"string","x-mcp-header":"My Region"}}}),
            json!({"properties":{"v":{"type":"string","x-mcp-header":"Region:Primary"}}}),
            json!({"properties":{"v":{"type":"string","x-mcp-header":"Région"}}}),
            json!({"properties":{"v":{"type":"string","x-mcp-header":"Region\t1"}}}),
            json!({"properties":{"v":{"type":"array","items":{"type":"string","x-mcp-header":"I"}}}}),
            json!({"anyOf":[{"properties":{"v":{"type":"string","x-mcp-header":"V"}}}]}),
        ];
        for schema in bad {
            assert!(param_headers(&schema).is_err(), "{schema}");
        }
    }

    #[test]
    fn mirrors_values_and_omits_null() {
        let schema = json!({"type":"object","properties":{
            "region":{"type":"string","x-mcp-header":"Region"},
            "n":{"type":"integer","x-mcp-header":"N"},
            "v":{"type":"boolean","x-mcp-header":"Verbose"},
            "o":{"type":"object","properties":{"t":{"type":"string","x-mcp-header":"Tenant"}}},
            "q":{"type":"string"}
        }});
        let params = param_headers(&schema).unwrap();
        let got = param_values(
            &params,
            &json!({"region":"eu","n":42,"v":null,"o":{"t":" x"},"q":"s"}),
        );
        assert_eq!(
            got,
            vec![
                ("mcp-param-N".to_owned(), "42".to_owned()),
                ("mcp-param-Tenant".to_owned(), "=?base64?IHg=?=".to_owned()),
                ("mcp-param-Region".to_owned(), "eu".to_owned()),
            ]
        );
    }
}
