//! `bench-minimal`: the floor. The smallest tokio + serde_json program that answers what the
//! benchmark's client sends (`initialize`, `tools/list`, `tools/call` of `echo` and `add`,
//! `ping`), over stdio and over HTTP with sessions (hyper directly), with no MCP library. What
//! a framework costs is measured against this.
//!
//! ```text
//! bench-minimal [stdio]         one JSON-RPC message per line on stdin/stdout
//! bench-minimal stdio-tokio     the same, with tokio's multi-thread runtime started (for reference)
//! bench-minimal http ADDR       POST http://ADDR/mcp
//! ```
//!
//! It parses every message into a `serde_json::Value`, checks the envelope and answers with a
//! `json!` value serialised into one buffer.
//!
//! Both eras, chosen per request as the spec says: a request whose `params._meta` names a
//! protocol version is served in the stateless era (2026-07-28), with the minimum that era asks
//! of every request: the version read from `_meta` (-32022 unless it is 2026-07-28), the client's
//! capabilities required there (-32602 without them), `initialize` unknown (-32601), and the
//! result fields the 2026-07-28 schema makes required (`resultType`; `ttlMs` and `cacheScope` on
//! `tools/list`). Over HTTP such a request needs no session; its `MCP-Protocol-Version`,
//! `Mcp-Method` and `Mcp-Name` headers must match the body (-32020 and 400 otherwise). stdio is a plain blocking loop on the main thread
//! (no runtime: the cheapest way to serve stdio), its replies flushed once the input read so far
//! is answered; HTTP is hyper's HTTP/1.1 server on tokio's default runtime.

use std::collections::HashSet;
use std::convert::Infallible;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::{Method, Request, Response, StatusCode};
use serde_json::{Value, json};

/// One message, or the reply to a text that is not JSON.
fn parse(text: &str) -> Result<Value, Value> {
    serde_json::from_str::<Value>(text).map_err(|_| error(&Value::Null, -32700, "Parse error"))
}

/// The version a request names in `params._meta` (the stateless era), if any.
fn meta_version(msg: &Value) -> Option<&Value> {
    msg.get("params")?
        .get("_meta")?
        .get("io.modelcontextprotocol/protocolVersion")
}

/// What one message asks for: a reply, or nothing (a notification).
fn answer(msg: &Value) -> Option<Value> {
    let id = msg.get("id").cloned();
    if msg.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Some(error(&id.unwrap_or_default(), -32600, "Invalid request"));
    }
    let (Some(id), Some(method)) = (id, msg.get("method").and_then(Value::as_str)) else {
        return None; // a notification, or a response to nothing we sent
    };
    let params = &msg["params"];
    let stateless = match meta_version(msg) {
        None => false,
        Some(v) if v == STATELESS => {
            if params["_meta"]
                .get("io.modelcontextprotocol/clientCapabilities")
                .is_none_or(|c| !c.is_object())
            {
                return Some(error(&id, -32602, "Missing client capabilities"));
            }
            true
        }
        Some(_) => return Some(error(&id, -32022, "Unsupported protocol version")),
    };
    let mut result = match method {
        "initialize" if stateless => return Some(error(&id, -32601, "Method not found")),
        "initialize" => json!({
            "protocolVersion": "2025-11-25",
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "bench-minimal", "version": "0.0.0"}
        }),
        "ping" => json!({}),
        "tools/list" => json!({"tools": [
            {"name": "echo", "description": "Echoes the text back.", "inputSchema": {
                "type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}},
            {"name": "add", "description": "Adds two integers.", "inputSchema": {
                "type": "object",
                "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
                "required": ["a", "b"]}}
        ]}),
        "tools/call" => {
            let args = &params["arguments"];
            let text = match params["name"].as_str() {
                Some("echo") => args["text"].as_str().map(str::to_owned),
                Some("add") => match (args["a"].as_i64(), args["b"].as_i64()) {
                    (Some(a), Some(b)) => Some((a + b).to_string()),
                    _ => None,
                },
                _ => return Some(error(&id, -32602, "Unknown tool")),
            };
            match text {
                Some(text) => json!({"content": [{"type": "text", "text": text}]}),
                None => {
                    json!({"content": [{"type": "text", "text": "invalid arguments"}], "isError": true})
                }
            }
        }
        _ => return Some(error(&id, -32601, "Method not found")),
    };
    if stateless && let Value::Object(fields) = &mut result {
        if method == "tools/list" {
            fields.insert("ttlMs".to_owned(), json!(0));
            fields.insert("cacheScope".to_owned(), json!("public"));
        }
        fields.insert("resultType".to_owned(), json!("complete"));
    }
    Some(json!({"jsonrpc": "2.0", "id": id, "result": result}))
}

/// The stateless era's revision.
const STATELESS: &str = "2026-07-28";

fn error(id: &Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

fn stdio() -> std::io::Result<()> {
    let mut input = std::io::BufReader::new(std::io::stdin());
    let mut stdout = std::io::stdout().lock();
    let (mut line, mut out) = (String::new(), Vec::new());
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return Ok(());
        }
        if let Some(reply) = parse(&line).map_or_else(Some, |msg| answer(&msg)) {
            serde_json::to_writer(&mut out, &reply)?;
            out.push(b'\n');
        }
        if !out.is_empty() && input.buffer().is_empty() {
            stdout.write_all(&out)?;
            stdout.flush()?;
            out.clear();
        }
    }
}

/// The live session ids.
#[derive(Default)]
struct Sessions {
    ids: Mutex<HashSet<String>>,
    next: AtomicU64,
}

fn respond(status: StatusCode, body: Vec<u8>, session: Option<&str>) -> Response<Full<Bytes>> {
    let mut r = Response::builder()
        .status(status)
        .header("content-type", "application/json");
    if let Some(id) = session {
        r = r.header("mcp-session-id", id);
    }
    r.body(Full::new(Bytes::from(body))).unwrap_or_default()
}

async fn post(sessions: Arc<Sessions>, req: Request<Incoming>) -> Response<Full<Bytes>> {
    if req.uri().path() != "/mcp" {
        return respond(StatusCode::NOT_FOUND, Vec::new(), None);
    }
    if req.method() != Method::POST {
        return respond(StatusCode::METHOD_NOT_ALLOWED, Vec::new(), None);
    }
    let header = |name: &str| {
        req.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let sid = header("mcp-session-id");
    let version = header("mcp-protocol-version");
    let (mcp_method, mcp_name) = (header("mcp-method"), header("mcp-name"));
    let Ok(body) = req.into_body().collect().await else {
        return respond(StatusCode::BAD_REQUEST, Vec::new(), None);
    };
    let msg = match std::str::from_utf8(&body.to_bytes()).map(parse) {
        Ok(Ok(msg)) => msg,
        Ok(Err(reply)) => {
            let body = serde_json::to_vec(&reply).unwrap_or_default();
            return respond(StatusCode::BAD_REQUEST, body, None);
        }
        Err(_) => return respond(StatusCode::BAD_REQUEST, Vec::new(), None),
    };
    if version.as_deref() == Some(STATELESS) {
        return stateless_post(&msg, mcp_method.as_deref(), mcp_name.as_deref());
    }
    let initialize = msg["method"] == "initialize";
    let session = if initialize {
        let id = format!("{:016x}", sessions.next.fetch_add(1, Ordering::Relaxed));
        let mut ids = sessions.ids.lock().unwrap_or_else(|e| e.into_inner());
        ids.insert(id.clone());
        Some(id)
    } else {
        let ids = sessions.ids.lock().unwrap_or_else(|e| e.into_inner());
        if !sid.is_some_and(|s| ids.contains(&s)) {
            return respond(StatusCode::NOT_FOUND, Vec::new(), None);
        }
        None
    };
    match answer(&msg) {
        Some(reply) => {
            let body = serde_json::to_vec(&reply).unwrap_or_default();
            respond(StatusCode::OK, body, session.as_deref())
        }
        None => respond(StatusCode::ACCEPTED, Vec::new(), None),
    }
}

/// A stateless-era POST: no session; the standard headers must match the body.
fn stateless_post(msg: &Value, method: Option<&str>, name: Option<&str>) -> Response<Full<Bytes>> {
    let body_method = msg["method"].as_str();
    let named = matches!(body_method, Some("tools/call"));
    let mismatch = method.is_none()
        || method != body_method
        || meta_version(msg).and_then(Value::as_str) != Some(STATELESS)
        || (named && name != msg["params"]["name"].as_str());
    let reply = if mismatch {
        Some(error(&msg["id"], -32020, "Header mismatch"))
    } else {
        answer(msg)
    };
    let Some(reply) = reply else {
        return respond(StatusCode::ACCEPTED, Vec::new(), None);
    };
    let status = match reply["error"]["code"].as_i64() {
        None => StatusCode::OK,
        Some(-32601) => StatusCode::NOT_FOUND,
        Some(_) => StatusCode::BAD_REQUEST,
    };
    respond(status, serde_json::to_vec(&reply).unwrap_or_default(), None)
}

async fn http(addr: &str) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    eprintln!(
        "serving MCP over HTTP at http://{}/mcp",
        listener.local_addr()?
    );
    let sessions = Arc::new(Sessions::default());
    loop {
        let (tcp, _) = listener.accept().await?;
        tcp.set_nodelay(true)?;
        let sessions = Arc::clone(&sessions);
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |req| {
                let sessions = Arc::clone(&sessions);
                async move { Ok::<_, Infallible>(post(sessions, req).await) }
            });
            let io = hyper_util::rt::TokioIo::new(tcp);
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(io, service)
                .await;
        });
    }
}

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None | Some("stdio") => stdio(),
        // The same loop with tokio's default multi-thread runtime started (its workers idle), as
        // every tokio server has it: what the runtime alone adds to start-up and memory.
        Some("stdio-tokio") => tokio::runtime::Runtime::new()?.block_on(async { stdio() }),
        Some("http") => {
            let addr = args.get(1).map_or("127.0.0.1:8000", String::as_str);
            tokio::runtime::Runtime::new()?.block_on(http(addr))
        }
        Some(other) => {
            eprintln!("usage: bench-minimal [stdio | stdio-tokio | http ADDR] (got `{other}`)");
            std::process::exit(2);
        }
    }
}
