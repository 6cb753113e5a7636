//! The client against a hostile server's streams: messages that are not UTF-8 (a JSON body, an
//! SSE event of a request's stream, of the standalone stream, a stdio line) are refused and
//! never repaired; `retry: 0` does not make the client reconnect in a loop; notifications the
//! client's reader has not read hold no more than `max_notification_bytes`.
#![cfg(feature = "client")]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use mcp_runtime::client::{Client, ClientError, NotificationsError, ServerNotification};
use mcp_runtime::protocol::ProtocolVersion;
use mcp_runtime::transport::memory::{MemoryTransport, pair};
use mcp_runtime::transport::{Inbound, Inbox, Outbox, Transport};
use serde_json::{Value, json};

/// The ping answer, with a byte that is not UTF-8 in a string: at byte 39.
const NOT_UTF8: &[u8] = b"{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"x\":\"\xff\"}}";
const NOT_UTF8_AT: usize = 39;

/// What the hostile server does.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// `ping` answers a JSON body that is not UTF-8, `resources/list` an SSE event that is not.
    Utf8,
    /// Every `GET` answers `retry: 0` and closes at once.
    RetryZero,
    /// `prompts/list` answers an SSE stream with an id and `retry: 0` that closes before the
    /// answer; every resumption does the same.
    ResumeZero,
    /// The standalone stream sends an event that is not UTF-8, then `tools/list_changed`,
    /// once `go` is notified.
    StandaloneUtf8,
}

/// When a `GET` came, and with which `Last-Event-ID`.
type Get = (Instant, Option<String>);

#[derive(Clone)]
struct Hostile {
    mode: Mode,
    /// When each `GET` came, and with which `Last-Event-ID`.
    gets: Arc<Mutex<Vec<Get>>>,
    posts: Arc<AtomicUsize>,
    go: Arc<tokio::sync::Notify>,
}

fn sse(body: impl Into<Body>) -> Response {
    ([("content-type", "text/event-stream")], body.into()).into_response()
}

async fn on_post(State(h): State<Hostile>, body: String) -> Response {
    h.posts.fetch_add(1, Ordering::SeqCst);
    let msg: Value = serde_json::from_str(&body).unwrap();
    let Some(id) = msg.get("id").cloned() else {
        return StatusCode::ACCEPTED.into_response();
    };
    let json = [("content-type", "application/json")];
    let result = |r: Value| {
        (
            json,
            json!({"jsonrpc":"2.0","id":id,"result":r}).to_string(),
        )
    };
    match (h.mode, msg["method"].as_str().unwrap_or("")) {
        (_, "initialize") => result(json!({
            "protocolVersion":"2025-11-25","capabilities":{"tools":{},"resources":{},"prompts":{}},
            "serverInfo":{"name":"hostile","version":"1"}}))
        .into_response(),
        (Mode::Utf8, "ping") => (json, Bytes::from_static(NOT_UTF8)).into_response(),
        (Mode::Utf8, "resources/list") => {
            let mut event = b"data: ".to_vec();
            event.extend_from_slice(NOT_UTF8);
            event.extend_from_slice(b"\n\n");
            sse(event)
        }
        (Mode::ResumeZero, "prompts/list") => sse("id: e-1\nretry: 0\n\n"),
        (_, "tools/list") => result(json!({"tools": []})).into_response(),
        _ => result(json!({})).into_response(),
    }
}

async fn on_get(State(h): State<Hostile>, headers: HeaderMap) -> Response {
    let last = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    h.gets.lock().unwrap().push((Instant::now(), last));
    match h.mode {
        Mode::Utf8 => StatusCode::METHOD_NOT_ALLOWED.into_response(),
        Mode::RetryZero | Mode::ResumeZero => sse("retry: 0\n\n"),
        Mode::StandaloneUtf8 => {
            let go = h.go.clone();
            let body = futures_util::stream::once(async move {
                go.notified().await;
                let mut events = b"data: ".to_vec();
                events.extend_from_slice(
                    b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"\xc3\"}}",
                );
                events.extend_from_slice(b"\n\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n");
                Ok::<_, std::io::Error>(Bytes::from(events))
            });
            sse(Body::from_stream(body))
        }
    }
}

async fn serve(mode: Mode) -> (String, Hostile) {
    let hostile = Hostile {
        mode,
        gets: Arc::default(),
        posts: Arc::default(),
        go: Arc::default(),
    };
    let app = Router::new()
        .route("/mcp", post(on_post).get(on_get))
        .with_state(hostile.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, hostile)
}

fn handshake() -> mcp_runtime::client::ClientBuilder {
    Client::builder().protocol_version(ProtocolVersion::V2025_11_25)
}

/// Waits until the server saw `n` `GET`s (10 s at most), then as long again as ten reconnection
/// floors (1 s): the count must not move.
async fn settled_gets(h: &Hostile, n: usize) -> Vec<Get> {
    let deadline = Instant::now() + Duration::from_secs(10);
    while h.gets.lock().unwrap().len() < n && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    h.gets.lock().unwrap().clone()
}

#[tokio::test]
async fn a_json_body_that_is_not_utf8_fails_its_request_with_the_offset() {
    assert_eq!(NOT_UTF8[NOT_UTF8_AT], 0xff);
    let (url, _) = serve(Mode::Utf8).await;
    let client = handshake().connect_http(&url).await.unwrap();
    let err = client.ping().await.unwrap_err();
    assert!(
        matches!(
            err,
            ClientError::InvalidUtf8 {
                offset: NOT_UTF8_AT
            }
        ),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "unexpected answer: a message from the server is not UTF-8 (byte 39)"
    );
    // The refusal was the request's, not the connection's.
    assert_eq!(client.list_tools_page(None).await.unwrap().tools, vec![]);
    client.close().await;
}

#[tokio::test]
async fn an_sse_event_that_is_not_utf8_fails_its_request_with_the_offset() {
    let (url, _) = serve(Mode::Utf8).await;
    let client = handshake().connect_http(&url).await.unwrap();
    let err = client.list_resources_page(None).await.unwrap_err();
    assert!(
        matches!(
            err,
            ClientError::InvalidUtf8 {
                offset: NOT_UTF8_AT
            }
        ),
        "{err:?}"
    );
    assert_eq!(client.list_tools_page(None).await.unwrap().tools, vec![]);
    client.close().await;
}

/// On the standalone stream an event that is not UTF-8 is skipped, not repaired: the next
/// notification is the one after it.
#[tokio::test]
async fn an_event_of_the_standalone_stream_that_is_not_utf8_is_skipped() {
    let (url, hostile) = serve(Mode::StandaloneUtf8).await;
    let client = handshake().connect_http(&url).await.unwrap();
    let mut notes = client.notifications();
    hostile.go.notify_one();
    let next = tokio::time::timeout(Duration::from_secs(10), notes.next())
        .await
        .unwrap();
    assert_eq!(next, Ok(ServerNotification::ToolsListChanged));
    client.close().await;
}

/// A server whose standalone stream answers `retry: 0` and closes, every time: the client opens
/// it five times (the first, and four reopenings), each at least 100 ms after the one before,
/// and no more.
#[tokio::test]
async fn retry_zero_on_the_standalone_stream_is_not_a_reconnection_loop() {
    let (url, hostile) = serve(Mode::RetryZero).await;
    let client = handshake().connect_http(&url).await.unwrap();
    let gets = settled_gets(&hostile, 5).await;
    assert_eq!(gets.len(), 5, "{gets:?}");
    for pair in gets.windows(2) {
        assert!(pair[1].0 - pair[0].0 >= Duration::from_millis(100));
    }
    // The connection itself is fine.
    client.ping().await.unwrap();
    client.close().await;
}

/// A request's stream that ends before its answer with `retry: 0`, every resumption alike: five
/// resumptions at least 100 ms apart, then the request fails.
#[tokio::test]
async fn retry_zero_on_a_request_stream_is_resumed_five_times() {
    let (url, hostile) = serve(Mode::ResumeZero).await;
    let client = handshake().listen(false).connect_http(&url).await.unwrap();
    let started = Instant::now();
    let err = client.list_prompts_page(None).await.unwrap_err();
    assert!(started.elapsed() >= Duration::from_millis(500));
    assert_eq!(
        err.to_string(),
        "transport: the event stream ended 5 times before the answer"
    );
    let gets = settled_gets(&hostile, 5).await;
    assert_eq!(gets.len(), 5, "{gets:?}");
    assert!(gets.iter().all(|(_, last)| last.as_deref() == Some("e-1")));
    client.close().await;
}

/// A child process over stdio that answers a ping first with a line that is not UTF-8, then
/// with a valid line: the first is skipped (as a line that is not JSON is), never repaired
/// into an answer.
#[tokio::test]
async fn a_stdio_line_that_is_not_utf8_is_skipped_not_repaired() {
    let script = r#"
read -r line
printf '%s\n' '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"sh","version":"1"}}}'
read -r line
read -r line
printf '{"jsonrpc":"2.0","id":2,"result":{"x":"\377"}}\n'
printf '{"jsonrpc":"2.0","id":2,"result":{"x":"ok"}}\n'
read -r line
"#;
    let mut command = tokio::process::Command::new("sh");
    command.arg("-c").arg(script);
    let client = handshake().connect_stdio(command).await.unwrap();
    let answer = client.ping().await.unwrap();
    assert_eq!(answer, json!({"x": "ok"}));
    client.close().await;
}

/// A server over a message transport that sends `burst` notifications of 1 MiB before each
/// answer to `ping`.
fn noisy_server(end: MemoryTransport, burst: usize) {
    let (mut rx, mut tx) = end.split();
    tokio::spawn(async move {
        let data = "x".repeat(1024 * 1024);
        while let Some(Ok(Inbound::Message(text))) = rx.receive().await {
            let msg: Value = serde_json::from_str(&text).unwrap();
            let Some(id) = msg.get("id").cloned() else {
                continue;
            };
            let answer = match msg["method"].as_str().unwrap_or("") {
                "initialize" => json!({"jsonrpc":"2.0","id":id,"result":{
                    "protocolVersion":"2025-11-25","capabilities":{"logging":{}},
                    "serverInfo":{"name":"noisy","version":"1"}}}),
                _ => {
                    for _ in 0..burst {
                        let note = json!({"jsonrpc":"2.0","method":"notifications/message",
                            "params":{"level":"info","data":data}});
                        if tx.send(note.to_string().into_bytes()).await.is_err() {
                            return;
                        }
                    }
                    json!({"jsonrpc":"2.0","id":id,"result":{}})
                }
            };
            if tx.send(answer.to_string().into_bytes()).await.is_err() {
                return;
            }
        }
    });
}

/// Reads every notification waiting (the ping answer came after them, so they are all in).
async fn drain(notes: &mut mcp_runtime::client::Notifications) -> (u64, usize) {
    let (mut missed, mut logs) = (0, 0);
    loop {
        let next = tokio::time::timeout(Duration::from_millis(200), notes.next()).await;
        match next {
            Ok(Err(NotificationsError::Lagged(n))) => missed += n,
            Ok(Ok(ServerNotification::Log(p))) => {
                assert_eq!(p.data.as_str().map(str::len), Some(1024 * 1024));
                logs += 1;
            }
            Ok(other) => panic!("{other:?}"),
            Err(_) => return (missed, logs),
        }
    }
}

/// Twenty notifications of 1 MiB for a reader that reads none: the queue keeps three (4 MiB
/// bound), the reader is told of the seventeen others; once read, there is room again.
#[tokio::test]
async fn unread_notifications_hold_no_more_than_their_bound() {
    let (server_end, client_end) = pair(8);
    noisy_server(server_end, 20);
    let client = handshake()
        .max_notification_bytes(4 * 1024 * 1024)
        .connect(client_end)
        .await
        .unwrap();
    let mut notes = client.notifications();
    client.ping().await.unwrap();
    assert_eq!(drain(&mut notes).await, (17, 3));
    client.ping().await.unwrap();
    assert_eq!(drain(&mut notes).await, (17, 3));
    client.close().await;
}

/// Without a bound of its own the queue holds 32 MiB: 31 notifications of 1 MiB and a little.
#[tokio::test]
async fn the_default_notification_bound_is_32_mib() {
    let (server_end, client_end) = pair(8);
    noisy_server(server_end, 40);
    let client = handshake().connect(client_end).await.unwrap();
    let mut notes = client.notifications();
    client.ping().await.unwrap();
    assert_eq!(drain(&mut notes).await, (9, 31));
    client.close().await;
}

#[tokio::test]
async fn a_zero_notification_bound_refuses_to_connect() {
    let err = Client::builder()
        .max_notification_bytes(0)
        .connect_http("http://127.0.0.1:9/mcp")
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid client configuration: max_notification_bytes must be at least 1"
    );
}
