//! Exact fixture contents (FIXTURES.md), asserted over the in-memory client.
//!
//! The conformance suites check contents shallowly; these tests pin them down. The fixture
//! modules are compiled into this test binary too (`#[path]`), so their `#[tool]`, `#[resource]`
//! and `#[prompt]` items register here exactly as they do in the server binary.

#![allow(missing_docs, dead_code)]

#[path = "../src/interactive.rs"]
mod interactive;
#[path = "../src/media.rs"]
mod media;
#[path = "../src/mrtr.rs"]
mod mrtr;
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

/// Client capabilities that allow every question.
fn all_caps() -> Value {
    json!({"sampling": {}, "elicitation": {}, "roots": {"listChanged": true}})
}

/// A handshake-era client that declared sampling, elicitation and roots.
async fn legacy_with_caps() -> TestClient {
    let mut client = stateless();
    let init = client
        .request(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": all_caps(), "clientInfo": {"name": "t", "version": "0"}}),
        )
        .await;
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25", "{init}");
    client
        .notify("notifications/initialized", Value::Null)
        .await;
    client
}

/// Calls a tool in the handshake era and answers the one request the server sends meanwhile
/// with `answer`; returns (that request's params, the call's result).
async fn call_answering(
    c: &mut TestClient,
    tool: &str,
    args: Value,
    method: &str,
    answer: Value,
) -> (Value, Value) {
    c.send(&json!({"jsonrpc": "2.0", "id": "call", "method": "tools/call", "params": {"name": tool, "arguments": args}})).await;
    let request = loop {
        let msg = c.recv().await.expect("a request to the client");
        if msg.get("id").is_some() && msg["method"] == method {
            break msg;
        }
    };
    c.send(&json!({"jsonrpc": "2.0", "id": request["id"], "result": answer}))
        .await;
    let response = c.response(&json!("call")).await;
    (request["params"].clone(), response["result"].clone())
}

#[tokio::test]
async fn sampling_asks_the_clients_model() {
    let mut c = legacy_with_caps().await;
    let answer =
        json!({"role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "m"});
    let (params, result) = call_answering(
        &mut c,
        "test_sampling",
        json!({"prompt": "Capital?"}),
        "sampling/createMessage",
        answer,
    )
    .await;
    assert_eq!(
        params["messages"],
        json!([{"role": "user", "content": {"type": "text", "text": "Capital?"}}])
    );
    assert_eq!(params["maxTokens"], 100);
    assert_eq!(
        result["content"][0]["text"], "LLM response: Paris",
        "{result}"
    );
}

#[tokio::test]
async fn elicitation_asks_for_username_and_email() {
    let mut c = legacy_with_caps().await;
    let answer =
        json!({"action": "accept", "content": {"username": "ada", "email": "ada@example.com"}});
    let (params, result) = call_answering(
        &mut c,
        "test_elicitation",
        json!({"message": "Who are you?"}),
        "elicitation/create",
        answer,
    )
    .await;
    assert_eq!(params["message"], "Who are you?");
    let schema = &params["requestedSchema"];
    assert_eq!(schema["type"], "object");
    assert_eq!(schema["properties"]["username"]["type"], "string");
    assert_eq!(schema["properties"]["email"]["type"], "string");
    assert_eq!(schema["required"], json!(["username", "email"]));
    assert_eq!(
        result["content"][0]["text"],
        "User response: accepted username=ada, email=ada@example.com"
    );
}

#[tokio::test]
async fn sep1034_form_fields_carry_their_defaults() {
    let mut c = legacy_with_caps().await;
    let answer = json!({"action": "accept", "content": {"name": "Jane", "age": 25, "score": 88.0, "status": "inactive", "verified": false}});
    let (params, result) = call_answering(
        &mut c,
        "test_elicitation_sep1034_defaults",
        json!({}),
        "elicitation/create",
        answer,
    )
    .await;
    let p = &params["requestedSchema"]["properties"];
    assert_eq!(
        (&p["name"]["type"], &p["name"]["default"]),
        (&json!("string"), &json!("John Doe"))
    );
    assert_eq!(
        (&p["age"]["type"], &p["age"]["default"]),
        (&json!("integer"), &json!(30))
    );
    assert_eq!(
        (&p["score"]["type"], &p["score"]["default"]),
        (&json!("number"), &json!(95.5))
    );
    assert_eq!(
        (&p["verified"]["type"], &p["verified"]["default"]),
        (&json!("boolean"), &json!(true))
    );
    assert_eq!(p["status"]["type"], "string");
    assert_eq!(
        p["status"]["enum"],
        json!(["active", "inactive", "pending"])
    );
    assert_eq!(p["status"]["default"], "active");
    assert_eq!(
        result["content"][0]["text"],
        "Elicitation completed: accepted name=Jane, age=25, score=88, status=Inactive, verified=false"
    );
}

#[tokio::test]
async fn sep1330_form_has_every_enum_style() {
    let mut c = legacy_with_caps().await;
    let answer = json!({"action": "accept", "content": {"untitledSingle": "option1"}});
    let (params, result) = call_answering(
        &mut c,
        "test_elicitation_sep1330_enums",
        json!({}),
        "elicitation/create",
        answer,
    )
    .await;
    let p = &params["requestedSchema"]["properties"];
    assert_eq!(
        p["untitledSingle"]["enum"],
        json!(["option1", "option2", "option3"])
    );
    assert_eq!(
        p["titledSingle"]["oneOf"][0],
        json!({"const": "value1", "title": "First Option"})
    );
    assert_eq!(
        p["legacyEnum"]["enumNames"].as_array().map(Vec::len),
        Some(3)
    );
    assert_eq!(
        p["untitledMulti"]["items"]["enum"],
        json!(["option1", "option2", "option3"])
    );
    assert_eq!(
        p["titledMulti"]["items"]["anyOf"][2],
        json!({"const": "value3", "title": "Third Choice"})
    );
    assert_eq!(
        result["content"][0]["text"],
        r#"Elicitation completed: accepted {"untitledSingle":"option1"}"#
    );
}

/// A stateless-era request with every client capability (or `caps`), plus `extra` params.
async fn stateless_call(
    c: &mut TestClient,
    method: &str,
    name: &str,
    caps: Value,
    extra: Value,
) -> Value {
    let mut params = json!({"name": name, "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": caps,
    }});
    if method == "tools/call" {
        params["arguments"] = json!({});
    }
    if let Value::Object(extra) = extra {
        params.as_object_mut().expect("object").extend(extra);
    }
    c.request(method, params).await
}

fn accept(content: Value) -> Value {
    json!({"action": "accept", "content": content})
}

#[tokio::test]
async fn mrtr_elicitation_round_trip() {
    let mut c = stateless();
    let r1 = stateless_call(
        &mut c,
        "tools/call",
        "test_input_required_result_elicitation",
        all_caps(),
        json!({}),
    )
    .await;
    assert_eq!(r1["result"]["resultType"], "input_required", "{r1}");
    assert_eq!(
        r1["result"]["inputRequests"],
        json!({"user_name": {"method": "elicitation/create", "params": {
            "message": "What is your name?",
            "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
        }}})
    );
    let retry = with_state(
        json!({"inputResponses": {"user_name": accept(json!({"name": "Alice"})), "unknown_extra": {"x": 1}}}),
        &r1,
    );
    let r2 = stateless_call(
        &mut c,
        "tools/call",
        "test_input_required_result_elicitation",
        all_caps(),
        retry,
    )
    .await;
    assert_eq!(r2["result"]["resultType"], "complete", "{r2}");
    assert_eq!(
        r2["result"]["content"],
        json!([{"type": "text", "text": "Hello, Alice!"}])
    );
    // Each retry answers a round of its own: a state opens once.
    let round = first_round(&mut c, "test_input_required_result_elicitation").await;
    let wrong = with_state(
        json!({"inputResponses": {"wrong_key": accept(json!({"data": "x"}))}}),
        &round,
    );
    let r3 = stateless_call(
        &mut c,
        "tools/call",
        "test_input_required_result_elicitation",
        all_caps(),
        wrong,
    )
    .await;
    assert_eq!(
        r3["result"]["resultType"], "input_required",
        "missing answers are asked again: {r3}"
    );
    let round = first_round(&mut c, "test_input_required_result_elicitation").await;
    let invalid = with_state(json!({"inputResponses": {"user_name": 12345}}), &round);
    let r4 = stateless_call(
        &mut c,
        "tools/call",
        "test_input_required_result_elicitation",
        all_caps(),
        invalid,
    )
    .await;
    assert_eq!(
        r4["error"]["code"], -32602,
        "an invalid answer is a protocol error: {r4}"
    );
}

/// `retry` with the `requestState` of the round `asked` (which must carry one).
fn with_state(mut retry: Value, asked: &Value) -> Value {
    let state = asked["result"]["requestState"]
        .as_str()
        .unwrap_or_else(|| panic!("no requestState in {asked}"));
    retry["requestState"] = json!(state);
    retry
}

/// The first round of a stateless call of `tool`, asking for input.
async fn first_round(c: &mut TestClient, tool: &str) -> Value {
    let r = stateless_call(c, "tools/call", tool, all_caps(), json!({})).await;
    assert_eq!(r["result"]["resultType"], "input_required", "{r}");
    r
}

#[tokio::test]
async fn mrtr_sampling_and_roots() {
    let mut c = stateless();
    let r1 = stateless_call(
        &mut c,
        "tools/call",
        "test_input_required_result_sampling",
        all_caps(),
        json!({}),
    )
    .await;
    assert_eq!(
        r1["result"]["inputRequests"]["capital_question"],
        json!({"method": "sampling/createMessage", "params": {
            "messages": [{"role": "user", "content": {"type": "text", "text": "What is the capital of France?"}}],
            "maxTokens": 100
        }})
    );
    let sampled = json!({"role": "assistant", "content": {"type": "text", "text": "Paris."}, "model": "m", "stopReason": "endTurn"});
    let retry = with_state(
        json!({"inputResponses": {"capital_question": sampled}}),
        &r1,
    );
    let r2 = stateless_call(
        &mut c,
        "tools/call",
        "test_input_required_result_sampling",
        all_caps(),
        retry,
    )
    .await;
    assert_eq!(
        r2["result"]["content"][0]["text"], "Sampling result: Paris.",
        "{r2}"
    );

    let r1 = stateless_call(
        &mut c,
        "tools/call",
        "test_input_required_result_list_roots",
        all_caps(),
        json!({}),
    )
    .await;
    assert_eq!(
        r1["result"]["inputRequests"],
        json!({"client_roots": {"method": "roots/list", "params": {}}})
    );
    let roots = json!({"roots": [{"uri": "file:///test/root", "name": "Test Root"}]});
    let r2 = stateless_call(
        &mut c,
        "tools/call",
        "test_input_required_result_list_roots",
        all_caps(),
        with_state(json!({"inputResponses": {"client_roots": roots}}), &r1),
    )
    .await;
    assert_eq!(
        r2["result"]["content"][0]["text"], "Found 1 root(s): file:///test/root",
        "{r2}"
    );
}

#[tokio::test]
async fn mrtr_multiple_inputs_go_out_in_one_round() {
    let mut c = stateless();
    let tool = "test_input_required_result_multiple_inputs";
    let r1 = stateless_call(&mut c, "tools/call", tool, all_caps(), json!({})).await;
    let requests = &r1["result"]["inputRequests"];
    let methods: Vec<(&str, &str)> = ["user_name", "greeting", "client_roots"]
        .into_iter()
        .map(|k| (k, requests[k]["method"].as_str().unwrap_or_default()))
        .collect();
    assert_eq!(
        methods,
        [
            ("user_name", "elicitation/create"),
            ("greeting", "sampling/createMessage"),
            ("client_roots", "roots/list")
        ]
    );
    assert_eq!(requests["greeting"]["params"]["maxTokens"], 50);
    let answers = json!({"inputResponses": {
        "user_name": accept(json!({"name": "Alice"})),
        "greeting": {"role": "assistant", "content": {"type": "text", "text": "Hello there!"}, "model": "m"},
        "client_roots": {"roots": [{"uri": "file:///a"}, {"uri": "file:///b"}]},
    }});
    let mut retry = answers.clone();
    if let Some(state) = r1["result"]["requestState"].as_str() {
        retry["requestState"] = json!(state);
    }
    let r2 = stateless_call(&mut c, "tools/call", tool, all_caps(), retry).await;
    assert_eq!(
        r2["result"]["content"][0]["text"], "Name: Alice; Greeting: Hello there!; Roots: 2",
        "{r2}"
    );
}

#[tokio::test]
async fn mrtr_multi_round_keeps_earlier_answers_in_the_sealed_state() {
    let mut c = stateless();
    let tool = "test_input_required_result_multi_round";
    let r1 = stateless_call(&mut c, "tools/call", tool, all_caps(), json!({})).await;
    assert_eq!(
        r1["result"]["inputRequests"]["step1"]["params"]["message"], "Step 1: What is your name?",
        "{r1}"
    );
    let mut retry = json!({"inputResponses": {"step1": accept(json!({"name": "Alice"}))}});
    if let Some(state) = r1["result"]["requestState"].as_str() {
        retry["requestState"] = json!(state);
    }
    let r2 = stateless_call(&mut c, "tools/call", tool, all_caps(), retry).await;
    assert_eq!(
        r2["result"]["inputRequests"]["step2"]["params"]["message"],
        "Step 2: What is your favorite color?",
        "{r2}"
    );
    let state = r2["result"]["requestState"]
        .as_str()
        .expect("round 2 seals the step 1 answer")
        .to_owned();
    assert_ne!(Some(state.as_str()), r1["result"]["requestState"].as_str());

    let tampered = json!({"inputResponses": {"step2": accept(json!({"color": "blue"}))}, "requestState": format!("{state}-TAMPERED")});
    let r = stateless_call(&mut c, "tools/call", tool, all_caps(), tampered).await;
    assert_eq!(
        r["error"]["code"], -32602,
        "a tampered state is rejected: {r}"
    );

    let r3 = stateless_call(&mut c, "tools/call", tool, all_caps(), json!({"inputResponses": {"step2": accept(json!({"color": "blue"}))}, "requestState": state})).await;
    assert_eq!(r3["result"]["resultType"], "complete", "{r3}");
    assert_eq!(
        r3["result"]["content"][0]["text"],
        "Multi-round complete for Alice who likes blue"
    );
}

#[tokio::test]
async fn mrtr_rounds_carry_a_sealed_state() {
    let mut c = stateless();
    for tool in [
        "test_input_required_result_request_state",
        "test_input_required_result_tampered_state",
    ] {
        let r1 = stateless_call(&mut c, "tools/call", tool, all_caps(), json!({})).await;
        let state = r1["result"]["requestState"]
            .as_str()
            .expect("a sealed state on round 1")
            .to_owned();
        let confirm = json!({"confirm": accept(json!({"ok": true}))});
        let bad = stateless_call(
            &mut c,
            "tools/call",
            tool,
            all_caps(),
            json!({"inputResponses": confirm, "requestState": format!("{state}-TAMPERED")}),
        )
        .await;
        assert_eq!(bad["error"]["code"], -32602, "{bad}");
        let good = stateless_call(
            &mut c,
            "tools/call",
            tool,
            all_caps(),
            json!({"inputResponses": confirm, "requestState": state}),
        )
        .await;
        let expected = if tool.ends_with("request_state") {
            "state-ok: requestState validated"
        } else {
            "integrity-ok: state verified"
        };
        assert_eq!(good["result"]["content"][0]["text"], expected, "{good}");
    }
}

#[tokio::test]
async fn mrtr_asks_only_what_the_client_declared() {
    let mut c = stateless();
    let tool = "test_input_required_result_capabilities";
    let r = stateless_call(
        &mut c,
        "tools/call",
        tool,
        json!({"sampling": {}}),
        json!({}),
    )
    .await;
    let keys: Vec<&String> = r["result"]["inputRequests"]
        .as_object()
        .expect("input_required")
        .keys()
        .collect();
    assert_eq!(keys, ["sample_input"]);
    let r = stateless_call(&mut c, "tools/call", tool, json!({}), json!({})).await;
    assert_eq!(
        r["result"]["content"][0]["text"], "No supported capabilities declared",
        "{r}"
    );
    let asked = stateless_call(&mut c, "tools/call", tool, all_caps(), json!({})).await;
    let answers = with_state(
        json!({"inputResponses": {
            "elicit_input": accept(json!({"value": "v"})),
            "sample_input": {"role": "assistant", "content": {"type": "text", "text": "s"}, "model": "m"},
        }}),
        &asked,
    );
    let r = stateless_call(&mut c, "tools/call", tool, all_caps(), answers).await;
    assert_eq!(
        r["result"]["content"][0]["text"],
        "capabilities-ok: received elicit_input (v), sample_input (s)",
        "{r}"
    );
}

#[tokio::test]
async fn mrtr_prompt_asks_for_its_context() {
    let mut c = stateless();
    let prompt = "test_input_required_result_prompt";
    let r1 = stateless_call(&mut c, "prompts/get", prompt, all_caps(), json!({})).await;
    assert_eq!(
        r1["result"]["inputRequests"]["user_context"]["params"],
        json!({"message": "What context should the prompt use?",
               "requestedSchema": {"type": "object", "properties": {"context": {"type": "string"}}, "required": ["context"]}})
    );
    let retry = with_state(
        json!({"inputResponses": {"user_context": accept(json!({"context": "test context"}))}}),
        &r1,
    );
    let r2 = stateless_call(&mut c, "prompts/get", prompt, all_caps(), retry).await;
    assert_eq!(r2["result"]["resultType"], "complete", "{r2}");
    assert_eq!(
        r2["result"]["messages"],
        json!([{"role": "user", "content": {"type": "text", "text": "Prompt with context: test context"}}])
    );
}

#[tokio::test]
async fn trigger_tools_announce_list_changes_to_sessions() {
    let mut c = legacy().await;
    let r = c.call_tool("test_trigger_tool_change", json!({})).await;
    assert_eq!(
        r["result"]["content"][0]["text"],
        "Sent notifications/tools/list_changed"
    );
    let r = c.call_tool("test_trigger_prompt_change", json!({})).await;
    assert_eq!(r["result"]["isError"], Value::Null, "{r}");
    let _ = c.request("tools/list", Value::Null).await;
    let methods: Vec<Value> = c
        .notifications()
        .into_iter()
        .map(|n| n["method"].clone())
        .collect();
    assert!(
        methods.contains(&json!("notifications/tools/list_changed")),
        "{methods:?}"
    );
    assert!(
        methods.contains(&json!("notifications/prompts/list_changed")),
        "{methods:?}"
    );
}
