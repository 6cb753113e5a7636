//! The middleware seam on every transport: one user layer sees every request and notification
//! with its outcome, and short-circuits one (`tools/call` of `blocked`), over the in-memory
//! pair, stdio (a child process), Streamable HTTP (both eras), the legacy SSE endpoint, a
//! gateway's mounted server, and in the client.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_runtime::middleware::{Layer, Outcome, from_fn};
use mcp_runtime::prelude::*;
use mcp_runtime::protocol::ErrorObject;
use serde_json::{Value, json};

/// Adds two numbers.
#[tool]
async fn add(a: i64, b: i64) -> String {
    (a + b).to_string()
}

/// Always fails (a business error: `isError`).
#[tool]
async fn fails() -> Result<String, ToolError> {
    Err(ToolError::new("nope"))
}

/// Never runs: the layer answers for it.
#[tool]
async fn blocked() -> String {
    unreachable!("the layer short-circuits this tool")
}

/// What the layer writes down: one line per message, `transport revision method target kind`.
#[derive(Clone, Default)]
struct Seen(Arc<Mutex<Vec<String>>>);

impl Seen {
    fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.0.lock().unwrap())
    }
}

const BLOCKED: &str =
    r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32000,"message":"blocked by a layer"}}"#;

/// The user layer: records, refuses `blocked` (any prefix), panics on `boom`.
fn recorder(seen: Seen) -> impl Layer {
    from_fn(move |request, next| {
        let seen = seen.clone();
        Box::pin(async move {
            let target = request.target().unwrap_or("-").to_owned();
            if target == "boom" {
                panic!("a layer that panics");
            }
            let outcome = if target == "blocked" || target.ends_with(".blocked") {
                Outcome::error(ErrorObject::new(-32000, "blocked by a layer"))
            } else {
                next.run().await
            };
            let line = format!(
                "{} {} {} {} {:?}",
                request.transport().as_str(),
                request.version().map_or("-", |v| v.as_str()),
                request.method().name().unwrap_or("?"),
                target,
                outcome.kind(),
            );
            seen.0.lock().unwrap().push(line);
            outcome
        })
    })
}

fn server(seen: &Seen) -> Server {
    Server::builder(server_info!())
        .tool(add::TOOL)
        .tool(fails::TOOL)
        .tool(blocked::TOOL)
        .layer(recorder(seen.clone()))
        .build()
        .unwrap()
}

/// What every transport's script makes the layer see (`t` the transport, `v` the revision).
fn expected(t: &str, v: &str) -> Vec<String> {
    [
        format!("{t} - initialize - Result"),
        format!("{t} {v} notifications/initialized - Notified"),
        format!("{t} {v} tools/list - Result"),
        format!("{t} {v} tools/call add Result"),
        format!("{t} {v} tools/call fails ToolError"),
        format!("{t} {v} tools/call blocked Error"),
        format!("{t} {v} ? - Error"),
    ]
    .to_vec()
}

/// The script's requests after `initialize` (ids 2 to 6) and `notifications/initialized`.
fn script() -> Vec<Value> {
    vec![
        json!({"jsonrpc":"2.0","id":2,"method":"tools/list"}),
        json!({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}}),
        json!({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"fails","arguments":{}}}),
        json!({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"blocked","arguments":{}}}),
        json!({"jsonrpc":"2.0","id":6,"method":"frobnicate"}),
    ]
}

fn init(id: i64, version: &str) -> Value {
    json!({"jsonrpc":"2.0","id":id,"method":"initialize","params":{
        "protocolVersion":version,"capabilities":{},"clientInfo":{"name":"t","version":"0"}}})
}

const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

#[tokio::test]
async fn in_memory_every_message_passes_the_layer_and_one_is_short_circuited() {
    let seen = Seen::default();
    let mut c = server(&seen).connect_in_memory();
    c.initialize("2025-11-25").await;
    let answers: Vec<Value> = {
        let mut out = Vec::new();
        for msg in script() {
            c.send(&msg).await;
            out.push(c.response(&msg["id"]).await);
        }
        out
    };
    assert_eq!(answers[1]["result"]["content"][0]["text"], "5");
    assert_eq!(answers[2]["result"]["isError"], true);
    assert_eq!(answers[3], serde_json::from_str::<Value>(BLOCKED).unwrap());
    assert_eq!(answers[4]["error"]["code"], -32601);
    // The script's last answer arrived: the layer wrote every line before.
    assert_eq!(seen.take(), expected("memory", "2025-11-25"));

    // A stateless request says its revision; a panicking layer is a masked internal error
    // and the server keeps serving.
    let r = c
        .stateless(
            "tools/call",
            json!({"name": "add", "arguments": {"a": 1, "b": 1}}),
        )
        .await;
    assert_eq!(r["result"]["content"][0]["text"], "2");
    let boom = c.call_tool("boom", json!({})).await;
    assert_eq!(boom["error"]["code"], -32603);
    let message = boom["error"]["message"].as_str().unwrap();
    assert!(message.starts_with("internal error, id "), "{message}");
    assert!(
        !message.contains("panics"),
        "the panic is not shown: {message}"
    );
    assert_eq!(c.request("ping", Value::Null).await["result"], json!({}));
    assert_eq!(
        seen.take(),
        [
            "memory 2026-07-28 tools/call add Result",
            "memory 2025-11-25 ping - Result"
        ]
    );
}

#[tokio::test]
async fn layers_compose_first_added_outermost() {
    let order = Arc::new(Mutex::new(Vec::<String>::new()));
    let named = |name: &'static str| {
        let order = Arc::clone(&order);
        from_fn(move |_request, next| {
            let order = Arc::clone(&order);
            Box::pin(async move {
                order.lock().unwrap().push(format!("{name}>"));
                let outcome = next.run().await;
                order.lock().unwrap().push(format!("<{name}"));
                outcome
            })
        })
    };
    let server = Server::builder(server_info!())
        .layer(named("outer"))
        .layer(named("inner"))
        .build()
        .unwrap();
    let mut c = server.connect_in_memory();
    c.request("ping", Value::Null).await;
    assert_eq!(
        *order.lock().unwrap(),
        ["outer>", "inner>", "<inner", "<outer"]
    );
}

/// The stdio child: the same server and layer, on stdin and stdout; the layer's lines go to
/// stderr as `seen: ...`.
#[tokio::test]
#[ignore = "run by stdio_every_message_passes_the_layer as a child process"]
async fn stdio_child() {
    assert!(std::env::var_os("MCP_TEST_CHILD").is_some(), "a child only");
    let seen = Seen::default();
    let log = seen.clone();
    let server = Server::builder(server_info!())
        .tool(add::TOOL)
        .tool(fails::TOOL)
        .tool(blocked::TOOL)
        .layer(from_fn(move |_request, next| {
            let log = log.clone();
            Box::pin(async move {
                let outcome = next.run().await;
                // Past the test harness's capture: the parent reads these lines.
                for line in log.take() {
                    writeln!(std::io::stderr(), "seen: {line}").unwrap();
                }
                outcome
            })
        }))
        .layer(recorder(seen))
        .build()
        .unwrap();
    server.serve_stdio().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stdio_every_message_passes_the_layer_and_one_is_short_circuited() {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "--ignored",
            "stdio_child",
            "--quiet",
            "--test-threads=1",
        ])
        .env("MCP_TEST_CHILD", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let (lines_tx, lines) = std::sync::mpsc::channel::<String>();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if line.starts_with('{') && lines_tx.send(line).is_err() {
                break;
            }
        }
    });
    let wait = Duration::from_secs(10);
    writeln!(stdin, "{}", init(1, "2025-11-25")).unwrap();
    let first: Value = serde_json::from_str(&lines.recv_timeout(wait).unwrap()).unwrap();
    assert_eq!(first["result"]["protocolVersion"], "2025-11-25");
    writeln!(stdin, "{INITIALIZED}").unwrap();
    let mut answers = Vec::new();
    for msg in script() {
        writeln!(stdin, "{msg}").unwrap();
        answers.push(lines.recv_timeout(wait).unwrap());
    }
    assert_eq!(answers[3], BLOCKED, "the short-circuit's exact bytes");
    assert!(answers[2].contains(r#""isError":true"#), "{}", answers[2]);
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let seen: Vec<String> = String::from_utf8(out.stderr)
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("seen: "))
        .map(str::to_owned)
        .collect();
    assert_eq!(seen, expected("stdio", "2025-11-25"));
}

fn http() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap()
}

const ACCEPT: &str = "application/json, text/event-stream";

#[cfg(feature = "http")]
async fn serve_http(server: &Server) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let server = server.clone();
    tokio::spawn(async move { server.serve_http_on(listener).await });
    base
}

#[cfg(feature = "http")]
#[tokio::test]
async fn streamable_http_every_message_passes_the_layer_and_one_is_short_circuited() {
    let seen = Seen::default();
    let url = format!("{}/mcp", serve_http(&server(&seen)).await);
    let post = |sid: Option<String>, body: String| {
        let mut req = http()
            .post(&url)
            .header("accept", ACCEPT)
            .header("content-type", "application/json");
        if let Some(sid) = sid {
            req = req
                .header("mcp-session-id", sid)
                .header("mcp-protocol-version", "2025-11-25");
        }
        req.body(body).send()
    };
    let r = post(None, init(1, "2025-11-25").to_string()).await.unwrap();
    let sid = r.headers()["mcp-session-id"].to_str().unwrap().to_owned();
    assert_eq!(r.status(), 200);
    let r = post(Some(sid.clone()), INITIALIZED.into()).await.unwrap();
    assert_eq!(r.status(), 202);
    let mut answers = Vec::new();
    for msg in script() {
        let r = post(Some(sid.clone()), msg.to_string()).await.unwrap();
        answers.push(r.text().await.unwrap());
    }
    assert_eq!(answers[3], BLOCKED, "the short-circuit's exact bytes");
    assert_eq!(seen.take(), expected("streamable-http", "2025-11-25"));

    // The stateless era, on the same endpoint.
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "0"}
    });
    let body = json!({"jsonrpc":"2.0","id":7,"method":"tools/call",
        "params":{"name":"blocked","arguments":{},"_meta":meta}});
    let r = http()
        .post(&url)
        .header("accept", ACCEPT)
        .header("content-type", "application/json")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", "blocked")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(
        r.text().await.unwrap(),
        r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32000,"message":"blocked by a layer"}}"#
    );
    assert_eq!(
        seen.take(),
        ["streamable-http 2026-07-28 tools/call blocked Error"]
    );
}

#[cfg(feature = "legacy-sse")]
#[tokio::test]
async fn legacy_sse_every_message_passes_the_layer_and_one_is_short_circuited() {
    use futures_util::StreamExt;

    let seen = Seen::default();
    let base = serve_http(&server(&seen)).await;
    let r = http().get(format!("{base}/sse")).send().await.unwrap();
    assert_eq!(r.status(), 200);
    let mut stream = r.bytes_stream();
    let mut text = String::new();
    let mut more = async || {
        let chunk = tokio::time::timeout(Duration::from_secs(10), stream.next())
            .await
            .expect("the stream goes on")
            .unwrap()
            .unwrap();
        String::from_utf8(chunk.to_vec()).unwrap()
    };
    while !text.contains("\n\n") {
        text.push_str(&more().await);
    }
    let endpoint = text
        .lines()
        .find_map(|l| l.strip_prefix("data: "))
        .expect("the endpoint event")
        .to_owned();
    let messages = format!("{base}{endpoint}");
    let send = |body: String| {
        http()
            .post(&messages)
            .header("content-type", "application/json")
            .body(body)
            .send()
    };
    let mut bodies = vec![init(1, "2024-11-05").to_string(), INITIALIZED.to_owned()];
    bodies.extend(script().iter().map(Value::to_string));
    for body in bodies {
        assert_eq!(send(body).await.unwrap().status(), 202);
    }
    // Answers come on the stream, each as one `data:` line.
    let mut data = Vec::new();
    while data.len() < 6 {
        text.push_str(&more().await);
        let done = text.rfind("\n\n").unwrap_or(0);
        data = text[..done]
            .lines()
            .filter_map(|l| l.strip_prefix("data: "))
            .filter(|d| d.starts_with('{'))
            .map(str::to_owned)
            .collect();
    }
    assert!(data.contains(&BLOCKED.to_owned()), "{data:?}");
    assert_eq!(seen.take(), expected("sse", "2024-11-05"));
}

#[cfg(feature = "client")]
#[tokio::test]
async fn a_gateway_layer_sees_forwarded_calls_and_the_mounted_server_its_own() {
    use mcp_runtime::client::Client;

    let (up_seen, gateway_seen) = (Seen::default(), Seen::default());
    let upstream = server(&up_seen);
    let link = upstream.connect_client(Client::builder()).await.unwrap();
    let gateway = Server::builder(server_info!())
        .mount("up", link)
        .layer(recorder(gateway_seen.clone()))
        .build()
        .unwrap();
    gateway.mounted().await;
    up_seen.take();
    let mut c = gateway.connect_in_memory();
    c.initialize("2025-11-25").await;
    let sum = c.call_tool("up.add", json!({"a": 2, "b": 3})).await;
    assert_eq!(sum["result"]["content"][0]["text"], "5");
    let fails = c.call_tool("up.fails", json!({})).await;
    assert_eq!(fails["result"]["isError"], true);
    let refused = c.call_tool("up.blocked", json!({})).await;
    assert_eq!(
        refused,
        json!({"jsonrpc":"2.0","id":4,"error":{"code":-32000,"message":"blocked by a layer"}})
    );
    assert_eq!(
        gateway_seen.take(),
        [
            "memory - initialize - Result",
            "memory 2025-11-25 notifications/initialized - Notified",
            "memory 2025-11-25 tools/call up.add Result",
            "memory 2025-11-25 tools/call up.fails ToolError",
            "memory 2025-11-25 tools/call up.blocked Error",
        ]
    );
    // The mounted server's own layer saw the two calls forwarded to it, by their own names,
    // and never the refused one.
    let forwarded: Vec<String> = up_seen
        .take()
        .into_iter()
        .filter(|l| l.contains("tools/call"))
        .map(|l| {
            l.split_once(' ')
                .unwrap()
                .1
                .split_once(' ')
                .unwrap()
                .1
                .to_owned()
        })
        .collect();
    assert_eq!(
        forwarded,
        ["tools/call add Result", "tools/call fails ToolError"]
    );
}

#[cfg(feature = "client")]
#[tokio::test]
async fn a_client_layer_sees_every_outgoing_request_and_short_circuits_one() {
    use mcp_runtime::client::middleware::{Outcome as ClientOutcome, from_fn as client_fn};
    use mcp_runtime::client::{Client, ClientError};

    let (server_seen, client_seen) = (Seen::default(), Seen::default());
    let log = client_seen.clone();
    let layer = client_fn(move |request, next| {
        let log = log.clone();
        Box::pin(async move {
            let target = request.target().unwrap_or("-").to_owned();
            let outcome = if target == "blocked" {
                ClientOutcome::error(ClientError::Rpc(ErrorObject::new(-32000, "not sent")))
            } else {
                next.run().await
            };
            let failed = match outcome.failure() {
                Some(ClientError::Rpc(e)) => e.code.to_string(),
                Some(other) => other.to_string(),
                None => "ok".into(),
            };
            let line = format!("{} {target} {failed}", request.method_name());
            log.0.lock().unwrap().push(line);
            outcome
        })
    });
    let server = server(&server_seen);
    let client = server
        .connect_client(
            Client::builder()
                .protocol_version(mcp_runtime::protocol::ProtocolVersion::V2025_11_25)
                .layer(layer),
        )
        .await
        .unwrap();
    let sum = client
        .call_tool("add", json!({"a": 2, "b": 3}))
        .await
        .unwrap();
    assert_eq!(sum.content[0].as_text(), Some("5"));
    let err = client.call_tool("blocked", json!({})).await.unwrap_err();
    assert!(matches!(&err, ClientError::Rpc(e) if e.code == -32000 && e.message == "not sent"));
    let err = client.call_tool("boom", json!({})).await.unwrap_err();
    assert!(
        matches!(&err, ClientError::Rpc(e) if e.code == -32603),
        "{err}"
    );
    assert_eq!(
        client_seen.take(),
        [
            "initialize - ok",
            "tools/call add ok",
            "tools/call blocked -32000",
            "tools/call boom -32603",
        ]
    );
    // The server never saw the refused call.
    let calls: Vec<String> = server_seen
        .take()
        .into_iter()
        .filter(|l| l.contains("tools/call"))
        .collect();
    assert_eq!(calls, ["memory 2025-11-25 tools/call add Result"]);
}

/// The layers see the session a message came in: none for `initialize` (its answer hands the
/// id out), the `Mcp-Session-Id` after it, none in the stateless era.
#[tokio::test]
async fn streamable_http_layers_see_the_session_id() {
    let sessions: Arc<Mutex<Vec<Option<String>>>> = Arc::default();
    let record = Arc::clone(&sessions);
    let server = Server::builder(server_info!())
        .tool(add::TOOL)
        .layer(from_fn(move |request, next| {
            record
                .lock()
                .unwrap()
                .push(request.session_id().map(str::to_owned));
            next.run()
        }))
        .build()
        .unwrap();
    let url = format!("{}/mcp", serve_http(&server).await);
    let post = |sid: Option<&str>, body: String| {
        let mut req = http()
            .post(&url)
            .header("accept", ACCEPT)
            .header("content-type", "application/json");
        if let Some(sid) = sid {
            req = req
                .header("mcp-session-id", sid)
                .header("mcp-protocol-version", "2025-11-25");
        }
        req.body(body).send()
    };
    let r = post(None, init(1, "2025-11-25").to_string()).await.unwrap();
    let sid = r.headers()["mcp-session-id"].to_str().unwrap().to_owned();
    let r = post(Some(&sid), INITIALIZED.into()).await.unwrap();
    assert_eq!(r.status(), 202);
    let call = json!({"jsonrpc":"2.0","id":2,"method":"tools/call",
        "params":{"name":"add","arguments":{"a":1,"b":2}}});
    let r = post(Some(&sid), call.to_string()).await.unwrap();
    assert_eq!(r.status(), 200);
    let _ = r.text().await.unwrap();
    assert_eq!(
        *sessions.lock().unwrap(),
        [None, Some(sid.clone()), Some(sid)]
    );
}
