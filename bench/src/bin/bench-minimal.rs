//! The baseline: a hand-written, single-threaded JSON-RPC server over stdio that answers
//! `initialize` and a `tools/call` of `add`, and nothing else. What a framework costs is measured
//! against this.

use std::io::{BufRead, Write};

use serde_json::{Value, json};

fn main() {
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lines() {
        let Ok(line) = line else { break };
        let Ok(msg) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let Some(id) = msg.get("id").cloned() else {
            continue;
        };
        let result = match msg["method"].as_str() {
            Some("initialize") => json!({
                "protocolVersion": "2025-11-25",
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "bench-minimal", "version": "0.0.0"}
            }),
            Some("tools/call") => {
                let a = msg["params"]["arguments"]["a"].as_i64().unwrap_or(0);
                let b = msg["params"]["arguments"]["b"].as_i64().unwrap_or(0);
                json!({"content": [{"type": "text", "text": (a + b).to_string()}]})
            }
            _ => json!({}),
        };
        let mut out = serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": id, "result": result}))
            .unwrap_or_default();
        out.push(b'\n');
        if stdout
            .write_all(&out)
            .and_then(|()| stdout.flush())
            .is_err()
        {
            break;
        }
    }
}
