//! The commands that ask the server something in-process, over an in-memory session, and how
//! their answers are shown: `call`, `read`, `prompt`, `complete`, `schema` and `list` (and the
//! lists `diff` compares).

use std::time::Duration;

use mcp_core::ProtocolVersion;
use serde_json::{Map, Value, json};

use super::exit::{CliError, Failure};
use crate::registry::ListKind;
use crate::server::Server;

/// The revision `call` speaks: the newest at which the server answers missing or invalid
/// arguments with a JSON-RPC error (-32602) rather than an `isError` result (SEP-1303, from
/// 2025-11-25 on), so that the command line can tell them from the tool's own failures.
const CALL_REVISION: ProtocolVersion = ProtocolVersion::V2025_06_18;

/// One request on a fresh in-memory session initialized at revision `v`, within `timeout` if
/// given; the response's `result`, or the failure it stands for.
pub(super) async fn ask(
    server: &Server,
    v: ProtocolVersion,
    what: &str,
    method: &str,
    params: Value,
    timeout: Option<Duration>,
) -> Result<Value, CliError> {
    let exchange = async {
        let mut client = server.connect_in_memory().with_timeout(None);
        client.initialize(v.as_str()).await;
        client.request(method, params).await
    };
    let response = match timeout {
        Some(limit) => tokio::time::timeout(limit, exchange).await.map_err(|_| {
            CliError::new(
                Failure::Timeout,
                format!(
                    "no answer from {what} within {} s (--timeout)",
                    limit.as_secs_f64()
                ),
            )
        })?,
        None => exchange.await,
    };
    if let Some(err) = response.get("error") {
        return Err(CliError::new(
            Failure::Refused,
            format!(
                "{} ({})",
                err["message"].as_str().unwrap_or("error"),
                err["code"]
            ),
        ));
    }
    match response.get("result") {
        Some(result) => Ok(result.clone()),
        None => Err(CliError::new(
            Failure::Server,
            format!("the server closed the session without answering {what}"),
        )),
    }
}

/// Parses a JSON object given on the command line (`{}` when absent).
pub(super) fn object_arg(text: Option<&str>, what: &str) -> Result<Value, CliError> {
    let value: Value = serde_json::from_str(text.unwrap_or("{}"))
        .map_err(|e| CliError::usage(format!("{what} are not valid JSON: {e}")))?;
    if !value.is_object() {
        return Err(CliError::usage(format!(
            "{what} must be a JSON object, e.g. '{{\"name\": \"value\"}}', got {value}"
        )));
    }
    Ok(value)
}

/// `text` as given, or re-indented when it is a JSON object or array (members keep their
/// order: the tool chose it).
fn pretty_if_json(text: &str) -> String {
    let trimmed = text.trim();
    let is_json = (trimmed.starts_with('{') || trimmed.starts_with('['))
        && serde_json::from_str::<serde::de::IgnoredAny>(trimmed).is_ok();
    if is_json {
        reindent(trimmed)
    } else {
        text.to_owned()
    }
}

/// Valid JSON text laid out two spaces per level, one member or element per line, like
/// `serde_json::to_string_pretty`, without going through a map that would reorder members.
fn reindent(json: &str) -> String {
    let mut out = String::with_capacity(json.len() * 2);
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    let mut chars = json.chars().peekable();
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        out.extend(std::iter::repeat_n("  ", depth));
    };
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '{' | '[' => {
                out.push(c);
                while chars.peek().is_some_and(|n| n.is_whitespace()) {
                    chars.next();
                }
                if matches!(chars.peek(), Some('}' | ']')) {
                    out.extend(chars.next());
                } else {
                    depth += 1;
                    newline(&mut out, depth);
                }
            }
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                newline(&mut out, depth);
                out.push(c);
            }
            ',' => {
                out.push(c);
                newline(&mut out, depth);
            }
            ':' => out.push_str(": "),
            c if c.is_whitespace() => {}
            c => out.push(c),
        }
    }
    out
}

/// The revisions whose lists `list --json` prints and `diff` compares: the newest of each era.
pub(super) const LISTED: [ProtocolVersion; 2] =
    [ProtocolVersion::LATEST_HANDSHAKE, ProtocolVersion::LATEST];

/// `list --json`: the lists of [`LISTED`] revisions, keyed by revision.
pub(crate) fn listings(server: &Server) -> String {
    let all: Map<String, Value> = LISTED
        .iter()
        .map(|v| (v.as_str().to_owned(), server.listing_at(*v)))
        .collect();
    pretty(&Value::Object(all))
}

/// Pretty JSON.
pub(super) fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

fn base64_len(data: &Value) -> usize {
    data.as_str().map_or(0, |d| d.len() / 4 * 3)
}

/// One resource contents item: its text, or a line describing a blob.
fn render_contents(item: &Value) -> String {
    if let Some(text) = item.get("text").and_then(Value::as_str) {
        return pretty_if_json(text);
    }
    format!(
        "[blob {} ({}), about {} bytes; --json shows it]",
        item["uri"].as_str().unwrap_or("?"),
        item["mimeType"].as_str().unwrap_or("no MIME type"),
        base64_len(&item["blob"])
    )
}

/// One content block as text a person reads.
fn render_block(block: &Value) -> String {
    match block["type"].as_str().unwrap_or("") {
        "text" => pretty_if_json(block["text"].as_str().unwrap_or("")),
        kind @ ("image" | "audio") => format!(
            "[{kind} ({}), about {} bytes; --json shows it]",
            block["mimeType"].as_str().unwrap_or("no MIME type"),
            base64_len(&block["data"])
        ),
        "resource_link" => format!("[resource link {}]", block["uri"].as_str().unwrap_or("?")),
        "resource" => render_contents(&block["resource"]),
        _ => block.to_string(),
    }
}

fn render_blocks(blocks: &Value) -> String {
    let parts: Vec<String> = blocks
        .as_array()
        .map(|items| items.iter().map(render_block).collect())
        .unwrap_or_default();
    parts.join("\n")
}

/// The printed form of a result: the whole JSON with `--json`, else `render`'s text.
fn shown(result: &Value, json: bool, render: impl FnOnce(&Value) -> String) -> String {
    let mut text = if json { pretty(result) } else { render(result) };
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// `call NAME [JSON]`: stdout, or the failure (with what stdout still gets). With `--json`,
/// the `structuredContent` when the result has one, else the whole result (an `isError`
/// result whole, always).
pub(super) async fn call(
    server: &Server,
    name: &str,
    arguments: Option<&str>,
    json: bool,
    timeout: Option<Duration>,
) -> Result<String, (String, CliError)> {
    let fail = |e: CliError| (String::new(), e);
    let arguments = object_arg(arguments, "arguments").map_err(fail)?;
    let params = json!({"name": name, "arguments": arguments});
    let result = ask(
        server,
        CALL_REVISION,
        &format!("tool '{name}'"),
        "tools/call",
        params,
        timeout,
    )
    .await
    .map_err(fail)?;
    if result.get("isError").and_then(Value::as_bool) == Some(true) {
        let message = render_blocks(&result["content"]);
        let stdout = if json {
            shown(&result, true, |_| String::new())
        } else {
            String::new()
        };
        return Err((
            stdout,
            CliError::failed(format!("tool '{name}' reported an error: {message}")),
        ));
    }
    if json && let Some(structured) = result.get("structuredContent") {
        return Ok(shown(structured, true, |_| String::new()));
    }
    Ok(shown(&result, json, |r| render_blocks(&r["content"])))
}

/// `read URI`.
pub(super) async fn read(
    server: &Server,
    uri: &str,
    json: bool,
    timeout: Option<Duration>,
) -> Result<String, CliError> {
    let what = format!("resource {uri}");
    let result = ask(
        server,
        ProtocolVersion::LATEST_HANDSHAKE,
        &what,
        "resources/read",
        json!({"uri": uri}),
        timeout,
    )
    .await?;
    Ok(shown(&result, json, |r| {
        let parts: Vec<String> = r["contents"]
            .as_array()
            .map(|items| items.iter().map(render_contents).collect())
            .unwrap_or_default();
        parts.join("\n")
    }))
}

/// `prompt NAME [JSON]`.
pub(super) async fn prompt(
    server: &Server,
    name: &str,
    arguments: Option<&str>,
    json: bool,
    timeout: Option<Duration>,
) -> Result<String, CliError> {
    let arguments = object_arg(arguments, "prompt arguments")?;
    let params = json!({"name": name, "arguments": arguments});
    let what = format!("prompt '{name}'");
    let v = ProtocolVersion::LATEST_HANDSHAKE;
    let result = ask(server, v, &what, "prompts/get", params, timeout).await?;
    Ok(shown(&result, json, |r| {
        let parts: Vec<String> = r["messages"]
            .as_array()
            .map(|messages| {
                messages
                    .iter()
                    .map(|m| {
                        format!(
                            "[{}]\n{}",
                            m["role"].as_str().unwrap_or("?"),
                            render_block(&m["content"])
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        parts.join("\n\n")
    }))
}

/// What `complete` completes: a prompt's argument or a resource template's variable.
pub(super) struct Completion<'a> {
    /// `prompt` or `resource`.
    pub(super) kind: &'a str,
    /// The prompt's name or the template's URI template.
    pub(super) target: &'a str,
    /// The argument or variable.
    pub(super) argument: &'a str,
    /// What is typed so far.
    pub(super) value: &'a str,
    /// Arguments already given (`--context`).
    pub(super) context: Option<&'a str>,
}

/// `complete prompt NAME ARG [VALUE]` / `complete resource TEMPLATE ARG [VALUE]`.
pub(super) async fn complete(
    server: &Server,
    c: &Completion<'_>,
    json: bool,
    timeout: Option<Duration>,
) -> Result<String, CliError> {
    let reference = match c.kind {
        "prompt" => json!({"type": "ref/prompt", "name": c.target}),
        "resource" => json!({"type": "ref/resource", "uri": c.target}),
        other => {
            return Err(CliError::usage(format!(
                "`complete` completes a `prompt` or a `resource` argument, not `{other}`"
            )));
        }
    };
    let mut params = json!({"ref": reference, "argument": {"name": c.argument, "value": c.value}});
    if let Some(context) = c.context {
        params["context"] =
            json!({"arguments": object_arg(Some(context), "`--context` arguments")?});
    }
    let what = format!("completion of {} '{}'", c.kind, c.target);
    let v = ProtocolVersion::LATEST_HANDSHAKE;
    let result = ask(server, v, &what, "completion/complete", params, timeout).await?;
    Ok(shown(&result, json, |r| {
        let values: Vec<&str> = r["completion"]["values"]
            .as_array()
            .map(|v| v.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        values.join("\n")
    }))
}

/// `schema NAME`: the tool's input schema, and its output schema if it has one.
pub(super) fn schema(server: &Server, name: &str) -> Result<String, CliError> {
    let tools = server.list_all(ProtocolVersion::LATEST_HANDSHAKE, ListKind::Tools);
    let tool = tools
        .iter()
        .find(|t| t["name"] == name)
        .ok_or_else(|| CliError::new(Failure::Refused, format!("unknown tool '{name}'")))?;
    let mut schemas = Map::new();
    for key in ["inputSchema", "outputSchema"] {
        if let Some(schema) = tool.get(key) {
            schemas.insert(key.to_owned(), schema.clone());
        }
    }
    Ok(pretty(&Value::Object(schemas)) + "\n")
}

impl Server {
    /// Every item of one list, all pages merged, as a client of revision `v` receives them.
    fn list_all(&self, v: ProtocolVersion, kind: ListKind) -> Vec<Value> {
        let field = match kind {
            ListKind::Tools => "tools",
            ListKind::Resources => "resources",
            ListKind::Templates => "resourceTemplates",
            ListKind::Prompts => "prompts",
        };
        let live = self.inner.live();
        let mut items = Vec::new();
        let mut cursor: Option<String> = None;
        while let Some(page) = live.catalog.page(v, kind, cursor.as_deref()) {
            let page: Value = serde_json::from_str(&page).unwrap_or_default();
            if let Some(list) = page.get(field).and_then(Value::as_array) {
                items.extend(list.iter().cloned());
            }
            match page.get("nextCursor").and_then(Value::as_str) {
                Some(next) => cursor = Some(next.to_owned()),
                None => break,
            }
        }
        items
    }

    /// The four lists exactly as a client of the newest handshake revision receives them, every
    /// page merged, and for a server with skills (served to 2026-07-28 clients only) the
    /// entries of `skills/list`: what `<bin> list` prints.
    ///
    /// ```
    /// use mcp_runtime::prelude::*;
    ///
    /// let server = Server::builder(server_info!()).build().unwrap();
    /// let listing: serde_json::Value = serde_json::from_str(&server.listing()).unwrap();
    /// assert_eq!(listing["tools/list"], serde_json::json!({"tools": []}));
    /// ```
    pub fn listing(&self) -> String {
        let mut listing = self.listing_at(ProtocolVersion::LATEST_HANDSHAKE);
        if let Some(skills) = self.skills_listing() {
            listing["skills/list"] = skills;
        }
        pretty(&listing)
    }

    /// `{"skills": [...]}`, every entry of `skills/list`, for a server with skills.
    fn skills_listing(&self) -> Option<Value> {
        let skills = self.skills()?;
        Some(json!({ "skills": skills.entries() }))
    }

    /// The four lists as a client of revision `v` receives them, every page merged.
    pub(super) fn listing_at(&self, v: ProtocolVersion) -> Value {
        let mut all = Map::new();
        for (key, field, kind) in [
            ("tools/list", "tools", ListKind::Tools),
            ("resources/list", "resources", ListKind::Resources),
            (
                "resources/templates/list",
                "resourceTemplates",
                ListKind::Templates,
            ),
            ("prompts/list", "prompts", ListKind::Prompts),
        ] {
            all.insert(key.to_owned(), json!({ field: self.list_all(v, kind) }));
        }
        if let Some(skills) = self.skills_listing().filter(|_| v.is_stateless()) {
            all.insert("skills/list".to_owned(), skills);
        }
        Value::Object(all)
    }

    /// Runs one tool in-process, as `<bin> call NAME JSON` does (at the same revision), waiting
    /// as long as the tool takes; returns the whole `tools/call` result (an `isError` result is
    /// `Ok` too).
    ///
    /// Fails with the command line's [`CliError`]: [`Failure::Usage`] for arguments that are
    /// not a JSON object, [`Failure::Refused`] for a JSON-RPC error (unknown tool, invalid
    /// parameters).
    ///
    /// ```standalone_crate
    /// use mcp_runtime::prelude::*;
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// async fn add(a: i64, b: i64) -> String {
    ///     (a + b).to_string()
    /// }
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let server = Server::builder(server_info!()).tool(add::TOOL).build().unwrap();
    /// let result = server.call_from_cli("add", r#"{"a": 2, "b": 3}"#).await.unwrap();
    /// assert_eq!(result["content"][0]["text"], "5");
    /// # });
    /// ```
    pub async fn call_from_cli(&self, name: &str, json: &str) -> Result<Value, CliError> {
        let arguments = object_arg(Some(json), "arguments")?;
        let params = json!({"name": name, "arguments": arguments});
        ask(
            self,
            CALL_REVISION,
            &format!("tool '{name}'"),
            "tools/call",
            params,
            None,
        )
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_text_is_reindented_in_its_own_order() {
        let text = r#"{"b":[1, {"z":"a\"]{,","a":[]}],"a":{},"s":"x"}"#;
        assert_eq!(
            pretty_if_json(text),
            "{\n  \"b\": [\n    1,\n    {\n      \"z\": \"a\\\"]{,\",\n      \"a\": []\n    }\n  ],\n  \"a\": {},\n  \"s\": \"x\"\n}"
        );
        // The same layout as serde_json's, where the order agrees.
        let value = json!({"a": [1, 2], "b": {"c": null}});
        assert_eq!(pretty_if_json(&value.to_string()), pretty(&value));
        // Anything else is shown as it is.
        for text in ["5", "plain text", "{not json", "[1, 2", "  \"quoted\""] {
            assert_eq!(pretty_if_json(text), text);
        }
    }

    #[test]
    fn blocks_that_are_not_text_are_described() {
        let blocks = json!([
            {"type": "text", "text": "hello"},
            {"type": "image", "mimeType": "image/png", "data": "AAAA"},
            {"type": "resource_link", "uri": "file:///a", "name": "a"},
            {"type": "resource", "resource": {"uri": "x://t", "text": "inline"}},
            {"type": "resource", "resource": {"uri": "x://b", "blob": "AAAAAAAA", "mimeType": "application/pdf"}},
            {"type": "future", "x": 1}
        ]);
        assert_eq!(
            render_blocks(&blocks),
            "hello\n[image (image/png), about 3 bytes; --json shows it]\n[resource link file:///a]\ninline\n[blob x://b (application/pdf), about 6 bytes; --json shows it]\n{\"type\":\"future\",\"x\":1}"
        );
    }

    #[test]
    fn arguments_must_be_a_json_object() {
        assert_eq!(object_arg(None, "arguments").unwrap(), json!({}));
        assert_eq!(
            object_arg(Some("[1]"), "arguments").unwrap_err(),
            CliError::usage(
                "arguments must be a JSON object, e.g. '{\"name\": \"value\"}', got [1]"
            )
        );
        let err = object_arg(Some("{"), "prompt arguments").unwrap_err();
        assert_eq!(err.failure(), Failure::Usage);
        assert!(
            err.to_string()
                .starts_with("prompt arguments are not valid JSON: "),
            "{err}"
        );
    }
}
