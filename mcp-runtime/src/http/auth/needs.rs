//! The scopes a request needs: the server-wide ones, and those of the items its messages name
//! (`tools/call`, `resources/read` and `subscribe`, `prompts/get`, `completion/complete`).

use serde_json::Value;

use crate::registry::Catalog;

/// The scopes the items named by one JSON-RPC message (or a batch of them) need.
pub(crate) fn item_scopes(catalog: &Catalog, body: &Value) -> Vec<&'static str> {
    let mut out = Vec::new();
    match body {
        Value::Array(batch) => {
            for msg in batch {
                one(catalog, msg, &mut out);
            }
        }
        msg => one(catalog, msg, &mut out),
    }
    out.sort_unstable();
    out.dedup();
    out
}

fn one(catalog: &Catalog, msg: &Value, out: &mut Vec<&'static str>) {
    let Some(method) = msg.get("method").and_then(Value::as_str) else {
        return;
    };
    let params = msg.get("params");
    let text = |key: &str| params.and_then(|p| p.get(key)).and_then(Value::as_str);
    let scopes = match method {
        "tools/call" => text("name").and_then(|n| tool(catalog, n)),
        "resources/read" | "resources/subscribe" | "resources/unsubscribe" => {
            text("uri").and_then(|u| resource(catalog, u))
        }
        "prompts/get" => text("name").and_then(|n| prompt(catalog, n)),
        "completion/complete" => {
            let r = params.and_then(|p| p.get("ref"));
            let field = |k: &str| r.and_then(|r| r.get(k)).and_then(Value::as_str);
            match field("type") {
                Some("ref/prompt") => field("name").and_then(|n| prompt(catalog, n)),
                Some("ref/resource") => field("uri").and_then(|u| resource(catalog, u)),
                _ => None,
            }
        }
        _ => None,
    };
    out.extend(scopes.unwrap_or_default().iter().copied());
}

fn tool(c: &Catalog, name: &str) -> Option<&'static [&'static str]> {
    c.tool_index.get(name).map(|&i| c.tools[i].record.scopes)
}

fn prompt(c: &Catalog, name: &str) -> Option<&'static [&'static str]> {
    c.prompt_index
        .get(name)
        .map(|&i| c.prompts[i].record.scopes)
}

fn resource(c: &Catalog, uri: &str) -> Option<&'static [&'static str]> {
    if let Some(found) = c.find_resource(uri) {
        return Some(found.0.scopes);
    }
    // A template's own URI text, as completion names it.
    c.templates
        .iter()
        .find(|t| t.record.uri == uri)
        .map(|t| t.record.scopes)
}
