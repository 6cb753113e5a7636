//! notes-auth declares scopes on its tools: started without any `MCP_AUTH_*` it refuses to serve
//! HTTP (exit code 6, nothing served) unless told it is meant to run unprotected; stdio carries
//! no tokens and is served.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::channel;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_notes-auth");
const WAIT: Duration = Duration::from_secs(20);

fn command(args: &[&str]) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.args(args);
    for name in [
        "RUST_LOG",
        "MCP_AUTH_ISSUER",
        "MCP_AUTH_AUDIENCE",
        "MCP_AUTH_ALLOW_JWT_TYP",
        "MCP_ALLOW_UNPROTECTED",
        "MCP_ALLOWED_HOSTS",
        "MCP_REDIS_URL",
    ] {
        cmd.env_remove(name);
    }
    cmd
}

/// Runs to the end with stdin closed, within [`WAIT`]: exit code, stdout, stderr.
fn run(mut cmd: Command) -> (i32, String, String) {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("notes-auth runs");
    let (tx, rx) = channel();
    let (mut out, mut err) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    std::thread::spawn(move || {
        let (mut o, mut e) = (String::new(), String::new());
        let _ = out.read_to_string(&mut o);
        let _ = err.read_to_string(&mut e);
        let _ = tx.send((o, e));
    });
    let Ok((stdout, stderr)) = rx.recv_timeout(WAIT) else {
        let _ = child.kill();
        let _ = child.wait();
        panic!("notes-auth did not exit: it is serving");
    };
    (child.wait().unwrap().code().unwrap_or(-1), stdout, stderr)
}

#[test]
fn without_authorization_http_refuses_to_serve_the_scoped_tools() {
    let (code, stdout, stderr) = run(command(&["http", "127.0.0.1:0"]));
    assert_eq!(
        (code, stdout.as_str(), stderr.as_str()),
        (
            6,
            "",
            "notes-auth: tool add_note and 1 more declare(s) scopes, but no authorization is configured: every client could use them. To serve HTTP, configure authorization (ServerBuilder::auth, or MCP_AUTH_ISSUER and MCP_AUTH_AUDIENCE), or say the server is meant to run unprotected (ServerBuilder::allow_unprotected(true), or MCP_ALLOW_UNPROTECTED=1)\n"
        )
    );
    // A misspelt variable does not leave it open either.
    let mut cmd = command(&["http", "127.0.0.1:0"]);
    cmd.env("MCP_AUTH_ISUER", "https://auth.example.com");
    let (code, _, stderr) = run(cmd);
    assert_eq!(
        (code, stderr.as_str()),
        (
            5,
            "notes-auth: unknown variable MCP_AUTH_ISUER: this binary reads MCP_AUTH_ISSUER, MCP_AUTH_AUDIENCE, MCP_AUTH_ALLOW_JWT_TYP\n"
        )
    );
}

#[test]
fn stdio_is_served_without_authorization() {
    let mut child = command(&["stdio"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, r#"{{"jsonrpc":"2.0","id":1,"method":"ping"}}"#).unwrap();
    drop(stdin);
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert_eq!(line, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n");
    assert_eq!(child.wait().unwrap().code(), Some(0));
}

#[test]
fn told_it_is_meant_to_run_unprotected_it_serves_http() {
    let mut cmd = command(&["http", "127.0.0.1:0"]);
    cmd.env("MCP_ALLOW_UNPROTECTED", "1");
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (tx, rx) = channel();
    let err = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(err).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let line = rx
        .recv_timeout(WAIT)
        .expect("notes-auth says where it serves");
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        line.starts_with("serving MCP over Streamable HTTP at http://127.0.0.1:"),
        "{line}"
    );
}
