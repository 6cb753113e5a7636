//! `MCP_ALLOWED_HOSTS` and `MCP_ALLOW_UNPROTECTED` are the command line's: `ServerBuilder::run`
//! reads them into the builder, the library's `serve_http*` and routers read no environment
//! variable, and the `http` command of a server built without reading them (with
//! `ServerBuilder::build`, then given to a `Cli`) refuses to serve rather than ignore them.
//!
//! Each test runs itself again as a child process with the variables set (the environment of
//! this process stays as it is).
#![cfg(all(feature = "http", feature = "cli"))]

use std::time::Duration;

use mcp_runtime::cli::{Cli, Failure};
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

/// Runs this test binary's `test` again in a child with `vars` set; whether it ran and passed.
fn in_child(test: &str, vars: &[(&str, &str)]) -> bool {
    let mut child = std::process::Command::new(std::env::current_exe().unwrap());
    child.args(["--exact", test, "--test-threads=1"]);
    child.env("ENV_HTTP_CHILD", "1");
    for (k, v) in vars {
        child.env(k, v);
    }
    let out = child.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let ran = stdout.contains("test result: ok. 1 passed");
    if !out.status.success() || !ran {
        eprintln!("{stdout}");
    }
    out.status.success() && ran
}

fn is_child() -> bool {
    std::env::var_os("ENV_HTTP_CHILD").is_some()
}

const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;

/// An `initialize` POST to `127.0.0.1:port` with this `Host`: its status.
async fn init(port: u16, host: &str) -> u16 {
    let mut tcp = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .unwrap();
    let req = format!(
        "POST /mcp HTTP/1.1\r\nconnection: close\r\nhost: {host}\r\ncontent-type: application/json\r\n\
         accept: application/json, text/event-stream\r\ncontent-length: {}\r\n\r\n{INIT}",
        INIT.len()
    );
    tcp.write_all(req.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), tcp.read_to_end(&mut raw))
        .await
        .expect("the server answers and closes")
        .unwrap();
    let text = String::from_utf8(raw).unwrap();
    text[9..12].parse().unwrap()
}

#[tokio::test]
async fn serving_http_reads_no_allowed_hosts_from_the_environment() {
    if !is_child() {
        let me = "serving_http_reads_no_allowed_hosts_from_the_environment";
        assert!(in_child(me, &[("MCP_ALLOWED_HOSTS", "mcp.example.com")]));
        return;
    }
    let listener = tokio::net::TcpListener::bind("0.0.0.0:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = Server::builder(server_info!())
        .tool(echo::TOOL)
        .build()
        .unwrap();
    let stop = server.shutdown_handle();
    tokio::spawn(async move { server.serve_http_on(listener).await });
    // A public bind without a list of its own: IP addresses are served, names are not, the
    // variable's name included.
    assert_eq!(init(port, "mcp.example.com").await, 403);
    assert_eq!(init(port, &format!("127.0.0.1:{port}")).await, 200);
    stop.shutdown();
}

#[tokio::test]
async fn serving_http_reads_no_allow_unprotected_from_the_environment() {
    if !is_child() {
        let me = "serving_http_reads_no_allow_unprotected_from_the_environment";
        assert!(in_child(me, &[("MCP_ALLOW_UNPROTECTED", "1")]));
        return;
    }
    let server = Server::builder(server_info!())
        .tool(wipe::TOOL)
        .build()
        .unwrap();
    let err = server
        .serve_http("127.0.0.1:0")
        .await
        .expect_err("an unprotected scoped tool is not served");
    assert!(matches!(err, mcp_runtime::Error::Config(_)), "{err:?}");
    assert!(
        err.to_string().starts_with(
            "invalid configuration: tool wipe declare(s) scopes, but no authorization is configured"
        ),
        "{err}"
    );
}

/// The `http` command of a server built with `ServerBuilder::build` (`wipe` among its tools when
/// `scoped`).
async fn http_command(scoped: bool) -> mcp_runtime::cli::CommandOutput {
    let builder = Server::builder(server_info!()).tool(echo::TOOL);
    let builder = if scoped {
        builder.tool(wipe::TOOL)
    } else {
        builder
    };
    let server = builder.build().unwrap();
    Cli::new(&server)
        .name("t")
        .execute(["http", "127.0.0.1:0"])
        .await
}

#[tokio::test]
async fn a_server_built_without_reading_mcp_allowed_hosts_refuses_to_serve_http() {
    if !is_child() {
        let me = "a_server_built_without_reading_mcp_allowed_hosts_refuses_to_serve_http";
        assert!(in_child(me, &[("MCP_ALLOWED_HOSTS", "mcp.example.com")]));
        return;
    }
    let out = http_command(false).await;
    assert_eq!((out.failure, out.code()), (Some(Failure::Unsafe), 6));
    assert_eq!(
        out.stderr,
        "t: MCP_ALLOWED_HOSTS is set, but this server was built without reading it: build it with \
         ServerBuilder::run (which reads it) or list the hosts with HttpOptions::allowed_hosts\n"
    );
}

#[tokio::test]
async fn a_server_built_without_reading_mcp_allow_unprotected_refuses_to_serve_http() {
    if !is_child() {
        let me = "a_server_built_without_reading_mcp_allow_unprotected_refuses_to_serve_http";
        assert!(in_child(me, &[("MCP_ALLOW_UNPROTECTED", "1")]));
        return;
    }
    let out = http_command(true).await;
    assert_eq!((out.failure, out.code()), (Some(Failure::Unsafe), 6));
    assert_eq!(
        out.stderr,
        "t: MCP_ALLOW_UNPROTECTED is set, but this server was built without reading it: build it \
         with ServerBuilder::run (which reads it) or say so with \
         ServerBuilder::allow_unprotected(true)\n"
    );
}

#[tokio::test]
async fn a_malformed_mcp_allowed_hosts_is_the_servers_error() {
    if !is_child() {
        let me = "a_malformed_mcp_allowed_hosts_is_the_servers_error";
        assert!(in_child(
            me,
            &[("MCP_ALLOWED_HOSTS", "https://mcp.example.com")]
        ));
        return;
    }
    let out = http_command(false).await;
    assert_eq!((out.failure, out.code()), (Some(Failure::Server), 5));
    assert!(
        out.stderr
            .starts_with("t: MCP_ALLOWED_HOSTS: \"https://mcp.example.com\" is not a host"),
        "{}",
        out.stderr
    );
}
