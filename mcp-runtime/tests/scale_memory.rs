//! The scale-out seams without Redis: two replicas in this process sharing the in-memory
//! session store and bus (`mcp_runtime::scale::memory`), and a store that is out of reach.

use std::sync::Arc;
use std::time::Duration;

use mcp_runtime::BoxFuture;
use mcp_runtime::prelude::*;
use mcp_runtime::scale::memory::{MemoryBus, MemorySessionStore};
use mcp_runtime::scale::{ScaleError, ScaleOut, SessionRecord, SessionStore};
use reqwest::StatusCode;
use serde_json::{Value, json};

/// Says the text back.
#[tool]
async fn echo(text: String) -> String {
    text
}

fn replica(scale: ScaleOut) -> Server {
    Server::builder(server_info!())
        .tool(echo::TOOL)
        .request_state_key([5; 32])
        .scale_out(scale)
        .build()
        .unwrap()
}

async fn serve(server: &Server) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let server = server.clone();
    tokio::spawn(async move { server.serve_http_on(listener).await });
    url
}

async fn post(url: &str, sid: Option<&str>, body: Value) -> reqwest::Response {
    let mut req = reqwest::Client::new()
        .post(url)
        .timeout(Duration::from_secs(20))
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json");
    if let Some(sid) = sid {
        req = req
            .header("mcp-session-id", sid)
            .header("mcp-protocol-version", "2025-11-25");
    }
    req.body(body.to_string()).send().await.unwrap()
}

fn initialize() -> Value {
    json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "t", "version": "0"}}})
}

fn echo_call(id: i64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "echo", "arguments": {"text": "hi"}}})
}

async fn body(resp: reqwest::Response) -> Value {
    serde_json::from_slice(&resp.bytes().await.unwrap()).unwrap()
}

#[tokio::test]
async fn a_session_opened_on_one_replica_is_served_and_ended_on_the_other() {
    let sessions = Arc::new(MemorySessionStore::new(100));
    let bus = MemoryBus::new(64);
    let a = replica(ScaleOut::new(
        "a",
        sessions.clone(),
        Arc::new(bus.node("a")),
    ));
    let b = replica(ScaleOut::new(
        "b",
        sessions.clone(),
        Arc::new(bus.node("b")),
    ));
    let (ua, ub) = (serve(&a).await, serve(&b).await);
    let resp = post(&ua, None, initialize()).await;
    assert_eq!(resp.status(), StatusCode::OK);
    let sid = resp.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let stored = sessions
        .load(&sid)
        .await
        .unwrap()
        .expect("shared at initialize");
    assert_eq!(stored.protocol_version, "2025-11-25");
    assert_eq!(stored.client_info["name"], "t");
    let r = body(post(&ub, Some(&sid), echo_call(1)).await).await;
    assert_eq!(r["result"]["content"][0]["text"], "hi", "{r}");
    let level = json!({"jsonrpc": "2.0", "id": 2, "method": "logging/setLevel",
        "params": {"level": "warning"}});
    assert_eq!(
        body(post(&ub, Some(&sid), level).await).await["result"],
        json!({})
    );
    assert_eq!(sessions.load(&sid).await.unwrap().unwrap().log_level, 3);
    let resp = reqwest::Client::new()
        .delete(&ub)
        .header("mcp-session-id", &sid)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert!(sessions.load(&sid).await.unwrap().is_none());
    // a held the session: it learns of the end from the bus, or from the store at the latest.
    let mut status = StatusCode::OK;
    for _ in 0..500 {
        status = post(&ua, Some(&sid), echo_call(3)).await.status();
        if status == StatusCode::NOT_FOUND {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// A session store that is always out of reach.
struct Down;

impl SessionStore for Down {
    fn save<'a>(
        &'a self,
        _: &'a str,
        _: &'a SessionRecord,
        _: Duration,
    ) -> BoxFuture<'a, Result<(), ScaleError>> {
        Box::pin(async { Err(ScaleError::Unavailable("down".into())) })
    }
    fn load<'a>(&'a self, _: &'a str) -> BoxFuture<'a, Result<Option<SessionRecord>, ScaleError>> {
        Box::pin(async { Err(ScaleError::Unavailable("down".into())) })
    }
    fn touch<'a>(
        &'a self,
        _: &'a str,
        _: Duration,
    ) -> BoxFuture<'a, Result<Option<SessionRecord>, ScaleError>> {
        Box::pin(async { Err(ScaleError::Unavailable("down".into())) })
    }
    fn delete<'a>(&'a self, _: &'a str) -> BoxFuture<'a, Result<bool, ScaleError>> {
        Box::pin(async { Err(ScaleError::Unavailable("down".into())) })
    }
}

/// A session store that never answers.
struct Stuck;

impl SessionStore for Stuck {
    fn save<'a>(
        &'a self,
        _: &'a str,
        _: &'a SessionRecord,
        _: Duration,
    ) -> BoxFuture<'a, Result<(), ScaleError>> {
        Box::pin(std::future::pending())
    }
    fn load<'a>(&'a self, _: &'a str) -> BoxFuture<'a, Result<Option<SessionRecord>, ScaleError>> {
        Box::pin(std::future::pending())
    }
    fn touch<'a>(
        &'a self,
        _: &'a str,
        _: Duration,
    ) -> BoxFuture<'a, Result<Option<SessionRecord>, ScaleError>> {
        Box::pin(std::future::pending())
    }
    fn delete<'a>(&'a self, _: &'a str) -> BoxFuture<'a, Result<bool, ScaleError>> {
        Box::pin(std::future::pending())
    }
}

#[tokio::test]
async fn a_store_out_of_reach_or_stuck_is_a_retryable_503_never_a_404() {
    let bus = MemoryBus::new(8);
    for store in [Arc::new(Down) as Arc<dyn SessionStore>, Arc::new(Stuck)] {
        let scale = ScaleOut::new("a", store, Arc::new(bus.node("a")))
            .with_timeout(Duration::from_millis(100));
        let url = serve(&replica(scale)).await;
        for (sid, message) in [(None, initialize()), (Some("some-session"), echo_call(4))] {
            let resp = post(&url, sid, message).await;
            assert_eq!(resp.status(), StatusCode::SERVICE_UNAVAILABLE);
            assert_eq!(resp.headers()["retry-after"], "1");
            let r = body(resp).await;
            assert_eq!(r["error"]["code"], -32603);
            assert_eq!(r["error"]["data"]["reason"], "session_store_unavailable");
        }
        let resp = reqwest::Client::new()
            .delete(&url)
            .header("mcp-session-id", "some-session")
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::SERVICE_UNAVAILABLE);
    }
}

#[test]
fn a_replica_needs_a_shared_request_state_key_and_a_usable_name() {
    let bus = MemoryBus::new(8);
    let store = Arc::new(MemorySessionStore::new(8));
    let err = Server::builder(server_info!())
        .scale_out(ScaleOut::new("a", store.clone(), Arc::new(bus.node("a"))))
        .build()
        .unwrap_err();
    assert!(err.to_string().contains("MCP_REQUEST_STATE_KEYS"), "{err}");
    let err = Server::builder(server_info!())
        .request_state_key([1; 32])
        .scale_out(ScaleOut::new("a.b", store, Arc::new(bus.node("a.b"))))
        .build()
        .unwrap_err();
    assert!(err.to_string().contains("replica name"), "{err}");
}
