//! Streamable HTTP over real sockets (127.0.0.1:0), server-to-client interactions in both eras,
//! subscriptions and run-time registration.

use std::time::Duration;

use futures_util::StreamExt;
use mcp_runtime::prelude::*;
use reqwest::StatusCode;
use serde_json::{Value, json};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Name {
    /// Your name
    name: String,
}

/// Greets the caller by the name they give.
#[tool]
async fn greet(ctx: Context) -> Result<String, ToolError> {
    match ctx.elicit::<Name>("What is your name?").await? {
        Elicitation::Accept(n) => Ok(format!("Hello, {}!", n.name)),
        Elicitation::Decline | Elicitation::Cancel => Ok("Hello, stranger!".into()),
    }
}

/// Asks two questions, one after the other.
#[tool]
async fn two_steps(ctx: Context) -> Result<String, ToolError> {
    let first = ctx
        .elicit::<Name>("First name?")
        .await?
        .accepted()
        .map_or(String::new(), |n| n.name);
    let second = ctx
        .elicit::<Name>("Second name?")
        .key("second")
        .await?
        .accepted()
        .map_or(String::new(), |n| n.name);
    Ok(format!("{first} and {second}"))
}

/// Counts the client's roots.
#[tool]
async fn count_roots(ctx: Context) -> Result<String, ToolError> {
    Ok(format!("{} root(s)", ctx.roots().await?.len()))
}

/// Reports progress three times, slowly.
#[tool]
async fn slow(ctx: Context) -> String {
    for i in 1..=3 {
        ctx.progress(f64::from(i), Some(3.0), None).await;
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
    "done".into()
}

/// Runs a query in a region mirrored in a header.
#[tool]
async fn regional(
    /// The region
    #[arg(header = "Region")]
    region: String,
    /// The query
    query: Option<String>,
) -> String {
    format!("{region}: {}", query.unwrap_or_default())
}

/// Closes its stream, keeps working, and answers after the client reconnects.
#[tool]
async fn reconnecting(ctx: Context) -> String {
    ctx.close_stream().await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    "after reconnection".into()
}

/// Answers at once.
#[tool]
async fn quick() -> String {
    "quick".into()
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

fn server() -> Server {
    Server::builder(server_info!())
        .tool(greet::TOOL)
        .tool(two_steps::TOOL)
        .tool(count_roots::TOOL)
        .tool(slow::TOOL)
        .tool(regional::TOOL)
        .tool(quick::TOOL)
        .tool(reconnecting::TOOL)
        .resource(watched::RESOURCE)
        .max_message_bytes(64 * 1024)
        .http(
            mcp_runtime::http::HttpOptions::new()
                .stream_after(Duration::from_secs(5))
                .sse_retry(Duration::from_millis(250)),
        )
        .build()
        .unwrap()
}

/// Serves `server` on 127.0.0.1:0; returns the endpoint URL.
async fn serve(server: &Server) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let server = server.clone();
    tokio::spawn(async move { server.serve_http_on(listener).await });
    url
}

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap()
}

const ACCEPT: &str = "application/json, text/event-stream";

fn meta(caps: Value) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": caps,
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "0"}
    })
}

/// A stateless-era POST with correct headers.
async fn modern(
    url: &str,
    id: i64,
    method: &str,
    mut params: Value,
    caps: Value,
) -> reqwest::Response {
    params["_meta"] = meta(caps);
    let mut req = client()
        .post(url)
        .header("accept", ACCEPT)
        .header("content-type", "application/json")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", method);
    if let Some(name) = params
        .get("name")
        .or_else(|| params.get("uri"))
        .and_then(Value::as_str)
    {
        req = req.header("mcp-name", name);
    }
    req.body(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string())
        .send()
        .await
        .unwrap()
}

/// Reads SSE events from a response.
struct Events {
    stream:
        std::pin::Pin<Box<dyn futures_util::Stream<Item = reqwest::Result<bytes::Bytes>> + Send>>,
    buf: String,
}

/// One SSE event: id, retry, data.
#[derive(Debug, Default)]
struct Event {
    id: Option<String>,
    retry: Option<String>,
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
        assert_eq!(resp.headers()["x-accel-buffering"], "no");
        Self {
            stream: Box::pin(resp.bytes_stream()),
            buf: String::new(),
        }
    }

    /// The next event (keep-alive comments skipped); `None` at the end of the stream.
    async fn next(&mut self) -> Option<Event> {
        loop {
            if let Some(i) = self.buf.find("\n\n") {
                let block: String = self.buf.drain(..i + 2).collect();
                let mut ev = Event::default();
                let mut any = false;
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("id: ") {
                        ev.id = Some(v.to_owned());
                        any = true;
                    } else if let Some(v) = line.strip_prefix("retry: ") {
                        ev.retry = Some(v.to_owned());
                        any = true;
                    } else if let Some(v) = line.strip_prefix("data:") {
                        ev.data.push_str(v.trim_start());
                        any = true;
                    }
                }
                if any {
                    return Some(ev);
                }
                continue;
            }
            let chunk = tokio::time::timeout(Duration::from_secs(10), self.stream.next())
                .await
                .ok()??
                .ok()?;
            self.buf.push_str(std::str::from_utf8(&chunk).unwrap());
        }
    }
}

/// `initialize` over HTTP; returns the session id.
async fn initialize(url: &str, caps: Value) -> String {
    let resp = client()
        .post(url)
        .header("accept", ACCEPT)
        .header("content-type", "application/json")
        .body(
            json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{
                "protocolVersion":"2025-11-25","capabilities":caps,"clientInfo":{"name":"t","version":"0"}}})
            .to_string(),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let sid = resp.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let body: Value = resp.json_body().await;
    assert_eq!(body["result"]["protocolVersion"], "2025-11-25");
    assert_eq!(body["result"]["capabilities"]["tools"]["listChanged"], true);
    sid
}

trait JsonBody {
    async fn json_body(self) -> Value;
}

impl JsonBody for reqwest::Response {
    async fn json_body(self) -> Value {
        let bytes = self.bytes().await.unwrap();
        serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| panic!("not JSON: {}", String::from_utf8_lossy(&bytes)))
    }
}

/// A handshake-era POST in a session.
async fn legacy(url: &str, sid: &str, body: Value) -> reqwest::Response {
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

#[tokio::test]
async fn sessions_are_minted_required_and_ended() {
    let url = serve(&server()).await;
    let sid = initialize(&url, json!({})).await;
    assert!(sid.len() >= 32 && sid.bytes().all(|b| (0x21..=0x7e).contains(&b)));

    let list = json!({"jsonrpc":"2.0","id":1,"method":"tools/list"});
    let resp = client()
        .post(&url)
        .header("accept", ACCEPT)
        .header("mcp-protocol-version", "2025-11-25")
        .body(list.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::BAD_REQUEST, "no session id");

    assert_eq!(
        legacy(&url, "no-such-session", list.clone()).await.status(),
        StatusCode::NOT_FOUND
    );

    let resp = legacy(&url, &sid, list.clone()).await;
    assert_eq!(resp.status(), StatusCode::OK);
    assert_eq!(resp.headers()["content-type"], "application/json");
    assert!(
        resp.json_body().await["result"]["tools"]
            .as_array()
            .unwrap()
            .len()
            >= 6
    );

    let note = legacy(
        &url,
        &sid,
        json!({"jsonrpc":"2.0","method":"notifications/initialized"}),
    )
    .await;
    assert_eq!(note.status(), StatusCode::ACCEPTED);

    let del = client()
        .delete(&url)
        .header("mcp-session-id", &sid)
        .send()
        .await
        .unwrap();
    assert_eq!(del.status(), StatusCode::OK);
    assert_eq!(
        legacy(&url, &sid, list).await.status(),
        StatusCode::NOT_FOUND,
        "ended session"
    );
    let del = client()
        .delete(&url)
        .header("mcp-session-id", &sid)
        .send()
        .await
        .unwrap();
    assert_eq!(del.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn unsupported_protocol_version_header_is_400() {
    let url = serve(&server()).await;
    let sid = initialize(&url, json!({})).await;
    let resp = client()
        .post(&url)
        .header("accept", ACCEPT)
        .header("mcp-session-id", &sid)
        .header("mcp-protocol-version", "1999-01-01")
        .body(json!({"jsonrpc":"2.0","id":1,"method":"ping"}).to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::BAD_REQUEST);
    // No header at all means 2025-03-26: accepted.
    let resp = client()
        .post(&url)
        .header("accept", ACCEPT)
        .header("mcp-session-id", &sid)
        .body(json!({"jsonrpc":"2.0","id":2,"method":"ping"}).to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
}

#[tokio::test]
async fn sse_is_primed_and_resumable_with_last_event_id() {
    let url = serve(&server()).await;
    let sid = initialize(&url, json!({})).await;
    let call = json!({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"slow","arguments":{},"_meta":{"progressToken":"p"}}});
    let resp = legacy(&url, &sid, call).await;
    assert_eq!(resp.status(), StatusCode::OK);
    let mut events = Events::new(resp);
    let priming = events.next().await.unwrap();
    let primed_id = priming.id.clone().unwrap();
    let parts: Vec<&str> = primed_id.split('-').collect();
    assert_eq!(parts.len(), 3, "stream-position-unique: {primed_id}");
    assert_eq!(parts[1], "0", "resumes from the start: {primed_id}");
    assert_eq!(priming.retry.as_deref(), Some("250"));
    assert!(priming.data.is_empty());
    let first = events.next().await.unwrap();
    assert_eq!(first.json()["method"], "notifications/progress");
    assert_eq!(first.json()["params"]["progressToken"], "p");
    let first_id = first.id.clone().unwrap();
    drop(events); // the connection breaks; the call goes on

    let resp = client()
        .get(&url)
        .header("accept", "text/event-stream")
        .header("mcp-session-id", &sid)
        .header("last-event-id", &first_id)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let mut events = Events::new(resp);
    let mut ids = vec![primed_id.clone(), first_id.clone()];
    let mut rest = Vec::new();
    while let Some(ev) = events.next().await {
        let id = ev.id.clone().expect("every event has an id");
        assert!(!ids.contains(&id), "event id {id} reused; seen {ids:?}");
        ids.push(id);
        if !ev.data.is_empty() {
            rest.push(ev.json());
        }
    }
    // The resumed stream is primed again, with a fresh id that still resumes after `first_id`.
    let reprimed = &ids[2];
    assert!(
        reprimed.starts_with(&format!("{first_id}-")),
        "{reprimed} resumes after {first_id}"
    );
    let methods: Vec<&str> = rest
        .iter()
        .map(|m| m["method"].as_str().unwrap_or("response"))
        .collect();
    assert_eq!(
        methods,
        [
            "notifications/progress",
            "notifications/progress",
            "response"
        ],
        "{rest:?}"
    );
    assert_eq!(rest[2]["id"], 7);
    assert_eq!(rest[2]["result"]["content"][0]["text"], "done");
}

#[tokio::test]
async fn server_closes_the_stream_and_the_client_resumes() {
    let url = serve(&server()).await;
    let sid = initialize(&url, json!({})).await;
    let call = json!({"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"reconnecting","arguments":{}}});
    let mut events = Events::new(legacy(&url, &sid, call).await);
    let priming = events.next().await.unwrap();
    assert!(priming.data.is_empty());
    assert!(
        events.next().await.is_none(),
        "the server closed the connection"
    );
    let resp = client()
        .get(&url)
        .header("accept", "text/event-stream")
        .header("mcp-session-id", &sid)
        .header("last-event-id", priming.id.unwrap())
        .send()
        .await
        .unwrap();
    let mut events = Events::new(resp);
    assert!(events.next().await.unwrap().data.is_empty(), "primed again");
    let done = events.next().await.unwrap().json();
    assert_eq!(done["id"], 8);
    assert_eq!(done["result"]["content"][0]["text"], "after reconnection");
}

#[tokio::test]
async fn quick_replies_are_plain_json_and_get_stream_carries_server_messages() {
    let server = server();
    let url = serve(&server).await;
    let sid = initialize(&url, json!({})).await;
    let resp = legacy(
        &url,
        &sid,
        json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"quick"}}),
    )
    .await;
    assert_eq!(resp.headers()["content-type"], "application/json");
    assert_eq!(
        resp.json_body().await["result"]["content"][0]["text"],
        "quick"
    );

    let resp = client()
        .get(&url)
        .header("accept", "text/event-stream")
        .header("mcp-session-id", &sid)
        .send()
        .await
        .unwrap();
    let mut events = Events::new(resp);
    let priming = events.next().await.unwrap();
    assert!(priming.id.unwrap().starts_with("0-"));
    server.add_tool(late::TOOL).unwrap();
    let ev = events.next().await.unwrap();
    assert_eq!(ev.json()["method"], "notifications/tools/list_changed");
    assert_eq!(ev.id.as_deref(), Some("0-1"));
}

#[tokio::test]
async fn stateless_validation_order_and_status_mapping() {
    let url = serve(&server()).await;
    let post = |headers: Vec<(&'static str, &'static str)>, body: Value| {
        let url = url.clone();
        async move {
            let mut req = client().post(&url).header("accept", ACCEPT);
            for (k, v) in headers {
                req = req.header(k, v);
            }
            let resp = req.body(body.to_string()).send().await.unwrap();
            let status = resp.status();
            (status, resp.json_body().await)
        }
    };
    let call = |meta_version: &str| {
        json!({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"quick","arguments":{},"_meta":{
            "io.modelcontextprotocol/protocolVersion": meta_version,
            "io.modelcontextprotocol/clientCapabilities": {}}}})
    };
    // 1. No version header.
    let (s, b) = post(
        vec![("mcp-method", "tools/call"), ("mcp-name", "quick")],
        call("2026-07-28"),
    )
    .await;
    assert_eq!(
        (s, b["error"]["code"].as_i64()),
        (StatusCode::BAD_REQUEST, Some(-32020))
    );
    assert_eq!(b["id"], 5);
    // 2. No `_meta`.
    let (s, b) = post(
        vec![
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/list"),
        ],
        json!({"jsonrpc":"2.0","id":1,"method":"tools/list"}),
    )
    .await;
    assert_eq!(
        (s, b["error"]["code"].as_i64()),
        (StatusCode::BAD_REQUEST, Some(-32602))
    );
    // 3. Header and body disagree.
    let (s, b) = post(
        vec![
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/call"),
            ("mcp-name", "quick"),
        ],
        call("2099-01-01"),
    )
    .await;
    assert_eq!(
        (s, b["error"]["code"].as_i64()),
        (StatusCode::BAD_REQUEST, Some(-32020))
    );
    // 4. Unsupported revision.
    let (s, b) = post(
        vec![
            ("mcp-protocol-version", "2099-01-01"),
            ("mcp-method", "tools/call"),
            ("mcp-name", "quick"),
        ],
        call("2099-01-01"),
    )
    .await;
    assert_eq!(
        (s, b["error"]["code"].as_i64()),
        (StatusCode::BAD_REQUEST, Some(-32022))
    );
    assert_eq!(b["error"]["data"]["supported"], json!(["2026-07-28"]));
    assert_eq!(b["error"]["data"]["requested"], "2099-01-01");
    // 5. Standard headers: method (case-sensitive), name (required, Base64 allowed, trimmed names).
    let v = ("mcp-protocol-version", "2026-07-28");
    let (s, b) = post(
        vec![v, ("mcp-method", "TOOLS/CALL"), ("mcp-name", "quick")],
        call("2026-07-28"),
    )
    .await;
    assert_eq!(
        (s, b["error"]["code"].as_i64()),
        (StatusCode::BAD_REQUEST, Some(-32020))
    );
    let (s, b) = post(vec![v, ("mcp-method", "tools/call")], call("2026-07-28")).await;
    assert_eq!(
        (s, b["error"]["code"].as_i64()),
        (StatusCode::BAD_REQUEST, Some(-32020))
    );
    let (s, b) = post(
        vec![
            v,
            ("MCP-METHOD", " tools/call "),
            ("Mcp-Name", "=?base64?cXVpY2s=?="),
        ],
        call("2026-07-28"),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["result"]["content"][0]["text"], "quick");
    assert_eq!(b["result"]["resultType"], "complete");
    // 6. Unknown and removed methods: 404.
    let ping = json!({"jsonrpc":"2.0","id":2,"method":"ping","params":{"_meta":{
        "io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}});
    let (s, b) = post(vec![v, ("mcp-method", "ping")], ping).await;
    assert_eq!(
        (s, b["error"]["code"].as_i64()),
        (StatusCode::NOT_FOUND, Some(-32601))
    );
    let init = json!({"jsonrpc":"2.0","id":4,"method":"initialize","params":{"_meta":{
        "io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}});
    let (s, b) = post(vec![v, ("mcp-method", "initialize")], init).await;
    assert_eq!(
        (s, b["error"]["code"].as_i64()),
        (StatusCode::NOT_FOUND, Some(-32601)),
        "initialize was removed"
    );
    // Bad params: 400.
    let resp = modern(&url, 3, "tools/call", json!({"name": "nope"}), json!({})).await;
    assert_eq!(resp.status(), StatusCode::BAD_REQUEST);
    // GET and DELETE without a session: 405.
    assert_eq!(
        client()
            .get(&url)
            .header("accept", "text/event-stream")
            .send()
            .await
            .unwrap()
            .status(),
        StatusCode::METHOD_NOT_ALLOWED
    );
    assert_eq!(
        client().delete(&url).send().await.unwrap().status(),
        StatusCode::METHOD_NOT_ALLOWED
    );
    // Neither a session nor a version: 400.
    let (s, _) = post(
        vec![],
        json!({"jsonrpc":"2.0","id":9,"method":"tools/list"}),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn custom_headers_from_x_mcp_header() {
    let url = serve(&server()).await;
    let send = |region: Option<&'static str>| {
        let url = url.clone();
        async move {
            let body = json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"regional",
                "arguments":{"region":"us-west1","query":"q"},"_meta":meta(json!({}))}});
            let mut req = client()
                .post(&url)
                .header("accept", ACCEPT)
                .header("mcp-protocol-version", "2026-07-28")
                .header("mcp-method", "tools/call")
                .header("mcp-name", "regional");
            if let Some(r) = region {
                req = req.header("Mcp-Param-Region", r);
            }
            let resp = req.body(body.to_string()).send().await.unwrap();
            (resp.status(), resp.json_body().await)
        }
    };
    let (s, b) = send(Some("us-west1")).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["result"]["content"][0]["text"], "us-west1: q");
    assert_eq!(
        send(Some("=?base64?dXMtd2VzdDE=?=")).await.0,
        StatusCode::OK
    );
    for bad in [None, Some("eu-north1"), Some("=?base64?dXMtd2VzdDE?=")] {
        let (s, b) = send(bad).await;
        assert_eq!(
            (s, b["error"]["code"].as_i64()),
            (StatusCode::BAD_REQUEST, Some(-32020)),
            "{bad:?}"
        );
    }
}

#[tokio::test]
async fn host_and_origin_are_checked_and_bodies_limited() {
    let url = serve(&server()).await;
    let init = json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{
        "protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}});
    let resp = client()
        .post(&url)
        .header("accept", ACCEPT)
        .header("origin", "http://evil.example")
        .body(init.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::FORBIDDEN);
    let resp = client()
        .post(&url)
        .header("accept", ACCEPT)
        .header("host", "evil.example")
        .body(init.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::FORBIDDEN);
    let resp = client()
        .post(&url)
        .header("accept", ACCEPT)
        .header("origin", "http://localhost:3000")
        .body(init.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let big = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{"pad":"{}"}}}}"#,
        "x".repeat(70 * 1024)
    );
    let resp = client()
        .post(&url)
        .header("accept", ACCEPT)
        .body(big)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let resp = client()
        .post(&url)
        .header("accept", ACCEPT)
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::BAD_REQUEST);
}

// ----- one handler body, both eras -----

#[tokio::test]
async fn elicit_in_the_handshake_era_over_memory() {
    let server = server();
    let mut client = server.connect_in_memory();
    client
        .request(
            "initialize",
            json!({"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"t","version":"0"}}),
        )
        .await;
    client
        .notify("notifications/initialized", Value::Null)
        .await;
    client.send(&json!({"jsonrpc":"2.0","id":"call","method":"tools/call","params":{"name":"greet","arguments":{}}})).await;
    let ask = client.recv().await.unwrap();
    assert_eq!(ask["method"], "elicitation/create");
    assert_eq!(ask["params"]["message"], "What is your name?");
    assert_eq!(
        ask["params"]["requestedSchema"]["properties"]["name"]["type"],
        "string"
    );
    client.send(&json!({"jsonrpc":"2.0","id":ask["id"],"result":{"action":"accept","content":{"name":"Ada"}}})).await;
    let done = client.response(&json!("call")).await;
    assert_eq!(done["result"]["content"][0]["text"], "Hello, Ada!");

    // Without the capability: -32021 naming it.
    let mut bare = server.connect_in_memory();
    bare.initialize("2025-11-25").await;
    let r = bare.call_tool("greet", json!({})).await;
    assert_eq!(r["error"]["code"], -32021);
    assert_eq!(
        r["error"]["data"]["requiredCapabilities"],
        json!({"elicitation": {}})
    );
}

#[tokio::test]
async fn elicit_in_the_handshake_era_over_http() {
    let url = serve(&server()).await;
    let sid = initialize(&url, json!({"elicitation": {}})).await;
    let resp = legacy(&url, &sid, json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"greet","arguments":{}}})).await;
    let mut events = Events::new(resp);
    assert!(events.next().await.unwrap().data.is_empty(), "priming");
    let ask = events.next().await.unwrap().json();
    assert_eq!(ask["method"], "elicitation/create");
    let answer = json!({"jsonrpc":"2.0","id":ask["id"],"result":{"action":"accept","content":{"name":"Grace"}}});
    assert_eq!(
        legacy(&url, &sid, answer).await.status(),
        StatusCode::ACCEPTED
    );
    let done = events.next().await.unwrap().json();
    assert_eq!(done["id"], 1);
    assert_eq!(done["result"]["content"][0]["text"], "Hello, Grace!");
    assert!(
        events.next().await.is_none(),
        "the stream ends with the response"
    );
}

fn stateless_call(id: i64, name: &str, extra: Value) -> Value {
    let mut params = json!({"name": name, "arguments": {}, "_meta": meta(json!({"elicitation": {}, "roots": {}}))});
    for (k, v) in extra.as_object().unwrap() {
        params[k] = v.clone();
    }
    json!({"jsonrpc":"2.0","id":id,"method":"tools/call","params":params})
}

#[tokio::test]
async fn elicit_in_the_stateless_era_with_input_required_rounds() {
    let server = server();
    let mut client = server.connect_in_memory();
    client.send(&stateless_call(1, "greet", json!({}))).await;
    let r = client.response(&json!(1)).await;
    assert_eq!(r["result"]["resultType"], "input_required", "{r}");
    let ask = &r["result"]["inputRequests"]["elicit-0"];
    assert_eq!(ask["method"], "elicitation/create");
    assert_eq!(ask["params"]["message"], "What is your name?");
    assert!(r["result"].get("ttlMs").is_none());

    let state = &r["result"]["requestState"];
    let answer = json!({"inputResponses": {"elicit-0": {"action": "accept", "content": {"name": "Ada"}}}, "requestState": state});
    client.send(&stateless_call(2, "greet", answer)).await;
    let r = client.response(&json!(2)).await;
    assert_eq!(r["result"]["content"][0]["text"], "Hello, Ada!", "{r}");
    assert_eq!(r["result"]["resultType"], "complete");

    // Two rounds: the first answer travels in the sealed requestState.
    client
        .send(&stateless_call(3, "two_steps", json!({})))
        .await;
    let r = client.response(&json!(3)).await;
    assert!(r["result"]["inputRequests"].get("elicit-0").is_some());
    let state = &r["result"]["requestState"];
    let first = json!({"inputResponses": {"elicit-0": {"action": "accept", "content": {"name": "Ada"}}}, "requestState": state});
    client.send(&stateless_call(4, "two_steps", first)).await;
    let r = client.response(&json!(4)).await;
    assert_eq!(r["result"]["resultType"], "input_required");
    assert!(r["result"]["inputRequests"].get("second").is_some(), "{r}");
    let state = r["result"]["requestState"].as_str().unwrap().to_owned();
    let second = json!({"requestState": state, "inputResponses": {"second": {"action": "accept", "content": {"name": "Grace"}}}});
    client.send(&stateless_call(5, "two_steps", second)).await;
    let r = client.response(&json!(5)).await;
    assert_eq!(r["result"]["content"][0]["text"], "Ada and Grace", "{r}");

    // Tampered state: -32602.
    let mut forged = state.into_bytes();
    forged[3] = if forged[3] == b'A' { b'B' } else { b'A' };
    let forged = String::from_utf8(forged).unwrap();
    let bad = json!({"requestState": forged, "inputResponses": {"second": {"action": "accept", "content": {"name": "Eve"}}}});
    client.send(&stateless_call(6, "two_steps", bad)).await;
    assert_eq!(client.response(&json!(6)).await["error"]["code"], -32602);

    // A malformed answer is a protocol error.
    client
        .send(&stateless_call(
            7,
            "greet",
            json!({"inputResponses": {"elicit-0": {"action": "maybe"}}}),
        ))
        .await;
    assert_eq!(client.response(&json!(7)).await["error"]["code"], -32602);
}

#[tokio::test]
async fn stateless_interactions_over_http() {
    let url = serve(&server()).await;
    let resp = modern(
        &url,
        1,
        "tools/call",
        json!({"name": "count_roots", "arguments": {}}),
        json!({"roots": {}}),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::OK);
    let r = resp.json_body().await;
    assert_eq!(
        r["result"]["inputRequests"]["roots-0"]["method"],
        "roots/list"
    );
    let state = &r["result"]["requestState"];
    let params = json!({"name": "count_roots", "arguments": {}, "requestState": state, "inputResponses": {"roots-0": {"roots": [{"uri": "file:///a"}, {"uri": "file:///b"}]}}});
    let r = modern(&url, 2, "tools/call", params, json!({"roots": {}}))
        .await
        .json_body()
        .await;
    assert_eq!(r["result"]["content"][0]["text"], "2 root(s)");
    // Capability not declared: 400 with -32021.
    let resp = modern(
        &url,
        3,
        "tools/call",
        json!({"name": "count_roots", "arguments": {}}),
        json!({}),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::BAD_REQUEST);
    let r = resp.json_body().await;
    assert_eq!(r["error"]["code"], -32021);
    assert_eq!(
        r["error"]["data"]["requiredCapabilities"],
        json!({"roots": {}})
    );
}

#[tokio::test]
async fn stateless_requests_with_one_id_run_side_by_side_and_one_after_another() {
    let url = serve(&server()).await;
    // The same id at once: a connection left idle by one request serves a later one, never
    // two at a time (the id would be a duplicate in its flights).
    let slow = json!({"name": "slow", "arguments": {}});
    let calls = (0..8).map(|_| modern(&url, 7, "tools/call", slow.clone(), json!({})));
    for resp in futures_util::future::join_all(calls).await {
        assert_eq!(resp.status(), StatusCode::OK);
        let r = resp.json_body().await;
        assert_eq!(r["id"], 7);
        assert_eq!(r["result"]["content"][0]["text"], "done", "{r}");
    }
    for round in 0..3 {
        let quick = json!({"name": "quick", "arguments": {}});
        let r = modern(&url, 7, "tools/call", quick, json!({}))
            .await
            .json_body()
            .await;
        assert_eq!(
            r["result"]["content"][0]["text"], "quick",
            "round {round}: {r}"
        );
        assert_eq!(r["result"]["resultType"], "complete");
    }
}

// ----- subscriptions and list changes -----

#[tokio::test]
async fn handshake_resource_subscriptions_and_list_changed() {
    let server = server();
    let mut client = server.connect_in_memory();
    let init = client.initialize("2025-11-25").await;
    assert_eq!(
        init["result"]["capabilities"]["resources"]["subscribe"],
        true
    );
    let r = client
        .request("resources/subscribe", json!({"uri": "test://watched"}))
        .await;
    assert_eq!(r["result"], json!({}));
    server.notify_resource_updated("test://other");
    server.notify_resource_updated("test://watched");
    let n = client.recv().await.unwrap();
    assert_eq!(n["method"], "notifications/resources/updated");
    assert_eq!(n["params"]["uri"], "test://watched");

    server.add_tool(late::TOOL).unwrap();
    assert_eq!(
        client.recv().await.unwrap()["method"],
        "notifications/tools/list_changed"
    );
    let tools = client.request("tools/list", Value::Null).await;
    assert!(
        tools["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"] == "late")
    );
    assert!(server.remove_tool("late"));
    assert_eq!(
        client.recv().await.unwrap()["method"],
        "notifications/tools/list_changed"
    );
    let r = client.call_tool("late", json!({})).await;
    assert_eq!(r["error"]["code"], -32602, "removed");

    client
        .request("resources/unsubscribe", json!({"uri": "test://watched"}))
        .await;
    server.notify_resource_updated("test://watched");
    server.notify_list_changed(mcp_runtime::ListChanged::Prompts);
    assert_eq!(
        client.recv().await.unwrap()["method"],
        "notifications/prompts/list_changed",
        "no update after unsubscribe"
    );
}

#[tokio::test]
async fn stateless_listen_over_memory_until_cancelled() {
    let server = server();
    let mut client = server.connect_in_memory();
    let listen = json!({"jsonrpc":"2.0","id":"sub","method":"subscriptions/listen","params":{
        "notifications":{"toolsListChanged":true,"promptsListChanged":true,"resourceSubscriptions":["test://watched"]},
        "_meta": meta(json!({}))}});
    client.send(&listen).await;
    let ack = client.recv().await.unwrap();
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    assert_eq!(
        ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "sub"
    );
    assert_eq!(ack["params"]["notifications"]["toolsListChanged"], true);
    assert!(
        ack["params"]["notifications"]
            .get("promptsListChanged")
            .is_none(),
        "no prompts here"
    );
    server.add_tool(late::TOOL).unwrap();
    let n = client.recv().await.unwrap();
    assert_eq!(n["method"], "notifications/tools/list_changed");
    assert_eq!(
        n["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "sub"
    );
    server.notify_resource_updated("test://watched");
    let n = client.recv().await.unwrap();
    assert_eq!(n["params"]["uri"], "test://watched");
    client
        .notify("notifications/cancelled", json!({"requestId": "sub"}))
        .await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    server.notify_resource_updated("test://watched");
    let r = client.stateless("tools/list", Value::Null).await;
    assert!(
        r["result"]["tools"].is_array(),
        "nothing else arrived first: {r}"
    );
    assert!(client.notifications().is_empty());
}

#[tokio::test]
async fn stateless_listen_over_http_streams_until_closed() {
    let server = server();
    let url = serve(&server).await;
    let params = json!({"notifications": {"toolsListChanged": true}});
    let resp = modern(&url, 42, "subscriptions/listen", params, json!({})).await;
    assert_eq!(resp.status(), StatusCode::OK);
    let mut events = Events::new(resp);
    let ack = events.next().await.unwrap().json();
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    assert_eq!(
        ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        42
    );
    server.add_tool(late::TOOL).unwrap();
    let n = events.next().await.unwrap().json();
    assert_eq!(n["method"], "notifications/tools/list_changed");
    assert_eq!(
        n["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        42
    );
    drop(events);
    tokio::time::sleep(Duration::from_millis(50)).await;
    server.notify_list_changed(mcp_runtime::ListChanged::Tools); // no listener left: nothing breaks
}

#[cfg(feature = "legacy-sse")]
#[tokio::test]
async fn legacy_http_sse_transport() {
    let url = serve(&server()).await;
    let base = url.trim_end_matches("/mcp").to_owned();
    let resp = client()
        .get(format!("{base}/sse"))
        .header("accept", "text/event-stream")
        .send()
        .await
        .unwrap();
    let mut events = Events::new(resp);
    let endpoint = events.next().await.unwrap().data;
    assert!(endpoint.starts_with("/messages?sessionId="), "{endpoint}");
    let init = json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{
        "protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"old","version":"0"}}});
    let resp = client()
        .post(format!("{base}{endpoint}"))
        .body(init.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::ACCEPTED);
    let reply = events.next().await.unwrap().json();
    assert_eq!(reply["result"]["protocolVersion"], "2024-11-05");
    // JSON text is UTF-8: a body that is not is a parse error on the stream, not a guess.
    let mut body = br#"{"jsonrpc":"2.0","id":"#.to_vec();
    body.extend_from_slice(b"\"\xed\xa0\x80\",\"method\":\"ping\"}");
    let resp = client()
        .post(format!("{base}{endpoint}"))
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::ACCEPTED);
    assert_eq!(
        events.next().await.unwrap().json(),
        json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700,
            "message": "Parse error: the message is not valid UTF-8 (byte 23)"}})
    );
    let resp = client()
        .post(format!("{base}/messages?sessionId=nope"))
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::NOT_FOUND);
}
