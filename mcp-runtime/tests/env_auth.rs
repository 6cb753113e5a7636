//! `MCP_AUTH_*` belong to the server that read them: a server built with `ServerBuilder::build`
//! and then given to the command line has not read them, so its `http` command refuses to serve
//! (it would serve everyone while the environment asks for bearer tokens). Nothing of one server's
//! environment reaches another server of the process.
//!
//! The test runs itself again as a child process with the variables set (the environment of
//! this process stays as it is).
#![cfg(all(feature = "auth", feature = "cli"))]

use mcp_runtime::cli::{Cli, Failure};
use mcp_runtime::prelude::*;

/// Echoes its text.
#[tool]
async fn echo(text: String) -> String {
    text
}

/// Runs this test binary's `test` again in a child with `vars` set; whether it ran and passed.
fn in_child(test: &str, vars: &[(&str, &str)]) -> bool {
    let mut child = std::process::Command::new(std::env::current_exe().unwrap());
    child.args(["--exact", test, "--test-threads=1"]);
    child.env("ENV_AUTH_CHILD", "1");
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
    std::env::var_os("ENV_AUTH_CHILD").is_some()
}

async fn http_command() -> mcp_runtime::cli::CommandOutput {
    let server = Server::builder(server_info!())
        .tool(echo::TOOL)
        .build()
        .unwrap();
    Cli::new(&server)
        .name("t")
        .execute(["http", "127.0.0.1:0"])
        .await
}

const ISSUER: (&str, &str) = ("MCP_AUTH_ISSUER", "https://auth.example.com");
const AUDIENCE: (&str, &str) = ("MCP_AUTH_AUDIENCE", "http://127.0.0.1:8000/mcp");

#[tokio::test]
async fn a_server_built_without_reading_mcp_auth_refuses_to_serve_http() {
    if !is_child() {
        let me = "a_server_built_without_reading_mcp_auth_refuses_to_serve_http";
        assert!(in_child(me, &[ISSUER, AUDIENCE]));
        return;
    }
    let out = http_command().await;
    assert_eq!(out.failure, Some(Failure::Unsafe));
    assert_eq!(out.code(), 6);
    assert_eq!(
        out.stderr,
        "t: MCP_AUTH_ISSUER and MCP_AUTH_AUDIENCE are set, but this server was built without \
         reading them: build it with ServerBuilder::run (which reads them) or give the \
         authorization to ServerBuilder::auth\n"
    );
}

#[tokio::test]
async fn a_malformed_mcp_auth_variable_is_the_servers_error() {
    if !is_child() {
        let me = "a_malformed_mcp_auth_variable_is_the_servers_error";
        let typ = ("MCP_AUTH_ALLOW_JWT_TYP", "maybe");
        assert!(in_child(me, &[ISSUER, AUDIENCE, typ]));
        return;
    }
    let out = http_command().await;
    assert_eq!((out.failure, out.code()), (Some(Failure::Server), 5));
    assert!(
        out.stderr
            .starts_with("t: MCP_AUTH_ALLOW_JWT_TYP=\"maybe\""),
        "{}",
        out.stderr
    );
}
