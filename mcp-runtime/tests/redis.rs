//! Scale-out on Redis (feature `redis`): a real `redis-server` on a free loopback port and two
//! replicas of one server in this process, each on its own loopback port. Every cross-replica
//! hop is forced by sending to a chosen replica; assertions follow the order of events, and
//! timeouts only guard against hangs.
//!
//! Needs Debian's `redis-server` on the PATH (`apt-get install redis-server`; `.ci/run` installs
//! it): without it these tests fail, they are never skipped.
#![cfg(feature = "redis")]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use futures_util::StreamExt;
use mcp_runtime::prelude::*;
use mcp_runtime::scale_redis::RedisOptions;
use reqwest::StatusCode;
use serde_json::{Value, json};

/// Hang guard for anything awaited here.
const GUARD: Duration = Duration::from_secs(20);

#[path = "support/redis_server.rs"]
mod redis_server;
use redis_server::RedisServer;

// ---------------------------------------------------------------------------------------------
// The server every replica runs.

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Name {
    /// Your name
    name: String,
}

/// Says the text back.
#[tool]
async fn echo(text: String) -> String {
    text
}

/// Asks the client for a name.
#[tool]
async fn greet(ctx: Context) -> Result<String, ToolError> {
    match ctx.elicit::<Name>("What is your name?").await? {
        Elicitation::Accept(n) => Ok(format!("Hello, {}!", n.name)),
        Elicitation::Decline | Elicitation::Cancel => Ok("Hello, stranger!".into()),
    }
}

static HELD: AtomicUsize = AtomicUsize::new(0);
static DROPPED: AtomicUsize = AtomicUsize::new(0);

struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        DROPPED.fetch_add(1, Ordering::SeqCst);
    }
}

/// Runs until cancelled.
#[tool]
async fn hold(ctx: Context) -> String {
    let _guard = Guard;
    HELD.fetch_add(1, Ordering::SeqCst);
    ctx.progress(1.0, None, Some("holding")).await;
    tokio::time::sleep(Duration::from_secs(60)).await;
    "held".into()
}

static GATE: tokio::sync::Notify = tokio::sync::Notify::const_new();

/// Reports progress, closes its stream, waits for the test, reports again and answers.
#[tool]
async fn close_then_finish(ctx: Context) -> String {
    ctx.progress(1.0, Some(2.0), None).await;
    ctx.close_stream().await;
    GATE.notified().await;
    ctx.progress(2.0, Some(2.0), None).await;
    "finished".into()
}

/// Logs at info and at error.
#[tool]
async fn log_both(ctx: Context) -> String {
    ctx.log(LoggingLevel::Info, "an info line").await;
    ctx.log(LoggingLevel::Error, "an error line").await;
    "logged".into()
}

/// Answers after a while, as a task.
#[tool(task = "optional")]
async fn slow_task(ms: u64) -> String {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    format!("slept {ms} ms")
}

static TASK_DROPPED: AtomicUsize = AtomicUsize::new(0);

struct TaskGuard;

impl Drop for TaskGuard {
    fn drop(&mut self) {
        TASK_DROPPED.fetch_add(1, Ordering::SeqCst);
    }
}

/// Runs as a task until cancelled.
#[tool(task = "optional")]
async fn held_task() -> String {
    let _guard = TaskGuard;
    tokio::time::sleep(Duration::from_secs(60)).await;
    "held".into()
}

/// Added at run time.
#[tool]
async fn late() -> String {
    "late".into()
}

/// A resource clients subscribe to.
#[resource(uri = "test://watched", mime = "text/plain")]
async fn watched() -> String {
    "watched".into()
}

fn replica(node: &str, redis: &RedisServer, ns: &str, revalidate: Duration) -> Server {
    Server::builder(server_info!())
        .tool(echo::TOOL)
        .tool(greet::TOOL)
        .tool(hold::TOOL)
        .tool(close_then_finish::TOOL)
        .tool(log_both::TOOL)
        .tool(slow_task::TOOL)
        .tool(held_task::TOOL)
        .resource(watched::RESOURCE)
        .request_state_keys(vec![[7; 32]])
        .redis_with(
            RedisOptions::new(redis.url())
                .node(node)
                .namespace(ns)
                .revalidate(revalidate),
        )
        .http(mcp_runtime::http::HttpOptions::new().sse_retry(Duration::from_millis(100)))
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

/// Two replicas, `a` and `b`, both listening on the bus.
async fn pair(redis: &RedisServer, ns: &str) -> ((Server, String), (Server, String)) {
    pair_revalidating(redis, ns, Duration::from_secs(5)).await
}

/// Two replicas re-reading the sessions they hold at most every `revalidate`.
async fn pair_revalidating(
    redis: &RedisServer,
    ns: &str,
    revalidate: Duration,
) -> ((Server, String), (Server, String)) {
    let a = replica("a", redis, ns, revalidate);
    let b = replica("b", redis, ns, revalidate);
    let (ua, ub) = (serve(&a).await, serve(&b).await);
    redis.until_subscribed(ns, 2).await;
    ((a, ua), (b, ub))
}

// ---------------------------------------------------------------------------------------------
// HTTP helpers.

const ACCEPT: &str = "application/json, text/event-stream";

fn client() -> reqwest::Client {
    reqwest::Client::builder().timeout(GUARD).build().unwrap()
}

/// A handshake-era POST of `body` on session `sid` to `url`.
async fn post(url: &str, sid: &str, body: Value) -> reqwest::Response {
    client()
        .post(url)
        .header("accept", ACCEPT)
        .header("content-type", "application/json")
        .header("mcp-session-id", sid)
        .header("mcp-protocol-version", "2025-11-25")
        .body(body.to_string())
        .send()
        .await
        .unwrap()
}

fn request(id: i64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

fn call(id: i64, tool: &str, args: Value) -> Value {
    request(id, "tools/call", json!({"name": tool, "arguments": args}))
}

async fn initialize_on(url: &str, caps: Value) -> String {
    let resp = client()
        .post(url)
        .header("accept", ACCEPT)
        .header("content-type", "application/json")
        .body(
            request(
                0,
                "initialize",
                json!({"protocolVersion": "2025-11-25", "capabilities": caps,
                    "clientInfo": {"name": "t", "version": "0"}}),
            )
            .to_string(),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    resp.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned()
}

/// The JSON-RPC message of a response (plain JSON, or the last event of an SSE stream).
async fn answer(resp: reqwest::Response) -> Value {
    let sse = resp.headers()["content-type"] == "text/event-stream";
    if !sse {
        return serde_json::from_slice(&resp.bytes().await.unwrap()).unwrap();
    }
    let mut events = Events::new(resp);
    let mut last = None;
    while let Some(e) = events.next().await {
        if !e.data.is_empty() {
            last = Some(e.json());
        }
    }
    last.expect("an answer on the stream")
}

struct Events {
    stream:
        std::pin::Pin<Box<dyn futures_util::Stream<Item = reqwest::Result<bytes::Bytes>> + Send>>,
    buf: String,
}

#[derive(Debug, Default)]
struct Event {
    id: Option<String>,
    data: String,
}

impl Event {
    fn json(&self) -> Value {
        serde_json::from_str(&self.data).unwrap()
    }
}

impl Events {
    fn new(resp: reqwest::Response) -> Self {
        assert_eq!(resp.headers()["content-type"], "text/event-stream");
        Self {
            stream: Box::pin(resp.bytes_stream()),
            buf: String::new(),
        }
    }

    /// The next event with an id or data; `None` at the end of the stream.
    async fn next(&mut self) -> Option<Event> {
        loop {
            if let Some(i) = self.buf.find("\n\n") {
                let block: String = self.buf.drain(..i + 2).collect();
                let mut ev = Event::default();
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("id: ") {
                        ev.id = Some(v.to_owned());
                    } else if let Some(v) = line.strip_prefix("data:") {
                        ev.data.push_str(v.trim_start());
                    }
                }
                if ev.id.is_some() || !ev.data.is_empty() {
                    return Some(ev);
                }
                continue;
            }
            let chunk = tokio::time::timeout(GUARD, self.stream.next())
                .await
                .expect("hang guard: no SSE event")?
                .ok()?;
            self.buf.push_str(std::str::from_utf8(&chunk).unwrap());
        }
    }

    /// The next event carrying a message.
    async fn message(&mut self) -> Value {
        loop {
            let e = self.next().await.expect("the stream ended early");
            if !e.data.is_empty() {
                return e.json();
            }
        }
    }
}

/// Opens the session's `GET` stream on `url`.
async fn get_stream(url: &str, sid: &str) -> Events {
    let resp = client()
        .get(url)
        .header("accept", "text/event-stream")
        .header("mcp-session-id", sid)
        .header("mcp-protocol-version", "2025-11-25")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    Events::new(resp)
}

// ---------------------------------------------------------------------------------------------
// The scenarios.

#[tokio::test]
async fn a_session_made_on_one_replica_is_served_by_the_other_with_its_settings() {
    let redis = RedisServer::start().await;
    // Re-reading on every request: a change made on b is seen by a's next request whatever
    // the bus does (by default within 5 s, at once when the bus message is there first).
    let ((_a, ua), (_b, ub)) = pair_revalidating(&redis, "restore", Duration::ZERO).await;
    let sid = initialize_on(&ua, json!({})).await;
    let r = answer(post(&ub, &sid, call(1, "echo", json!({"text": "hi"}))).await).await;
    assert_eq!(r["result"]["content"][0]["text"], "hi", "{r}");
    // The level set on b applies on a.
    let r = answer(
        post(
            &ub,
            &sid,
            request(2, "logging/setLevel", json!({"level": "error"})),
        )
        .await,
    )
    .await;
    assert_eq!(r["result"], json!({}), "{r}");
    let resp = post(&ua, &sid, call(3, "log_both", json!({}))).await;
    let mut events = Events::new(resp);
    let log = events.message().await;
    assert_eq!(log["method"], "notifications/message");
    assert_eq!(
        log["params"]["level"], "error",
        "only the error line: {log}"
    );
    let done = events.message().await;
    assert_eq!(done["result"]["content"][0]["text"], "logged");
    // A subscription made on b, the GET stream held by b, the update made on a.
    let r = answer(
        post(
            &ub,
            &sid,
            request(4, "resources/subscribe", json!({"uri": "test://watched"})),
        )
        .await,
    )
    .await;
    assert_eq!(r["result"], json!({}), "{r}");
    let mut stream = get_stream(&ub, &sid).await;
    _a.notify_resource_updated("test://other");
    _a.notify_resource_updated("test://watched");
    let n = stream.message().await;
    assert_eq!(n["method"], "notifications/resources/updated");
    assert_eq!(n["params"]["uri"], "test://watched");
    // Ended on b: gone on a too (the session closed message, or the store).
    let resp = client()
        .delete(&ub)
        .header("mcp-session-id", &sid)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let mut status = StatusCode::OK;
    for _ in 0..500 {
        status = post(&ua, &sid, call(5, "echo", json!({"text": "x"})))
            .await
            .status();
        if status == StatusCode::NOT_FOUND {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(status, StatusCode::NOT_FOUND);
    // An unknown session is 404 on a replica that never saw it.
    let resp = post(
        &ub,
        "no-such-session",
        call(6, "echo", json!({"text": "x"})),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn an_sse_stream_cut_on_one_replica_resumes_on_the_other() {
    let redis = RedisServer::start().await;
    let ((_a, ua), (_b, ub)) = pair(&redis, "resume").await;
    let sid = initialize_on(&ua, json!({})).await;
    let body = request(
        1,
        "tools/call",
        json!({"name": "close_then_finish", "arguments": {},
        "_meta": {"progressToken": "p"}}),
    );
    let mut events = Events::new(post(&ua, &sid, body).await);
    let mut last_id = None;
    let mut progress = Vec::new();
    while let Some(e) = events.next().await {
        last_id = e.id.clone().or(last_id);
        if !e.data.is_empty() {
            progress.push(e.json()["params"]["progress"].as_f64().unwrap());
        }
    }
    assert_eq!(
        progress,
        [1.0],
        "a closed the stream after the first progress"
    );
    GATE.notify_one();
    // Resume on b until the final answer is there; nothing twice, nothing lost.
    let mut seen = Vec::new();
    let mut result = None;
    for _ in 0..500 {
        let resp = client()
            .get(&ub)
            .header("accept", "text/event-stream")
            .header("mcp-session-id", &sid)
            .header("mcp-protocol-version", "2025-11-25")
            .header("last-event-id", last_id.clone().unwrap())
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::OK);
        let mut events = Events::new(resp);
        while let Some(e) = events.next().await {
            if e.data.is_empty() {
                continue;
            }
            last_id = e.id.clone().or(last_id);
            let m = e.json();
            if m.get("result").is_some() {
                result = Some(m);
            } else {
                seen.push(m["params"]["progress"].as_f64().unwrap());
            }
        }
        if result.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(seen, [2.0]);
    let result = result.expect("the final answer replayed by b");
    assert_eq!(result["id"], 1);
    assert_eq!(result["result"]["content"][0]["text"], "finished");
}

#[tokio::test]
async fn an_elicitation_answer_sent_to_the_other_replica_reaches_the_handler() {
    let redis = RedisServer::start().await;
    let ((_a, ua), (_b, ub)) = pair(&redis, "elicit").await;
    let sid = initialize_on(&ua, json!({"elicitation": {}})).await;
    let mut events = Events::new(post(&ua, &sid, call(1, "greet", json!({}))).await);
    let ask = events.message().await;
    assert_eq!(ask["method"], "elicitation/create");
    let id = ask["id"].as_str().unwrap().to_owned();
    assert!(id.ends_with("@a"), "the request names its replica: {id}");
    // A forged id names a replica that does not exist: accepted, and nothing happens.
    let forged = json!({"jsonrpc": "2.0", "id": "s-999@zz", "result": {"action": "decline"}});
    assert_eq!(post(&ub, &sid, forged).await.status(), StatusCode::ACCEPTED);
    let reply = json!({"jsonrpc": "2.0", "id": id,
        "result": {"action": "accept", "content": {"name": "Ada"}}});
    assert_eq!(post(&ub, &sid, reply).await.status(), StatusCode::ACCEPTED);
    let done = events.message().await;
    assert_eq!(
        done["result"]["content"][0]["text"], "Hello, Ada!",
        "{done}"
    );
}

#[tokio::test]
async fn a_cancellation_sent_to_the_other_replica_stops_the_handler() {
    let redis = RedisServer::start().await;
    let ((_a, ua), (_b, ub)) = pair(&redis, "cancel").await;
    let sid = initialize_on(&ua, json!({})).await;
    let body = request(
        7,
        "tools/call",
        json!({"name": "hold", "arguments": {},
        "_meta": {"progressToken": "h"}}),
    );
    let mut events = Events::new(post(&ua, &sid, body).await);
    let started = events.message().await;
    assert_eq!(started["params"]["message"], "holding");
    assert_eq!(HELD.load(Ordering::SeqCst), 1);
    assert_eq!(DROPPED.load(Ordering::SeqCst), 0);
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 7, "reason": "changed my mind"}});
    assert_eq!(post(&ub, &sid, cancel).await.status(), StatusCode::ACCEPTED);
    // The handler on a is dropped, and its stream ends without an answer.
    assert!(
        events.next().await.is_none(),
        "no answer to a cancelled request"
    );
    assert_eq!(DROPPED.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn list_changes_reach_the_other_replicas_clients_in_both_eras() {
    let redis = RedisServer::start().await;
    let ((a, ua), (_b, ub)) = pair(&redis, "fanout").await;
    let _ = ua;
    let sid = initialize_on(&ub, json!({})).await;
    let mut stream = get_stream(&ub, &sid).await;
    // Stateless era: a listen stream on b.
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "0"}});
    let listen = client()
        .post(&ub)
        .header("accept", ACCEPT)
        .header("content-type", "application/json")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "subscriptions/listen")
        .body(
            request(
                42,
                "subscriptions/listen",
                json!({"notifications": {"toolsListChanged": true}, "_meta": meta}),
            )
            .to_string(),
        )
        .send()
        .await
        .unwrap();
    let mut listen = Events::new(listen);
    let ack = listen.message().await;
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    a.add_tool(late::TOOL).unwrap();
    let n = stream.message().await;
    assert_eq!(n["method"], "notifications/tools/list_changed");
    let n = listen.message().await;
    assert_eq!(n["method"], "notifications/tools/list_changed");
    assert_eq!(
        n["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        42
    );
}

#[tokio::test]
async fn a_task_started_on_one_replica_is_polled_and_fetched_on_the_other() {
    let redis = RedisServer::start().await;
    let ((_a, ua), (_b, ub)) = pair(&redis, "tasks").await;
    let sid = initialize_on(&ua, json!({"tasks": {}})).await;
    let body = request(
        1,
        "tools/call",
        json!({"name": "slow_task", "arguments": {"ms": 50}, "task": {}}),
    );
    let created = answer(post(&ua, &sid, body).await).await;
    let task = &created["result"]["task"];
    assert_eq!(task["status"], "working", "{created}");
    let id = task["taskId"].as_str().unwrap().to_owned();
    let got = answer(post(&ub, &sid, request(2, "tasks/get", json!({"taskId": id}))).await).await;
    assert_eq!(got["result"]["taskId"], id.as_str(), "{got}");
    // tasks/result on b waits (polling the shared record) until a's handler is done.
    let r = answer(post(&ub, &sid, request(3, "tasks/result", json!({"taskId": id}))).await).await;
    assert_eq!(r["result"]["content"][0]["text"], "slept 50 ms", "{r}");
    let got = answer(post(&ub, &sid, request(4, "tasks/get", json!({"taskId": id}))).await).await;
    assert_eq!(got["result"]["status"], "completed");
    // A task cancelled on b stops its handler on a.
    let body = request(
        6,
        "tools/call",
        json!({"name": "held_task", "arguments": {}, "task": {}}),
    );
    let created = answer(post(&ua, &sid, body).await).await;
    let held = created["result"]["task"]["taskId"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(TASK_DROPPED.load(Ordering::SeqCst), 0);
    let r = answer(
        post(
            &ub,
            &sid,
            request(7, "tasks/cancel", json!({"taskId": held})),
        )
        .await,
    )
    .await;
    assert_eq!(r["result"]["status"], "cancelled", "{r}");
    let stopped = async {
        while TASK_DROPPED.load(Ordering::SeqCst) == 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    };
    tokio::time::timeout(GUARD, stopped)
        .await
        .expect("the handler on a was not stopped");
    let got = answer(post(&ua, &sid, request(8, "tasks/get", json!({"taskId": held}))).await).await;
    assert_eq!(got["result"]["status"], "cancelled", "{got}");
    // Another session, even on the same replica, never sees it.
    let other = initialize_on(&ub, json!({"tasks": {}})).await;
    let r = answer(post(&ub, &other, request(5, "tasks/get", json!({"taskId": id}))).await).await;
    assert_eq!(r["error"]["code"], -32602, "{r}");
}

#[tokio::test]
async fn without_redis_stateless_calls_go_on_and_session_calls_fail_retryably_then_recover() {
    let mut redis = RedisServer::start().await;
    let ((_a, ua), (_b, ub)) = pair(&redis, "outage").await;
    let held = initialize_on(&ua, json!({})).await;
    let stored = initialize_on(&ua, json!({})).await;
    redis.stop();
    // The stateless era never touches Redis.
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "0"}});
    for url in [&ua, &ub] {
        let resp = client()
            .post(url)
            .header("accept", ACCEPT)
            .header("content-type", "application/json")
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", "tools/call")
            .header("mcp-name", "echo")
            .body(
                request(
                    1,
                    "tools/call",
                    json!({"name": "echo",
                    "arguments": {"text": "still here"}, "_meta": meta}),
                )
                .to_string(),
            )
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::OK);
        let r = answer(resp).await;
        assert_eq!(r["result"]["content"][0]["text"], "still here", "{r}");
    }
    // A session a holds is served (stale if error).
    let r = answer(post(&ua, &held, call(2, "echo", json!({"text": "local"}))).await).await;
    assert_eq!(r["result"]["content"][0]["text"], "local");
    // A session b has not seen: 503 with Retry-After, never 404.
    let resp = post(&ub, &stored, call(3, "echo", json!({"text": "x"}))).await;
    assert_eq!(resp.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(resp.headers()["retry-after"], "1");
    let r: Value = serde_json::from_slice(&resp.bytes().await.unwrap()).unwrap();
    assert_eq!(r["id"], 3);
    assert_eq!(r["error"]["code"], -32603);
    assert_eq!(r["error"]["data"]["reason"], "session_store_unavailable");
    // A new session cannot be handed out.
    let resp = client()
        .post(&ub)
        .header("accept", ACCEPT)
        .header("content-type", "application/json")
        .body(
            request(
                0,
                "initialize",
                json!({"protocolVersion": "2025-11-25",
            "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}),
            )
            .to_string(),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(resp.headers()["retry-after"], "1");
    // Redis back (its append-only file kept the sessions): b restores the session, no restart.
    redis.restart().await;
    let mut served = None;
    for _ in 0..500 {
        let resp = post(&ub, &stored, call(4, "echo", json!({"text": "back"}))).await;
        if resp.status() == StatusCode::OK {
            served = Some(answer(resp).await);
            break;
        }
        assert_eq!(
            resp.status(),
            StatusCode::SERVICE_UNAVAILABLE,
            "only 503 while reconnecting"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let r = served.expect("b serves the session once Redis is back");
    assert_eq!(r["result"]["content"][0]["text"], "back");
    // And the bus is back: a resource update on b reaches a's GET stream (after the list
    // changes every replica sends its clients once reconnected).
    redis.until_subscribed("outage", 2).await;
    let r = answer(
        post(
            &ua,
            &held,
            request(5, "resources/subscribe", json!({"uri": "test://watched"})),
        )
        .await,
    )
    .await;
    assert_eq!(r["result"], json!({}), "{r}");
    let mut stream = get_stream(&ua, &held).await;
    _b.notify_resource_updated("test://watched");
    loop {
        let n = stream.message().await;
        if n["method"] == "notifications/resources/updated" {
            assert_eq!(n["params"]["uri"], "test://watched");
            break;
        }
        assert!(
            n["method"].as_str().unwrap().ends_with("/list_changed"),
            "{n}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// With feature `auth`: a session is bound to the subject (and issuer) that opened it on every
// replica, through its shared record.

#[cfg(feature = "auth")]
mod bound_sessions {
    use super::*;
    use mcp_runtime::BoxFuture;
    use mcp_runtime::auth::{Auth, AuthError, Authorization, Claims, TokenVerifier};

    /// Says whom it serves.
    #[tool]
    async fn whoami(auth: Auth) -> String {
        format!(
            "{} of {}",
            auth.subject,
            auth.issuer.as_deref().unwrap_or("-")
        )
    }

    /// Tokens that are their claims: `SUBJECT` (issuer `https://as.test`) or `SUBJECT|ISSUER`.
    struct Plain;

    impl TokenVerifier for Plain {
        fn verify<'a>(
            &'a self,
            token: &'a str,
            _request: &'a axum::http::request::Parts,
        ) -> BoxFuture<'a, Result<Claims, AuthError>> {
            Box::pin(async move {
                let (sub, iss) = token.split_once('|').unwrap_or((token, "https://as.test"));
                if sub.is_empty() {
                    return Err(AuthError::invalid("no subject"));
                }
                let raw = json!({"sub": sub, "iss": iss});
                Ok(Claims::from_json(raw.as_object().unwrap().clone()))
            })
        }
    }

    fn protected_replica(node: &str, redis: &RedisServer, ns: &str) -> Server {
        Server::builder(server_info!())
            .tool(whoami::TOOL)
            .request_state_keys(vec![[7; 32]])
            .redis_with(RedisOptions::new(redis.url()).node(node).namespace(ns))
            .auth(Authorization::new("http://127.0.0.1/mcp", Plain))
            .build()
            .unwrap()
    }

    /// A handshake-era POST with a bearer token, on session `sid` when given.
    async fn post_as(url: &str, token: &str, sid: Option<&str>, body: Value) -> reqwest::Response {
        let mut req = client()
            .post(url)
            .header("accept", ACCEPT)
            .header("content-type", "application/json")
            .header("mcp-protocol-version", "2025-11-25")
            .bearer_auth(token)
            .body(body.to_string());
        if let Some(sid) = sid {
            req = req.header("mcp-session-id", sid);
        }
        req.send().await.unwrap()
    }

    /// `whoami` on session `sid` as `token`: the status and the JSON-RPC answer.
    async fn whoami_as(url: &str, token: &str, sid: &str) -> (StatusCode, Value) {
        let resp = post_as(url, token, Some(sid), call(1, "whoami", json!({}))).await;
        (resp.status(), answer(resp).await)
    }

    fn not_found() -> Value {
        json!({"jsonrpc": "2.0", "id": null,
            "error": {"code": -32001, "message": "Session not found"}})
    }

    #[tokio::test]
    async fn a_session_serves_its_subject_on_every_replica_and_nobody_else() {
        let redis = RedisServer::start().await;
        let (a, b) = (
            protected_replica("a", &redis, "bound"),
            protected_replica("b", &redis, "bound"),
        );
        let (ua, ub) = (serve(&a).await, serve(&b).await);
        redis.until_subscribed("bound", 2).await;

        let init = request(
            0,
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "t", "version": "0"}}),
        );
        let resp = post_as(&ua, "alice", None, init).await;
        assert_eq!(resp.status(), StatusCode::OK);
        let sid = resp.headers()["mcp-session-id"]
            .to_str()
            .unwrap()
            .to_owned();
        let stored = redis.command(&["GET", &format!("bound:s:{sid}")]).await;
        assert!(
            stored
                .as_deref()
                .is_some_and(|r| r.ends_with(r#""sub":"alice","iss":"https://as.test"}"#)),
            "{stored:?}"
        );

        // b has not seen the session: the first to ask is another subject, refused as if the
        // session did not exist (b restores it, but does not serve it to him).
        assert_eq!(
            whoami_as(&ub, "mallory", &sid).await,
            (StatusCode::NOT_FOUND, not_found())
        );
        // The same subject of another issuer is someone else.
        assert_eq!(
            whoami_as(&ub, "alice|https://elsewhere.test", &sid).await,
            (StatusCode::NOT_FOUND, not_found())
        );
        // Its subject is served on b, as herself.
        let (status, r) = whoami_as(&ub, "alice", &sid).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            r["result"]["content"][0]["text"],
            "alice of https://as.test"
        );
        // Now held and bound on b: still nobody else's, there and on a.
        assert_eq!(
            whoami_as(&ub, "mallory", &sid).await,
            (StatusCode::NOT_FOUND, not_found())
        );
        assert_eq!(
            whoami_as(&ua, "mallory", &sid).await,
            (StatusCode::NOT_FOUND, not_found())
        );
        let (status, r) = whoami_as(&ua, "alice", &sid).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            r["result"]["content"][0]["text"],
            "alice of https://as.test"
        );
        // A DELETE of another subject is refused too; the owner's ends the session.
        let delete = |url: &str, token: &str| {
            client()
                .delete(url)
                .header("mcp-session-id", &sid)
                .bearer_auth(token)
                .send()
        };
        assert_eq!(
            delete(&ub, "mallory").await.unwrap().status(),
            StatusCode::NOT_FOUND
        );
        assert_eq!(delete(&ub, "alice").await.unwrap().status(), StatusCode::OK);
        let stored = redis.command(&["GET", &format!("bound:s:{sid}")]).await;
        assert_eq!(stored.as_deref(), Some("$-1"), "the record is gone");
    }

    #[tokio::test]
    async fn a_record_without_a_subject_is_served_to_nobody_when_auth_is_on() {
        let redis = RedisServer::start().await;
        let b = protected_replica("b", &redis, "unbound");
        let ub = serve(&b).await;
        redis.until_subscribed("unbound", 1).await;
        // What a replica without `auth` (or before subjects were shared) wrote.
        let record = r#"{"pv":"2025-11-25","ci":{"name":"t","version":"0"},"caps":{}}"#;
        let set = redis
            .command(&["SET", "unbound:s:old", record, "EX", "600"])
            .await;
        assert_eq!(set.as_deref(), Some("+OK"));
        for token in ["alice", "mallory"] {
            assert_eq!(
                whoami_as(&ub, token, "old").await,
                (StatusCode::NOT_FOUND, not_found()),
                "{token}"
            );
        }
    }
}

/// A stateless `tools/call` of `greet` to `url`, with `extra` params (a retry's members).
async fn stateless_greet(url: &str, extra: Value) -> Value {
    let mut params = json!({"name": "greet", "arguments": {}, "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}}}});
    for (k, v) in extra.as_object().unwrap() {
        params[k] = v.clone();
    }
    let r = client()
        .post(url)
        .header("accept", ACCEPT)
        .header("content-type", "application/json")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", "greet")
        .body(request(1, "tools/call", params).to_string())
        .send()
        .await
        .unwrap();
    answer(r).await
}

/// The nonce sealed in a `requestState` (its payload is Base64url JSON before the tag).
fn nonce_of(state: &str) -> String {
    use base64::Engine as _;
    let body = state.split('.').next().unwrap();
    let json = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(body)
        .unwrap();
    let v: Value = serde_json::from_slice(&json).unwrap();
    v["n"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn a_request_state_opens_once_across_replicas() {
    let redis = RedisServer::start().await;
    let ns = "replay";
    let ((_a, ua), (_b, ub)) = pair(&redis, ns).await;
    let answer_with = |state: &Value, input: &Value| {
        let key = input["result"]["inputRequests"]
            .as_object()
            .unwrap()
            .keys()
            .next()
            .unwrap()
            .clone();
        json!({"requestState": state, "inputResponses": {
            key: {"action": "accept", "content": {"name": "Ada"}}}})
    };
    // A round answered on `a` is claimed in Redis, and replaying it on `b` is refused there.
    let first = stateless_greet(&ua, json!({})).await;
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");
    let state = first["result"]["requestState"].clone();
    let done = stateless_greet(&ua, answer_with(&state, &first)).await;
    assert_eq!(
        done["result"]["content"][0]["text"], "Hello, Ada!",
        "{done}"
    );
    let key = format!("{ns}:c:rs:{}", nonce_of(state.as_str().unwrap()));
    assert_eq!(
        redis.command(&["EXISTS", &key]).await.as_deref(),
        Some(":1")
    );
    let ttl: i64 = redis.command(&["PTTL", &key]).await.unwrap()[1..]
        .parse()
        .unwrap();
    assert!(ttl > 0, "the claim expires with the state ({ttl} ms)");
    let replay = stateless_greet(&ub, answer_with(&state, &first)).await;
    assert_eq!(replay["error"]["code"], -32602, "{replay}");
    // A state another replica claimed first (here: the claim made in Redis by hand, which no
    // process's own memory has seen) is refused on its first use here.
    let second = stateless_greet(&ub, json!({})).await;
    let state = second["result"]["requestState"].clone();
    let key = format!("{ns}:c:rs:{}", nonce_of(state.as_str().unwrap()));
    assert_eq!(
        redis
            .command(&["SET", &key, "1", "PX", "60000"])
            .await
            .as_deref(),
        Some("+OK")
    );
    let refused = stateless_greet(&ub, answer_with(&state, &second)).await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert_eq!(
        refused["error"]["message"],
        "invalid requestState: it was used already"
    );
}
