//! Transforms and visibility per caller: transformed schemas in `tools/list`, calls checked
//! against them and mapped back, hidden items neither listed nor callable, views per session
//! and per era, resources and prompts exposed as tools, on local and mounted items.
#![cfg(feature = "client")]

use std::sync::{Arc, Mutex};

use mcp_runtime::client::{Client, ClientError};
use mcp_runtime::prelude::*;
use mcp_runtime::protocol::{ProtocolVersion, ToolAnnotations};
use mcp_runtime::transform::{
    ArgTransform, MountOptions, PromptTool, PromptTransform, ResourceTool, ResourceTransform,
    ToolTransform, View, Visibility,
};
use serde_json::{Value, json};

/// Searches an index.
#[tool]
async fn search(
    /// What to look for
    q: String,
    /// How many
    limit: u32,
    /// Which index
    index: String,
) -> String {
    // What the tool received, by its own names.
    json!({"q": q, "limit": limit, "index": index}).to_string()
}

/// Drops everything.
#[tool]
async fn drop_all() -> String {
    "dropped".into()
}

/// The readme.
#[resource(uri = "file:///README.md", mime = "text/markdown")]
async fn readme() -> String {
    "# Hello".into()
}

/// A secret.
#[resource(uri = "file:///secret.txt")]
async fn secret() -> String {
    "s3cr3t".into()
}

/// Greets someone.
#[prompt]
async fn greet(
    /// Who
    who: String,
    /// Tone
    tone: Option<String>,
) -> String {
    format!("Hello {who}, {}", tone.unwrap_or_else(|| "plainly".into()))
}

fn backend() -> Server {
    Server::builder(server_info!())
        .tool(search::TOOL)
        .tool(drop_all::TOOL)
        .resource(readme::RESOURCE)
        .resource(secret::RESOURCE)
        .prompt(greet::PROMPT)
        .build()
        .unwrap()
}

fn search_transform() -> ToolTransform {
    ToolTransform::new("search")
        .rename("find")
        .description("Finds documents")
        .annotations(ToolAnnotations::new().read_only(true))
        .arg("q", ArgTransform::rename("query").description("The query"))
        .arg("limit", ArgTransform::new().default(json!(10)))
        .arg("index", ArgTransform::fixed(json!("public")))
}

/// The transformed `find` as `tools/list` shows it, named `name`.
fn find_listed(name: &str) -> Value {
    json!({
        "name": name,
        "description": "Finds documents",
        "annotations": {"readOnlyHint": true},
        "inputSchema": {
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "The query"},
                "limit": {"type": "integer", "description": "How many", "minimum": 0, "default": 10}
            },
            "required": ["query"]
        }
    })
}

async fn gateway(options: MountOptions) -> Client {
    let link = backend().connect_client(Client::builder()).await.unwrap();
    let gateway = Server::builder(server_info!())
        .mount_with("up", link, options)
        .build()
        .unwrap();
    gateway.mounted().await;
    gateway.connect_client(Client::builder()).await.unwrap()
}

fn text(r: &mcp_runtime::protocol::CallToolResult) -> &str {
    r.content[0].as_text().unwrap()
}

fn rpc(err: ClientError) -> (i32, String) {
    match err {
        ClientError::Rpc(e) => (e.code, e.message),
        other => panic!("not a JSON-RPC error: {other}"),
    }
}

#[tokio::test]
async fn a_mounted_tool_is_listed_transformed_and_called_with_the_original_names() {
    let client = gateway(
        MountOptions::new()
            .transform(search_transform())
            .transform(ToolTransform::new("drop_all").hide()),
    )
    .await;
    let tools = client.list_tools().await.unwrap();
    let listed: Vec<Value> = tools
        .iter()
        .map(|t| serde_json::to_value(t).unwrap())
        .collect();
    assert_eq!(listed, [find_listed("up.find")]);
    // Renamed back, defaulted, fixed: what the backend tool received.
    let r = client
        .call_tool("up.find", json!({"query": "cats"}))
        .await
        .unwrap();
    assert_eq!(text(&r), r#"{"index":"public","limit":10,"q":"cats"}"#);
    let r = client
        .call_tool("up.find", json!({"query": "cats", "limit": 2}))
        .await
        .unwrap();
    assert_eq!(text(&r), r#"{"index":"public","limit":2,"q":"cats"}"#);
    // Checked against the schema the client sees: a result with isError (2025-11-25 on).
    let r = client
        .call_tool("up.find", json!({"query": 7, "index": "private"}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true));
    assert_eq!(
        text(&r),
        "invalid arguments for tool 'up.find': 2 problems:\n\
         - unknown property 'index'\n\
         - property 'query': expected a string, got integer 7"
    );
    // Hidden: the error of a tool that does not exist, to the byte.
    let hidden = rpc(client
        .call_tool("up.drop_all", json!({}))
        .await
        .unwrap_err());
    let missing = rpc(client.call_tool("up.nothing", json!({})).await.unwrap_err());
    assert_eq!(hidden, (-32602, "unknown tool 'up.drop_all'".to_owned()));
    assert_eq!(missing, (-32602, "unknown tool 'up.nothing'".to_owned()));
    // The original name is not served either.
    let original = rpc(client.call_tool("up.search", json!({})).await.unwrap_err());
    assert_eq!(original, (-32602, "unknown tool 'up.search'".to_owned()));
}

#[tokio::test]
async fn a_protocol_error_for_bad_arguments_before_2025_11_25() {
    let link = backend().connect_client(Client::builder()).await.unwrap();
    let gateway = Server::builder(server_info!())
        .mount_with(
            "up",
            link,
            MountOptions::new().transform(search_transform()),
        )
        .build()
        .unwrap();
    gateway.mounted().await;
    let old = Client::builder().protocol_version(ProtocolVersion::V2025_06_18);
    let client = gateway.connect_client(old).await.unwrap();
    let err = rpc(client.call_tool("up.find", json!({})).await.unwrap_err());
    assert_eq!(
        err,
        (
            -32602,
            "invalid arguments for tool 'up.find': missing required property 'query'".to_owned()
        )
    );
}

#[tokio::test]
async fn local_items_are_transformed_once_at_build() {
    let server = Server::builder(server_info!())
        .tool(search::TOOL)
        .tool(drop_all::TOOL)
        .resource(readme::RESOURCE)
        .resource(secret::RESOURCE)
        .prompt(greet::PROMPT)
        .transform(search_transform())
        .transform(ToolTransform::new("drop_all").hide())
        .transform(ResourceTransform::new("file:///secret.txt").hide())
        .transform(
            PromptTransform::new("greet")
                .rename("hello")
                .arg("who", ArgTransform::rename("name"))
                .arg("tone", ArgTransform::fixed(json!("warmly"))),
        )
        .build()
        .unwrap();
    let client = server.connect_client(Client::builder()).await.unwrap();
    let tools = client.list_tools().await.unwrap();
    let listed: Vec<Value> = tools
        .iter()
        .map(|t| serde_json::to_value(t).unwrap())
        .collect();
    assert_eq!(listed, [find_listed("find")]);
    let r = client
        .call_tool("find", json!({"query": "dogs"}))
        .await
        .unwrap();
    assert_eq!(text(&r), r#"{"index":"public","limit":10,"q":"dogs"}"#);
    let hidden = rpc(client.call_tool("drop_all", json!({})).await.unwrap_err());
    assert_eq!(hidden, (-32602, "unknown tool 'drop_all'".to_owned()));
    let uris: Vec<String> = client
        .list_resources()
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.uri)
        .collect();
    assert_eq!(uris, ["file:///README.md"]);
    let secret = rpc(client
        .read_resource("file:///secret.txt")
        .await
        .unwrap_err());
    let nothing = rpc(client
        .read_resource("file:///nothing.txt")
        .await
        .unwrap_err());
    assert_eq!(secret.0, nothing.0);
    let prompts = client.list_prompts().await.unwrap();
    assert_eq!(
        serde_json::to_value(&prompts).unwrap(),
        json!([{"name": "hello", "description": "Greets someone.", "arguments": [
            {"name": "name", "description": "Who", "required": true}
        ]}])
    );
    let got = client
        .get_prompt("hello", json!({"name": "Ada"}))
        .await
        .unwrap();
    assert_eq!(got.messages[0].content.as_text(), Some("Hello Ada, warmly"));
    let missing = rpc(client.get_prompt("hello", json!({})).await.unwrap_err());
    assert_eq!(
        missing,
        (-32602, "missing required argument 'name'".to_owned())
    );
}

#[tokio::test]
async fn a_transform_that_does_not_fit_stops_the_build() {
    let err = Server::builder(server_info!())
        .tool(search::TOOL)
        .transform(ToolTransform::new("search").arg("nope", ArgTransform::rename("x")))
        .build()
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("its transform does not fit: it has no argument `nope`"),
        "{err}"
    );
    let err = Server::builder(server_info!())
        .transform(ToolTransform::new("ghost").hide())
        .build()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid configuration: transform of tool `ghost`: the server has no such tool"
    );
}

#[tokio::test]
async fn resources_and_prompts_are_exposed_as_tools() {
    let client = gateway(
        MountOptions::new()
            .transform(ResourceTool::new("read_readme", "file:///README.md"))
            .transform(PromptTool::new("greeting", "greet").description("A greeting"))
            .transform(ToolTransform::new("search").hide())
            .transform(ToolTransform::new("drop_all").hide()),
    )
    .await;
    let tools = client.list_tools().await.unwrap();
    let listed: Vec<Value> = tools
        .iter()
        .map(|t| serde_json::to_value(t).unwrap())
        .collect();
    assert_eq!(
        listed,
        [
            json!({"name": "up.read_readme", "description": "The readme.",
                   "inputSchema": {"type": "object", "properties": {}},
                   "annotations": {"readOnlyHint": true, "destructiveHint": false}}),
            json!({"name": "up.greeting", "description": "A greeting",
                   "inputSchema": {"type": "object", "properties": {
                       "who": {"type": "string", "description": "Who"},
                       "tone": {"type": "string", "description": "Tone"}
                   }, "required": ["who"]}}),
        ]
    );
    let r = client.call_tool("up.read_readme", json!({})).await.unwrap();
    assert_eq!(text(&r), "# Hello");
    let r = client
        .call_tool("up.greeting", json!({"who": "Bo", "tone": "loudly"}))
        .await
        .unwrap();
    assert_eq!(text(&r), "Hello Bo, loudly");
    let r = client.call_tool("up.greeting", json!({})).await.unwrap();
    assert_eq!(r.is_error, Some(true));
    assert_eq!(
        text(&r),
        "invalid arguments for tool 'up.greeting': missing required property 'who'"
    );
}

/// A gateway whose `up.find` is tagged `admin`, seen only by `rule`'s views that show it.
async fn tagged_gateway(rule: Visibility) -> Server {
    let link = backend().connect_client(Client::builder()).await.unwrap();
    let options = MountOptions::new()
        .transform(search_transform().tags(["admin"]))
        .transform(ToolTransform::new("drop_all").tags(["admin", "danger"]));
    let gateway = Server::builder(server_info!())
        .mount_with("up", link, options)
        .visibility(rule)
        .build()
        .unwrap();
    gateway.mounted().await;
    gateway
}

async fn names(client: &Client) -> Vec<String> {
    let tools = client.list_tools().await.unwrap();
    tools.into_iter().map(|t| t.name).collect()
}

#[tokio::test]
async fn each_session_sees_its_own_view() {
    // The first session seen is the admin's; every other one hides `admin`.
    let first: Arc<Mutex<Option<String>>> = Arc::default();
    let seen = Arc::clone(&first);
    let rule = Visibility::new(move |viewer| {
        let session = viewer.session_id().unwrap_or_default().to_owned();
        let mut first = seen.lock().unwrap();
        let admin = first.get_or_insert(session.clone());
        if *admin == session {
            View::everything()
        } else {
            View::everything().hiding(["admin"])
        }
    });
    let gateway = tagged_gateway(rule).await;
    // Handshake-era sessions (each connection is one).
    let session = || Client::builder().protocol_version(ProtocolVersion::V2025_11_25);
    let admin = gateway.connect_client(session()).await.unwrap();
    assert_eq!(names(&admin).await, ["up.drop_all", "up.find"]);
    let other = gateway.connect_client(session()).await.unwrap();
    assert_eq!(names(&other).await, Vec::<String>::new());
    let hidden = rpc(other
        .call_tool("up.find", json!({"query": "x"}))
        .await
        .unwrap_err());
    assert_eq!(hidden, (-32602, "unknown tool 'up.find'".to_owned()));
    // The admin's session still sees and calls it.
    let r = admin
        .call_tool("up.find", json!({"query": "x"}))
        .await
        .unwrap();
    assert_eq!(text(&r), r#"{"index":"public","limit":10,"q":"x"}"#);
}

#[tokio::test]
async fn each_era_sees_its_own_view() {
    let rule = Visibility::by_era(
        View::everything().hiding(["danger"]),
        View::only(["admin"]).hiding(["danger"]),
    );
    let gateway = tagged_gateway(rule).await;
    let old = Client::builder().protocol_version(ProtocolVersion::V2025_11_25);
    let old = gateway.connect_client(old).await.unwrap();
    assert_eq!(names(&old).await, ["up.find"]);
    let new = Client::builder().protocol_version(ProtocolVersion::V2026_07_28);
    let new = gateway.connect_client(new).await.unwrap();
    assert_eq!(names(&new).await, ["up.find"]);
    let hidden = rpc(new.call_tool("up.drop_all", json!({})).await.unwrap_err());
    assert_eq!(hidden, (-32602, "unknown tool 'up.drop_all'".to_owned()));
}

#[tokio::test]
async fn tags_come_from_records_and_from_a_mounted_servers_fastmcp_meta() {
    let hide_danger = || Visibility::new(|_| View::everything().hiding(["danger"]));
    // Local: the record's own tags.
    let local = Server::builder(server_info!())
        .tool(search::TOOL)
        .tool(drop_all::TOOL.with_tags(&["danger"]))
        .visibility(hide_danger())
        .build()
        .unwrap();
    let client = local.connect_client(Client::builder()).await.unwrap();
    assert_eq!(names(&client).await, ["search"]);
    let hidden = rpc(client.call_tool("drop_all", json!({})).await.unwrap_err());
    assert_eq!(hidden, (-32602, "unknown tool 'drop_all'".to_owned()));
    // Mounted: the tags FastMCP writes in `_meta._fastmcp.tags`.
    let backend = Server::builder(server_info!())
        .tool(search::TOOL)
        .tool(drop_all::TOOL.with_meta(r#"{"_fastmcp": {"tags": ["danger"]}}"#))
        .build()
        .unwrap();
    let link = backend.connect_client(Client::builder()).await.unwrap();
    let gateway = Server::builder(server_info!())
        .mount("up", link)
        .visibility(hide_danger())
        .build()
        .unwrap();
    gateway.mounted().await;
    let client = gateway.connect_client(Client::builder()).await.unwrap();
    assert_eq!(names(&client).await, ["up.search"]);
    let hidden = rpc(client
        .call_tool("up.drop_all", json!({}))
        .await
        .unwrap_err());
    assert_eq!(hidden, (-32602, "unknown tool 'up.drop_all'".to_owned()));
}

#[tokio::test]
async fn local_resources_and_prompts_are_exposed_as_tools() {
    let server = Server::builder(server_info!())
        .resource(readme::RESOURCE)
        .prompt(greet::PROMPT)
        .transform(ResourceTool::new("read_readme", "file:///README.md").tags(["docs"]))
        .transform(PromptTool::new("greeting", "greet"))
        .transform(PromptTransform::new("greet").hide())
        .visibility(Visibility::new(|viewer| {
            if viewer.version().is_stateless() {
                View::everything()
            } else {
                View::everything().hiding(["docs"])
            }
        }))
        .build()
        .unwrap();
    let client = server.connect_client(Client::builder()).await.unwrap();
    assert_eq!(names(&client).await, ["read_readme", "greeting"]);
    let r = client.call_tool("read_readme", json!({})).await.unwrap();
    assert_eq!(text(&r), "# Hello");
    let r = client
        .call_tool("greeting", json!({"who": "Cy"}))
        .await
        .unwrap();
    assert_eq!(text(&r), "Hello Cy, plainly");
    let r = client
        .call_tool("greeting", json!({"who": 3}))
        .await
        .unwrap();
    assert_eq!(
        (r.is_error, text(&r)),
        (
            Some(true),
            "invalid arguments for tool 'greeting': property 'who': expected a string, got integer 3"
        )
    );
    // The prompt itself is hidden: no prompt is left, and none is advertised.
    assert!(client.server_capabilities().prompts.is_none());
    let none = rpc(client.list_prompts().await.unwrap_err());
    assert_eq!(none, (-32601, "Method not found: prompts/list".to_owned()));
    // The handshake era's view hides the `docs` tool.
    let old = Client::builder().protocol_version(ProtocolVersion::V2025_11_25);
    let old = server.connect_client(old).await.unwrap();
    assert_eq!(names(&old).await, ["greeting"]);
    let hidden = rpc(old.call_tool("read_readme", json!({})).await.unwrap_err());
    assert_eq!(hidden, (-32602, "unknown tool 'read_readme'".to_owned()));
    // A name a tool has already, or nothing to expose, stops the build.
    let err = Server::builder(server_info!())
        .tool(search::TOOL)
        .resource(readme::RESOURCE)
        .transform(ResourceTool::new("search", "file:///README.md"))
        .build()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid configuration: exposed tool `search`: the name is a tool's already, or breaks \
         the tool-name rules"
    );
}

/// Purges the logs.
#[tool(tags = ["danger", "ops"])]
async fn purge() -> String {
    "purged".into()
}

/// The operations log.
#[resource(uri = "file:///ops.log", tags = ["danger"])]
async fn ops_log() -> String {
    "log".into()
}

/// Drafts an incident report.
#[prompt(tags = ["ops"])]
async fn incident() -> String {
    "Draft the report".into()
}

#[tokio::test]
async fn tags_declared_on_the_attribute_decide_what_a_view_sees() {
    assert_eq!(purge::TOOL.tags, ["danger", "ops"]);
    let server = Server::builder(server_info!())
        .tool(search::TOOL)
        .tool(purge::TOOL)
        .resource(readme::RESOURCE)
        .resource(ops_log::RESOURCE)
        .prompt(greet::PROMPT)
        .prompt(incident::PROMPT)
        .visibility(Visibility::new(|_| View::everything().hiding(["danger"])))
        .build()
        .unwrap();
    let client = server.connect_client(Client::builder()).await.unwrap();
    assert_eq!(names(&client).await, ["search"]);
    let hidden = rpc(client.call_tool("purge", json!({})).await.unwrap_err());
    assert_eq!(hidden, (-32602, "unknown tool 'purge'".to_owned()));
    let uris: Vec<String> = client
        .list_resources()
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.uri)
        .collect();
    assert_eq!(uris, ["file:///README.md"]);
    // A hidden resource reads as one that does not exist (-32602 in 2026-07-28).
    let unread = rpc(client.read_resource("file:///ops.log").await.unwrap_err());
    assert_eq!(
        unread,
        (-32602, "resource not found: file:///ops.log".to_owned())
    );
    let absent = rpc(client.read_resource("file:///absent").await.unwrap_err());
    assert_eq!(
        absent,
        (-32602, "resource not found: file:///absent".to_owned())
    );
    // `ops` alone does not hide: the prompt tagged only `ops` stays.
    let prompts: Vec<String> = client
        .list_prompts()
        .await
        .unwrap()
        .into_iter()
        .map(|p| p.name)
        .collect();
    assert_eq!(prompts, ["greet", "incident"]);
}
