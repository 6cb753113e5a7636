//! A server bound to every interface (`0.0.0.0`) against DNS rebinding, and HTTP serving that
//! fails closed: items that declare scopes are not served to everyone by mistake.
//!
//! The servers listen on `0.0.0.0` but are reached through `127.0.0.1` only; the `Host` header
//! is what a rebinding page would send.
#![cfg(feature = "http")]

use std::time::Duration;

use mcp_runtime::http::HttpOptions;
use mcp_runtime::prelude::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Echoes its text.
#[tool]
async fn echo(text: String) -> String {
    text
}

/// Deletes everything.
#[tool(scopes = ["admin"])]
async fn wipe() -> String {
    "wiped".into()
}

const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;

/// A server on `0.0.0.0:PORT` with these options; its port and shutdown handle.
async fn public(options: HttpOptions) -> (u16, mcp_runtime::ShutdownHandle) {
    let listener = tokio::net::TcpListener::bind("0.0.0.0:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = Server::builder(server_info!())
        .tool(echo::TOOL)
        .http(options)
        .build()
        .unwrap();
    let stop = server.shutdown_handle();
    tokio::spawn(async move { server.serve_http_on(listener).await });
    (port, stop)
}

/// One request over a fresh connection to `127.0.0.1:port`: its status and body.
async fn send(port: u16, method: &str, path: &str, headers: &[(&str, &str)]) -> (u16, String) {
    let mut tcp = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .unwrap();
    let body = if method == "POST" { INIT } else { "" };
    let mut req = format!("{method} {path} HTTP/1.1\r\nconnection: close\r\n");
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    if method == "POST" {
        req.push_str(&format!(
            "content-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: {}\r\n",
            body.len()
        ));
    }
    req.push_str("\r\n");
    req.push_str(body);
    tcp.write_all(req.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), tcp.read_to_end(&mut raw))
        .await
        .expect("the server answers and closes")
        .unwrap();
    let text = String::from_utf8(raw).unwrap();
    let status = text[9..12].parse().unwrap();
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b.to_owned());
    (status, body.unwrap_or_default())
}

/// An `initialize` POST with this `Host` (and the `Origin` of that host).
async fn init(port: u16, host: &str) -> (u16, String) {
    let origin = format!("http://{host}");
    send(port, "POST", "/mcp", &[("host", host), ("origin", &origin)]).await
}

const HOST_REFUSED: &str = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Forbidden: Host header not allowed"}}"#;

#[tokio::test]
async fn bound_to_every_interface_a_host_name_is_refused_and_ip_addresses_are_served() {
    let (port, _stop) = public(HttpOptions::new()).await;
    // A rebinding page at http://evil.example:PORT, its name now resolving to this machine.
    let (status, body) = init(port, &format!("evil.example:{port}")).await;
    assert_eq!((status, body.as_str()), (403, HOST_REFUSED));
    let (status, _) = init(port, "evil.example").await;
    assert_eq!(status, 403);
    for host in [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("10.1.2.3:{port}"),
    ] {
        let (status, body) = init(port, &host).await;
        assert_eq!(status, 200, "{host}: {body}");
        assert!(body.contains(r#""protocolVersion":"2025-11-25""#), "{body}");
    }
    // The liveness endpoint reveals nothing: open to any Host.
    let evil = format!("evil.example:{port}");
    let (status, body) = send(port, "GET", "/healthz", &[("host", &evil)]).await;
    assert_eq!((status, body.as_str()), (200, r#"{"status":"ok"}"#));
}

#[tokio::test]
async fn bound_to_every_interface_the_allowed_hosts_are_the_whole_rule() {
    let (port, _stop) = public(HttpOptions::new().allowed_hosts(["mcp.example.com"])).await;
    let (status, body) = init(port, &format!("mcp.example.com:{port}")).await;
    assert_eq!(status, 200, "{body}");
    let (status, _) = init(port, "MCP.example.com").await;
    assert_eq!(status, 200);
    for host in [format!("evil.example:{port}"), format!("127.0.0.1:{port}")] {
        let (status, body) = init(port, &host).await;
        assert_eq!((status, body.as_str()), (403, HOST_REFUSED), "{host}");
    }
    // A listed Host with a foreign Origin is still refused.
    let host = format!("mcp.example.com:{port}");
    let headers = [("host", host.as_str()), ("origin", "http://evil.example")];
    let (status, body) = send(port, "POST", "/mcp", &headers).await;
    assert_eq!(status, 403);
    assert!(body.contains("Forbidden: Origin not allowed"), "{body}");
}

/// The refusal of a server whose `wipe` tool declares scopes and that nothing protects.
fn unprotected_message() -> String {
    let configure = if cfg!(feature = "auth") {
        "configure authorization (ServerBuilder::auth, or MCP_AUTH_ISSUER and MCP_AUTH_AUDIENCE)"
    } else {
        "build with the `auth` feature of mcp-runtime and configure authorization"
    };
    format!(
        "invalid configuration: tool wipe declare(s) scopes, but no authorization is configured: every client could use them. \
         To serve HTTP, {configure}, or say the server is meant to run unprotected \
         (ServerBuilder::allow_unprotected(true), or MCP_ALLOW_UNPROTECTED=1)"
    )
}

#[tokio::test]
async fn scoped_items_without_authorization_are_not_served_over_http() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = Server::builder(server_info!())
        .tool(echo::TOOL)
        .tool(wipe::TOOL)
        .build()
        .unwrap();
    let served = tokio::time::timeout(Duration::from_secs(10), server.serve_http_on(listener))
        .await
        .expect("serving returns at once");
    let err = served.expect_err("an unprotected scoped tool is not served");
    assert!(matches!(err, mcp_runtime::Error::Config(_)), "{err:?}");
    assert_eq!(err.to_string(), unprotected_message());
    // Nothing listens any more: the listener was dropped with the refusal.
    assert!(tokio::net::TcpStream::connect(addr).await.is_err());
    let err = server
        .serve_http("127.0.0.1:0")
        .await
        .expect_err("serve_http refuses too");
    assert_eq!(err.to_string(), unprotected_message());
}

#[tokio::test]
async fn scoped_items_are_served_unprotected_when_the_builder_says_so() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = Server::builder(server_info!())
        .tool(wipe::TOOL)
        .allow_unprotected(true)
        .build()
        .unwrap();
    let _stop = server.shutdown_handle();
    tokio::spawn(async move { server.serve_http_on(listener).await });
    let (status, body) = init(port, &format!("127.0.0.1:{port}")).await;
    assert_eq!(status, 200, "{body}");
}
