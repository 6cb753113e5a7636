//! The mounted server answers both eras while the app's own routes keep working.

use serde_json::{Value, json};

async fn start() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, axum_mount::app()).await });
    base
}

#[tokio::test]
async fn app_routes_and_mcp_endpoint_side_by_side() {
    let base = start().await;
    let http = reqwest::Client::new();
    assert_eq!(
        http.get(format!("{base}/health"))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap(),
        "ok"
    );
    assert_eq!(
        http.get(format!("{base}/"))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap(),
        "The corner shop"
    );

    // Handshake era.
    let init = json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{
        "protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}});
    let resp = http
        .post(format!("{base}/mcp"))
        .header("accept", "application/json, text/event-stream")
        .body(init.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    let sid = resp.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let call = json!({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"opening_hours","arguments":{"day":"saturday"}}});
    let resp = http
        .post(format!("{base}/mcp"))
        .header("accept", "application/json, text/event-stream")
        .header("mcp-session-id", &sid)
        .header("mcp-protocol-version", "2025-11-25")
        .body(call.to_string())
        .send()
        .await
        .unwrap();
    let body: Value = serde_json::from_slice(&resp.bytes().await.unwrap()).unwrap();
    assert_eq!(
        body["result"],
        json!({"content": [{"type": "text", "text": "10:00-14:00"}]}),
        "{body}"
    );

    // Stateless era.
    let call = json!({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"opening_hours","arguments":{"day":"sunday"},
        "_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}});
    let resp = http
        .post(format!("{base}/mcp"))
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", "opening_hours")
        .body(call.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    let body: Value = serde_json::from_slice(&resp.bytes().await.unwrap()).unwrap();
    assert_eq!(body["result"]["isError"], true, "{body}");
    assert_eq!(
        body["result"]["content"][0]["text"],
        "the shop is closed on Sundays"
    );
    assert_eq!(body["result"]["resultType"], "complete");
    assert_eq!(
        body["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "axum-mount"
    );

    // Paths outside the app stay 404; the MCP endpoint refuses GET without a session.
    assert_eq!(
        http.get(format!("{base}/nope"))
            .send()
            .await
            .unwrap()
            .status(),
        404
    );
    assert_eq!(
        http.get(format!("{base}/mcp"))
            .send()
            .await
            .unwrap()
            .status(),
        405
    );
}
