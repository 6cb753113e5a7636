//! A hostile MCP server for the client's tests: over HTTP (axum, loopback) or a message
//! transport, every `tools/list` page is about 1 MiB of valid tools and has a next page.
#![allow(dead_code)]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use mcp_runtime::client::Client;
use mcp_runtime::protocol::ProtocolVersion;
use serde_json::{Value, json};

pub const MIB: usize = 1024 * 1024;

/// The members of one page after its `"tools":`: `TOOLS` tools with long descriptions, a
/// valid `tools/list` result but for its cursor, about 1 MiB.
pub const TOOLS: usize = 256;

pub fn tools_array() -> String {
    let description = "a".repeat(4096);
    let tools: Vec<Value> = (0..TOOLS)
        .map(|i| {
            json!({
                "name": format!("tool_{i:04}"),
                "description": description,
                "inputSchema": {"type": "object"},
            })
        })
        .collect();
    serde_json::to_string(&tools).unwrap()
}

/// The text of the answer to request `id` on page `n`: always a next page.
pub fn page_parts(id: &Value, n: usize) -> (String, String) {
    (
        format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"tools":"#),
        format!(r#","nextCursor":"c-{n:03}"}}}}"#),
    )
}

/// A hostile server over HTTP: every `tools/list` page is large and has a next page. The
/// large part is one shared buffer, so the server allocates next to nothing per page.
#[derive(Clone)]
pub struct Hostile {
    pub tools: Bytes,
    pub pages: Arc<AtomicUsize>,
    /// Answer `tools/list` as an SSE stream.
    pub sse: bool,
}

async fn endpoint(State(h): State<Hostile>, body: String) -> Response {
    let msg: Value = serde_json::from_str(&body).unwrap();
    let Some(id) = msg.get("id").cloned() else {
        return StatusCode::ACCEPTED.into_response();
    };
    let json = [("content-type", "application/json")];
    match msg["method"].as_str().unwrap_or("") {
        "initialize" => (
            json,
            json!({"jsonrpc":"2.0","id":id,"result":{
                "protocolVersion":"2025-11-25","capabilities":{"tools":{}},
                "serverInfo":{"name":"hostile","version":"1"}}})
            .to_string(),
        )
            .into_response(),
        "tools/list" => {
            let n = h.pages.fetch_add(1, Ordering::SeqCst) + 1;
            let (head, tail) = page_parts(&id, n);
            if h.sse {
                let chunks = vec![
                    Ok::<_, std::io::Error>(Bytes::from(format!("id: e-{n}\ndata: {head}"))),
                    Ok(h.tools.clone()),
                    Ok(Bytes::from(format!("{tail}\n\n"))),
                ];
                let body = Body::from_stream(futures_util::stream::iter(chunks));
                ([("content-type", "text/event-stream")], body).into_response()
            } else {
                let chunks = vec![
                    Ok::<_, std::io::Error>(Bytes::from(head)),
                    Ok(h.tools.clone()),
                    Ok(Bytes::from(tail)),
                ];
                (json, Body::from_stream(futures_util::stream::iter(chunks))).into_response()
            }
        }
        _ => (
            json,
            json!({"jsonrpc":"2.0","id":id,"result":{}}).to_string(),
        )
            .into_response(),
    }
}

pub async fn serve(sse: bool) -> (String, Hostile) {
    let hostile = Hostile {
        tools: Bytes::from(tools_array()),
        pages: Arc::new(AtomicUsize::new(0)),
        sse,
    };
    let app = Router::new()
        .route(
            "/mcp",
            post(endpoint).get(|| async { StatusCode::METHOD_NOT_ALLOWED }),
        )
        .with_state(hostile.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, hostile)
}

pub fn handshake() -> mcp_runtime::client::ClientBuilder {
    Client::builder()
        .protocol_version(ProtocolVersion::V2025_11_25)
        .listen(false)
}
