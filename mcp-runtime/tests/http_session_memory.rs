//! Memory kept per idle handshake-era session: the heap bytes still allocated after
//! `initialize`, counted by the allocator (server and client share the process; the client's
//! part is steady once its connection is open).

use std::alloc::System;

use mcp_runtime::prelude::*;
use serde_json::{Value, json};
use stats_alloc::{INSTRUMENTED_SYSTEM, StatsAlloc};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// Heap bytes allocated now.
fn live() -> isize {
    let s = INSTRUMENTED_SYSTEM.stats();
    s.bytes_allocated as isize - s.bytes_deallocated as isize + s.bytes_reallocated
}

/// Answers at once.
#[tool]
async fn quick() -> String {
    "quick".into()
}

async fn initialize(client: &reqwest::Client, url: &str) {
    let resp = client
        .post(url)
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .body(
            json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{
                "protocolVersion":"2025-11-25",
                "capabilities":{"roots":{"listChanged":true},"elicitation":{}},
                "clientInfo":{"name":"memory-probe","version":"1.0.0"}}})
            .to_string(),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    assert!(resp.headers().contains_key("mcp-session-id"));
    let body: Value = serde_json::from_slice(&resp.bytes().await.unwrap()).unwrap();
    assert_eq!(body["result"]["protocolVersion"], "2025-11-25");
}

#[tokio::test(flavor = "current_thread")]
async fn an_idle_session_keeps_at_most_four_kib() {
    let server = Server::builder(server_info!())
        .tool(quick::TOOL)
        .build()
        .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move { server.serve_http_on(listener).await });
    let client = reqwest::Client::new();
    for _ in 0..500 {
        initialize(&client, &url).await;
    }
    const N: isize = 3000;
    let before = live();
    for _ in 0..N {
        initialize(&client, &url).await;
    }
    let per_session = (live() - before) / N;
    eprintln!("heap per idle session: {per_session} bytes");
    assert!(per_session > 0, "{per_session}");
    assert!(
        per_session <= 4096,
        "an idle session keeps {per_session} bytes"
    );
}
