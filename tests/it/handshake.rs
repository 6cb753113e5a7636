//! The handshake era (2024-11-05 to 2025-11-25): `initialize`, negotiation, per-revision fields,
//! batches.

use serde_json::{Value, json};

use crate::fixtures::{self, fresh, handshake};
use crate::{error_message, only_text, result};

const HANDSHAKE_VERSIONS: [&str; 4] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

#[tokio::test]
async fn initialize_echoes_every_supported_revision() {
    for version in HANDSHAKE_VERSIONS {
        let mut client = fresh();
        let init = client.initialize(version).await;
        let r = result(&init, json!(1));
        assert_eq!(r["protocolVersion"], version);
        assert_eq!(r["serverInfo"]["name"], "mcp-tests");
        assert_eq!(r["serverInfo"]["version"], "0.1.0");
        // `description` of an implementation arrived with 2025-11-25.
        assert_eq!(
            r["serverInfo"].get("description").is_some(),
            version == "2025-11-25",
            "{version}: {r}"
        );
        assert_eq!(r["instructions"], "Fixture server of the integration tests");
        let caps = r["capabilities"].as_object().unwrap();
        for cap in ["tools", "resources", "prompts", "logging"] {
            assert!(caps.contains_key(cap), "{version}: no `{cap}` in {r}");
        }
        // `completions` is a capability from 2025-03-26 on.
        assert_eq!(
            caps.contains_key("completions"),
            version != "2024-11-05",
            "{version}: {r}"
        );
        assert!(r.get("resultType").is_none(), "{version}: {r}");
    }
}

#[tokio::test]
async fn initialize_answers_the_newest_handshake_revision_for_an_unknown_one() {
    for asked in ["2099-01-01", "1.0", "2026-07-28"] {
        let mut client = fresh();
        let init = client.initialize(asked).await;
        assert_eq!(
            result(&init, json!(1))["protocolVersion"],
            "2025-11-25",
            "asked {asked}"
        );
        // The session then works at that revision.
        let listed = client.request("tools/list", Value::Null).await;
        assert!(result(&listed, json!(2))["tools"].as_array().unwrap().len() > 1);
    }
}

#[tokio::test]
async fn initialize_with_bad_params_is_invalid_params() {
    let mut client = fresh();
    let r = client
        .request("initialize", json!({"protocolVersion": 2025}))
        .await;
    let msg = error_message(&r, -32602, json!(1));
    assert!(msg.starts_with("invalid params: "), "{msg}");
}

#[tokio::test]
async fn a_request_before_initialize_and_without_meta_is_invalid_params() {
    let mut client = fresh();
    let r = client.request("tools/list", Value::Null).await;
    let msg = error_message(&r, -32602, json!(1));
    assert_eq!(
        msg,
        "missing `_meta[\"io.modelcontextprotocol/protocolVersion\"]`: stateless (2026-07-28) requests must carry it; handshake clients must send `initialize` first"
    );
    // `ping` needs no session.
    assert_eq!(
        client.request("ping", Value::Null).await,
        json!({"jsonrpc": "2.0", "id": 2, "result": {}})
    );
}

#[tokio::test]
async fn ping_answers_an_empty_result() {
    let mut client = handshake("2025-11-25").await;
    assert_eq!(
        client.request("ping", Value::Null).await,
        json!({"jsonrpc": "2.0", "id": 2, "result": {}})
    );
}

#[tokio::test]
async fn tools_list_carries_the_fields_of_the_revision() {
    let echo = |version: &str, list: &Value| -> Value {
        let tools = list["tools"].as_array().unwrap();
        tools
            .iter()
            .find(|t| t["name"] == "echo")
            .cloned()
            .unwrap_or_else(|| panic!("{version}: no echo"))
    };
    let schema = json!({
        "type": "object",
        "properties": {"text": {"type": "string", "description": "The text to echo"}},
        "required": ["text"]
    });
    let expected = [
        (
            "2024-11-05",
            json!({"name": "echo", "description": "Echoes the text back.", "inputSchema": schema}),
        ),
        (
            "2025-03-26",
            json!({
                "name": "echo", "description": "Echoes the text back.", "inputSchema": schema,
                "annotations": {"title": "Echo", "readOnlyHint": true}
            }),
        ),
        (
            "2025-06-18",
            json!({
                "name": "echo", "title": "Echo", "description": "Echoes the text back.", "inputSchema": schema,
                "annotations": {"title": "Echo", "readOnlyHint": true}
            }),
        ),
        (
            "2025-11-25",
            json!({
                "name": "echo", "title": "Echo", "description": "Echoes the text back.", "inputSchema": schema,
                "annotations": {"title": "Echo", "readOnlyHint": true}
            }),
        ),
    ];
    for (version, tool) in expected {
        let mut client = handshake(version).await;
        let list = result(&client.request("tools/list", Value::Null).await, json!(2));
        assert_eq!(echo(version, &list), tool, "{version}");
        assert!(
            list.get("nextCursor").is_none() && list.get("ttlMs").is_none(),
            "{version}: {list}"
        );
    }
}

#[tokio::test]
async fn output_schema_and_structured_content_only_from_2025_06_18() {
    for version in HANDSHAKE_VERSIONS {
        let structured = version >= "2025-06-18";
        let mut client = handshake(version).await;
        let list = result(&client.request("tools/list", Value::Null).await, json!(2));
        let add = list["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == "add")
            .unwrap()
            .clone();
        if structured {
            assert_eq!(
                add["outputSchema"],
                json!({
                    "type": "object",
                    "description": "The sum of two integers.",
                    "properties": {"total": {"type": "integer", "description": "a + b"}},
                    "required": ["total"]
                }),
                "{version}"
            );
        } else {
            assert!(add.get("outputSchema").is_none(), "{version}: {add}");
        }
        let called = result(
            &client.call_tool("add", json!({"a": 2, "b": 3})).await,
            json!(3),
        );
        assert_eq!(only_text(&called), r#"{"total":5}"#, "{version}");
        assert_eq!(
            called.get("structuredContent"),
            structured.then(|| json!({"total": 5})).as_ref(),
            "{version}"
        );
        assert!(
            called.get("isError").is_none_or(|e| e == false),
            "{version}: {called}"
        );
    }
}

#[tokio::test]
async fn batches_are_served_in_2025_03_26() {
    let mut client = handshake("2025-03-26").await;
    client
        .send_raw(
            r#"[{"jsonrpc":"2.0","id":"a","method":"ping"},
                {"jsonrpc":"2.0","method":"notifications/roots/list_changed"},
                {"jsonrpc":"2.0","id":"b","method":"tools/call","params":{"name":"echo","arguments":{"text":"in a batch"}}},
                {"jsonrpc":"2.0","id":"c","method":"nope"},
                7]"#,
        )
        .await;
    let reply = client.recv().await.expect("a batch reply");
    assert_eq!(
        reply,
        json!([
            {"jsonrpc": "2.0", "id": "a", "result": {}},
            {"jsonrpc": "2.0", "id": "b", "result": {"content": [{"type": "text", "text": "in a batch"}]}},
            {"jsonrpc": "2.0", "id": "c", "error": {"code": -32601, "message": "Method not found: nope"}},
            {"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "Invalid request: a message must be a JSON object"}}
        ])
    );
}

#[tokio::test]
async fn a_batch_of_notifications_gets_no_reply() {
    let mut client = handshake("2025-03-26").await;
    client
        .send_raw(r#"[{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}]"#)
        .await;
    crate::ping_is_next(&mut client, 50).await;
}

#[tokio::test]
async fn initialize_inside_a_batch_is_refused() {
    let mut client = handshake("2025-03-26").await;
    client
        .send_raw(r#"[{"jsonrpc":"2.0","id":9,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}]"#)
        .await;
    let reply = client.recv().await.unwrap();
    assert_eq!(
        reply,
        json!([{"jsonrpc": "2.0", "id": 9, "error": {"code": -32600, "message": "`initialize` must not be part of a batch"}}])
    );
}

#[tokio::test]
async fn batches_are_refused_in_every_other_revision() {
    let batch = r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#;
    for version in ["2024-11-05", "2025-06-18", "2025-11-25"] {
        let mut client = handshake(version).await;
        client.send_raw(batch).await;
        let reply = client.recv().await.unwrap();
        let msg = error_message(&reply, -32600, Value::Null);
        assert_eq!(
            msg, "JSON-RPC batches are only accepted in protocol revision 2025-03-26",
            "{version}"
        );
        crate::ping_is_next(&mut client, 77).await;
    }
    // Nor without a session.
    let mut client = fresh();
    client.send_raw(batch).await;
    error_message(&client.recv().await.unwrap(), -32600, Value::Null);
}

#[tokio::test]
async fn an_empty_batch_is_an_invalid_request() {
    let mut client = handshake("2025-03-26").await;
    client.send_raw("[]").await;
    assert_eq!(
        error_message(&client.recv().await.unwrap(), -32600, Value::Null),
        "Invalid request: an empty batch"
    );
}

#[tokio::test]
async fn stateless_only_methods_need_meta_in_a_session() {
    let mut client = handshake("2025-11-25").await;
    let r = client.request("server/discover", Value::Null).await;
    assert_eq!(
        error_message(&r, -32602, json!(2)),
        "missing required `_meta[\"io.modelcontextprotocol/protocolVersion\"]`"
    );
}

#[tokio::test]
async fn a_session_also_serves_stateless_requests() {
    let mut client = handshake("2025-06-18").await;
    let r = client.stateless("tools/list", Value::Null).await;
    let list = result(&r, json!(2));
    assert_eq!(list["resultType"], "complete");
    assert_eq!(list["ttlMs"], 300_000);
    // ...and the session goes on at its own revision.
    let r = result(&client.request("tools/list", Value::Null).await, json!(3));
    assert!(r.get("resultType").is_none(), "{r}");
}

#[tokio::test]
async fn capabilities_follow_the_registered_items() {
    let server = mcp_runtime::Server::builder(mcp_runtime::server_info!())
        .tool(fixtures::echo::TOOL)
        .build()
        .unwrap();
    let mut client = server.connect_in_memory();
    let init = result(&client.initialize("2025-11-25").await, json!(1));
    let caps = init["capabilities"].as_object().unwrap();
    let mut keys: Vec<&str> = caps.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["logging", "tools"], "{init}");
    // No prompts: the method is not found.
    let r = client.request("prompts/list", Value::Null).await;
    assert_eq!(
        error_message(&r, -32601, json!(2)),
        "Method not found: prompts/list"
    );
    let r = client
        .request("resources/read", json!({"uri": "test://static"}))
        .await;
    assert_eq!(
        error_message(&r, -32601, json!(3)),
        "Method not found: resources/read"
    );
}
