//! MCP Apps (`io.modelcontextprotocol/ui`): widgets declared with `#[widget]`, tools linked with
//! `#[tool(ui = ..)]`, what clients see of them in both eras, the opt-in OpenAI aliases, the
//! start-up check of links and the static check of live answers (`TestClient::check_apps`).
//!
//! The items are marked `server = "apps"` (or `"apps-bad"` for the broken ones), so nothing
//! leaks into other registries of this binary.

use mcp_runtime::apps::{AppProblem, AppsOptions, Html};
use mcp_runtime::prelude::*;
use mcp_runtime::transport::memory::TestClient;
use serde_json::{Value, json};

const PAGE: &str = "<!doctype html><html><body><div id=app></div></body></html>";

/// Cards of things.
#[widget(
    uri = "ui://apps/cards.html",
    server = "apps",
    prefers_border = true,
    domain = "cards.example.com",
    csp(connect_domains = ["https://api.example.com"], resource_domains = ["https://*.cdn.example.com"]),
    permissions(clipboard_write)
)]
const CARDS: &str = PAGE;

/// Shows cards.
#[tool(server = "apps", ui = CARDS)]
async fn show(ctx: Context) -> String {
    format!("apps: {}", ctx.client_supports_apps())
}

/// Saves a card; the widget calls it.
#[tool(server = "apps", ui = CARDS, visibility = "app")]
async fn save(id: u32) -> String {
    format!("saved {id}")
}

fn apps_server(options: AppsOptions) -> Server {
    Server::from_registry_named("apps", server_info!())
        .apps(options)
        .build()
        .unwrap()
}

async fn initialized(server: &Server, capabilities: Value) -> (TestClient, Value) {
    let mut client = server.connect_in_memory();
    let init = client
        .request(
            "initialize",
            json!({
                "protocolVersion": "2025-11-25",
                "clientInfo": {"name": "host", "version": "1"},
                "capabilities": capabilities,
            }),
        )
        .await;
    client.notify("notifications/initialized", json!({})).await;
    (client, init)
}

fn ui_caps() -> Value {
    json!({"extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}}})
}

#[tokio::test]
async fn tools_and_the_widget_as_clients_see_them() {
    let server = apps_server(AppsOptions::new());
    let (mut client, init) = initialized(&server, ui_caps()).await;
    // The 2025-11-25 schema has no `extensions`: the handshake-era result leaves it out.
    assert_eq!(init["result"]["capabilities"].get("extensions"), None);

    let tools = client.request("tools/list", json!({})).await;
    let metas: Vec<(&Value, &Value)> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (&t["name"], &t["_meta"]))
        .collect();
    assert_eq!(
        metas,
        [
            (
                &json!("save"),
                &json!({"ui": {"resourceUri": "ui://apps/cards.html", "visibility": ["app"]}})
            ),
            (
                &json!("show"),
                &json!({"ui": {"resourceUri": "ui://apps/cards.html"}})
            ),
        ]
    );

    let ui = json!({
        "csp": {"connectDomains": ["https://api.example.com"], "resourceDomains": ["https://*.cdn.example.com"]},
        "permissions": {"clipboardWrite": {}},
        "domain": "cards.example.com",
        "prefersBorder": true
    });
    let resources = client.request("resources/list", json!({})).await;
    assert_eq!(
        resources["result"]["resources"],
        json!([{
            "uri": "ui://apps/cards.html",
            "name": "cards",
            "description": "Cards of things.",
            "mimeType": "text/html;profile=mcp-app",
            "_meta": {"ui": ui}
        }])
    );
    let read = client
        .request("resources/read", json!({"uri": "ui://apps/cards.html"}))
        .await;
    assert_eq!(
        read["result"],
        json!({"contents": [{
            "uri": "ui://apps/cards.html",
            "mimeType": "text/html;profile=mcp-app",
            "text": PAGE,
            "_meta": {"ui": ui}
        }]})
    );
    // The skybridge twin is registered but not served by default.
    let twin = client
        .request(
            "resources/read",
            json!({"uri": "ui://apps/cards.skybridge.html"}),
        )
        .await;
    assert_eq!(twin["error"]["code"], -32002);
    assert_eq!(client.check_apps().await, vec![]);
}

#[tokio::test]
async fn the_stateless_era_declares_the_extension() {
    let server = apps_server(AppsOptions::new());
    let mut client = server.connect_in_memory();
    let discover = client.stateless("server/discover", json!({})).await;
    assert_eq!(
        discover["result"]["capabilities"]["extensions"],
        json!({"io.modelcontextprotocol/ui": {}})
    );
    // A server without widgets declares no extension.
    let plain = Server::builder(server_info!()).build().unwrap();
    let mut client = plain.connect_in_memory();
    let discover = client.stateless("server/discover", json!({})).await;
    assert_eq!(discover["result"]["capabilities"].get("extensions"), None);
}

#[tokio::test]
async fn handlers_learn_whether_the_client_renders_apps() {
    let server = apps_server(AppsOptions::new());
    let cases = [
        (ui_caps(), "apps: true"),
        (
            json!({"extensions": {"io.modelcontextprotocol/ui": {}}}),
            "apps: true",
        ),
        (
            json!({"extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html"]}}}),
            "apps: false",
        ),
        (json!({"extensions": {"other/ext": {}}}), "apps: false"),
        (json!({}), "apps: false"),
    ];
    for (caps, expected) in cases {
        let (mut client, _) = initialized(&server, caps.clone()).await;
        let reply = client.call_tool("show", json!({})).await;
        assert_eq!(reply["result"]["content"][0]["text"], expected, "{caps}");
    }
    // Stateless era: the capabilities come with each request.
    let mut client = server.connect_in_memory();
    let reply = client
        .request(
            "tools/call",
            json!({"name": "show", "arguments": {}, "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": ui_caps(),
                "io.modelcontextprotocol/clientInfo": {"name": "host", "version": "1"}
            }}),
        )
        .await;
    assert_eq!(
        reply["result"]["content"][0]["text"], "apps: true",
        "{reply}"
    );
}

#[tokio::test]
async fn openai_aliases_and_the_skybridge_twin_are_opt_in() {
    let server = apps_server(AppsOptions::new().openai_compat(true));
    let (mut client, _) = initialized(&server, json!({})).await;
    let tools = client.request("tools/list", json!({})).await;
    let save = &tools["result"]["tools"][0]["_meta"];
    assert_eq!(
        save,
        &json!({
            "ui": {"resourceUri": "ui://apps/cards.html", "visibility": ["app"]},
            "openai/outputTemplate": "ui://apps/cards.html",
            "openai/widgetAccessible": true,
            "openai/visibility": "private"
        })
    );
    let resources = client.request("resources/list", json!({})).await;
    let meta = &resources["result"]["resources"][0]["_meta"];
    assert_eq!(
        (
            &meta["openai/widgetCSP"],
            &meta["openai/widgetDomain"],
            &meta["openai/widgetPrefersBorder"],
            &meta["openai/widgetDescription"]
        ),
        (
            &json!({"connect_domains": ["https://api.example.com"], "resource_domains": ["https://*.cdn.example.com"]}),
            &json!("cards.example.com"),
            &json!(true),
            &json!("Cards of things.")
        )
    );
    assert_eq!(
        resources["result"]["resources"].as_array().unwrap().len(),
        1
    );

    let server = apps_server(AppsOptions::new().skybridge(true));
    let (mut client, _) = initialized(&server, json!({})).await;
    let tools = client.request("tools/list", json!({})).await;
    assert_eq!(
        tools["result"]["tools"][1]["_meta"]["openai/outputTemplate"],
        "ui://apps/cards.skybridge.html"
    );
    let twin = client
        .request(
            "resources/read",
            json!({"uri": "ui://apps/cards.skybridge.html"}),
        )
        .await;
    let content = &twin["result"]["contents"][0];
    assert_eq!(
        (&content["mimeType"], &content["text"]),
        (&json!("text/html+skybridge"), &json!(PAGE))
    );
    assert_eq!(
        content["_meta"]["openai/widgetCSP"]["connect_domains"],
        json!(["https://api.example.com"])
    );
    assert_eq!(client.check_apps().await, vec![]);
}

#[test]
fn a_tool_whose_widget_is_not_registered_does_not_build() {
    let err = Server::builder(server_info!())
        .tool(show::TOOL)
        .build()
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("invalid tool `show` ("), "{err}");
    assert!(
        err.ends_with("its widget `ui://apps/cards.html` is not a registered widget resource of this server (add its `RESOURCE` record, or declare it with `#[widget]` and the same `server`)"),
        "{err}"
    );
    assert!(
        Server::builder(server_info!())
            .tool(show::TOOL)
            .resource(CARDS::RESOURCE)
            .build()
            .is_ok()
    );
}

/// Gives a `ui` key by hand and a widget link.
#[tool(server = "apps-meta", ui = CARDS, meta = r#"{"ui": {"resourceUri": "ui://x/y"}}"#)]
async fn twice() -> String {
    String::new()
}

#[test]
fn a_hand_written_ui_key_next_to_the_link_is_refused() {
    let err = Server::builder(server_info!())
        .tool(twice::TOOL)
        .resource(CARDS::RESOURCE)
        .build()
        .unwrap_err()
        .to_string();
    assert!(
        err.ends_with("`meta` has a `ui` key and the tool is linked to a widget (`ui = ..`); give the link once"),
        "{err}"
    );
}

// ---- what `check_apps` finds in servers that bypass the macros ----

/// HTML served with the wrong MIME type and no document.
#[resource(uri = "ui://bad/plain.html", mime = "text/html", server = "apps-bad")]
async fn plain_html() -> String {
    "<div>not a document</div>".into()
}

/// An empty widget.
#[widget(uri = "ui://bad/empty.html", server = "apps-bad")]
const EMPTY: &str = "";

/// A widget whose file is missing.
#[widget(uri = "ui://bad/missing-file.html", server = "apps-bad")]
const MISSING_FILE: Html = Html::file("/nonexistent/widget.html");

/// Hand-written links: an https URI, a URI nobody serves with a bad visibility, the deprecated
/// flat key.
#[tool(
    server = "apps-bad",
    meta = r#"{"ui": {"resourceUri": "https://example.com/w.html"}}"#
)]
async fn https_link() -> String {
    String::new()
}

/// See `https_link`.
#[tool(
    server = "apps-bad",
    meta = r#"{"ui": {"resourceUri": "ui://bad/nowhere.html", "visibility": ["everyone"]}, "ui/resourceUri": "ui://bad/nowhere.html"}"#
)]
async fn nowhere_link() -> String {
    String::new()
}

/// See `https_link`.
#[tool(
    server = "apps-bad",
    meta = r#"{"ui": {"resourceUri": "ui://bad/plain.html"}}"#
)]
async fn plain_link() -> String {
    String::new()
}

#[tokio::test]
async fn check_apps_reports_every_broken_rule() {
    let server = Server::from_registry_named("apps-bad", server_info!())
        .build()
        .unwrap();
    let (mut client, _) = initialized(&server, json!({})).await;
    let mut found: Vec<String> = client
        .check_apps()
        .await
        .iter()
        .map(AppProblem::to_string)
        .collect();
    found.sort();
    let mut expected = vec![
        "https_link: [scheme] `resourceUri` `https://example.com/w.html` does not start with `ui://`",
        "nowhere_link: [deprecated] the flat `ui/resourceUri` key is deprecated; use `_meta.ui.resourceUri`",
        "nowhere_link: [visibility] unknown value \"everyone\", expected \"model\" or \"app\"",
        "nowhere_link: [exists] `resourceUri` `ui://bad/nowhere.html` is not in `resources/list`",
        "ui://bad/empty.html: [content] the document is empty",
        "ui://bad/plain.html: [mime] mimeType is `text/html`, expected exactly `text/html;profile=mcp-app`",
        "ui://bad/plain.html: [html] not an HTML5 document (expected `<!doctype html>` then `<html`)",
    ];
    expected.sort();
    let (read_failures, others): (Vec<String>, Vec<String>) = found
        .into_iter()
        .partition(|p| p.contains("`resources/read` failed"));
    assert_eq!(others, expected);
    // The unserved URI and the missing file both fail to read (the latter masked as internal).
    assert_eq!(read_failures.len(), 2, "{read_failures:?}");
    assert!(read_failures[0].starts_with(
        "ui://bad/missing-file.html: [exists] `resources/read` failed: {\"code\":-32603"
    ));
    assert!(
        read_failures[1].starts_with(
            "ui://bad/nowhere.html: [exists] `resources/read` failed: {\"code\":-32002"
        )
    );
}
