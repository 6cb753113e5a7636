//! Integration tests of the framework: a server built from the fixture items of
//! [`fixtures`], served on the in-memory transport, spoken to in raw JSON with
//! [`TestClient`](mcp_runtime::transport::memory::TestClient), asserting exact wire contents.
//!
//! One module per area of the protocol; the spawned-binary (stdio) tests live next to the
//! example server they spawn, in `examples/gift-server/tests/stdio.rs`.

mod all_problems;
mod apps;
mod arguments;
mod bounds;
mod cli;
mod client_only;
mod completion;
mod concurrency;
mod docs;
mod envelope;
mod errors;
mod exit_codes;
mod fixtures;
mod handshake;
mod hostile;
mod limits;
mod live;
mod messages;
mod module_cycles;
mod names;
mod notes;
mod notifications;
mod pagination;
mod prompts;
mod properties;
mod registry;
mod resources;
mod schemas;
mod stateless;
mod tools;
mod unknown_args;

use std::time::Duration;

use mcp_runtime::transport::memory::TestClient;
use serde_json::{Value, json};

/// The stateless-era (2026-07-28) `_meta` of a request, plus `extra` members.
pub fn meta_with(extra: Value) -> Value {
    let mut meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "it", "version": "1.0.0"}
    });
    if let Value::Object(extra) = extra {
        meta.as_object_mut().unwrap().extend(extra);
    }
    meta
}

/// The `_meta.io.modelcontextprotocol/serverInfo` every stateless result carries.
pub fn server_info_meta() -> Value {
    json!({"io.modelcontextprotocol/serverInfo": {
        "name": "mcp-tests",
        "version": "0.1.0",
        "description": "Integration tests of the mcp-runtime workspace (one test binary: `it`)"
    }})
}

/// Asserts that `response` is the error `code` for request `id`, and returns its message.
#[track_caller]
pub fn error_message(response: &Value, code: i64, id: Value) -> String {
    assert_eq!(response["jsonrpc"], "2.0", "{response}");
    assert_eq!(response.get("id"), Some(&id), "wrong id in {response}");
    assert!(
        response.get("result").is_none(),
        "an error response has no result: {response}"
    );
    assert_eq!(response["error"]["code"], code, "{response}");
    response["error"]["message"]
        .as_str()
        .expect("the error has a message")
        .to_owned()
}

/// Asserts that `response` is a successful response to request `id` and returns its result.
#[track_caller]
pub fn result(response: &Value, id: Value) -> Value {
    assert_eq!(response["jsonrpc"], "2.0", "{response}");
    assert_eq!(response.get("id"), Some(&id), "wrong id in {response}");
    assert!(
        response.get("error").is_none(),
        "unexpected error: {response}"
    );
    response
        .get("result")
        .cloned()
        .unwrap_or_else(|| panic!("no result in {response}"))
}

/// The text of the only text block of a tool result.
#[track_caller]
pub fn only_text(result: &Value) -> &str {
    let content = result["content"]
        .as_array()
        .unwrap_or_else(|| panic!("no content in {result}"));
    assert_eq!(content.len(), 1, "{result}");
    assert_eq!(content[0]["type"], "text", "{result}");
    content[0]["text"].as_str().unwrap()
}

/// Whatever the server sends within `ms` milliseconds (after which it is taken to be silent).
pub async fn messages_within(client: &mut TestClient, ms: u64) -> Vec<Value> {
    let mut out = Vec::new();
    let deadline = tokio::time::Instant::now() + Duration::from_millis(ms);
    while let Ok(Some(msg)) = tokio::time::timeout_at(deadline, client.recv()).await {
        out.push(msg);
    }
    out
}

/// Sends `ping` with `id` and waits for its answer, skipping nothing: the next message must be it.
pub async fn ping_is_next(client: &mut TestClient, id: i64) {
    client
        .send(&json!({"jsonrpc": "2.0", "id": id, "method": "ping"}))
        .await;
    let reply = client.recv().await.expect("the server answers ping");
    assert_eq!(reply, json!({"jsonrpc": "2.0", "id": id, "result": {}}));
}
