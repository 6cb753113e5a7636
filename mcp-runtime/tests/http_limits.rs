//! Availability of the standalone HTTP server under hostile clients: connections held open
//! (idle, slowloris, stalled bodies) cannot lock a normal client out, stalled connections are
//! closed within the configured timeouts, a full server refuses clearly, and abandoned sessions
//! cannot exhaust the session table.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_runtime::http::HttpOptions;
use mcp_runtime::prelude::*;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::Semaphore;

/// Answers at once.
#[tool]
async fn quick() -> String {
    "quick".into()
}

/// Holds calls until the test lets them go.
struct Gate(Arc<Semaphore>);

/// Waits for the gate.
#[tool]
async fn held(gate: State<Gate>) -> String {
    if let Ok(permit) = gate.0.acquire().await {
        permit.forget();
    }
    "released".into()
}

const ACCEPT: &str = "application/json, text/event-stream";

fn server(options: HttpOptions) -> (Server, Arc<Semaphore>) {
    let gate = Arc::new(Semaphore::new(0));
    let server = Server::builder(server_info!())
        .tool(quick::TOOL)
        .tool(held::TOOL)
        .state(Gate(Arc::clone(&gate)))
        .http(options)
        .build()
        .unwrap();
    (server, gate)
}

/// Serves on 127.0.0.1:0; returns the address.
async fn serve(server: &Server) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = server.clone();
    tokio::spawn(async move { server.serve_http_on(listener).await });
    addr
}

fn init_body() -> String {
    json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{
        "protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}})
    .to_string()
}

/// `initialize`; returns the session id.
async fn initialize(client: &reqwest::Client, url: &str) -> String {
    let resp = client
        .post(url)
        .header("accept", ACCEPT)
        .header("content-type", "application/json")
        .body(init_body())
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    let sid = resp.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    // Read to the end, so that the connection goes back to the client's pool.
    let body: Value = serde_json::from_slice(&resp.bytes().await.unwrap()).unwrap();
    assert_eq!(body["result"]["protocolVersion"], "2025-11-25");
    sid
}

/// A request in a session: (status, body).
async fn call(client: &reqwest::Client, url: &str, sid: &str, body: Value) -> (u16, Value) {
    let resp = client
        .post(url)
        .header("accept", ACCEPT)
        .header("content-type", "application/json")
        .header("mcp-session-id", sid)
        .header("mcp-protocol-version", "2025-11-25")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    let status = resp.status().as_u16();
    let text = resp.text().await.unwrap();
    let json = text
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("data: ").filter(|d| !d.is_empty()))
        .map_or_else(|| serde_json::from_str(&text), serde_json::from_str)
        .unwrap_or(Value::Null);
    (status, json)
}

fn tools_call(id: i64, name: &str) -> Value {
    json!({"jsonrpc":"2.0","id":id,"method":"tools/call","params":{"name":name,"arguments":{}}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn attackers_holding_every_connection_do_not_lock_a_client_out() {
    let timeout = Duration::from_millis(400);
    let (server, _gate) = server(
        HttpOptions::new()
            .max_connections(8)
            .header_read_timeout(timeout)
            .body_read_timeout(timeout)
            .idle_timeout(timeout),
    );
    let addr = serve(&server).await;
    let started = Instant::now();
    let mut attackers: Vec<(&str, TcpStream)> = Vec::new();
    for _ in 0..2 {
        attackers.push(("idle", TcpStream::connect(addr).await.unwrap()));
    }
    for _ in 0..2 {
        let mut tcp = TcpStream::connect(addr).await.unwrap();
        tcp.write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a")
            .await
            .unwrap();
        attackers.push(("slowloris", tcp));
    }
    for _ in 0..2 {
        let mut tcp = TcpStream::connect(addr).await.unwrap();
        tcp.write_all(
            b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"a\":\r\n",
        )
        .await
        .unwrap();
        attackers.push(("endless chunked body", tcp));
    }
    for _ in 0..2 {
        let mut tcp = TcpStream::connect(addr).await.unwrap();
        tcp.write_all(
            b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\"",
        )
        .await
        .unwrap();
        attackers.push(("short body", tcp));
    }
    // Slowloris keeps sending, one byte a second.
    let watchers: Vec<_> = attackers
        .into_iter()
        .map(|(kind, tcp)| {
            let (mut read, mut write) = tcp.into_split();
            if kind == "slowloris" {
                tokio::spawn(async move {
                    loop {
                        tokio::time::sleep(Duration::from_secs(1)).await;
                        if write.write_all(b"x").await.is_err() {
                            break;
                        }
                    }
                });
            } else {
                std::mem::forget(write);
            }
            tokio::spawn(async move {
                let mut bytes = Vec::new();
                let mut buf = [0u8; 4096];
                let read_all = async {
                    loop {
                        match read.read(&mut buf).await {
                            Ok(0) | Err(_) => break,
                            Ok(n) => bytes.extend_from_slice(&buf[..n]),
                        }
                    }
                };
                let closed = tokio::time::timeout(timeout * 10, read_all).await.is_ok();
                (kind, closed, started.elapsed(), bytes)
            })
        })
        .collect();

    // The eight connections are taken; a normal client still gets its call through at once.
    let client = reqwest::Client::new();
    let url = format!("http://{addr}/mcp");
    let t = Instant::now();
    let sid = initialize(&client, &url).await;
    let (status, reply) = call(&client, &url, &sid, tools_call(1, "quick")).await;
    let took = t.elapsed();
    assert_eq!(status, 200);
    assert_eq!(reply["result"]["content"][0]["text"], "quick", "{reply}");
    assert!(took < Duration::from_secs(1), "the call took {took:?}");

    // Every attacker is closed within ten times its timeout; stalled bodies are told why.
    for watcher in watchers {
        let (kind, closed, after, bytes) = watcher.await.unwrap();
        assert!(closed, "{kind} still open after {after:?}");
        let text = String::from_utf8_lossy(&bytes);
        match kind {
            "endless chunked body" | "short body" => {
                assert!(text.starts_with("HTTP/1.1 408 "), "{kind}: {text}");
                assert!(text.contains("\"code\":-32000"), "{kind}: {text}");
                assert!(text.contains("Request Timeout"), "{kind}: {text}");
            }
            _ => assert!(
                bytes.is_empty() || text.starts_with("HTTP/1.1 "),
                "{kind}: {text}"
            ),
        }
    }
}

/// Sends a raw request and reads the whole answer (the server closes the connection).
async fn raw(addr: SocketAddr, request: &str) -> String {
    let mut tcp = TcpStream::connect(addr).await.unwrap();
    tcp.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), tcp.read_to_end(&mut answer))
        .await
        .expect("the server closes the connection")
        .unwrap();
    String::from_utf8(answer).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_whose_connections_all_serve_requests_refuses_with_503() {
    let (server, gate) = server(
        HttpOptions::new()
            .max_connections(2)
            .stream_after(Duration::from_millis(20)),
    );
    let addr = serve(&server).await;
    let url = format!("http://{addr}/mcp");
    let client = reqwest::Client::new();
    let sid = initialize(&client, &url).await;
    // Two held calls on two connections: both turn into SSE streams while they wait.
    let mut calls = Vec::new();
    for id in 1..=2 {
        let resp = reqwest::Client::new()
            .post(&url)
            .header("accept", ACCEPT)
            .header("content-type", "application/json")
            .header("mcp-session-id", &sid)
            .header("mcp-protocol-version", "2025-11-25")
            .body(tools_call(id, "held").to_string())
            .send()
            .await
            .unwrap();
        assert_eq!(resp.headers()["content-type"], "text/event-stream");
        calls.push(resp);
    }
    let refused = raw(
        addr,
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
    )
    .await;
    let (head, body) = refused.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 503 "), "{refused}");
    let head = head.to_ascii_lowercase();
    assert!(head.contains("\r\nretry-after: 1\r\n"), "{head}");
    assert!(head.contains("\r\nconnection: close\r\n"), "{head}");
    assert_eq!(
        serde_json::from_str::<Value>(body).unwrap(),
        json!({"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Service Unavailable: too many connections"}})
    );
    // Liveness still answers on a refused connection.
    let live = raw(addr, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").await;
    assert!(live.starts_with("HTTP/1.1 200 "), "{live}");
    assert!(live.ends_with("\r\n\r\n{\"status\":\"ok\"}"), "{live}");
    // Released, both calls complete.
    gate.add_permits(2);
    for resp in calls {
        let text = resp.text().await.unwrap();
        assert!(text.contains(r#""text":"released""#), "{text}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_longest_stalled_connection_makes_room_and_busy_ones_stay() {
    let long = Duration::from_secs(60);
    let (server, gate) = server(
        HttpOptions::new()
            .max_connections(3)
            .idle_timeout(long)
            .header_read_timeout(long)
            .stream_after(Duration::from_millis(20)),
    );
    let addr = serve(&server).await;
    let url = format!("http://{addr}/mcp");
    // One connection: the session's `initialize`, then a call that stays in flight.
    let first = reqwest::Client::new();
    let sid = initialize(&first, &url).await;
    let busy = first
        .post(&url)
        .header("accept", ACCEPT)
        .header("content-type", "application/json")
        .header("mcp-session-id", &sid)
        .header("mcp-protocol-version", "2025-11-25")
        .body(tools_call(1, "held").to_string())
        .send()
        .await
        .unwrap();
    let mut oldest = TcpStream::connect(addr).await.unwrap();
    let mut newer = TcpStream::connect(addr).await.unwrap();
    newer.write_all(b"GET /mcp HTTP/1.1\r\n").await.unwrap();
    // A fourth connection: the oldest idle one goes, the busy call and the newer one stay.
    let client = reqwest::Client::new();
    let (status, reply) = call(&client, &url, &sid, tools_call(2, "quick")).await;
    assert_eq!(
        (status, &reply["result"]["content"][0]["text"]),
        (200, &json!("quick"))
    );
    let mut buf = [0u8; 16];
    let closed = tokio::time::timeout(Duration::from_secs(10), oldest.read(&mut buf)).await;
    assert!(
        matches!(closed, Ok(Ok(0) | Err(_))),
        "the oldest idle connection is closed"
    );
    let open = tokio::time::timeout(Duration::from_millis(200), newer.read(&mut buf)).await;
    assert!(open.is_err(), "the newer connection stays open");
    gate.add_permits(1);
    let text = busy.text().await.unwrap();
    assert!(text.contains(r#""text":"released""#), "{text}");
}

/// Opens `n` sessions that are never used again (four clients at a time); every `initialize`
/// succeeds.
async fn abandon_sessions(url: &str, n: usize) {
    let mut workers = tokio::task::JoinSet::new();
    for w in 0..4 {
        let url = url.to_owned();
        workers.spawn(async move {
            let client = reqwest::Client::new();
            for _ in (w..n).step_by(4) {
                initialize(&client, &url).await;
            }
        });
    }
    while let Some(done) = workers.join_next().await {
        done.unwrap();
    }
}

/// The flood of abandoned sessions, then: a new client initializes at once and works, the
/// evicted first session gets 404 (-32001), and a recent one still works.
async fn flood_then_check(max: usize, abandoned: usize) {
    let (server, _) = server(HttpOptions::new().session_limits(max, Duration::from_secs(600)));
    let url = format!("http://{}/mcp", serve(&server).await);
    let client = reqwest::Client::new();
    let first = initialize(&client, &url).await;
    abandon_sessions(&url, abandoned).await;
    let recent = initialize(&client, &url).await;

    let t = Instant::now();
    let fresh = initialize(&client, &url).await;
    let took = t.elapsed();
    assert!(took < Duration::from_secs(1), "initialize took {took:?}");
    let (status, reply) = call(&client, &url, &fresh, tools_call(1, "quick")).await;
    assert_eq!(status, 200);
    assert_eq!(reply["result"]["content"][0]["text"], "quick");

    let ping = json!({"jsonrpc":"2.0","id":2,"method":"ping"});
    let (status, reply) = call(&client, &url, &first, ping.clone()).await;
    assert_eq!(status, 404, "the least recently used session was evicted");
    assert_eq!(reply["error"]["code"], -32001, "{reply}");
    assert_eq!(reply["id"], 2);
    let (status, reply) = call(&client, &url, &recent, ping).await;
    assert_eq!((status, &reply["result"]), (200, &json!({})));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_thousand_abandoned_sessions_do_not_lock_out_a_new_client() {
    flood_then_check(50, 10_000).await;
}

/// The same with the default table of 10 000 sessions (the slowest test here: 10 000 handshakes).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_default_session_table_evicts_instead_of_refusing() {
    flood_then_check(10_000, 10_000).await;
}
