//! One backend call per client call across eras, on two gateway replicas sharing Redis: a
//! 2026-07-28 client calls through replica `a` a tool of a 2025-11-25 backend that asks
//! questions. The backend's call is held open on `a`, and the round's `requestState` names `a`:
//! a retry sent to replica `b` is refused there (-32602, `held_on_another_replica`) before the
//! state is used, and runs nothing; the same retry sent to `a` joins the held call. The backend
//! tool runs once (its counter says so).
//!
//! Needs Debian's `redis-server` on the PATH (`.ci/run` installs it); never skipped.
#![cfg(all(feature = "redis", feature = "client"))]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use mcp_runtime::client::Client;
use mcp_runtime::prelude::*;
use mcp_runtime::protocol::{ClientCapabilities, ProtocolVersion};
use mcp_runtime::scale_redis::RedisOptions;
use serde_json::{Value, json};

/// Hang guard for anything awaited here.
const GUARD: Duration = Duration::from_secs(20);

#[path = "support/redis_server.rs"]
mod redis_server;
use redis_server::RedisServer;

/// How many times `order` started, and finished.
#[derive(Default, Clone)]
struct Runs(Arc<(AtomicUsize, AtomicUsize)>);

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Name {
    name: String,
}

/// Asks the name, then says who ordered.
#[tool]
async fn order(item: String, ctx: Context, runs: State<Runs>) -> Result<String, ToolError> {
    runs.0.0.fetch_add(1, Ordering::SeqCst);
    let Some(who) = ctx.elicit::<Name>("Your name?").await?.accepted() else {
        return Ok("no name".into());
    };
    runs.0.1.fetch_add(1, Ordering::SeqCst);
    Ok(format!("{item} for {}", who.name))
}

/// A gateway replica named `node` mounting `backend` as `up`, served over HTTP: its URL.
async fn replica(node: &str, redis: &RedisServer, backend: &Server) -> (Server, String) {
    let caps: ClientCapabilities =
        serde_json::from_value(json!({"elicitation": {"form": {}}})).unwrap();
    let link = backend
        .connect_client(
            Client::builder()
                .protocol_version(ProtocolVersion::V2025_11_25)
                .capabilities(caps)
                .timeout(Some(GUARD)),
        )
        .await
        .unwrap();
    let gateway = Server::builder(server_info!())
        .mount("up", link)
        .request_state_keys(vec![[7; 32]])
        .redis_with(RedisOptions::new(redis.url()).node(node).namespace("held"))
        .build()
        .unwrap();
    tokio::time::timeout(GUARD, gateway.mounted())
        .await
        .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let serving = gateway.clone();
    tokio::spawn(async move { serving.serve_http_on(listener).await });
    (gateway, url)
}

/// A stateless `tools/call` of `up.order` to `url`, with `extra` params (a retry's members):
/// the JSON-RPC response (plain JSON, or the last message of an SSE stream).
async fn order_on(url: &str, extra: &Value) -> Value {
    let mut params = json!({"name": "up.order", "arguments": {"item": "tea"}, "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "0"}}});
    for (k, v) in extra.as_object().unwrap() {
        params[k] = v.clone();
    }
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params});
    let resp = reqwest::Client::builder()
        .timeout(GUARD)
        .build()
        .unwrap()
        .post(url)
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", "up.order")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    let sse = resp.headers()["content-type"] == "text/event-stream";
    let text = resp.text().await.unwrap();
    if !sse {
        return serde_json::from_str(&text).unwrap();
    }
    text.lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
        .rfind(|m| m.get("id").is_some())
        .unwrap()
}

#[tokio::test]
async fn a_retry_on_the_other_replica_is_refused_and_the_holder_runs_the_tool_once() {
    let redis = RedisServer::start().await;
    let runs = Runs::default();
    let backend = Server::builder(server_info!())
        .tool(order::TOOL)
        .state(runs.clone())
        .build()
        .unwrap();
    let (_a, ua) = replica("a", &redis, &backend).await;
    let (_b, ub) = replica("b", &redis, &backend).await;
    redis.until_subscribed("held", 2).await;

    let r1 = order_on(&ua, &json!({})).await;
    assert_eq!(r1["result"]["resultType"], "input_required", "{r1}");
    assert_eq!(
        r1["result"]["inputRequests"]["elicit-0"]["params"]["message"],
        "Your name?"
    );
    let retry = json!({
        "requestState": r1["result"]["requestState"],
        "inputResponses": {"elicit-0": {"action": "accept", "content": {"name": "Ada"}}}
    });
    let on_b = order_on(&ub, &retry).await;
    assert_eq!(on_b["error"]["code"], -32602, "{on_b}");
    assert_eq!(
        on_b["error"]["message"],
        "invalid requestState: the call it continues is held open on replica 'a', not on this one"
    );
    assert_eq!(
        on_b["error"]["data"],
        json!({"reason": "held_on_another_replica", "replica": "a"})
    );
    let on_a = order_on(&ua, &retry).await;
    assert_eq!(on_a["result"]["resultType"], "complete", "{on_a}");
    assert_eq!(on_a["result"]["content"][0]["text"], "tea for Ada");
    assert_eq!(
        (
            runs.0.0.load(Ordering::SeqCst),
            runs.0.1.load(Ordering::SeqCst)
        ),
        (1, 1),
        "the backend tool ran once"
    );
    // Used on `a`: neither replica opens it again.
    for url in [&ua, &ub] {
        let again = order_on(url, &retry).await;
        assert_eq!(again["error"]["code"], -32602, "{again}");
    }
    assert_eq!(runs.0.0.load(Ordering::SeqCst), 1);
}
