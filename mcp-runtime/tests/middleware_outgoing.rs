//! What the server sends passes its layers too: a layer that asks to
//! (`from_fn(..).with_outgoing()`) sees an elicitation round trip, a progress notification, a
//! log message and a `list_changed` notification, answers `roots/list` itself (the handler sees
//! its answer, the client never sees the request) and drops the log message; a layer that did
//! not ask sees only the client's messages. In memory and over stdio (a child process). A
//! layer's error for a request to the client is the handler's refusal; an answer that never
//! comes stays the handler's time limit. And the client's side of it: a client layer that
//! asks sees the server's questions and notifications, and answers one.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use mcp_runtime::ListChanged;
use mcp_runtime::middleware::{Kind, Layer, Outcome, from_fn};
use mcp_runtime::prelude::*;
use serde_json::{Value, json};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Name {
    /// Your name
    name: String,
}

/// The server this process serves, for the tool that announces a list change.
static SERVER: OnceLock<Server> = OnceLock::new();

/// Reports progress, asks the user and the client's roots, logs, and says the tools changed.
#[tool]
async fn ask(ctx: Context) -> Result<String, ToolError> {
    ctx.progress(1.0, Some(2.0), Some("asking")).await;
    let who = match ctx.elicit::<Name>("Who are you?").await? {
        Elicitation::Accept(n) => n.name,
        Elicitation::Decline | Elicitation::Cancel => "nobody".into(),
    };
    let roots = ctx.roots().await?;
    ctx.log(LoggingLevel::Info, "asked").await;
    if let Some(server) = SERVER.get() {
        server.notify_list_changed(ListChanged::Tools);
    }
    let uris: Vec<&str> = roots.iter().map(|r| r.uri.as_str()).collect();
    Ok(format!("{who} {}", uris.join(",")))
}

#[derive(Clone, Default)]
struct Seen(Arc<Mutex<Vec<String>>>);

impl Seen {
    fn push(&self, line: String) {
        self.0.lock().unwrap().push(line);
    }

    fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.0.lock().unwrap())
    }
}

/// Sees both ways; writes what the server sends: a notification as it enters (before it is
/// sent), a request with its outcome. Answers `roots/list`, drops `notifications/message`.
fn outgoing(seen: Seen) -> impl Layer {
    from_fn(move |request, next| {
        let seen = seen.clone();
        Box::pin(async move {
            if !request.is_outgoing() {
                return next.run().await;
            }
            let method = request.method().name().unwrap_or("?");
            let params = request.params().map_or("-", |p| p.get());
            let transport = request.transport().as_str();
            if request.kind() == Kind::Notification {
                seen.push(format!("{transport} notification {method} {params}"));
                if method == "notifications/message" {
                    return Outcome::notified();
                }
                return next.run().await;
            }
            let outcome = if method == "roots/list" {
                Outcome::result(&json!({"roots": [{"uri": "file:///from-layer"}]})).unwrap()
            } else {
                next.run().await
            };
            let id = request.id().map(ToString::to_string).unwrap_or_default();
            let version = request.version().map_or("-", |v| v.as_str());
            let answer = outcome.result_json().unwrap_or("-");
            seen.push(format!(
                "{transport} request {id} {version} {method} {:?} {answer}",
                outcome.kind()
            ));
            outcome
        })
    })
    .with_outgoing()
}

/// Sees only what the client sends (it did not ask for more).
fn incoming(seen: Seen) -> impl Layer {
    from_fn(move |request, next| {
        let seen = seen.clone();
        Box::pin(async move {
            let direction = format!("{:?}", request.direction());
            let method = request.method().name().unwrap_or("?").to_owned();
            seen.push(format!("{direction} {method}"));
            next.run().await
        })
    })
}

fn server(out: &Seen, inc: &Seen) -> Server {
    let server = Server::builder(server_info!())
        .tool(ask::TOOL)
        .layer(incoming(inc.clone()))
        .layer(outgoing(out.clone()))
        .build()
        .unwrap();
    let _ = SERVER.set(server.clone());
    server
}

fn init() -> Value {
    json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{
        "protocolVersion":"2025-11-25",
        "capabilities":{"elicitation":{"form":{}},"roots":{}},
        "clientInfo":{"name":"t","version":"0"}}})
}

const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

fn call() -> Value {
    json!({"jsonrpc":"2.0","id":2,"method":"tools/call",
        "params":{"name":"ask","arguments":{},"_meta":{"progressToken":"p"}}})
}

fn accept() -> Value {
    json!({"jsonrpc":"2.0","id":"s-1","result":{"action":"accept","content":{"name":"Ada"}}})
}

/// What the outgoing layer writes, over transport `t`.
fn expected(t: &str) -> Vec<String> {
    [
        format!(
            r#"{t} notification notifications/progress {{"progressToken":"p","progress":1.0,"total":2.0,"message":"asking"}}"#
        ),
        format!(r#"{t} request s-1 2025-11-25 elicitation/create Result {{"action":"accept","content":{{"name":"Ada"}}}}"#),
        format!(r#"{t} request s-2 2025-11-25 roots/list Result {{"roots":[{{"uri":"file:///from-layer"}}]}}"#),
        format!(r#"{t} notification notifications/message {{"level":"info","data":"asked"}}"#),
        format!("{t} notification notifications/tools/list_changed {{}}"),
    ]
    .to_vec()
}

/// What the client receives after its call, in order: the progress, the question, and (in
/// either order: the hub's notification and the reply take separate ways) the tools'
/// `list_changed` and the call's answer. Never `roots/list` or the log message.
fn check_received(received: &[Value]) {
    assert_eq!(received.len(), 4, "{received:?}");
    assert_eq!(received[0]["method"], "notifications/progress");
    assert_eq!(received[0]["params"]["progressToken"], "p");
    assert_eq!(received[1]["method"], "elicitation/create");
    assert_eq!(received[1]["id"], "s-1");
    let mut rest: Vec<&Value> = received[2..].iter().collect();
    rest.sort_by_key(|m| m.get("id").is_some());
    assert_eq!(
        *rest[0],
        json!({"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{}})
    );
    assert_eq!(rest[1]["id"], 2);
    assert_eq!(
        rest[1]["result"]["content"][0]["text"],
        "Ada file:///from-layer"
    );
}

#[tokio::test]
async fn in_memory_a_layer_sees_what_the_server_sends_and_answers_a_request_to_the_client() {
    let (out, inc) = (Seen::default(), Seen::default());
    let mut c = server(&out, &inc).connect_in_memory();
    c.send(&init()).await;
    assert_eq!(c.recv().await.unwrap()["id"], 1);
    c.send_raw(INITIALIZED).await;
    c.send(&call()).await;
    let mut received = Vec::new();
    while received.len() < 4 {
        let msg = c.recv().await.expect("the server goes on");
        if msg["method"] == "elicitation/create" {
            c.send(&accept()).await;
        }
        received.push(msg);
    }
    check_received(&received);
    assert_eq!(out.take(), expected("memory"));
    assert_eq!(
        inc.take(),
        [
            "Incoming initialize",
            "Incoming notifications/initialized",
            "Incoming tools/call"
        ],
        "a layer that did not ask sees none of the server's messages"
    );
}

/// The stdio child: the same server on stdin and stdout; the layer's lines go to stderr as
/// `seen: ...` when stdin closes.
#[tokio::test]
#[ignore = "run by stdio_a_layer_sees_what_the_server_sends as a child process"]
async fn stdio_outgoing_child() {
    assert!(std::env::var_os("MCP_TEST_CHILD").is_some(), "a child only");
    let (out, inc) = (Seen::default(), Seen::default());
    server(&out, &inc).serve_stdio().await.unwrap();
    for line in out.take() {
        writeln!(std::io::stderr(), "seen: {line}").unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stdio_a_layer_sees_what_the_server_sends() {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "--ignored",
            "stdio_outgoing_child",
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
    let (lines_tx, lines) = std::sync::mpsc::channel::<Value>();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let Ok(msg) = serde_json::from_str(&line) else {
                continue;
            };
            if lines_tx.send(msg).is_err() {
                break;
            }
        }
    });
    let wait = Duration::from_secs(10);
    writeln!(stdin, "{}", init()).unwrap();
    assert_eq!(lines.recv_timeout(wait).unwrap()["id"], 1);
    writeln!(stdin, "{INITIALIZED}").unwrap();
    writeln!(stdin, "{}", call()).unwrap();
    let mut received = Vec::new();
    while received.len() < 4 {
        let msg = lines.recv_timeout(wait).unwrap();
        if msg["method"] == "elicitation/create" {
            writeln!(stdin, "{}", accept()).unwrap();
        }
        received.push(msg);
    }
    check_received(&received);
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let seen: Vec<String> = String::from_utf8(output.stderr)
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("seen: "))
        .map(str::to_owned)
        .collect();
    assert_eq!(seen, expected("stdio"));
}

/// The client's side: a client layer that asks sees the server's questions around the
/// client's handler, answers `roots/list` itself (the server's handler sees its answer), and
/// sees the server's log message; it sees none of it without asking.
#[cfg(feature = "client")]
#[tokio::test]
async fn a_client_layer_sees_the_servers_questions_and_notifications_and_answers_one() {
    use mcp_runtime::client::middleware::{Outcome as ClientOutcome, from_fn as client_fn};
    use mcp_runtime::client::protocol::{ElicitAction, ElicitRequestParams, ElicitResult};
    use mcp_runtime::client::{BoxFuture, Client, ClientHandler};
    use mcp_runtime::protocol::{ClientCapabilities, ErrorObject};

    struct Grace;

    impl ClientHandler for Grace {
        fn elicit(
            &self,
            _request: ElicitRequestParams,
        ) -> BoxFuture<'_, Result<ElicitResult, ErrorObject>> {
            let mut result = ElicitResult::new(ElicitAction::Accept);
            result.content = Some(serde_json::from_value(json!({"name": "Grace"})).unwrap());
            Box::pin(async move { Ok(result) })
        }
    }

    let seen = Seen::default();
    let log = seen.clone();
    let both = client_fn(move |request, next| {
        let log = log.clone();
        Box::pin(async move {
            let method = request.method_name().to_owned();
            let outcome = if method == "roots/list" {
                ClientOutcome::result(&json!({"roots": [{"uri": "file:///client-layer"}]})).unwrap()
            } else {
                next.run().await
            };
            let id = request.id().map(ToString::to_string).unwrap_or("-".into());
            let text = outcome.text().unwrap_or("-").to_owned();
            log.push(format!("{:?} {id} {method} {text}", request.direction()));
            outcome
        })
    })
    .with_incoming();
    let plain_seen = Seen::default();
    let plain_log = plain_seen.clone();
    let plain = client_fn(move |request, next| {
        plain_log.push(format!(
            "{:?} {}",
            request.direction(),
            request.method_name()
        ));
        next.run()
    });
    let server = Server::builder(server_info!())
        .tool(ask::TOOL)
        .build()
        .unwrap();
    let caps: ClientCapabilities =
        serde_json::from_value(json!({"elicitation": {"form": {}}, "roots": {}})).unwrap();
    let client = server
        .connect_client(
            Client::builder()
                .protocol_version(mcp_runtime::protocol::ProtocolVersion::V2025_11_25)
                .capabilities(caps)
                .handler(Grace)
                .layer(plain)
                .layer(both),
        )
        .await
        .unwrap();
    let result = client.call_tool("ask", json!({})).await.unwrap();
    assert_eq!(
        result.content[0].as_text(),
        Some("Grace file:///client-layer")
    );
    let seen = seen.take();
    assert_eq!(seen.len(), 5, "{seen:?}");
    assert!(
        seen[0].starts_with("Outgoing 1 initialize {"),
        "{}",
        seen[0]
    );
    assert_eq!(
        seen[1..],
        [
            r#"Incoming s-1 elicitation/create {"jsonrpc":"2.0","id":null,"result":{"action":"accept","content":{"name":"Grace"}}}"#,
            r#"Incoming s-2 roots/list {"jsonrpc":"2.0","id":null,"result":{"roots":[{"uri":"file:///client-layer"}]}}"#,
            "Incoming - notifications/message -",
            r#"Outgoing 2 tools/call {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"Grace file:///client-layer"}]}}"#,
        ]
    );
    assert_eq!(
        plain_seen.take(),
        ["Outgoing initialize", "Outgoing tools/call"],
        "a layer that did not ask sees only the client's requests"
    );
}

/// Asks for a sample twice: the layer refuses the first (the handler sees its error as the
/// client's), lets the second through (the client never answers: the handler sees the time
/// limit, not the internal error the layers saw).
#[tool]
async fn sample_twice(ctx: Context) -> String {
    use mcp_runtime::protocol::{CreateMessageRequestParams, SamplingMessage};
    let ask = || CreateMessageRequestParams::new(vec![SamplingMessage::user("Hi")], 10);
    let first = match ctx.sample(ask()).await {
        Err(InteractionError::Rejected(e)) => format!("rejected {} {}", e.code, e.message),
        other => format!("{other:?}"),
    };
    let second = match ctx.sample(ask()).await {
        Err(InteractionError::TimedOut) => "timed out".to_owned(),
        other => format!("{other:?}"),
    };
    format!("{first}; {second}")
}

#[tokio::test]
async fn a_layers_error_is_the_clients_refusal_and_a_missing_answer_stays_a_time_limit() {
    use mcp_runtime::protocol::ErrorObject;
    let seen = Seen::default();
    let log = seen.clone();
    let refuse_first = from_fn(move |request, next| {
        let log = log.clone();
        Box::pin(async move {
            let id = request.id().map(ToString::to_string).unwrap_or_default();
            let outcome = if request.is_outgoing() && id == "s-1" {
                Outcome::error(ErrorObject::new(-32000, "no sampling here"))
            } else {
                next.run().await
            };
            if request.is_outgoing() {
                let code = outcome.error_object().map(|e| (e.code, e.message.clone()));
                log.push(format!("{id} {:?} {code:?}", outcome.kind()));
            }
            outcome
        })
    })
    .with_outgoing();
    let server = Server::builder(server_info!())
        .tool(sample_twice::TOOL)
        .client_request_timeout(Duration::from_millis(200))
        .layer(refuse_first)
        .build()
        .unwrap();
    let mut c = server.connect_in_memory();
    c.send(
        &json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{
        "protocolVersion":"2025-11-25","capabilities":{"sampling":{}},
        "clientInfo":{"name":"t","version":"0"}}}),
    )
    .await;
    assert_eq!(c.recv().await.unwrap()["id"], 1);
    c.send_raw(INITIALIZED).await;
    c.send(&json!({"jsonrpc":"2.0","id":2,"method":"tools/call",
        "params":{"name":"sample_twice","arguments":{}}}))
        .await;
    // Only the second request reaches the client; it is left unanswered.
    let asked = c.recv().await.unwrap();
    assert_eq!(asked["method"], "sampling/createMessage");
    assert_eq!(asked["id"], "s-2");
    let answer = c.recv().await.unwrap();
    assert_eq!(answer["id"], 2);
    assert_eq!(
        answer["result"]["content"][0]["text"],
        "rejected -32000 no sampling here; timed out"
    );
    assert_eq!(
        seen.take(),
        [
            r#"s-1 Error Some((-32000, "no sampling here"))"#,
            r#"s-2 Error Some((-32603, "the client did not answer in time"))"#,
        ]
    );
}
