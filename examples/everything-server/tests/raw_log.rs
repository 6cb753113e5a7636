//! `MCP_LOG_MESSAGES=1`: the raw message log on stderr shows every JSON message in and out, the
//! ones the server starts itself included (progress, log messages, requests to the client), each
//! exactly as it was written to stdout.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_everything-server");

fn lines(out: impl Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

#[test]
fn every_message_in_and_out_is_logged_as_written() {
    let mut child = Command::new(BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env("MCP_LOG_MESSAGES", "1")
        .env_remove("RUST_LOG")
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let out = lines(child.stdout.take().unwrap());
    let mut err_pipe = child.stderr.take().unwrap();
    let stderr = std::thread::spawn(move || {
        let mut s = String::new();
        err_pipe.read_to_string(&mut s).unwrap();
        s
    });
    let mut sent = Vec::new();
    let mut received = Vec::new();
    let mut send = |stdin: &mut std::process::ChildStdin, msg: Value| {
        let text = msg.to_string();
        writeln!(stdin, "{text}").unwrap();
        stdin.flush().unwrap();
        sent.push(text);
    };
    let recv_until = |id: i64, received: &mut Vec<String>| -> Vec<Value> {
        let mut got = Vec::new();
        loop {
            let line = out
                .recv_timeout(Duration::from_secs(20))
                .expect("the server answers");
            received.push(line.clone());
            let v: Value = serde_json::from_str(&line).unwrap();
            let done = v["id"] == id && v.get("method").is_none();
            got.push(v);
            if done {
                return got;
            }
        }
    };
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {"elicitation": {"form": {}}},
            "clientInfo": {"name": "t", "version": "1"}}}),
    );
    recv_until(1, &mut received);
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    );
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "id": 2, "method": "logging/setLevel", "params": {"level": "debug"}}),
    );
    recv_until(2, &mut received);
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
            "name": "test_tool_with_progress", "arguments": {}, "_meta": {"progressToken": "p"}}}),
    );
    let progress = recv_until(3, &mut received);
    assert_eq!(
        progress
            .iter()
            .filter(|m| m["method"] == "notifications/progress")
            .count(),
        3
    );
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {
            "name": "test_tool_with_logging", "arguments": {}}}),
    );
    let logged = recv_until(4, &mut received);
    assert_eq!(
        logged
            .iter()
            .filter(|m| m["method"] == "notifications/message")
            .count(),
        3
    );
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {
            "name": "test_elicitation", "arguments": {"message": "who?"}}}),
    );
    let line = out.recv_timeout(Duration::from_secs(20)).unwrap();
    received.push(line.clone());
    let ask: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(ask["method"], "elicitation/create", "{ask}");
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "id": ask["id"], "result": {
            "action": "accept", "content": {"username": "ada", "email": "a@b.c"}}}),
    );
    let done = recv_until(5, &mut received);
    assert_eq!(
        done.last().unwrap()["result"]["content"][0]["text"],
        "User response: accepted username=ada, email=a@b.c"
    );
    drop(stdin);
    assert!(child.wait().unwrap().success());
    let log = stderr.join().unwrap();
    let logged: Vec<&str> = log.lines().collect();
    for text in &sent {
        let line = format!("--> {text}");
        assert!(logged.contains(&line.as_str()), "not logged: {line}\n{log}");
    }
    for text in &received {
        let line = format!("<-- {text}");
        assert_eq!(
            logged.iter().filter(|l| **l == line).count(),
            1,
            "not logged once: {line}\n{log}"
        );
    }
    // Nothing else: one line per message in, one per message out.
    assert_eq!(logged.len(), sent.len() + received.len(), "{log}");
}
