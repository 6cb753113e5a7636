//! Health endpoints and graceful shutdown of the standalone HTTP server (on a
//! [`ShutdownHandle`]), and `serve_stdio_and_http` ending both transports when stdin closes.

use std::io::{BufRead, BufReader, Write};
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use mcp_runtime::http::HttpOptions;
use mcp_runtime::prelude::*;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::Semaphore;

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

/// Answers at once.
#[tool]
async fn quick() -> String {
    "quick".into()
}

const ACCEPT: &str = "application/json, text/event-stream";

fn server(drain: Duration) -> (Server, Arc<Semaphore>) {
    let gate = Arc::new(Semaphore::new(0));
    let server = Server::builder(server_info!())
        .tool(held::TOOL)
        .tool(quick::TOOL)
        .state(Gate(Arc::clone(&gate)))
        .drain_timeout(drain)
        .shutdown_on_signals(false)
        .http(HttpOptions::new().stream_after(Duration::from_millis(20)))
        .build()
        .unwrap();
    (server, gate)
}

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap()
}

async fn initialize(url: &str) -> String {
    let resp = client()
        .post(url)
        .header("accept", ACCEPT)
        .header("content-type", "application/json")
        .body(
            json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{
                "protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}})
            .to_string(),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    resp.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned()
}

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

/// A raw `GET path` on a new connection: (status line, body).
async fn probe(addr: SocketAddr, path: &str) -> (String, String) {
    let mut tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    tcp.write_all(
        format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").as_bytes(),
    )
    .await
    .unwrap();
    let mut answer = String::new();
    tokio::time::timeout(Duration::from_secs(10), tcp.read_to_string(&mut answer))
        .await
        .unwrap()
        .unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap();
    (head.lines().next().unwrap().to_owned(), body.to_owned())
}

/// Reads an SSE response to its end: the data of every event, and whether the stream ended
/// cleanly (the final chunk arrived).
async fn drain_sse(resp: reqwest::Response) -> (Vec<String>, bool) {
    let mut stream = resp.bytes_stream();
    let mut text = String::new();
    let clean = loop {
        match tokio::time::timeout(Duration::from_secs(10), stream.next()).await {
            Ok(Some(Ok(chunk))) => text.push_str(std::str::from_utf8(&chunk).unwrap()),
            Ok(Some(Err(_))) => break false,
            Ok(None) => break true,
            Err(_) => panic!("the stream did not end: {text}"),
        }
    };
    let data = text
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .filter(|d| !d.is_empty())
        .map(str::to_owned)
        .collect();
    (data, clean)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_endpoints_answer_and_readiness_fails_while_draining() {
    let (server, gate) = server(Duration::from_secs(30));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let url = format!("http://{addr}/mcp");
    let handle = server.shutdown_handle();
    let serving = tokio::spawn({
        let server = server.clone();
        async move { server.serve_http_on(listener).await }
    });
    let ok = r#"{"status":"ok"}"#;
    assert_eq!(
        probe(addr, "/healthz").await,
        ("HTTP/1.1 200 OK".into(), ok.into())
    );
    assert_eq!(
        probe(addr, "/readyz").await,
        ("HTTP/1.1 200 OK".into(), r#"{"status":"ready"}"#.into())
    );
    // Health endpoints skip the Host check (probes use the pod's address).
    let mut tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    tcp.write_all(b"GET /healthz HTTP/1.1\r\nHost: 10.1.2.3:8000\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut answer = String::new();
    tcp.read_to_string(&mut answer).await.unwrap();
    assert!(answer.starts_with("HTTP/1.1 200 OK\r\n"), "{answer}");

    let sid = initialize(&url).await;
    // A call in flight, and the session's GET stream.
    let call = post(
        &url,
        &sid,
        json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"held","arguments":{}}}),
    )
    .await;
    assert_eq!(call.headers()["content-type"], "text/event-stream");
    let get = client()
        .get(&url)
        .header("accept", "text/event-stream")
        .header("mcp-session-id", &sid)
        .send()
        .await
        .unwrap();
    assert_eq!(get.status(), 200);

    handle.shutdown();
    assert!(handle.is_shutting_down());
    // The GET stream (server messages only) ends cleanly.
    let (messages, clean) = drain_sse(get).await;
    assert!(clean, "the GET stream ends with its final chunk");
    assert!(messages.is_empty(), "{messages:?}");
    // Draining: not ready, still alive, new work refused.
    assert_eq!(
        probe(addr, "/readyz").await,
        (
            "HTTP/1.1 503 Service Unavailable".into(),
            r#"{"status":"draining"}"#.into()
        )
    );
    assert_eq!(probe(addr, "/healthz").await.0, "HTTP/1.1 200 OK");
    let refused = post(&url, &sid, json!({"jsonrpc":"2.0","id":2,"method":"ping"})).await;
    assert_eq!(refused.status(), 503);
    assert_eq!(refused.headers()["connection"], "close");
    let body: Value = serde_json::from_slice(&refused.bytes().await.unwrap()).unwrap();
    assert_eq!(
        body,
        json!({"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Service Unavailable: the server is shutting down"}})
    );
    // The held call keeps the server up: serving cannot have ended.
    assert!(!serving.is_finished());

    gate.add_permits(1);
    let (messages, clean) = drain_sse(call).await;
    assert!(clean);
    let reply: Value = serde_json::from_str(messages.last().unwrap()).unwrap();
    assert_eq!(reply["id"], 1);
    assert_eq!(reply["result"]["content"][0]["text"], "released");
    tokio::time::timeout(Duration::from_secs(10), serving)
        .await
        .expect("serving returns once the call is done")
        .unwrap()
        .unwrap();
    assert!(
        tokio::net::TcpStream::connect(addr).await.is_err(),
        "the listener is closed"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_drain_deadline_cuts_calls_that_do_not_finish() {
    let (server, _gate) = server(Duration::from_millis(200));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let serving = tokio::spawn({
        let server = server.clone();
        async move { server.serve_http_on(listener).await }
    });
    let sid = initialize(&url).await;
    let call = post(
        &url,
        &sid,
        json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"held","arguments":{}}}),
    )
    .await;
    let started = Instant::now();
    server.shutdown_handle().shutdown();
    tokio::time::timeout(Duration::from_secs(10), serving)
        .await
        .expect("serving returns after the drain deadline")
        .unwrap()
        .unwrap();
    assert!(
        started.elapsed() >= Duration::from_millis(200),
        "waited for the deadline"
    );
    let (messages, _) = drain_sse(call).await;
    assert!(
        messages.is_empty(),
        "no reply: the call was cut {messages:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn listen_streams_end_with_their_result_at_shutdown() {
    let (server, _gate) = server(Duration::from_secs(30));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let serving = tokio::spawn({
        let server = server.clone();
        async move { server.serve_http_on(listener).await }
    });
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "0"}
    });
    let resp = client()
        .post(&url)
        .header("accept", ACCEPT)
        .header("content-type", "application/json")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "subscriptions/listen")
        .body(
            json!({"jsonrpc":"2.0","id":9,"method":"subscriptions/listen",
                "params":{"notifications":{"toolsListChanged":true},"_meta":meta}})
            .to_string(),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(resp.headers()["content-type"], "text/event-stream");
    let mut stream = resp.bytes_stream();
    let first = tokio::time::timeout(Duration::from_secs(10), stream.next())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert!(
        std::str::from_utf8(&first)
            .unwrap()
            .contains("notifications/subscriptions/acknowledged")
    );
    server.shutdown_handle().shutdown();
    let mut text = String::new();
    while let Some(chunk) = tokio::time::timeout(Duration::from_secs(10), stream.next())
        .await
        .expect("the listen stream ends")
    {
        text.push_str(std::str::from_utf8(&chunk.unwrap()).unwrap());
    }
    let last = text
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("data: "))
        .unwrap();
    let reply: Value = serde_json::from_str(last).unwrap();
    assert_eq!(reply["id"], 9);
    assert_eq!(reply["result"]["resultType"], "complete", "{reply}");
    tokio::time::timeout(Duration::from_secs(10), serving)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
}

/// The drain deadline of the child's server: far beyond the parent's bound on its exit, so that
/// an exit that waited for the idle connection to drain cannot pass.
const CHILD_DRAIN: Duration = Duration::from_secs(120);

/// Run by [`serve_stdio_and_http_ends_both_when_stdin_closes`] in a process of its own (with
/// `--ignored` and `MCP_TEST_CHILD=1`): ignored in a plain run, and a failure when run any other
/// way, so that it never passes without testing.
#[tokio::test]
#[ignore = "the child process of serve_stdio_and_http_ends_both_when_stdin_closes"]
async fn stdio_and_http_child() {
    assert!(
        std::env::var_os("MCP_TEST_CHILD").is_some(),
        "stdio_and_http_child is the child process of serve_stdio_and_http_ends_both_when_stdin_closes: \
         run that test instead"
    );
    let server = Server::builder(server_info!())
        .tool(quick::TOOL)
        .drain_timeout(CHILD_DRAIN)
        .build()
        .unwrap();
    // A free port, told to the parent on stderr (not captured by the test harness).
    let addr = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    writeln!(std::io::stderr(), "listening on {addr}").unwrap();
    server.serve_stdio_and_http(addr).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_stdio_and_http_ends_both_when_stdin_closes() {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "--ignored",
            "stdio_and_http_child",
            "--quiet",
            "--test-threads=1",
        ])
        .env("MCP_TEST_CHILD", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The HTTP address, as the child reports it (read on a thread: never wait without end).
    let stderr = BufReader::new(child.stderr.take().unwrap());
    let (addr_tx, addr_rx) = std::sync::mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            if let Some(rest) = line.strip_prefix("listening on ") {
                let _ = addr_tx.send(rest.trim().to_owned());
            }
        }
    });
    let addr = addr_rx
        .recv_timeout(Duration::from_secs(10))
        .expect("the child tells its address");
    // The server may still be binding: wait until it answers.
    let started = Instant::now();
    while tokio::net::TcpStream::connect(&addr).await.is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the child never listened"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let url = format!("http://{addr}/mcp");

    // Over stdio: initialize and a call.
    let mut stdin = child.stdin.take().unwrap();
    let (lines_tx, lines) = std::sync::mpsc::channel::<String>();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            // libtest writes its own lines too; the protocol's are JSON.
            if line.starts_with('{') && lines_tx.send(line).is_err() {
                break;
            }
        }
    });
    writeln!(
        stdin,
        r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"2025-11-25","capabilities":{{}},"clientInfo":{{"name":"t","version":"0"}}}}}}"#
    )
    .unwrap();
    writeln!(
        stdin,
        r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"quick","arguments":{{}}}}}}"#
    )
    .unwrap();
    let wait = Duration::from_secs(10);
    let init: Value = serde_json::from_str(&lines.recv_timeout(wait).unwrap()).unwrap();
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25");
    let call: Value = serde_json::from_str(&lines.recv_timeout(wait).unwrap()).unwrap();
    assert_eq!(call["result"]["content"][0]["text"], "quick");

    // Over HTTP: a session with its GET stream open, and an idle keep-alive connection.
    let sid = initialize(&url).await;
    let get = client()
        .get(&url)
        .header("accept", "text/event-stream")
        .header("mcp-session-id", &sid)
        .send()
        .await
        .unwrap();
    assert_eq!(get.status(), 200);
    let _idle = tokio::net::TcpStream::connect(&addr).await.unwrap();

    let closed = Instant::now();
    drop(stdin);
    let (_, clean) = drain_sse(get).await;
    assert!(clean, "the GET stream is ended cleanly, not cut");
    // The child exits without waiting for the idle connection: well within a tenth of its drain
    // deadline (CHILD_DRAIN), which an exit that drained would have to reach.
    let bound = CHILD_DRAIN / 12;
    let mut status = None;
    while status.is_none() && closed.elapsed() < bound {
        status = child.try_wait().unwrap();
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let Some(status) = status else {
        let _ = child.kill();
        let _ = child.wait();
        panic!("the child still ran {bound:?} after stdin closed");
    };
    assert!(status.success(), "{status:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_transport_stops_reading_and_delivers_running_replies() {
    let (server, gate) = server(Duration::from_secs(30));
    let mut client = server.connect_in_memory();
    client.initialize("2025-11-25").await;
    client
        .send(&json!({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"held","arguments":{}}}))
        .await;
    // A ping answered proves the call was read and runs in its own task.
    let pong = client.request("ping", json!({})).await;
    assert_eq!(pong["result"], json!({}));
    server.shutdown_handle().shutdown();
    gate.add_permits(1);
    let reply = client.response(&json!(5)).await;
    assert_eq!(reply["result"]["content"][0]["text"], "released", "{reply}");
    let end = tokio::time::timeout(Duration::from_secs(10), client.recv()).await;
    assert_eq!(end.expect("the connection closes"), None);
}
