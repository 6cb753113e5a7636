//! The stateless era (2026-07-28): per-request `_meta`, `server/discover`, `resultType`, cache
//! hints, `serverInfo` in result `_meta`.

use serde_json::{Value, json};

use crate::fixtures::fresh;
use crate::{error_message, meta_with, only_text, result, server_info_meta};

#[tokio::test]
async fn discover_answers_versions_capabilities_and_identity() {
    let mut client = fresh();
    let r = result(
        &client.stateless("server/discover", Value::Null).await,
        json!(1),
    );
    assert_eq!(
        r,
        json!({
            "supportedVersions": ["2026-07-28"],
            "capabilities": {
                "tools": {"listChanged": true},
                "resources": {"listChanged": true, "subscribe": true},
                "prompts": {"listChanged": true},
                "logging": {},
                "completions": {}
            },
            "instructions": "Fixture server of the integration tests",
            "ttlMs": 300_000,
            "cacheScope": "public",
            "resultType": "complete",
            "_meta": server_info_meta()
        })
    );
}

#[tokio::test]
async fn cache_ttl_is_configurable() {
    let server = crate::fixtures::builder()
        .cache_ttl_ms(1234)
        .build()
        .unwrap();
    let mut client = server.connect_in_memory();
    let r = result(
        &client.stateless("server/discover", Value::Null).await,
        json!(1),
    );
    assert_eq!(r["ttlMs"], 1234);
    let r = result(
        &client.stateless("prompts/list", Value::Null).await,
        json!(2),
    );
    assert_eq!(r["ttlMs"], 1234);
}

#[tokio::test]
async fn lists_carry_result_type_cache_hints_and_server_info() {
    let mut client = fresh();
    for (id, (method, field)) in [
        ("tools/list", "tools"),
        ("resources/list", "resources"),
        ("resources/templates/list", "resourceTemplates"),
        ("prompts/list", "prompts"),
    ]
    .into_iter()
    .enumerate()
    {
        let r = result(&client.stateless(method, Value::Null).await, json!(id + 1));
        assert_eq!(r["resultType"], "complete", "{method}");
        assert_eq!(r["ttlMs"], 300_000, "{method}");
        assert_eq!(r["cacheScope"], "public", "{method}");
        assert_eq!(r["_meta"], server_info_meta(), "{method}");
        assert!(!r[field].as_array().unwrap().is_empty(), "{method}: {r}");
    }
}

#[tokio::test]
async fn every_handler_result_is_complete_and_names_the_server() {
    let mut client = fresh();
    let called = result(
        &client
            .stateless(
                "tools/call",
                json!({"name": "echo", "arguments": {"text": "hi"}}),
            )
            .await,
        json!(1),
    );
    assert_eq!(
        called,
        json!({"content": [{"type": "text", "text": "hi"}], "resultType": "complete", "_meta": server_info_meta()})
    );
    let read = result(
        &client
            .stateless("resources/read", json!({"uri": "test://static"}))
            .await,
        json!(2),
    );
    assert_eq!(
        read,
        json!({
            "contents": [{"uri": "test://static", "mimeType": "text/plain", "text": "static content"}],
            "ttlMs": 0,
            "cacheScope": "private",
            "resultType": "complete",
            "_meta": server_info_meta()
        })
    );
    let prompt = result(
        &client
            .stateless(
                "prompts/get",
                json!({"name": "card", "arguments": {"name": "Ann"}}),
            )
            .await,
        json!(3),
    );
    assert_eq!(prompt["resultType"], "complete");
    assert_eq!(prompt["_meta"], server_info_meta());
    let done = result(
        &client
            .stateless("completion/complete", json!({"ref": {"type": "ref/prompt", "name": "card"}, "argument": {"name": "style", "value": "w"}}))
            .await,
        json!(4),
    );
    assert_eq!(done["completion"]["values"], json!(["warm"]));
    assert_eq!(done["resultType"], "complete");
    assert_eq!(done["_meta"], server_info_meta());
}

#[tokio::test]
async fn argument_errors_are_tool_results_in_the_stateless_era() {
    let mut client = fresh();
    let r = result(
        &client
            .stateless("tools/call", json!({"name": "echo", "arguments": {}}))
            .await,
        json!(1),
    );
    assert_eq!(r["isError"], true);
    assert_eq!(
        only_text(&r),
        "invalid arguments for tool 'echo': missing required property 'text'"
    );
    assert_eq!(r["resultType"], "complete");
}

#[tokio::test]
async fn a_request_without_meta_is_invalid_params() {
    let mut client = fresh();
    let r = client
        .request(
            "tools/call",
            json!({"name": "echo", "arguments": {"text": "x"}}),
        )
        .await;
    let msg = error_message(&r, -32602, json!(1));
    assert!(
        msg.starts_with("missing `_meta[\"io.modelcontextprotocol/protocolVersion\"]`"),
        "{msg}"
    );
    let r = client.request("server/discover", json!({})).await;
    error_message(&r, -32602, json!(2));
}

#[tokio::test]
async fn missing_client_capabilities_is_invalid_params() {
    let mut client = fresh();
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28"});
    let r = client.request("tools/list", json!({"_meta": meta})).await;
    assert_eq!(
        error_message(&r, -32602, json!(1)),
        "missing required `_meta[\"io.modelcontextprotocol/clientCapabilities\"]`"
    );
}

/// `tools/call` reads `_meta` in the same pass as its params: wherever `_meta` stands in the
/// params, the scope's errors still come before the params' and the tool's.
#[tokio::test]
async fn tools_call_reads_meta_with_its_params_in_the_same_order_of_errors() {
    let mut client = fresh();
    let bad_meta = json!({"io.modelcontextprotocol/protocolVersion": 2026});
    // `_meta` invalid and `name` missing: the `_meta` error, before or after the other members.
    for params in [
        json!({"_meta": bad_meta, "arguments": {}}),
        json!({"arguments": {}, "name": 5, "_meta": bad_meta}),
    ] {
        let r = client.request("tools/call", params).await;
        let msg = error_message(&r, -32602, r["id"].clone());
        assert!(
            msg.starts_with("invalid `_meta`: invalid type: integer `2026`"),
            "{msg}"
        );
    }
    // A revision not served, and a tool that does not exist: the revision's error.
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2099-01-01",
        "io.modelcontextprotocol/clientCapabilities": {}});
    let r = client
        .request("tools/call", json!({"name": "nope", "_meta": meta}))
        .await;
    assert_eq!(r["error"]["code"], -32022, "{r}");
    // `_meta` valid, `name` of the wrong type: the params' error.
    let r = client
        .request(
            "tools/call",
            json!({"_meta": meta_with(json!({})), "name": 5}),
        )
        .await;
    let msg = error_message(&r, -32602, r["id"].clone());
    assert!(
        msg.starts_with("invalid params: invalid type: integer `5`"),
        "{msg}"
    );
    // `_meta` only inside the arguments is the tool's business: the request has none.
    let r = client
        .request(
            "tools/call",
            json!({"name": "echo", "arguments": {"text": "x", "_meta": meta_with(json!({}))}}),
        )
        .await;
    let msg = error_message(&r, -32602, r["id"].clone());
    assert!(
        msg.starts_with("missing `_meta[\"io.modelcontextprotocol/protocolVersion\"]`"),
        "{msg}"
    );
    // And a valid one is served, `_meta` first or last.
    for params in [
        json!({"_meta": meta_with(json!({})), "name": "echo", "arguments": {"text": "a"}}),
        json!({"name": "echo", "arguments": {"text": "b"}, "_meta": meta_with(json!({}))}),
    ] {
        let r = client.request("tools/call", params).await;
        let text = only_text(&r["result"]).to_owned();
        assert!(text == "a" || text == "b", "{r}");
        assert_eq!(r["result"]["resultType"], "complete", "{r}");
    }
}

#[tokio::test]
async fn a_malformed_meta_is_invalid_params() {
    let mut client = fresh();
    let r = client
        .request(
            "tools/list",
            json!({"_meta": {"io.modelcontextprotocol/protocolVersion": 2026}}),
        )
        .await;
    let msg = error_message(&r, -32602, json!(1));
    assert!(msg.starts_with("invalid `_meta`: "), "{msg}");
    let r = client.request("tools/list", json!({"_meta": "nope"})).await;
    error_message(&r, -32602, json!(2));
}

#[tokio::test]
async fn an_unsupported_version_names_the_supported_ones() {
    let mut client = fresh();
    for (id, version) in [(1, "2025-11-25"), (2, "2099-01-01"), (3, "")] {
        let mut meta = meta_with(Value::Null);
        meta["io.modelcontextprotocol/protocolVersion"] = json!(version);
        let r = client.request("tools/list", json!({"_meta": meta})).await;
        let msg = error_message(&r, -32022, json!(id));
        assert!(
            msg.starts_with(&format!("unsupported protocol version {version:?}")),
            "{msg}"
        );
        assert_eq!(
            r["error"]["data"],
            json!({"supported": ["2026-07-28"], "requested": version})
        );
    }
}

#[tokio::test]
async fn handshake_only_methods_are_not_found_statelessly() {
    let mut client = fresh();
    for (id, method) in [
        "ping",
        "logging/setLevel",
        "resources/subscribe",
        "resources/unsubscribe",
    ]
    .into_iter()
    .enumerate()
    {
        let r = client
            .stateless(method, json!({"level": "info", "uri": "test://static"}))
            .await;
        assert_eq!(
            error_message(&r, -32601, json!(id + 1)),
            format!("Method not found: {method}")
        );
    }
}

#[tokio::test]
async fn unknown_methods_are_not_found_statelessly() {
    let mut client = fresh();
    let r = client.stateless("tools/frobnicate", Value::Null).await;
    assert_eq!(
        error_message(&r, -32601, json!(1)),
        "Method not found: tools/frobnicate"
    );
}

#[tokio::test]
async fn stateless_requests_leave_no_session_behind() {
    let mut client = fresh();
    result(&client.stateless("tools/list", Value::Null).await, json!(1));
    // A following request without `_meta` is still refused: there is no session.
    let r = client.request("tools/list", Value::Null).await;
    error_message(&r, -32602, json!(2));
}

#[tokio::test]
async fn client_info_and_meta_reach_the_handler_context() {
    use mcp_runtime::prelude::*;

    /// Says who called, from the context.
    #[tool(server = "it-ctx")]
    async fn whoami(ctx: Context) -> String {
        let client = ctx
            .client_info()
            .map_or("?".to_owned(), |i| format!("{} {}", i.name, i.version));
        let custom = ctx
            .meta()
            .and_then(|m| m.get("example.com/trace"))
            .cloned()
            .unwrap_or_default();
        format!(
            "{client} at {} trace={custom}",
            ctx.protocol_version().as_str()
        )
    }

    let server = Server::builder(server_info!())
        .tool(whoami::TOOL)
        .build()
        .unwrap();
    let mut client = server.connect_in_memory();
    let params = json!({"name": "whoami", "_meta": meta_with(json!({"example.com/trace": "t-1"}))});
    let r = result(&client.request("tools/call", params).await, json!(1));
    assert_eq!(only_text(&r), r#"it 1.0.0 at 2026-07-28 trace="t-1""#);

    let mut client = server.connect_in_memory();
    client.initialize("2025-06-18").await;
    let r = result(&client.call_tool("whoami", json!({})).await, json!(2));
    assert_eq!(
        only_text(&r),
        r#"test-client 0.0.0 at 2025-06-18 trace=null"#
    );
}

#[tokio::test]
async fn a_repeated_meta_is_served_as_read_and_every_request_is_checked() {
    use mcp_runtime::prelude::*;

    /// Says who called and with what, from the context.
    #[tool(server = "it-memo")]
    async fn who(ctx: Context) -> String {
        let client = ctx
            .client_info()
            .map_or("?".to_owned(), |i| format!("{} {}", i.name, i.version));
        let roots = ctx.client_capabilities().is_some_and(|c| c.roots.is_some());
        let keys: Vec<String> = ctx
            .meta()
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default();
        format!("{client} roots={roots} {}", keys.join(","))
    }

    let server = Server::builder(server_info!())
        .tool(who::TOOL)
        .build()
        .unwrap();
    // One connection: a stateless client sends the same `_meta` with every request.
    let mut client = server.connect_in_memory();
    let first = meta_with(Value::Null);
    let second = meta_with(json!({
        "io.modelcontextprotocol/clientCapabilities": {"roots": {}},
        "io.modelcontextprotocol/clientInfo": {"name": "other", "version": "2.0"}
    }));
    let caps = "io.modelcontextprotocol/clientCapabilities";
    let keys = format!(
        "{caps},io.modelcontextprotocol/clientInfo,io.modelcontextprotocol/protocolVersion"
    );
    let mut call = async |meta: &Value| {
        client
            .request("tools/call", json!({"name": "who", "_meta": meta}))
            .await
    };
    for (meta, expected) in [
        (&first, format!("it 1.0.0 roots=false {keys}")),
        (&first, format!("it 1.0.0 roots=false {keys}")),
        (&second, format!("other 2.0 roots=true {keys}")),
        (&second, format!("other 2.0 roots=true {keys}")),
        (&first, format!("it 1.0.0 roots=false {keys}")),
    ] {
        let r = call(meta).await;
        assert_eq!(only_text(&result(&r, r["id"].clone())), expected);
    }
    // The checks hold for a request after a kept `_meta` as for the first.
    let mut other_version = first.clone();
    other_version["io.modelcontextprotocol/protocolVersion"] = json!("2099-01-01");
    let r = call(&other_version).await;
    error_message(&r, -32022, r["id"].clone());
    assert_eq!(
        r["error"]["data"],
        json!({"supported": ["2026-07-28"], "requested": "2099-01-01"})
    );
    let mut no_caps = first.clone();
    no_caps.as_object_mut().unwrap().remove(caps);
    let r = call(&no_caps).await;
    assert_eq!(
        error_message(&r, -32602, r["id"].clone()),
        format!("missing required `_meta[\"{caps}\"]`")
    );
    let mut bad_caps = first.clone();
    bad_caps[caps] = json!([]);
    let r = call(&bad_caps).await;
    assert_eq!(
        error_message(&r, -32602, r["id"].clone()),
        "invalid `_meta`: invalid type: sequence, expected struct ClientCapabilities"
    );
    // More than the typed keys: read as sent, every key reaches the handler.
    let with_token = meta_with(json!({"progressToken": "p", "example.com/x": 1}));
    let r = call(&with_token).await;
    assert_eq!(
        only_text(&result(&r, r["id"].clone())),
        format!("it 1.0.0 roots=false example.com/x,{keys},progressToken")
    );
    let r = call(&first).await;
    assert_eq!(
        only_text(&result(&r, r["id"].clone())),
        format!("it 1.0.0 roots=false {keys}")
    );
}
