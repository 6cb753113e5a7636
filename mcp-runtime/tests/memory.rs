//! Heap held per call waiting for the client and per `subscriptions/listen` stream (on a stream
//! transport, and over HTTP), counted by an instrumented global allocator (this test binary
//! only). The bounds keep the figures
//! from creeping back up; `cargo test -p mcp-runtime --test memory -- --nocapture` prints them.

use std::alloc::System;
use std::time::Duration;

use mcp_runtime::prelude::*;
use mcp_runtime::transport::memory::TestClient;
use serde_json::{Value, json};
use stats_alloc::{INSTRUMENTED_SYSTEM, StatsAlloc};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct UserInfo {
    /// Your user name
    username: String,
    /// Your email address
    email: String,
}

/// Asks for a user name and an email address.
#[tool]
async fn ask(
    /// What to show the user
    message: String,
    ctx: Context,
) -> Result<String, ToolError> {
    let answer = ctx.elicit::<UserInfo>(message).await?;
    Ok(answer
        .accepted()
        .map_or_else(String::new, |u| format!("{} <{}>", u.username, u.email)))
}

const N: usize = 256;

/// The counts are process-wide: the tests measure one at a time.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Live heap bytes once the runtime has settled.
async fn live() -> isize {
    tokio::time::sleep(Duration::from_millis(50)).await;
    let stats = GLOBAL.stats();
    stats.bytes_allocated as isize - stats.bytes_deallocated as isize
}

async fn elicit_client(server: &Server) -> TestClient {
    let mut client = server.connect_in_memory();
    client
        .request(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {"elicitation": {}},
                   "clientInfo": {"name": "memory", "version": "1"}}),
        )
        .await;
    client
        .notify("notifications/initialized", Value::Null)
        .await;
    client
}

/// Opens `N` waiting calls on a new connection, then closes it; returns the heap held per
/// waiting call, and what is left once the connection is gone.
async fn waiting_calls(server: &Server) -> (isize, isize) {
    let mut client = elicit_client(server).await;
    let call = |id: usize| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
               "params": {"name": "ask", "arguments": {"message": format!("form {id}")}}})
    };
    // One call answered first, so that what is built once per connection is not counted.
    client.send(&call(1)).await;
    let q = client.recv().await.unwrap();
    client
        .send(&json!({"jsonrpc": "2.0", "id": q["id"], "result": {"action": "decline"}}))
        .await;
    client.recv().await.unwrap();
    let before = live().await;
    for id in 0..N {
        client.send(&call(1000 + id)).await;
        let q = client.recv().await.unwrap();
        assert_eq!(q["method"], "elicitation/create", "{q}");
    }
    let during = live().await;
    drop(client);
    tokio::time::sleep(Duration::from_millis(500)).await;
    ((during - before) / N as isize, live().await - before)
}

#[tokio::test(flavor = "current_thread")]
async fn a_call_waiting_for_the_client_holds_little_memory_and_gives_it_back() {
    let _one = ONE_AT_A_TIME.lock().await;
    let server = Server::builder(server_info!())
        .tool(ask::TOOL)
        .max_client_requests(N, N)
        .build()
        .unwrap();
    let start = live().await;
    let (per_call, _) = waiting_calls(&server).await;
    let first = live().await - start;
    let (again, _) = waiting_calls(&server).await;
    let second = live().await - start;

    println!("heap per call waiting for the client: {per_call} bytes ({again} the second time)");
    println!("heap kept by the server after closing: {first} bytes, then {second} bytes");
    assert!(per_call < 6 * 1024, "{per_call} bytes per waiting call");
    // What stays (tables grown once, the runtime's own) does not grow with more connections.
    assert!(
        second - first < (N as isize) * 16,
        "{} bytes more after a second connection",
        second - first
    );
}

/// Opens `N` listen streams on a new connection, then closes it; returns the heap held per
/// listener.
async fn listeners(server: &Server) -> isize {
    let mut client = server.connect_in_memory();
    let listen = |id: usize| {
        json!({"jsonrpc": "2.0", "id": id, "method": "subscriptions/listen", "params": {
            "notifications": {"toolsListChanged": true},
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {}
            }
        }})
    };
    client.send(&listen(1)).await;
    client.recv().await.unwrap();
    let before = live().await;
    for id in 0..N {
        client.send(&listen(1000 + id)).await;
        let ack = client.recv().await.unwrap();
        assert_eq!(
            ack["method"], "notifications/subscriptions/acknowledged",
            "{ack}"
        );
    }
    let during = live().await;
    drop(client);
    tokio::time::sleep(Duration::from_millis(500)).await;
    (during - before) / N as isize
}

#[tokio::test(flavor = "current_thread")]
async fn a_listener_holds_little_memory_and_gives_it_back() {
    let _one = ONE_AT_A_TIME.lock().await;
    // Every listener holds a running slot of its connection.
    let server = Server::builder(server_info!())
        .tool(ask::TOOL)
        .max_in_flight(2 * N)
        .build()
        .unwrap();
    let start = live().await;
    let per_listener = listeners(&server).await;
    let first = live().await - start;
    let again = listeners(&server).await;
    let second = live().await - start;
    println!("heap per listener: {per_listener} bytes ({again} the second time)");
    println!("heap kept by the server after closing: {first} bytes, then {second} bytes");
    assert!(per_listener < 6 * 1024, "{per_listener} bytes per listener");
    assert!(
        second - first < (N as isize) * 16,
        "{} bytes more after a second connection",
        second - first
    );
}

/// Opens `N` stateless `subscriptions/listen` streams over HTTP (raw sockets, read into a stack
/// buffer so that the client side allocates next to nothing); returns the heap held per stream.
async fn http_listeners(url: std::net::SocketAddr) -> (isize, Vec<tokio::net::TcpStream>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "subscriptions/listen", "params": {
        "notifications": {"toolsListChanged": true},
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {}
        }
    }})
    .to_string();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: subscriptions/listen\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut streams = Vec::with_capacity(N + 1);
    let mut buf = [0u8; 4096];
    let mut open = async |streams: &mut Vec<tokio::net::TcpStream>| {
        let mut s = tokio::net::TcpStream::connect(url).await.unwrap();
        s.write_all(request.as_bytes()).await.unwrap();
        // Read until the acknowledgement has arrived.
        let mut seen = 0;
        loop {
            let n = s.read(&mut buf[seen..]).await.unwrap();
            assert!(n > 0, "closed");
            seen += n;
            if buf[..seen].windows(12).any(|w| w == b"acknowledged") {
                break;
            }
        }
        streams.push(s);
    };
    open(&mut streams).await;
    let before = live().await;
    for _ in 0..N {
        open(&mut streams).await;
    }
    let during = live().await;
    ((during - before) / N as isize, streams)
}

#[tokio::test(flavor = "current_thread")]
async fn an_http_listener_is_mostly_its_connection() {
    let _one = ONE_AT_A_TIME.lock().await;
    // Every listener comes from this one peer: its share is raised to hold them all.
    let shares = mcp_runtime::principal::FairShares::new()
        .connections_per_peer(2 * N)
        .streams(2 * N, 2 * N);
    let server = Server::builder(server_info!())
        .tool(ask::TOOL)
        .fair_shares(shares)
        .build()
        .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { server.serve_http_on(listener).await });
    let (per_listener, streams) = http_listeners(addr).await;
    println!("heap per HTTP listener (server and a raw client): {per_listener} bytes");
    // Mostly the HTTP connection itself (hyper's read and write buffers, the request's task and
    // channels); the listener proper is the in-memory figure above.
    assert!(
        per_listener < 64 * 1024,
        "{per_listener} bytes per HTTP listener"
    );
    drop(streams);
}
