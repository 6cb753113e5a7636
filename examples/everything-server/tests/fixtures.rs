//! Exact fixture contents (FIXTURES.md), asserted over the in-memory client.
//!
//! The conformance suites check contents shallowly; these tests pin them down. The fixture
//! modules are compiled into this test binary too (`#[path]`), so their `#[tool]`, `#[resource]`
//! and `#[prompt]` items register here exactly as they do in the server binary.

#![allow(missing_docs, dead_code)]

#[path = "../src/media.rs"]
mod media;
#[path = "../src/prompts.rs"]
mod prompts;
#[path = "../src/resources.rs"]
mod resources;
#[path = "../src/tools.rs"]
mod tools;

use mcp_runtime::prelude::*;
use mcp_runtime::transport::memory::TestClient;
use serde_json::{Value, json};

const PNG: &str = media::PNG_BASE64;

/// A client of the fixture server, after `initialize` at 2025-11-25.
async fn legacy() -> TestClient {
    let server = Server::from_registry(server_info!())
        .build()
        .expect("fixtures build");
    let mut client = server.connect_in_memory();
    let init = client.initialize("2025-11-25").await;
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25", "{init}");
    client
}

/// A client that has not initialized (for stateless-era requests).
fn stateless() -> TestClient {
    Server::from_registry(server_info!())
        .build()
        .expect("fixtures build")
        .connect_in_memory()
}

async fn content(client: &mut TestClient, tool: &str) -> Value {
    let r = client.call_tool(tool, json!({})).await;
    assert_eq!(r["result"]["isError"], Value::Null, "{tool}: {r}");
    r["result"]["content"].clone()
}

#[tokio::test]
async fn content_tools() {
    let mut c = legacy().await;
    assert_eq!(
        content(&mut c, "test_simple_text").await,
        json!([{"type": "text", "text": "This is a simple text response for testing."}])
    );
    assert_eq!(
        content(&mut c, "test_image_content").await,
        json!([{"type": "image", "data": PNG, "mimeType": "image/png"}])
    );
    let audio = content(&mut c, "test_audio_content").await;
    assert_eq!(audio[0]["type"], "audio");
    assert_eq!(audio[0]["mimeType"], "audio/wav");
    assert!(
        audio[0]["data"]
            .as_str()
            .is_some_and(|d| d.starts_with("UklGR")),
        "a RIFF file: {audio}"
    );
    assert_eq!(
        content(&mut c, "test_embedded_resource").await,
        json!([{"type": "resource", "resource": {
            "uri": "test://embedded-resource",
            "mimeType": "text/plain",
            "text": "This is an embedded resource content."
        }}])
    );
    let mixed = content(&mut c, "test_multiple_content_types").await;
    assert_eq!(mixed[0]["type"], "text");
    assert_eq!(
        mixed[1],
        json!({"type": "image", "data": PNG, "mimeType": "image/png"})
    );
    assert_eq!(
        mixed[2],
        json!({"type": "resource", "resource": {
            "uri": "test://mixed-content-resource",
            "mimeType": "application/json",
            "text": "{\"test\":\"data\",\"value\":123}"
        }})
    );
}

#[tokio::test]
async fn error_tool_is_a_result_not_a_protocol_error() {
    let mut c = legacy().await;
    let r = c.call_tool("test_error_handling", json!({})).await;
    assert_eq!(
        r["result"],
        json!({"isError": true, "content": [{"type": "text", "text": "This tool intentionally returns an error for testing"}]})
    );
}

#[tokio::test]
async fn progress_tool_reports_0_50_100_with_the_callers_token() {
    let mut c = legacy().await;
    let r = c
        .request("tools/call", json!({"name": "test_tool_with_progress", "arguments": {}, "_meta": {"progressToken": "tok-7"}}))
        .await;
    assert_eq!(r["result"]["isError"], Value::Null, "{r}");
    let progress: Vec<(Value, Value, Value)> = c
        .notifications()
        .into_iter()
        .filter(|n| n["method"] == "notifications/progress")
        .map(|n| {
            (
                n["params"]["progressToken"].clone(),
                n["params"]["progress"].clone(),
                n["params"]["total"].clone(),
            )
        })
        .collect();
    assert_eq!(
        progress,
        [
            (json!("tok-7"), json!(0.0), json!(100.0)),
            (json!("tok-7"), json!(50.0), json!(100.0)),
            (json!("tok-7"), json!(100.0), json!(100.0))
        ]
    );
}

#[tokio::test]
async fn logging_tool_logs_three_info_messages() {
    let mut c = legacy().await;
    let r = c.call_tool("test_tool_with_logging", json!({})).await;
    assert_eq!(r["result"]["isError"], Value::Null, "{r}");
    let logs: Vec<Value> = c
        .notifications()
        .into_iter()
        .filter(|n| n["method"] == "notifications/message")
        .map(|n| n["params"].clone())
        .collect();
    assert_eq!(logs.len(), 3, "{logs:?}");
    assert!(logs.iter().all(|l| l["level"] == "info"));
    assert_eq!(logs[0]["data"], "Tool execution started");
}

#[tokio::test]
async fn json_schema_2020_12_tool_keeps_its_schema_verbatim() {
    let mut c = legacy().await;
    let list = c.request("tools/list", Value::Null).await;
    let tool = list["result"]["tools"]
        .as_array()
        .and_then(|tools| {
            tools
                .iter()
                .find(|t| t["name"] == "json_schema_2020_12_tool")
        })
        .cloned()
        .expect("listed");
    let expected = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {"address": {
            "$anchor": "addressDef",
            "type": "object",
            "properties": {"street": {"type": "string"}, "city": {"type": "string"}}
        }},
        "properties": {
            "name": {"type": "string"},
            "address": {"$ref": "#/$defs/address"},
            "contactMethod": {"type": "string", "enum": ["phone", "email"]},
            "phone": {"type": "string"},
            "email": {"type": "string"}
        },
        "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
        "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
        "then": {"required": ["phone"]},
        "else": {"required": ["email"]},
        "additionalProperties": false
    });
    assert_eq!(tool["inputSchema"], expected);
    let r = c
        .call_tool(
            "json_schema_2020_12_tool",
            json!({"name": "Ada", "email": "ada@example.com"}),
        )
        .await;
    assert_eq!(r["result"]["isError"], Value::Null, "{r}");
}

#[tokio::test]
async fn every_tool_has_a_description_and_an_object_schema() {
    let mut c = legacy().await;
    let list = c.request("tools/list", Value::Null).await;
    let tools = list["result"]["tools"].as_array().expect("tools").clone();
    for name in [
        "test_simple_text",
        "test_image_content",
        "test_audio_content",
        "test_embedded_resource",
        "test_multiple_content_types",
        "test_error_handling",
        "test_tool_with_progress",
        "test_tool_with_logging",
        "json_schema_2020_12_tool",
        "test_custom_header",
        "test_missing_capability",
        "test_streaming_elicitation",
        "test_logging_tool",
    ] {
        assert!(
            tools.iter().any(|t| t["name"] == name),
            "{name} is not listed"
        );
    }
    for tool in &tools {
        assert!(
            tool["description"].as_str().is_some_and(|d| !d.is_empty()),
            "{tool}"
        );
        assert_eq!(tool["inputSchema"]["type"], "object", "{tool}");
    }
    let header_tool = tools
        .iter()
        .find(|t| t["name"] == "test_custom_header")
        .expect("listed");
    assert_eq!(
        header_tool["inputSchema"]["properties"]["region"]["type"],
        "string"
    );
    assert_eq!(
        header_tool["inputSchema"]["properties"]["region"]["x-mcp-header"],
        "Region"
    );
    assert_eq!(header_tool["inputSchema"]["required"], json!(["region"]));
}

#[tokio::test]
async fn missing_capability_is_32021_naming_sampling() {
    let mut c = stateless();
    let r = c
        .stateless(
            "tools/call",
            json!({"name": "test_missing_capability", "arguments": {}}),
        )
        .await;
    assert_eq!(r["error"]["code"], -32021, "{r}");
    assert_eq!(
        r["error"]["data"],
        json!({"requiredCapabilities": {"sampling": {}}})
    );
}

#[tokio::test]
async fn resources_and_template() {
    let mut c = legacy().await;
    let read = |uri: &str| json!({"uri": uri});
    let r = c
        .request("resources/read", read("test://static-text"))
        .await;
    assert_eq!(
        r["result"]["contents"],
        json!([{"uri": "test://static-text", "mimeType": "text/plain", "text": "This is the content of the static text resource."}])
    );
    let r = c
        .request("resources/read", read("test://static-binary"))
        .await;
    assert_eq!(
        r["result"]["contents"],
        json!([{"uri": "test://static-binary", "mimeType": "image/png", "blob": PNG}])
    );
    let r = c
        .request("resources/read", read("test://template/123/data"))
        .await;
    assert_eq!(
        r["result"]["contents"],
        json!([{"uri": "test://template/123/data", "mimeType": "application/json",
                "text": "{\"id\":\"123\",\"templateTest\":true,\"data\":\"Data for ID: 123\"}"}])
    );
    let list = c.request("resources/list", Value::Null).await;
    let uris: Vec<&str> = list["result"]["resources"]
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|r| r["uri"].as_str())
        .collect();
    assert_eq!(
        uris,
        [
            "test://static-binary",
            "test://static-text",
            "test://watched-resource"
        ]
    );
    let templates = c.request("resources/templates/list", Value::Null).await;
    assert_eq!(
        templates["result"]["resourceTemplates"][0]["uriTemplate"],
        "test://template/{id}/data"
    );
    let sub = c
        .request("resources/subscribe", read("test://watched-resource"))
        .await;
    assert_eq!(sub["result"], json!({}), "{sub}");
}

#[tokio::test]
async fn unknown_resource_is_an_error_with_the_uri() {
    let uri = "test://nonexistent-resource-for-conformance-testing";
    let mut c = stateless();
    let r = c.stateless("resources/read", json!({"uri": uri})).await;
    assert_eq!(r["error"]["code"], -32602, "{r}");
    assert_eq!(r["error"]["data"]["uri"], uri);
}

#[tokio::test]
async fn prompts() {
    let mut c = legacy().await;
    let get = |name: &str, args: Value| json!({"name": name, "arguments": args});
    let r = c
        .request("prompts/get", get("test_simple_prompt", json!({})))
        .await;
    assert_eq!(
        r["result"]["messages"],
        json!([{"role": "user", "content": {"type": "text", "text": "This is a simple prompt for testing."}}])
    );
    let r = c
        .request(
            "prompts/get",
            get(
                "test_prompt_with_arguments",
                json!({"arg1": "a", "arg2": "b"}),
            ),
        )
        .await;
    assert_eq!(
        r["result"]["messages"],
        json!([{"role": "user", "content": {"type": "text", "text": "Prompt with arguments: arg1='a', arg2='b'"}}])
    );
    let r = c
        .request(
            "prompts/get",
            get(
                "test_prompt_with_embedded_resource",
                json!({"resourceUri": "test://x"}),
            ),
        )
        .await;
    assert_eq!(
        r["result"]["messages"][0],
        json!({"role": "user", "content": {"type": "resource", "resource": {
            "uri": "test://x", "mimeType": "text/plain", "text": "Embedded resource content for testing."
        }}})
    );
    assert_eq!(r["result"]["messages"][1]["content"]["type"], "text");
    let r = c
        .request("prompts/get", get("test_prompt_with_image", json!({})))
        .await;
    assert_eq!(
        r["result"]["messages"],
        json!([
            {"role": "user", "content": {"type": "image", "data": PNG, "mimeType": "image/png"}},
            {"role": "user", "content": {"type": "text", "text": "Please analyze the image above."}}
        ])
    );
    let list = c.request("prompts/list", Value::Null).await;
    for p in list["result"]["prompts"].as_array().expect("prompts") {
        assert!(
            p["description"].as_str().is_some_and(|d| !d.is_empty()),
            "{p}"
        );
    }
}

#[tokio::test]
async fn completion_of_arg1() {
    let mut c = legacy().await;
    let r = c
        .request(
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "test_prompt_with_arguments"}, "argument": {"name": "arg1", "value": "test"}}),
        )
        .await;
    assert_eq!(
        r["result"]["completion"]["values"],
        json!(["test", "testing", "tested"]),
        "{r}"
    );
}
