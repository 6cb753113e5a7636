//! The `stdio-only` binary, spawned and spoken to over stdin/stdout: a handshake, `tools/list`
//! and a `tools/call`, then end of input, which ends the server.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

#[test]
fn serves_a_tool_over_stdio() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_stdio-only"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("stdio-only starts");
    let messages = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "test", "version": "0"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
            "name": "convert_length",
            "arguments": {"value": 10, "from": "feet", "to": "metres"}}}),
    ];
    let mut stdin = child.stdin.take().unwrap();
    for message in &messages {
        writeln!(stdin, "{message}").unwrap();
    }
    drop(stdin); // end of input: the server answers what it read, then exits
    let output = child.wait_with_output().unwrap();
    let out = String::from_utf8(output.stdout).unwrap();
    assert!(
        output.status.success(),
        "exit status {}; stderr: {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );

    let replies: Vec<Value> = out
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let by_id = |id: i64| {
        replies
            .iter()
            .find(|r| r["id"] == id)
            .unwrap_or_else(|| panic!("no reply to {id} in {out}"))
    };
    assert_eq!(by_id(1)["result"]["protocolVersion"], "2025-11-25");
    assert_eq!(by_id(1)["result"]["serverInfo"]["name"], "stdio-only");
    let tools = by_id(2)["result"]["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 1);
    assert_eq!(tools[0]["name"], "convert_length");
    assert_eq!(
        tools[0]["inputSchema"]["properties"]["from"]["enum"],
        json!(["metres", "feet"])
    );
    let call = &by_id(3)["result"];
    assert!(call.get("isError").is_none_or(|e| e == false), "{call}");
    assert_eq!(call["content"][0]["text"], "3.0480");
}
