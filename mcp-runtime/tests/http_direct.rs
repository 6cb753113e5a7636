//! The standalone server answers `POST /mcp` without going through its axum router (when no
//! authorization gate is in front); its responses must be byte for byte those of the router
//! mounted in an axum app: status line, headers in order, body, for answers in plain JSON, 202,
//! SSE streams and every refusal.

use std::time::Duration;

use mcp_runtime::http::HttpOptions;
use mcp_runtime::prelude::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Echoes the text back.
#[tool]
async fn echo(text: String) -> String {
    text
}

/// Reports progress, then answers (an SSE stream when the client asks for progress).
#[tool]
async fn progressing(ctx: Context) -> String {
    ctx.progress(1.0, Some(2.0), None).await;
    tokio::time::sleep(Duration::from_millis(30)).await;
    "progressed".into()
}

fn server() -> Server {
    Server::builder(server_info!())
        .tool(echo::TOOL)
        .tool(progressing::TOOL)
        .http(HttpOptions::new().stream_after(Duration::from_secs(5)))
        .build()
        .unwrap()
}

/// The standalone server's address.
async fn standalone() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    tokio::spawn(async move { server().serve_http_on(listener).await });
    addr
}

/// The router mounted at `/mcp` of an axum app.
async fn mounted() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let app = axum::Router::new().merge(server().router_at("/mcp"));
    tokio::spawn(async move { axum::serve(listener, app).await });
    addr
}

/// One request on a connection of its own (closed after the response), its whole response
/// with the values that differ between two servers masked: `date`, the session id, SSE ids.
async fn exchange(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> String {
    let mut tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    let mut head = format!("{method} {path} HTTP/1.1\r\nhost: {addr}\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str(&format!(
        "content-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    ));
    tcp.write_all(head.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), tcp.read_to_end(&mut out))
        .await
        .expect("the response ends")
        .unwrap();
    let text = String::from_utf8(out).unwrap();
    text.split("\r\n")
        .map(|line| {
            let lower = line.to_ascii_lowercase();
            if lower.starts_with("date: ") {
                "date: (masked)".to_owned()
            } else if lower.starts_with("mcp-session-id: ") {
                "mcp-session-id: (masked)".to_owned()
            } else {
                line.split('\n')
                    .map(|l| {
                        if l.starts_with("id: ") {
                            "id: (masked)"
                        } else {
                            l
                        }
                    })
                    .collect::<Vec<_>>()
                    .join("\n")
            }
        })
        .collect::<Vec<_>>()
        .join("\r\n")
}

/// The session id a server minted for an `initialize`.
async fn session(addr: &str) -> String {
    let mut tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    let body = INIT;
    let head = format!(
        "POST /mcp HTTP/1.1\r\nhost: {addr}\r\ncontent-type: application/json\r\naccept: {ACCEPT}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    tcp.write_all(head.as_bytes()).await.unwrap();
    let mut out = String::new();
    tcp.read_to_string(&mut out).await.unwrap();
    let line = out
        .split("\r\n")
        .find(|l| l.starts_with("mcp-session-id: "))
        .expect("a session id");
    line["mcp-session-id: ".len()..].to_owned()
}

const ACCEPT: &str = "application/json, text/event-stream";

/// A request: method, path, headers (`S` stands for the server's session id), body.
type Case<'a> = (&'a str, &'a str, Vec<(&'a str, &'a str)>, &'a str);
const INIT: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#;

#[tokio::test]
async fn posts_served_without_the_router_are_written_as_the_router_writes_them() {
    let (a, b) = (standalone().await, mounted().await);
    let (sa, sb) = (session(&a).await, session(&b).await);
    let json = ("content-type", "application/json");
    let accept = ("accept", ACCEPT);
    let version = ("mcp-protocol-version", "2025-11-25");
    let stateless = r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    let cases: Vec<Case<'_>> = vec![
        ("POST", "/mcp", vec![json, accept], INIT),
        (
            "POST",
            "/mcp",
            vec![json, accept, version, ("mcp-session-id", "S")],
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        ),
        (
            "POST",
            "/mcp",
            vec![json, accept, version, ("mcp-session-id", "S")],
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"}}}"#,
        ),
        (
            "POST",
            "/mcp?x=1",
            vec![json, accept, version, ("mcp-session-id", "S")],
            r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#,
        ),
        (
            "POST",
            "/mcp",
            vec![json, accept, version, ("mcp-session-id", "S")],
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"progressing","arguments":{},"_meta":{"progressToken":"p"}}}"#,
        ),
        (
            "POST",
            "/mcp",
            vec![
                json,
                ("accept", "application/json"),
                version,
                ("mcp-session-id", "S"),
            ],
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"progressing","arguments":{},"_meta":{"progressToken":"p"}}}"#,
        ),
        (
            "POST",
            "/mcp",
            vec![json, accept, version, ("mcp-session-id", "S")],
            r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"nope","arguments":{}}}"#,
        ),
        (
            "POST",
            "/mcp",
            vec![json, accept, version, ("mcp-session-id", "S")],
            "not json",
        ),
        (
            "POST",
            "/mcp",
            vec![json, accept, version, ("mcp-session-id", "unknown")],
            r#"{"jsonrpc":"2.0","id":6,"method":"ping"}"#,
        ),
        (
            "POST",
            "/mcp",
            vec![json, accept, version],
            r#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#,
        ),
        (
            "POST",
            "/mcp",
            vec![json, ("accept", "text/html")],
            r#"{"jsonrpc":"2.0","id":8,"method":"ping"}"#,
        ),
        (
            "POST",
            "/mcp",
            vec![("content-type", "text/plain"), accept],
            r#"{"jsonrpc":"2.0","id":8,"method":"ping"}"#,
        ),
        (
            "POST",
            "/mcp",
            vec![json, accept, ("origin", "https://evil.example")],
            r#"{"jsonrpc":"2.0","id":8,"method":"ping"}"#,
        ),
        (
            "POST",
            "/mcp",
            vec![
                json,
                accept,
                ("mcp-protocol-version", "2026-07-28"),
                ("mcp-method", "tools/call"),
                ("mcp-name", "echo"),
            ],
            stateless,
        ),
        (
            "POST",
            "/mcp",
            vec![
                json,
                accept,
                ("mcp-protocol-version", "2026-07-28"),
                ("mcp-method", "tools/list"),
            ],
            stateless,
        ),
        (
            "POST",
            "/mcp/",
            vec![json, accept],
            r#"{"jsonrpc":"2.0","id":8,"method":"ping"}"#,
        ),
        ("PUT", "/mcp", vec![json, accept], "{}"),
    ];
    for (method, path, headers, body) in cases {
        let with = |sid: &str| -> Vec<(&str, String)> {
            headers
                .iter()
                .map(|&(n, v)| {
                    (
                        n,
                        if v == "S" {
                            sid.to_owned()
                        } else {
                            v.to_owned()
                        },
                    )
                })
                .collect()
        };
        let (ha, hb) = (with(&sa), with(&sb));
        let ha: Vec<(&str, &str)> = ha.iter().map(|(n, v)| (*n, v.as_str())).collect();
        let hb: Vec<(&str, &str)> = hb.iter().map(|(n, v)| (*n, v.as_str())).collect();
        let direct = exchange(&a, method, path, &ha, body).await;
        let routed = exchange(&b, method, path, &hb, body).await;
        assert_eq!(direct, routed, "{method} {path} {headers:?} {body}");
        assert!(direct.starts_with("HTTP/1.1 "), "{direct}");
    }
    // The SSE case did stream (it is compared above, not a plain JSON answer on both sides).
    let sse = exchange(
        &a,
        "POST",
        "/mcp",
        &[json, accept, version, ("mcp-session-id", &sa)],
        r#"{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"progressing","arguments":{},"_meta":{"progressToken":"p"}}}"#,
    )
    .await;
    assert!(sse.contains("content-type: text/event-stream"), "{sse}");
    assert!(
        sse.contains(r#""method":"notifications/progress""#),
        "{sse}"
    );
}
