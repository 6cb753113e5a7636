//! The extension's server rules, checked through the in-memory test client
//! ([`TestClient::check_apps`]): what a host would find wrong with the live answers of
//! `tools/list`, `resources/list` and `resources/read`.

use serde_json::{Value, json};

use super::{MIME_TYPE, SKYBRIDGE_MIME_TYPE};
use crate::transport::memory::TestClient;
use mcp_core::apps::is_csp_origin as is_origin;

/// One broken rule of MCP Apps found by [`TestClient::check_apps`].
///
/// ```
/// use mcp_runtime::apps::AppProblem;
/// let p = AppProblem::new("ui://a/b.html", "mime", "mimeType is `text/html`");
/// assert_eq!(p.to_string(), "ui://a/b.html: [mime] mimeType is `text/html`");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct AppProblem {
    /// The tool name or resource URI concerned.
    pub subject: String,
    /// The rule: `scheme`, `mime`, `exists`, `content`, `html`, `visibility`, `csp`, `deprecated`.
    pub rule: &'static str,
    /// What is wrong.
    pub message: String,
}

impl AppProblem {
    /// A problem of `subject` under `rule`.
    pub fn new(subject: impl Into<String>, rule: &'static str, message: impl Into<String>) -> Self {
        Self {
            subject: subject.into(),
            rule,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for AppProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: [{}] {}", self.subject, self.rule, self.message)
    }
}

impl TestClient {
    /// Applies the MCP Apps server rules to what this (initialized) client sees, and returns
    /// every broken one (empty when all hold):
    ///
    /// - every tool's `_meta.ui.resourceUri` is a `ui://` URI of a listed resource that reads
    ///   (`exists`), its `visibility` holds only `"model"` and `"app"`, and no deprecated flat
    ///   `ui/resourceUri` key is used;
    /// - every `ui://` resource (listed or referenced) is read as exactly one content of MIME
    ///   type `text/html;profile=mcp-app` (or `text/html+skybridge` for twins), with non-empty
    ///   text or blob holding an HTML document (`<!doctype html` and `<html`);
    /// - CSP domains in `_meta.ui.csp` are origins (`https://host[:port]`, `*.` as first label).
    ///
    /// It catches what the macros cannot: widgets registered by hand, HTML read from files,
    /// links across servers.
    ///
    /// ```standalone_crate
    /// use mcp_runtime::prelude::*;
    ///
    /// /// A clock.
    /// #[widget(uri = "ui://demo/clock.html")]
    /// const CLOCK: &str = "<!doctype html><html><body>12:00</body></html>";
    ///
    /// /// Tells the time.
    /// #[tool(ui = CLOCK)]
    /// async fn time() -> String { "12:00".into() }
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let server = Server::builder(server_info!())
    ///     .tool(time::TOOL)
    ///     .resource(CLOCK::RESOURCE)
    ///     .build()
    ///     .unwrap();
    /// let mut client = server.connect_in_memory();
    /// client.initialize("2025-11-25").await;
    /// assert_eq!(client.check_apps().await, vec![]);
    /// # });
    /// ```
    pub async fn check_apps(&mut self) -> Vec<AppProblem> {
        let mut problems = Vec::new();
        let tools = self.list_all("tools/list", "tools").await;
        let resources = self.list_all("resources/list", "resources").await;
        let listed: Vec<String> = resources
            .iter()
            .filter_map(|r| r["uri"].as_str().map(str::to_owned))
            .collect();
        let mut widgets: Vec<String> = listed
            .iter()
            .filter(|uri| uri.starts_with("ui://"))
            .cloned()
            .collect();
        for tool in &tools {
            let name = tool["name"].as_str().unwrap_or("?").to_owned();
            let meta = &tool["_meta"];
            if meta.get("ui/resourceUri").is_some() {
                problems.push(AppProblem::new(
                    &name,
                    "deprecated",
                    "the flat `ui/resourceUri` key is deprecated; use `_meta.ui.resourceUri`",
                ));
            }
            let Some(ui) = meta.get("ui") else { continue };
            check_visibility(&name, ui, &mut problems);
            let Some(uri) = ui["resourceUri"].as_str() else {
                problems.push(AppProblem::new(
                    &name,
                    "exists",
                    "`_meta.ui` has no string `resourceUri`",
                ));
                continue;
            };
            if !uri.starts_with("ui://") {
                problems.push(AppProblem::new(
                    &name,
                    "scheme",
                    format!("`resourceUri` `{uri}` does not start with `ui://`"),
                ));
                continue;
            }
            if !listed.iter().any(|l| l == uri) {
                problems.push(AppProblem::new(
                    &name,
                    "exists",
                    format!("`resourceUri` `{uri}` is not in `resources/list`"),
                ));
            }
            if !widgets.iter().any(|w| w == uri) {
                widgets.push(uri.to_owned());
            }
        }
        for resource in &resources {
            let Some(uri) = resource["uri"].as_str() else {
                continue;
            };
            if resource["mimeType"] == MIME_TYPE && !uri.starts_with("ui://") {
                problems.push(AppProblem::new(
                    uri,
                    "scheme",
                    "an MCP App resource must have a `ui://` URI",
                ));
            }
            if uri.starts_with("ui://") {
                check_csp(uri, &resource["_meta"]["ui"], &mut problems);
            }
        }
        for uri in &widgets {
            self.check_widget(uri, &mut problems).await;
        }
        problems
    }

    /// Every item of a paginated list.
    async fn list_all(&mut self, method: &str, key: &str) -> Vec<Value> {
        let mut out = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let params = match &cursor {
                Some(c) => json!({ "cursor": c }),
                None => json!({}),
            };
            let reply = self.request(method, params).await;
            if let Some(items) = reply["result"][key].as_array() {
                out.extend(items.iter().cloned());
            }
            match reply["result"]["nextCursor"].as_str() {
                Some(next) if out.len() < 100_000 => cursor = Some(next.to_owned()),
                _ => return out,
            }
        }
    }

    async fn check_widget(&mut self, uri: &str, problems: &mut Vec<AppProblem>) {
        let reply = self.request("resources/read", json!({ "uri": uri })).await;
        let Some(contents) = reply["result"]["contents"].as_array() else {
            problems.push(AppProblem::new(
                uri,
                "exists",
                format!("`resources/read` failed: {}", reply["error"]),
            ));
            return;
        };
        if contents.len() != 1 {
            problems.push(AppProblem::new(
                uri,
                "content",
                format!("expected one content item, got {}", contents.len()),
            ));
        }
        for content in contents {
            let mime = content["mimeType"].as_str().unwrap_or("");
            if mime != MIME_TYPE && mime != SKYBRIDGE_MIME_TYPE {
                problems.push(AppProblem::new(
                    uri,
                    "mime",
                    format!("mimeType is `{mime}`, expected exactly `{MIME_TYPE}`"),
                ));
            }
            check_csp(uri, &content["_meta"]["ui"], problems);
            let text = match (content["text"].as_str(), content["blob"].as_str()) {
                (Some(text), _) => text.to_owned(),
                (None, Some(blob)) => {
                    use base64::Engine;
                    match base64::engine::general_purpose::STANDARD.decode(blob) {
                        Ok(bytes) => match String::from_utf8(bytes) {
                            Ok(text) => text,
                            Err(e) => {
                                let at = e.utf8_error().valid_up_to();
                                let why = format!("`blob` is not UTF-8 (byte {at})");
                                problems.push(AppProblem::new(uri, "content", why));
                                continue;
                            }
                        },
                        Err(_) => {
                            problems.push(AppProblem::new(uri, "content", "`blob` is not base64"));
                            continue;
                        }
                    }
                }
                (None, None) => {
                    problems.push(AppProblem::new(uri, "content", "neither `text` nor `blob`"));
                    continue;
                }
            };
            if text.trim().is_empty() {
                problems.push(AppProblem::new(uri, "content", "the document is empty"));
                continue;
            }
            let lower = text.trim_start().to_ascii_lowercase();
            if !lower.starts_with("<!doctype html") || !lower.contains("<html") {
                problems.push(AppProblem::new(
                    uri,
                    "html",
                    "not an HTML5 document (expected `<!doctype html>` then `<html`)",
                ));
            }
        }
    }
}

fn check_visibility(name: &str, ui: &Value, problems: &mut Vec<AppProblem>) {
    let Some(visibility) = ui.get("visibility") else {
        return;
    };
    let Some(list) = visibility.as_array() else {
        problems.push(AppProblem::new(name, "visibility", "not an array"));
        return;
    };
    if list.is_empty() {
        problems.push(AppProblem::new(name, "visibility", "empty"));
    }
    for value in list {
        if value != "model" && value != "app" {
            problems.push(AppProblem::new(
                name,
                "visibility",
                format!("unknown value {value}, expected \"model\" or \"app\""),
            ));
        }
    }
}

fn check_csp(uri: &str, ui: &Value, problems: &mut Vec<AppProblem>) {
    let Some(csp) = ui.get("csp").and_then(Value::as_object) else {
        return;
    };
    for (key, list) in csp {
        for entry in list.as_array().into_iter().flatten() {
            let text = entry.as_str().unwrap_or("");
            if !is_origin(text) {
                problems.push(AppProblem::new(
                    uri,
                    "csp",
                    format!("`csp.{key}` entry {entry} is not an origin like `https://host`"),
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use mcp_core::apps::is_csp_origin as is_origin;

    #[test]
    fn origins() {
        for ok in [
            "https://cdn.example.com",
            "https://*.example.com",
            "wss://a.b:8443",
            "http://localhost:3000",
        ] {
            assert!(is_origin(ok), "{ok}");
        }
        for bad in [
            "cdn.example.com",
            "https://",
            "https://a/b",
            "ftp://a.b",
            "https://a.*.b",
            "https://a.b:",
            "https://a.b:99999x",
        ] {
            assert!(!is_origin(bad), "{bad}");
        }
    }
}
