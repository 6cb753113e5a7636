//! Structured results checked against output schemas that are not derived from a tool's return
//! type (issue 28): a hand-written schema (`ToolRecord::with_output_schema`) and a mounted
//! server's tools, on by default, off per tool, per mount and server-wide; a derived schema
//! (`Json<T>`) never checked, even when the type's schema does not describe what it writes; and
//! the client's own check (`ClientBuilder::validate_output`) against a server that sends
//! off-schema content. Every server here is of this framework, over in-memory pairs.
#![cfg(all(feature = "client", feature = "macros"))]

use mcp_runtime::client::{Client, ClientError};
use mcp_runtime::prelude::*;
use mcp_runtime::protocol::CallToolResult;
use mcp_runtime::registry::{InputSchema, ToolRecord};
use mcp_runtime::schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use mcp_runtime::serde_json::value::RawValue;
use mcp_runtime::transform::MountOptions;
use mcp_runtime::{BoxFuture, HandlerError};
use serde_json::{Value, json};

/// What every test's `quote` sends: a price that is a word.
fn bad_quote() -> Value {
    json!({"items": [{"name": "tea", "price": 3}, {"name": "cake", "price": "ten"}]})
}

fn quote(
    _: Context,
    _: Option<Box<RawValue>>,
) -> BoxFuture<'static, Result<CallToolResult, HandlerError>> {
    Box::pin(async { Ok(CallToolResult::structured(bad_quote(), "two items")) })
}

fn failing(
    _: Context,
    _: Option<Box<RawValue>>,
) -> BoxFuture<'static, Result<CallToolResult, HandlerError>> {
    Box::pin(async { Ok(CallToolResult::error_text("no prices today")) })
}

fn quote_schema(_: &mut SchemaGenerator) -> Option<Schema> {
    Some(json_schema!({
        "type": "object",
        "properties": {"items": {"type": "array", "items": {
            "type": "object",
            "properties": {"name": {"type": "string"}, "price": {"type": "number"}},
            "required": ["name", "price"]
        }}},
        "required": ["items"]
    }))
}

fn good(
    _: Context,
    _: Option<Box<RawValue>>,
) -> BoxFuture<'static, Result<CallToolResult, HandlerError>> {
    let quote = json!({"items": [{"name": "tea", "price": 3}]});
    Box::pin(async move { Ok(CallToolResult::structured(quote, "one item")) })
}

const GOOD: ToolRecord = ToolRecord::new("good", InputSchema::Raw(r#"{"type":"object"}"#), good)
    .with_output_schema(quote_schema);

const QUOTE: ToolRecord = ToolRecord::new("quote", InputSchema::Raw(r#"{"type":"object"}"#), quote)
    .with_output_schema(quote_schema);

/// The -32603 message a check of `tool`'s `quote` result gives.
fn message(tool: &str) -> String {
    format!(
        "tool '{tool}' returned a result that does not conform to its outputSchema: \
         structuredContent at /items/1/price fails \"type\": \"ten\" is not of type \"number\""
    )
}

/// A total whose schema says it is a string while it is written as a number: a derived schema
/// that does not hold, which the server still does not check (derived schemas never are).
#[derive(serde::Serialize)]
struct Total {
    total: i64,
}

impl JsonSchema for Total {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Total".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "object",
            "properties": {"total": {"type": "string"}},
            "required": ["total"]
        })
    }
}

/// Adds two numbers.
#[tool]
async fn add(a: i64, b: i64) -> Json<Total> {
    Json(Total { total: a + b })
}

async fn client_of(server: &Server, builder: mcp_runtime::client::ClientBuilder) -> Client {
    server.connect_client(builder).await.unwrap()
}

async fn call(client: &Client, tool: &str) -> Result<CallToolResult, ClientError> {
    client.call_tool(tool, json!({})).await
}

fn rpc(err: ClientError) -> mcp_runtime::protocol::ErrorObject {
    match err {
        ClientError::Rpc(e) => e,
        other => panic!("not a JSON-RPC error: {other}"),
    }
}

fn structured(result: &CallToolResult) -> Value {
    serde_json::from_str(result.structured_content.as_ref().unwrap().get()).unwrap()
}

#[tokio::test]
async fn a_hand_written_schema_that_does_not_hold_is_a_32603_naming_path_and_keyword() {
    let server = Server::builder(server_info!()).tool(QUOTE).build().unwrap();
    let client = client_of(&server, Client::builder()).await;
    let err = rpc(call(&client, "quote").await.unwrap_err());
    assert_eq!(err.code, -32603);
    assert_eq!(err.message, message("quote"));
    assert_eq!(
        err.data,
        Some(json!({"tool": "quote", "path": "/items/1/price", "keyword": "type"}))
    );
}

#[tokio::test]
async fn a_missing_structured_content_fails_and_an_error_result_is_not_checked() {
    fn none(
        _: Context,
        _: Option<Box<RawValue>>,
    ) -> BoxFuture<'static, Result<CallToolResult, HandlerError>> {
        Box::pin(async { Ok(CallToolResult::text("nothing structured")) })
    }
    let tools = [
        ToolRecord::new("none", InputSchema::Raw(r#"{"type":"object"}"#), none)
            .with_output_schema(quote_schema),
        ToolRecord::new("failing", InputSchema::Raw(r#"{"type":"object"}"#), failing)
            .with_output_schema(quote_schema),
    ];
    let [none, failing] = tools;
    let server = Server::builder(server_info!())
        .tool(none)
        .tool(failing)
        .build()
        .unwrap();
    let client = client_of(&server, Client::builder()).await;
    let err = rpc(call(&client, "none").await.unwrap_err());
    assert_eq!(
        (err.code, err.message.as_str()),
        (
            -32603,
            "tool 'none' returned a result that does not conform to its outputSchema: no \
             structuredContent, but the tool has an outputSchema"
        )
    );
    let failed = call(&client, "failing").await.unwrap();
    assert_eq!(failed.is_error, Some(true));
    assert_eq!(failed.content[0].as_text(), Some("no prices today"));
}

#[tokio::test]
async fn validation_turned_off_for_the_tool_or_the_server_passes_the_result_through() {
    let off = Server::builder(server_info!())
        .tool(QUOTE.with_output_validation(false))
        .build()
        .unwrap();
    let result = call(&client_of(&off, Client::builder()).await, "quote")
        .await
        .unwrap();
    assert_eq!(structured(&result), bad_quote());
    assert_eq!(result.is_error, None);

    let server_off = Server::builder(server_info!())
        .validate_output(false)
        .tool(QUOTE)
        .build()
        .unwrap();
    let result = call(&client_of(&server_off, Client::builder()).await, "quote")
        .await
        .unwrap();
    assert_eq!(structured(&result), bad_quote());

    // The tool's own word wins over the server's.
    let tool_on = Server::builder(server_info!())
        .validate_output(false)
        .tool(QUOTE.with_output_validation(true))
        .build()
        .unwrap();
    let err = rpc(call(&client_of(&tool_on, Client::builder()).await, "quote")
        .await
        .unwrap_err());
    assert_eq!(err.message, message("quote"));
}

#[tokio::test]
async fn a_derived_schema_is_never_checked() {
    const { assert!(add::TOOL.output_schema_derived) };
    let server = Server::builder(server_info!())
        .tool(add::TOOL)
        .build()
        .unwrap();
    let client = client_of(&server, Client::builder()).await;
    let listed = client.list_tools().await.unwrap();
    assert_eq!(
        listed[0].output_schema.as_ref().unwrap()["properties"]["total"],
        json!({"type": "string"})
    );
    let result = client
        .call_tool("add", json!({"a": 2, "b": 3}))
        .await
        .unwrap();
    assert_eq!(structured(&result), json!({"total": 5}));
}

#[tokio::test]
async fn a_schema_that_does_not_compile_stops_the_build() {
    fn broken(_: &mut SchemaGenerator) -> Option<Schema> {
        Some(json_schema!({"type": "object", "properties": {"price": {"type": 5}}}))
    }
    let err = Server::builder(server_info!())
        .tool(QUOTE.with_output_schema(broken))
        .build()
        .err()
        .unwrap()
        .to_string();
    let start = format!("invalid tool `quote` ({}): ", QUOTE.location);
    let reason = err.strip_prefix(&start).unwrap_or_else(|| panic!("{err}"));
    assert!(
        reason.starts_with("the output schema does not compile: "),
        "{err}"
    );
    // Turned off, it is not compiled at all.
    let off = QUOTE
        .with_output_schema(broken)
        .with_output_validation(false);
    assert!(Server::builder(server_info!()).tool(off).build().is_ok());
}

/// A backend that sends the bad quote unchecked, and a gateway mounting it under `m`.
async fn gateway(gateway: mcp_runtime::ServerBuilder, options: MountOptions) -> Server {
    let backend = Server::builder(server_info!())
        .tool(QUOTE.with_output_validation(false))
        .build()
        .unwrap();
    let link = client_of(&backend, Client::builder()).await;
    let gateway = gateway.mount_with("m", link, options).build().unwrap();
    gateway.mounted().await;
    gateway
}

#[tokio::test]
async fn a_mounted_tool_that_breaks_its_schema_is_a_32603_at_the_gateway() {
    let server = gateway(Server::builder(server_info!()), MountOptions::new()).await;
    let client = client_of(&server, Client::builder()).await;
    let err = rpc(call(&client, "m.quote").await.unwrap_err());
    assert_eq!(err.code, -32603);
    assert_eq!(err.message, message("m.quote"));
    assert_eq!(
        err.data,
        Some(json!({"tool": "m.quote", "path": "/items/1/price", "keyword": "type"}))
    );
}

#[tokio::test]
async fn a_mount_or_a_gateway_with_validation_off_passes_the_result_through() {
    let mount_off = gateway(
        Server::builder(server_info!()),
        MountOptions::new().validate_output(false),
    )
    .await;
    let result = call(&client_of(&mount_off, Client::builder()).await, "m.quote")
        .await
        .unwrap();
    assert_eq!(structured(&result), bad_quote());

    let server_off = gateway(
        Server::builder(server_info!()).validate_output(false),
        MountOptions::new(),
    )
    .await;
    let result = call(&client_of(&server_off, Client::builder()).await, "m.quote")
        .await
        .unwrap();
    assert_eq!(structured(&result), bad_quote());
}

#[tokio::test]
async fn the_client_checks_results_when_asked() {
    let server = Server::builder(server_info!())
        .tool(QUOTE.with_output_validation(false))
        .tool(add::TOOL)
        .tool(GOOD)
        .build()
        .unwrap();
    // Not asked: the off-schema result as it came.
    let plain = client_of(&server, Client::builder()).await;
    assert_eq!(
        structured(&call(&plain, "quote").await.unwrap()),
        bad_quote()
    );

    // Asked: the tools are listed on the first call (nothing was listed yet), then checked.
    let checking = client_of(&server, Client::builder().validate_output(true)).await;
    let err = call(&checking, "quote").await.unwrap_err();
    assert_eq!(
        err.to_string(),
        "the result of tool 'quote' does not conform to its outputSchema: structuredContent at \
         /items/1/price fails \"type\": \"ten\" is not of type \"number\""
    );
    let ClientError::OutputSchema { tool, mismatch } = err else {
        panic!("not an output schema error");
    };
    assert_eq!(tool, "quote");
    assert_eq!(
        (mismatch.path.as_str(), mismatch.keyword.as_str()),
        ("/items/1/price", "type")
    );
    // A result that conforms passes.
    let good = checking.call_tool("good", json!({})).await.unwrap();
    assert_eq!(
        structured(&good),
        json!({"items": [{"name": "tea", "price": 3}]})
    );
    // The client cannot tell a derived schema: it checks every listed one.
    let err = checking
        .call_tool("add", json!({"a": 1, "b": 2}))
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the result of tool 'add' does not conform to its outputSchema: structuredContent at \
         /total fails \"type\": 3 is not of type \"string\""
    );
    let err = rpc(call(&checking, "absent").await.unwrap_err());
    assert_eq!(err.message, "unknown tool 'absent'");
}

#[tokio::test]
async fn a_task_whose_result_breaks_its_schema_ends_in_the_same_error() {
    use mcp_runtime::protocol::tasks::TaskSupport;
    let server = Server::builder(server_info!())
        .tool(QUOTE.with_task_support(TaskSupport::Optional))
        .tasks(mcp_runtime::tasks::TaskOptions::default())
        .build()
        .unwrap();
    let mut c = server.connect_in_memory();
    c.initialize("2025-11-25").await;
    let created = c
        .request(
            "tools/call",
            json!({"name": "quote", "arguments": {}, "task": {"ttl": 60_000}}),
        )
        .await;
    let id = created["result"]["task"]["taskId"]
        .as_str()
        .unwrap()
        .to_owned();
    let ended = c.request("tasks/result", json!({"taskId": id})).await;
    assert_eq!(ended["error"]["code"], -32603, "{ended}");
    assert_eq!(ended["error"]["message"], message("quote"));
}
