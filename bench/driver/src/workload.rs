//! What the client sends and how it checks what comes back: the messages of a real client
//! (`initialize`, `notifications/initialized`, `tools/list`, then `tools/call`), every reply
//! parsed and compared with what it must be.

use serde_json::Value;

/// The revision the client asks for.
pub const VERSION: &str = "2025-11-25";

/// `initialize`, id 0.
pub fn initialize() -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{VERSION}","capabilities":{{}},"clientInfo":{{"name":"mcp-bench","version":"0.0.0"}}}}}}"#
    )
}

/// `notifications/initialized`.
pub const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

/// `tools/list`, id 1.
pub const LIST: &str = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#;

/// The first id of the calls.
pub const FIRST_CALL: u64 = 2;

/// The `tools/call` of `echo` with id `id`, appended to `buf`.
pub fn call(buf: &mut Vec<u8>, id: u64) {
    use std::io::Write;
    let _ = write!(
        buf,
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"hello from call {id}"}}}}}}"#
    );
}

/// The `tools/call` of `add` with id `id` (for the callgrind input), appended to `buf`.
pub fn call_add(buf: &mut Vec<u8>, id: u64) {
    use std::io::Write;
    let _ = write!(
        buf,
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"add","arguments":{{"a":{id},"b":2}}}}}}"#
    );
}

/// Which era the client speaks: the handshake era (`initialize`, a session, 2025-11-25) or the
/// stateless era (2026-07-28: every request carries its `_meta`, no session).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    Handshake,
    Stateless,
}

impl Era {
    pub fn label(self) -> &'static str {
        match self {
            Era::Handshake => "handshake (2025-11-25)",
            Era::Stateless => "stateless (2026-07-28)",
        }
    }
}

/// The revision of the stateless era.
pub const STATELESS_VERSION: &str = "2026-07-28";

/// The stateless `tools/call` of `echo` with id `id`, appended to `buf`.
pub fn call_stateless(buf: &mut Vec<u8>, id: u64) {
    use std::io::Write;
    let _ = write!(
        buf,
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"hello from call {id}"}},{STATELESS_META}}}}}"#
    );
}

/// The `tools/call` of `echo` with id `id` in `era`, appended to `buf`.
pub fn call_in(era: Era, buf: &mut Vec<u8>, id: u64) {
    match era {
        Era::Handshake => call(buf, id),
        Era::Stateless => call_stateless(buf, id),
    }
}

/// The `_meta` of a stateless (2026-07-28) request.
const STATELESS_META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

/// The stateless `tools/call` of `add` with id `id` (for the callgrind input), appended to `buf`.
pub fn call_add_stateless(buf: &mut Vec<u8>, id: u64) {
    use std::io::Write;
    let _ = write!(
        buf,
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"add","arguments":{{"a":{id},"b":2}},{STATELESS_META}}}}}"#
    );
}

/// The stateless `tools/list` a client starts with, id 1.
pub fn list_stateless_first() -> String {
    let mut buf = Vec::new();
    list_stateless(&mut buf, 1);
    String::from_utf8(buf).unwrap_or_default()
}

/// A stateless `tools/list` with id `id` (for the callgrind input), appended to `buf`.
pub fn list_stateless(buf: &mut Vec<u8>, id: u64) {
    use std::io::Write;
    let _ = write!(
        buf,
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list","params":{{{STATELESS_META}}}}}"#
    );
}

/// A `tools/list` with id `id` (for the callgrind input), appended to `buf`.
pub fn list(buf: &mut Vec<u8>, id: u64) {
    use std::io::Write;
    let _ = write!(
        buf,
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list","params":{{}}}}"#
    );
}

fn parse(text: &str) -> Result<Value, String> {
    let v: Value =
        serde_json::from_str(text).map_err(|e| format!("reply is not JSON ({e}): {text}"))?;
    if v["jsonrpc"] != "2.0" {
        return Err(format!("reply without jsonrpc 2.0: {text}"));
    }
    Ok(v)
}

/// The result of a reply to request `id`, or what is wrong with it.
fn result(text: &str, id: u64) -> Result<Value, String> {
    let mut v = parse(text)?;
    if v["id"].as_u64() != Some(id) {
        return Err(format!("expected the reply to {id}, got: {text}"));
    }
    match v.get_mut("result") {
        Some(r) if r.is_object() => Ok(r.take()),
        _ => Err(format!("reply to {id} has no result: {text}")),
    }
}

/// Checks the reply to `initialize`; returns the negotiated revision.
pub fn check_initialize(text: &str) -> Result<String, String> {
    let r = result(text, 0)?;
    if r["capabilities"]["tools"].is_null() {
        return Err(format!("the server does not offer tools: {text}"));
    }
    r["protocolVersion"]
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| format!("initialize result without protocolVersion: {text}"))
}

/// Checks the reply to `tools/list`: `echo` is there.
pub fn check_list(text: &str) -> Result<(), String> {
    let r = result(text, 1)?;
    let tools = r["tools"].as_array().ok_or("tools/list without tools")?;
    if tools.iter().any(|t| t["name"] == "echo") {
        Ok(())
    } else {
        Err(format!("tools/list has no echo: {text}"))
    }
}

/// The id a reply answers, for matching replies that come out of order.
pub fn reply_id(text: &str) -> Result<u64, String> {
    let v = parse(text)?;
    v["id"]
        .as_u64()
        .ok_or_else(|| format!("reply without a numeric id: {text}"))
}

/// Checks the reply to the stateless `tools/list` (id 1): `echo` is there, and the fields the
/// 2026-07-28 schema requires.
pub fn check_list_stateless(text: &str) -> Result<(), String> {
    check_list(text)?;
    let r = result(text, 1)?;
    if r["resultType"] != "complete" || !r["ttlMs"].is_u64() || !r["cacheScope"].is_string() {
        return Err(format!(
            "stateless tools/list without resultType, ttlMs or cacheScope: {text}"
        ));
    }
    Ok(())
}

/// [`check_call`], and in the stateless era `resultType: "complete"` too.
pub fn check_call_in(era: Era, text: &str, id: u64) -> Result<(), String> {
    if era == Era::Stateless && result(text, id)?["resultType"] != "complete" {
        return Err(format!("call {id}: no resultType \"complete\": {text}"));
    }
    check_call(text, id)
}

/// Checks the reply to the `echo` call `id`: one text block with exactly the text sent.
pub fn check_call(text: &str, id: u64) -> Result<(), String> {
    let r = result(text, id)?;
    if r["isError"] == true {
        return Err(format!("call {id} failed: {text}"));
    }
    let expected = format!("hello from call {id}");
    match (&r["content"][0]["type"], &r["content"][0]["text"]) {
        (t, Value::String(s)) if t == "text" && *s == expected => Ok(()),
        _ => Err(format!(
            "call {id}: expected the text {expected:?}, got: {text}"
        )),
    }
}

/// The JSON-RPC messages of an HTTP response body: the body itself (JSON), or the `data` of
/// each SSE event (`text/event-stream`), empty priming events skipped.
pub fn messages(body: &str, sse: bool) -> Vec<&str> {
    if !sse {
        return vec![body.trim()];
    }
    // One `data:` line per event is all the servers here send.
    body.lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .collect()
}
