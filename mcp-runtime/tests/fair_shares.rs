//! Fair shares of the standalone HTTP server's pools: one attacker (127.0.0.1) holding its whole
//! share of streams and connections, tasks, waiting calls or sessions leaves a second client
//! (127.0.0.2, another peer) served: it initialises, lists, calls a tool, creates a task and gets
//! an elicitation answered, each within 1 s (ten times what each takes here). And a sealed
//! `requestState` opens once.

#![cfg(feature = "http")]

use std::net::IpAddr;
use std::time::{Duration, Instant};

use mcp_runtime::http::HttpOptions;
use mcp_runtime::prelude::*;
use mcp_runtime::principal::FairShares;
use mcp_runtime::tasks::{TaskLimits, TaskOptions};
use serde_json::{Value, json};

/// Answers at once.
#[tool]
async fn quick() -> String {
    "quick".into()
}

/// Waits a little before answering: it becomes a task when the client lets the server decide.
#[tool(task = "optional")]
async fn slow() -> String {
    tokio::time::sleep(Duration::from_millis(30)).await;
    "slow".into()
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Name {
    /// Your name
    name: String,
}

/// Asks the user's name.
#[tool]
async fn ask(ctx: Context) -> Result<String, ToolError> {
    match ctx.elicit::<Name>("Your name?").await {
        Ok(answer) => Ok(answer.accepted().map_or_else(String::new, |n| n.name)),
        Err(e) => Ok(format!("not asked: {e}")),
    }
}

const ACCEPT: &str = "application/json, text/event-stream";
const ATTACKER: &str = "127.0.0.1";
const CLIENT: &str = "127.0.0.2";
/// What each of the second client's steps must take at most.
const SERVED: Duration = Duration::from_secs(1);

async fn serve(shares: FairShares, http: HttpOptions, tasks: TaskLimits) -> String {
    let server = Server::builder(server_info!())
        .tool(quick::TOOL)
        .tool(slow::TOOL)
        .tool(ask::TOOL)
        .tasks(TaskOptions::default().with_limits(tasks))
        .fair_shares(shares)
        .http(http)
        .build()
        .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move { server.serve_http_on(listener).await });
    url
}

/// A client whose connections come from `from` (one connection per request: nothing pooled).
fn peer(from: &str) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(from.parse::<IpAddr>().unwrap())
        .pool_max_idle_per_host(0)
        .timeout(Duration::from_secs(20))
        .build()
        .unwrap()
}

fn stateless_meta(tasks: bool) -> Value {
    let caps = if tasks {
        json!({"extensions": {"io.modelcontextprotocol/tasks": {}}})
    } else {
        json!({"elicitation": {}})
    };
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": caps,
        "io.modelcontextprotocol/clientInfo": {"name": "fair", "version": "0"}
    })
}

/// A stateless POST of `method` with `params` (`_meta` added).
fn stateless(
    client: &reqwest::Client,
    url: &str,
    method: &str,
    name: Option<&str>,
    mut params: Value,
    tasks: bool,
) -> reqwest::RequestBuilder {
    params["_meta"] = stateless_meta(tasks);
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let mut req = client
        .post(url)
        .header("accept", ACCEPT)
        .header("content-type", "application/json")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", method);
    if let Some(name) = name {
        req = req.header("mcp-name", name);
    }
    req.body(body.to_string())
}

/// The last JSON message of a body (plain JSON, or the last `data:` of an SSE stream).
fn last_message(text: &str) -> Value {
    text.lines()
        .rev()
        .find_map(|l| l.strip_prefix("data: ").filter(|d| !d.is_empty()))
        .map_or_else(|| serde_json::from_str(text), serde_json::from_str)
        .unwrap_or(Value::Null)
}

/// `initialize` in the handshake era; the session id.
async fn initialize(client: &reqwest::Client, url: &str) -> Result<String, u16> {
    let body = json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{
        "protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},
        "clientInfo":{"name":"fair","version":"0"}}});
    let resp = client
        .post(url)
        .header("accept", ACCEPT)
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    let status = resp.status().as_u16();
    let sid = resp
        .headers()
        .get("mcp-session-id")
        .map(|v| v.to_str().unwrap().to_owned());
    let _ = resp.bytes().await;
    sid.ok_or(status)
}

/// A request in a session; (status, last message).
async fn in_session(client: &reqwest::Client, url: &str, sid: &str, msg: Value) -> (u16, Value) {
    let resp = session_post(client, url, sid, msg).send().await.unwrap();
    let status = resp.status().as_u16();
    (status, last_message(&resp.text().await.unwrap()))
}

fn session_post(
    client: &reqwest::Client,
    url: &str,
    sid: &str,
    msg: Value,
) -> reqwest::RequestBuilder {
    client
        .post(url)
        .header("accept", ACCEPT)
        .header("content-type", "application/json")
        .header("mcp-session-id", sid)
        .header("mcp-protocol-version", "2025-11-25")
        .body(msg.to_string())
}

fn request(id: i64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// Runs `step` and checks that it took less than [`SERVED`].
async fn within<T>(what: &str, step: impl std::future::Future<Output = T>) -> T {
    let started = Instant::now();
    let out = step.await;
    assert!(
        started.elapsed() < SERVED,
        "{what} took {:?}",
        started.elapsed()
    );
    out
}

/// The second client's whole visit: initialise, list, call, create a task, answer an
/// elicitation; each within 1 s.
async fn second_client_is_served(url: &str) {
    let client = peer(CLIENT);
    let sid = within("initialize", initialize(&client, url))
        .await
        .unwrap();
    let (status, list) = within(
        "tools/list",
        in_session(&client, url, &sid, request(1, "tools/list", json!({}))),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(list["result"]["tools"].as_array().unwrap().len(), 3);
    let call = request(2, "tools/call", json!({"name": "quick", "arguments": {}}));
    let (_, called) = within("tools/call", in_session(&client, url, &sid, call)).await;
    assert_eq!(called["result"]["content"][0]["text"], "quick");
    let task = request(
        3,
        "tools/call",
        json!({"name": "slow", "arguments": {}, "task": {"ttl": 60000}}),
    );
    let (_, created) = within("a task", in_session(&client, url, &sid, task)).await;
    assert_eq!(created["result"]["task"]["status"], "working", "{created}");
    within("an elicitation", elicitation_answered(&client, url, &sid)).await;
}

/// `ask` in a session: the elicitation arrives on the call's stream, the answer is POSTed, and
/// the call's result names it.
async fn elicitation_answered(client: &reqwest::Client, url: &str, sid: &str) {
    let call = request(9, "tools/call", json!({"name": "ask", "arguments": {}}));
    let mut resp = session_post(client, url, sid, call).send().await.unwrap();
    let mut text = String::new();
    let question = loop {
        let chunk = resp.chunk().await.unwrap().expect("the stream ended early");
        text.push_str(std::str::from_utf8(&chunk).unwrap());
        if let Some(q) = text
            .lines()
            .filter_map(|l| l.strip_prefix("data: "))
            .filter_map(|d| serde_json::from_str::<Value>(d).ok())
            .find(|m| m["method"] == "elicitation/create")
        {
            break q;
        }
    };
    let answer = json!({"jsonrpc": "2.0", "id": question["id"],
        "result": {"action": "accept", "content": {"name": "Ada"}}});
    let posted = session_post(client, url, sid, answer).send().await.unwrap();
    assert_eq!(posted.status(), 202);
    let rest = resp.text().await.unwrap();
    let result = last_message(&format!("{text}{rest}"));
    assert_eq!(result["result"]["content"][0]["text"], "Ada", "{result}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_peer_holding_its_streams_and_connections_leaves_others_served() {
    let shares = FairShares::new().connections_per_peer(8).streams(12, 4);
    let http = HttpOptions::new().max_connections(16);
    let url = serve(shares, http, TaskLimits::default()).await;
    let attacker = peer(ATTACKER);
    // Listen streams: the peer's four, then 503 (the stream's own answer, nothing else).
    let mut streams = Vec::new();
    for n in 0..6 {
        let params = json!({"notifications": {"toolsListChanged": true}});
        let resp = stateless(&attacker, &url, "subscriptions/listen", None, params, false)
            .send()
            .await
            .unwrap();
        let expected = if n < 4 { 200 } else { 503 };
        assert_eq!(resp.status().as_u16(), expected, "stream {n}");
        streams.push(resp);
    }
    // Slowloris sockets on top: the peer's share of connections closes its own.
    let mut sockets = Vec::new();
    for _ in 0..20 {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind("127.0.0.1:0".parse().unwrap()).unwrap();
        let addr = url
            .trim_start_matches("http://")
            .trim_end_matches("/mcp")
            .parse()
            .unwrap();
        let mut tcp = socket.connect(addr).await.unwrap();
        tokio::io::AsyncWriteExt::write_all(&mut tcp, b"POST /mcp HTTP/1.1\r\nHost: 127")
            .await
            .unwrap();
        sockets.push(tcp);
    }
    second_client_is_served(&url).await;
    let ready = within(
        "readiness",
        peer(CLIENT).get(url.replace("/mcp", "/readyz")).send(),
    )
    .await
    .unwrap();
    assert_eq!(ready.status(), 200);
    // The attacker's streams are still open: its share was held throughout.
    assert_eq!(streams.iter().filter(|r| r.status() == 200).count(), 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_peer_filling_its_task_share_leaves_the_store_to_others() {
    let tasks = TaskLimits::default().with_stored_per_principal(5);
    let url = serve(FairShares::new(), HttpOptions::new(), tasks).await;
    let attacker = peer(ATTACKER);
    // Two sessions of one peer share one share of the store.
    for n in 0..6 {
        let sid = initialize(&attacker, &url).await.unwrap();
        let task = request(
            1,
            "tools/call",
            json!({"name": "slow", "arguments": {}, "task": {}}),
        );
        let (_, created) = in_session(&attacker, &url, &sid, task).await;
        if n < 5 {
            assert_eq!(created["result"]["task"]["status"], "working", "{created}");
        } else {
            assert_eq!(created["error"]["code"], -32600, "{created}");
            assert_eq!(
                created["error"]["message"],
                "too many tasks: at most 5 tasks kept per client"
            );
        }
    }
    // Stateless: a task-optional tool the store refuses to make a task answers plainly.
    let params = json!({"name": "slow", "arguments": {}});
    let resp = stateless(&attacker, &url, "tools/call", Some("slow"), params, true)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    let plain = last_message(&resp.text().await.unwrap());
    assert_eq!(plain["result"]["resultType"], "complete", "{plain}");
    assert_eq!(plain["result"]["content"][0]["text"], "slow");
    second_client_is_served(&url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_principal_holding_its_waiting_calls_leaves_elicitation_to_others() {
    let shares = FairShares::new().client_requests_per_principal(4);
    let url = serve(shares, HttpOptions::new(), TaskLimits::default()).await;
    let attacker = peer(ATTACKER);
    let (a, b) = (
        initialize(&attacker, &url).await.unwrap(),
        initialize(&attacker, &url).await.unwrap(),
    );
    // Four abandoned elicitations over two sessions: the principal's share.
    let mut abandoned = Vec::new();
    for n in 0..4 {
        let sid = if n % 2 == 0 { &a } else { &b };
        let call = request(n, "tools/call", json!({"name": "ask", "arguments": {}}));
        let mut resp = session_post(&attacker, &url, sid, call)
            .send()
            .await
            .unwrap();
        let first = resp.chunk().await.unwrap().unwrap();
        assert!(
            String::from_utf8_lossy(&first).contains("elicitation/create") || {
                let more = resp.chunk().await.unwrap().unwrap();
                String::from_utf8_lossy(&more).contains("elicitation/create")
            }
        );
        abandoned.push(resp);
    }
    let call = request(5, "tools/call", json!({"name": "ask", "arguments": {}}));
    let (_, busy) = in_session(&attacker, &url, &b, call.clone()).await;
    let text = busy["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("not asked: "), "{busy}");
    second_client_is_served(&url).await;
    // Ending a session gives its waiting calls back at once.
    let ended = attacker
        .delete(&url)
        .header("mcp-session-id", &a)
        .header("mcp-protocol-version", "2025-11-25")
        .send()
        .await
        .unwrap();
    assert_eq!(ended.status(), 200);
    within(
        "an elicitation after DELETE",
        elicitation_answered(&attacker, &url, &b),
    )
    .await;
    drop(abandoned);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_initialize_flood_from_one_peer_keeps_the_sessions_of_others() {
    let shares = FairShares::new().sessions_per_peer(10);
    let http = HttpOptions::new().session_limits(50, Duration::from_secs(600));
    let url = serve(shares, http, TaskLimits::default()).await;
    let client = peer(CLIENT);
    let kept = initialize(&client, &url).await.unwrap();
    let attacker = peer(ATTACKER);
    let mut opened = Vec::new();
    for _ in 0..200 {
        opened.push(initialize(&attacker, &url).await.unwrap());
    }
    let list = request(1, "tools/list", json!({}));
    let (status, _) = within(
        "the kept session",
        in_session(&client, &url, &kept, list.clone()),
    )
    .await;
    assert_eq!(status, 200, "the other peer's idle session was kept");
    let (status, _) = in_session(&attacker, &url, &opened[0], list.clone()).await;
    assert_eq!(status, 404, "the flood ended its own oldest sessions");
    let (status, _) = in_session(&attacker, &url, &opened[199], list).await;
    assert_eq!(status, 200);
    second_client_is_served(&url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_state_opens_once_and_answers_need_their_state() {
    let url = serve(FairShares::new(), HttpOptions::new(), TaskLimits::default()).await;
    let client = peer(CLIENT);
    let post = |params: Value| {
        let req = stateless(&client, &url, "tools/call", Some("ask"), params, false);
        async move { last_message(&req.send().await.unwrap().text().await.unwrap()) }
    };
    let asked = post(json!({"name": "ask", "arguments": {}})).await;
    assert_eq!(asked["result"]["resultType"], "input_required", "{asked}");
    let state = asked["result"]["requestState"].as_str().unwrap().to_owned();
    let key = asked["result"]["inputRequests"]
        .as_object()
        .unwrap()
        .keys()
        .next()
        .unwrap()
        .clone();
    let retry = json!({"name": "ask", "arguments": {}, "requestState": state,
        "inputResponses": {key.clone(): {"action": "accept", "content": {"name": "Ada"}}}});
    let done = post(retry.clone()).await;
    assert_eq!(done["result"]["content"][0]["text"], "Ada", "{done}");
    let replayed = post(retry).await;
    assert_eq!(replayed["error"]["code"], -32602);
    assert_eq!(
        replayed["error"]["message"],
        "invalid requestState: it was used already"
    );
    let unasked = post(json!({"name": "ask", "arguments": {},
        "inputResponses": {key: {"action": "accept", "content": {"name": "Eve"}}}}))
    .await;
    assert_eq!(unasked["error"]["code"], -32602);
    assert_eq!(
        unasked["error"]["message"],
        "`inputResponses` without the `requestState` of the round that asked for them"
    );
}
