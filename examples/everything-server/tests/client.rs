//! `mcp_runtime::client` against the real `everything-server` binary: over stdio (a spawned
//! process) and over Streamable HTTP, in the handshake era, in the stateless era and with the
//! era left to negotiation. The same calls, the same exact answers, in every combination.

use std::future::IntoFuture;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_runtime::client::{BoxFuture, Client, ClientHandler, ServerNotification};
use mcp_runtime::protocol::{
    ClientCapabilities, CreateMessageRequestParams, CreateMessageResult, ElicitAction,
    ElicitRequestParams, ElicitResult, ErrorObject, ListRootsResult, LoggingLevel, ProtocolVersion,
    Root,
};
use serde_json::json;

const BIN: &str = env!("CARGO_BIN_EXE_everything-server");
const WAIT: Duration = Duration::from_secs(20);

/// Fills every form field it knows, answers "Paris" to the model, and has one root.
struct Answers;

impl ClientHandler for Answers {
    fn elicit(
        &self,
        request: ElicitRequestParams,
    ) -> BoxFuture<'_, Result<ElicitResult, ErrorObject>> {
        let known = json!({"username": "ada", "email": "ada@example.com", "name": "Ada",
            "ok": true, "color": "blue"});
        let mut content = serde_json::Map::new();
        let schema = request.requested_schema.unwrap_or_default();
        for name in schema["properties"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(k, _)| k)
        {
            if let Some(v) = known.get(name) {
                content.insert(name.clone(), v.clone());
            }
        }
        Box::pin(async move { Ok(ElicitResult::new(ElicitAction::Accept).with_content(content)) })
    }

    fn create_message(
        &self,
        _request: CreateMessageRequestParams,
    ) -> BoxFuture<'_, Result<CreateMessageResult, ErrorObject>> {
        Box::pin(async {
            serde_json::from_value(json!({"role": "assistant", "model": "test",
                "content": {"type": "text", "text": "Paris"}}))
            .map_err(|e| ErrorObject::internal(e.to_string()))
        })
    }

    fn list_roots(&self) -> BoxFuture<'_, Result<ListRootsResult, ErrorObject>> {
        Box::pin(async { Ok(ListRootsResult::new(vec![Root::new("file:///work")])) })
    }
}

fn builder(version: Option<ProtocolVersion>) -> mcp_runtime::client::ClientBuilder {
    let caps: ClientCapabilities = serde_json::from_value(
        json!({"elicitation": {"form": {}}, "sampling": {}, "roots": {"listChanged": false}}),
    )
    .unwrap();
    let b = Client::builder()
        .capabilities(caps)
        .handler(Answers)
        .timeout(Some(WAIT));
    match version {
        Some(v) => b.protocol_version(v),
        None => b,
    }
}

async fn stdio(version: Option<ProtocolVersion>) -> Client {
    let mut command = mcp_runtime::tokio::process::Command::new(BIN);
    command
        .arg("stdio")
        .stderr(Stdio::null())
        .env_remove("RUST_LOG");
    builder(version).connect_stdio(command).await.unwrap()
}

/// An `everything-server http 127.0.0.1:0`, killed when dropped.
struct HttpServer {
    child: Child,
    url: String,
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn http_server() -> HttpServer {
    let mut child = Command::new(BIN)
        .args(["http", "127.0.0.1:0"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .env_remove("RUST_LOG")
        .spawn()
        .unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let err = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(err).lines().map_while(Result::ok) {
            if let Some(rest) = line.split("http://").nth(1) {
                let _ = tx.send(format!(
                    "http://{}",
                    rest.split_whitespace().next().unwrap_or("")
                ));
            }
        }
    });
    let url = rx.recv_timeout(WAIT).expect("the server logs its address");
    HttpServer { child, url }
}

fn text(result: &mcp_runtime::protocol::CallToolResult) -> &str {
    result.content[0].as_text().expect("a text block")
}

/// The same conversation in every era and over every transport.
async fn exercise(client: &Client) {
    let tools = client.list_tools().await.unwrap();
    assert_eq!(
        tools.len(),
        42, // 36 conformance fixtures and the 6 `scale_*` tools of the scale-out tests
        "{:?}",
        tools.iter().map(|t| &t.name).collect::<Vec<_>>()
    );
    // 3 fixtures and the 10 files of the skills (`skills/`), every era.
    assert_eq!(client.list_resources().await.unwrap().len(), 13);
    assert_eq!(client.list_resource_templates().await.unwrap().len(), 1);
    assert_eq!(client.list_prompts().await.unwrap().len(), 5);
    assert_eq!(
        client.server_info().unwrap().name,
        "everything-server",
        "server info from initialize or server/discover"
    );

    let r = client
        .call_tool("test_simple_text", json!({}))
        .await
        .unwrap();
    assert_eq!(text(&r), "This is a simple text response for testing.");

    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let r = client
        .call_tool("test_tool_with_progress", json!({}))
        .progress(move |p| log.lock().unwrap().push((p.progress, p.total)))
        .await
        .unwrap();
    assert_eq!(text(&r), "Progress test completed");
    assert_eq!(
        *seen.lock().unwrap(),
        vec![
            (0.0, Some(100.0)),
            (50.0, Some(100.0)),
            (100.0, Some(100.0))
        ]
    );

    let r = client
        .call_tool("test_sampling", json!({"prompt": "Capital of France?"}))
        .await
        .unwrap();
    assert_eq!(text(&r), "LLM response: Paris");
    let r = client
        .call_tool("test_elicitation", json!({"message": "Who?"}))
        .await
        .unwrap();
    assert_eq!(
        text(&r),
        "User response: accepted username=ada, email=ada@example.com"
    );
    let r = client
        .call_tool("test_input_required_result_multi_round", json!({}))
        .await
        .unwrap();
    assert_eq!(text(&r), "Multi-round complete for Ada who likes blue");
    let r = client
        .call_tool("test_input_required_result_list_roots", json!({}))
        .await
        .unwrap();
    assert_eq!(text(&r), "Found 1 root(s): file:///work");

    let r = client.read_resource("test://static-text").await.unwrap();
    let contents = serde_json::to_value(&r.contents).unwrap();
    assert_eq!(
        contents[0]["text"],
        "This is the content of the static text resource."
    );
    let p = client
        .get_prompt(
            "test_prompt_with_arguments",
            json!({"arg1": "a", "arg2": "b"}),
        )
        .await
        .unwrap();
    let messages = serde_json::to_value(&p.messages).unwrap();
    assert_eq!(
        messages[0]["content"]["text"],
        "Prompt with arguments: arg1='a', arg2='b'"
    );

    let err = client
        .call_tool("no_such_tool", json!({}))
        .await
        .unwrap_err();
    assert_eq!(err.rpc().map(|e| e.code), Some(-32602), "{err}");

    // Log messages at `info` and above reach the notification stream.
    let mut notes = client.notifications();
    client.set_level(LoggingLevel::Info).await.unwrap();
    let r = client
        .call_tool("test_tool_with_logging", json!({}))
        .await
        .unwrap();
    assert_eq!(text(&r), "Logging test completed");
    let mut logged = Vec::new();
    while logged.len() < 3 {
        let next = tokio::time::timeout(WAIT, notes.next())
            .await
            .unwrap()
            .unwrap();
        if let ServerNotification::Log(m) = next {
            logged.push(m.data);
        }
    }
    assert_eq!(
        logged,
        vec![
            json!("Tool execution started"),
            json!("Tool processing data"),
            json!("Tool execution completed")
        ]
    );
    client.close().await;
}

#[tokio::test]
async fn stdio_handshake_era() {
    let client = stdio(Some(ProtocolVersion::V2025_11_25)).await;
    assert_eq!(client.protocol_version(), ProtocolVersion::V2025_11_25);
    exercise(&client).await;
}

#[tokio::test]
async fn stdio_stateless_era() {
    let client = stdio(Some(ProtocolVersion::V2026_07_28)).await;
    assert_eq!(client.protocol_version(), ProtocolVersion::V2026_07_28);
    exercise(&client).await;
}

#[tokio::test]
async fn stdio_negotiated_picks_the_stateless_era() {
    let client = stdio(None).await;
    assert_eq!(client.protocol_version(), ProtocolVersion::V2026_07_28);
    exercise(&client).await;
}

#[tokio::test]
async fn http_handshake_era() {
    let server = http_server();
    let client = builder(Some(ProtocolVersion::V2025_11_25))
        .connect_http(&server.url)
        .await
        .unwrap();
    assert_eq!(client.protocol_version(), ProtocolVersion::V2025_11_25);
    assert!(
        client.session_id().is_some(),
        "the server assigns a session"
    );
    exercise(&client).await;
}

#[tokio::test]
async fn http_stateless_era() {
    let server = http_server();
    let client = builder(Some(ProtocolVersion::V2026_07_28))
        .connect_http(&server.url)
        .await
        .unwrap();
    assert_eq!(client.session_id(), None);
    exercise(&client).await;
}

#[tokio::test]
async fn http_negotiated_picks_the_stateless_era() {
    let server = http_server();
    let client = builder(None).connect_http(&server.url).await.unwrap();
    assert_eq!(client.protocol_version(), ProtocolVersion::V2026_07_28);
    exercise(&client).await;
}

/// A call whose future is dropped is cancelled; the connection goes on serving.
#[tokio::test]
async fn a_dropped_call_is_cancelled_and_the_connection_goes_on() {
    for version in [ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28] {
        let client = stdio(Some(version)).await;
        let slow = client.call_tool("test_slow_call", json!({"duration_ms": 30000}));
        let limited = tokio::time::timeout(Duration::from_millis(300), slow.into_future()).await;
        assert!(limited.is_err(), "the slow call is still running");
        let r = client
            .call_tool("test_simple_text", json!({}))
            .await
            .unwrap();
        assert_eq!(text(&r), "This is a simple text response for testing.");
        let started = std::time::Instant::now();
        client.close().await;
        assert!(started.elapsed() < Duration::from_secs(5));
    }
}

/// List changes reach the notification stream: on the session in the handshake era, through a
/// `subscriptions/listen` request in the stateless era; over stdio and over HTTP.
#[tokio::test]
async fn list_changes_reach_the_notification_stream() {
    let server = http_server();
    for version in [ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28] {
        for over_http in [false, true] {
            let client = if over_http {
                builder(Some(version))
                    .connect_http(&server.url)
                    .await
                    .unwrap()
            } else {
                stdio(Some(version)).await
            };
            let mut notes = client.notifications();
            let _listener = if version.is_stateless() {
                let mut filter = mcp_runtime::protocol::SubscriptionFilter::new();
                filter.tools_list_changed = Some(true);
                let listener = client.listen(filter).unwrap();
                // The server acknowledges the subscription before it sends anything else.
                let ack = tokio::time::timeout(WAIT, notes.next())
                    .await
                    .unwrap()
                    .unwrap();
                assert!(
                    matches!(&ack, ServerNotification::Other { method, .. } if method == "notifications/subscriptions/acknowledged"),
                    "{ack:?}"
                );
                Some(listener)
            } else {
                assert!(
                    client.listen(Default::default()).is_err(),
                    "no listen before 2026-07-28"
                );
                None
            };
            let r = client
                .call_tool("test_trigger_tool_change", json!({}))
                .await
                .unwrap();
            assert_eq!(text(&r), "Sent notifications/tools/list_changed");
            let next = tokio::time::timeout(WAIT, notes.next())
                .await
                .unwrap()
                .unwrap();
            assert_eq!(
                next,
                ServerNotification::ToolsListChanged,
                "{version:?} http={over_http}"
            );
            client.close().await;
        }
    }
}

mod in_memory {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    use mcp_runtime::client::{Client, ClientError};
    use mcp_runtime::prelude::*;

    use super::*;

    static DROPPED: AtomicBool = AtomicBool::new(false);

    struct Flag;
    impl Drop for Flag {
        fn drop(&mut self) {
            DROPPED.store(true, Ordering::SeqCst);
        }
    }

    /// Sleeps for a long time, noting when it is dropped.
    #[tool]
    async fn nap() -> String {
        let _flag = Flag;
        tokio::time::sleep(Duration::from_secs(30)).await;
        "rested".into()
    }

    static COUNTED: AtomicUsize = AtomicUsize::new(0);

    /// Waits a second.
    #[tool]
    async fn wait_a_second() -> String {
        COUNTED.fetch_add(1, Ordering::SeqCst);
        tokio::time::sleep(Duration::from_secs(1)).await;
        "waited".into()
    }

    /// Echoes a number.
    #[tool]
    async fn number(n: u32) -> String {
        n.to_string()
    }

    #[tokio::test]
    async fn a_timed_out_call_is_cancelled_on_the_server() {
        for version in [ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28] {
            DROPPED.store(false, Ordering::SeqCst);
            let server = Server::builder(server_info!())
                .tool(nap::TOOL)
                .build()
                .unwrap();
            let client = server
                .connect_client(Client::builder().protocol_version(version))
                .await
                .unwrap();
            let err = client
                .call_tool("nap", json!({}))
                .timeout(Duration::from_millis(200))
                .await
                .unwrap_err();
            assert!(
                matches!(err, ClientError::Timeout(d) if d == Duration::from_millis(200)),
                "{err}"
            );
            let started = std::time::Instant::now();
            while !DROPPED.load(Ordering::SeqCst) {
                assert!(
                    started.elapsed() < WAIT,
                    "the server never dropped the handler ({version:?})"
                );
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            client.close().await;
        }
    }

    #[tokio::test]
    async fn requests_in_flight_are_bounded() {
        let server = Server::builder(server_info!())
            .tool(wait_a_second::TOOL)
            .build()
            .unwrap();
        let client = server
            .connect_client(
                Client::builder()
                    .max_in_flight(2)
                    .protocol_version(ProtocolVersion::V2025_11_25),
            )
            .await
            .unwrap();
        let a = tokio::spawn(client.call_tool("wait_a_second", json!({})).into_future());
        let b = tokio::spawn(client.call_tool("wait_a_second", json!({})).into_future());
        let started = std::time::Instant::now();
        while COUNTED.load(Ordering::SeqCst) < 2 {
            assert!(started.elapsed() < WAIT);
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let third = client
            .call_tool("wait_a_second", json!({}))
            .await
            .unwrap_err();
        assert!(matches!(third, ClientError::TooManyInFlight(2)), "{third}");
        assert_eq!(text(&a.await.unwrap().unwrap()), "waited");
        assert_eq!(text(&b.await.unwrap().unwrap()), "waited");
        client.close().await;
        let after = client
            .call_tool("wait_a_second", json!({}))
            .await
            .unwrap_err();
        assert!(matches!(after, ClientError::Closed), "{after}");
    }

    #[tokio::test]
    async fn lists_are_read_page_after_page() {
        let server = Server::builder(server_info!())
            .tool(nap::TOOL)
            .tool(number::TOOL)
            .tool(wait_a_second::TOOL)
            .page_size(1)
            .build()
            .unwrap();
        let client = server.connect_client(Client::builder()).await.unwrap();
        let first = client.list_tools_page(None).await.unwrap();
        assert_eq!(first.tools.len(), 1);
        assert!(first.next_cursor.is_some());
        let names: Vec<String> = client
            .list_tools()
            .await
            .unwrap()
            .into_iter()
            .map(|t| t.name)
            .collect();
        assert_eq!(names, ["nap", "number", "wait_a_second"]);
        let err = client.call_tool("number", json!({"n": "x"})).await.unwrap();
        assert_eq!(
            err.is_error,
            Some(true),
            "invalid arguments are an isError result"
        );
        client.close().await;
    }
}

/// On stateless HTTP a tool whose parameter is mirrored in `Mcp-Param-Region` is called before
/// the tools were listed: the server refuses the missing header (-32020), the client lists the
/// tools and sends the call again with the header.
#[tokio::test]
async fn a_header_mismatch_lists_the_tools_and_retries_once() {
    let server = http_server();
    let client = builder(Some(ProtocolVersion::V2026_07_28))
        .connect_http(&server.url)
        .await
        .unwrap();
    let r = client
        .call_tool("test_custom_header", json!({"region": "eu-west-1"}))
        .await
        .unwrap();
    assert_eq!(text(&r), "Region: eu-west-1");
    // Now that the tools are known, the header goes with the first request.
    let r = client
        .call_tool("test_custom_header", json!({"region": " padded "}))
        .await
        .unwrap();
    assert_eq!(text(&r), "Region:  padded ");
    client.close().await;
}
