//! `tools/call`: results, business errors, masked internal errors, timeouts, state.

use serde_json::{Value, json};

use crate::fixtures::handshake;
use crate::{only_text, result};

/// Whether `text` is exactly `internal error, id ` and eight hex digits.
fn is_masked(text: &str) -> bool {
    text.strip_prefix("internal error, id ")
        .is_some_and(|id| id.len() == 8 && id.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[tokio::test]
async fn a_text_tool_returns_one_text_block() {
    let mut client = handshake("2025-11-25").await;
    let r = client
        .call_tool("echo", json!({"text": "héllo \"world\"\n"}))
        .await;
    assert_eq!(
        r,
        json!({"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": "héllo \"world\"\n"}]}})
    );
}

#[tokio::test]
async fn a_structured_tool_returns_structured_content_and_a_text_mirror() {
    let mut client = handshake("2025-11-25").await;
    let r = result(
        &client.call_tool("add", json!({"a": -2, "b": 40})).await,
        json!(2),
    );
    assert_eq!(
        r,
        json!({"content": [{"type": "text", "text": "{\"total\":38}"}], "structuredContent": {"total": 38}})
    );
}

#[tokio::test]
async fn an_unknown_tool_is_invalid_params() {
    for version in ["2025-06-18", "2025-11-25"] {
        let mut client = handshake(version).await;
        let r = client.call_tool("nope", json!({})).await;
        assert_eq!(
            r,
            json!({"jsonrpc": "2.0", "id": 2, "error": {"code": -32602, "message": "unknown tool 'nope'"}}),
            "{version}"
        );
    }
}

#[tokio::test]
async fn a_tool_error_is_shown_to_the_model() {
    for version in ["2024-11-05", "2025-11-25"] {
        let mut client = handshake(version).await;
        let r = result(&client.call_tool("refuse", json!({})).await, json!(2));
        assert_eq!(
            r,
            json!({"content": [{"type": "text", "text": "nothing fits a budget of $1"}], "isError": true})
        );
    }
}

#[tokio::test]
async fn an_internal_error_is_masked() {
    let mut client = handshake("2025-11-25").await;
    let r = result(&client.call_tool("broken", json!({})).await, json!(2));
    assert_eq!(r["isError"], true);
    let text = only_text(&r);
    assert!(is_masked(text), "not masked: {text}");
    assert!(!r.to_string().contains("hunter2"));
}

#[tokio::test]
async fn a_panic_is_masked_and_the_connection_survives() {
    let mut client = handshake("2025-11-25").await;
    let r = result(&client.call_tool("explode", json!({})).await, json!(2));
    assert_eq!(r["isError"], true);
    let text = only_text(&r);
    assert!(is_masked(text), "not masked: {text}");
    assert!(!r.to_string().contains("secret"));
    // Each failure gets its own id.
    let again = result(&client.call_tool("explode", json!({})).await, json!(3));
    assert!(is_masked(only_text(&again)));
    assert_ne!(only_text(&again), text);
    let r = result(
        &client
            .call_tool("echo", json!({"text": "still here"}))
            .await,
        json!(4),
    );
    assert_eq!(only_text(&r), "still here");
}

#[tokio::test]
async fn a_tool_over_its_timeout_is_a_tool_error() {
    let mut client = handshake("2025-11-25").await;
    let started = std::time::Instant::now();
    let r = result(&client.call_tool("too_slow", json!({})).await, json!(2));
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    assert_eq!(
        r,
        json!({"content": [{"type": "text", "text": "tool 'too_slow' timed out after 50 ms"}], "isError": true})
    );
}

#[tokio::test]
async fn state_is_injected() {
    let mut client = handshake("2025-11-25").await;
    let r = result(
        &client.call_tool("greet", json!({"name": "Ann"})).await,
        json!(2),
    );
    assert_eq!(only_text(&r), "Howdy, Ann!");
    // The injected parameter is not part of the schema.
    let list = result(&client.request("tools/list", Value::Null).await, json!(3));
    let greet = list["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "greet")
        .unwrap()
        .clone();
    assert_eq!(
        greet["inputSchema"],
        json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]})
    );
}

#[test]
fn missing_state_is_refused_when_the_server_is_built() {
    use mcp_runtime::prelude::*;
    let err = Server::builder(server_info!())
        .tool(crate::fixtures::greet::TOOL)
        .build()
        .unwrap_err();
    let at = crate::fixtures::greet::TOOL.location;
    assert_eq!(
        err.to_string(),
        format!(
            "tool `greet` ({at}) takes a `State<it::fixtures::Greeting>`, but the server was not given one: add `.state(value)` with a `it::fixtures::Greeting` to the builder"
        )
    );
}

#[tokio::test]
async fn a_tool_without_parameters_accepts_absent_or_empty_arguments() {
    let mut client = handshake("2025-11-25").await;
    let r = result(
        &client
            .request("tools/call", json!({"name": "refuse"}))
            .await,
        json!(2),
    );
    assert_eq!(only_text(&r), "nothing fits a budget of $1");
    let r = result(&client.call_tool("refuse", json!({})).await, json!(3));
    assert_eq!(only_text(&r), "nothing fits a budget of $1");
    let r = result(&client.call_tool("refuse", Value::Null).await, json!(4));
    assert_eq!(only_text(&r), "nothing fits a budget of $1");
}

#[tokio::test]
async fn the_cli_call_runs_a_tool_in_process() {
    let server = crate::fixtures::server();
    let out = server
        .call_from_cli("add", r#"{"a":1,"b":2}"#)
        .await
        .unwrap();
    assert_eq!(
        out,
        json!({"content": [{"type": "text", "text": "{\"total\":3}"}], "structuredContent": {"total": 3}})
    );
    let err = server.call_from_cli("nope", "{}").await.unwrap_err();
    assert_eq!(err.failure(), mcp_runtime::cli::Failure::Refused);
    assert_eq!(err.to_string(), "unknown tool 'nope' (-32602)");
    let err = server.call_from_cli("add", "{").await.unwrap_err();
    assert_eq!(err.failure(), mcp_runtime::cli::Failure::Usage);
    assert!(
        err.to_string()
            .starts_with("arguments are not valid JSON: "),
        "{err}"
    );
}
