//! A gateway (`ServerBuilder::mount`) forwards everything it declares, and declares nothing it
//! cannot forward: its capabilities follow the backend's; `logging/setLevel` reaches the backend
//! and its `notifications/message` the sessions that set a level, at their level; completion of
//! a mounted prompt's argument and template's variable; `resources/subscribe` (and the stateless
//! era's `subscriptions/listen`) held on the backend with `notifications/resources/updated`
//! relayed under the gateway's URI; the backend's list changes; progress and cancellation. Each
//! in every mix of eras: the gateway's client and the backend each in 2025-11-25 or 2026-07-28.
//! The backends are servers of this framework over in-memory pairs, and one hand-written
//! backend that declares little.
#![cfg(feature = "client")]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use mcp_runtime::client::{Client, Notifications, ServerNotification};
use mcp_runtime::prelude::*;
use mcp_runtime::protocol::{
    CompleteRequestParams, LoggingLevel, ProtocolVersion, SubscriptionFilter,
};
use mcp_runtime::transport::{Inbound, Inbox, Outbox, Transport, memory};
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(20);
const OLD: ProtocolVersion = ProtocolVersion::V2025_11_25;
const NEW: ProtocolVersion = ProtocolVersion::V2026_07_28;

/// Logs at four levels, the error last.
#[tool]
async fn chatter(ctx: Context) -> &'static str {
    ctx.log(LoggingLevel::Debug, "debug").await;
    ctx.log(LoggingLevel::Info, "info").await;
    ctx.log(LoggingLevel::Warning, "warning").await;
    ctx.log(LoggingLevel::Error, "error").await;
    "said"
}

/// The backend's own handle (for `touch`).
#[derive(Default, Clone)]
struct Me(Arc<OnceLock<Server>>);

/// Says that `note://{id}` changed.
#[tool]
async fn touch(id: u32, me: State<Me>) -> String {
    if let Some(server) = me.0.get() {
        server.notify_resource_updated(&format!("note://{id}"));
    }
    format!("touched {id}")
}

/// Counts the `hold` calls whose future was dropped.
#[derive(Default, Clone)]
struct Dropped(Arc<(AtomicUsize, tokio::sync::Notify)>);

struct OnDrop(Dropped);

impl Drop for OnDrop {
    fn drop(&mut self) {
        (self.0).0.0.fetch_add(1, Ordering::SeqCst);
        (self.0).0.1.notify_one();
    }
}

/// Reports progress 1 of 2, then waits until cancelled.
#[tool]
async fn hold(ctx: Context, dropped: State<Dropped>) -> String {
    let _guard = OnDrop(Dropped::clone(&dropped));
    ctx.progress(1.0, Some(2.0), Some("holding")).await;
    std::future::pending::<()>().await;
    "never".into()
}

/// Added while the gateway runs.
#[tool]
async fn late() -> &'static str {
    "late"
}

fn names(req: &CompletionRequest) -> Vec<String> {
    ["Ada", "Alan", "Grace"]
        .into_iter()
        .filter(|n| n.starts_with(req.value()))
        .map(String::from)
        .collect()
}

fn ids(req: &CompletionRequest) -> Vec<String> {
    ["7", "70", "8"]
        .into_iter()
        .filter(|n| n.starts_with(req.value()))
        .map(String::from)
        .collect()
}

/// Greets someone.
#[prompt]
async fn greet(#[arg(complete = names)] name: String) -> String {
    format!("Hello, {name}!")
}

/// One note.
#[resource(uri = "note://{id}")]
async fn note(#[arg(complete = ids)] id: u32) -> String {
    format!("note {id}")
}

struct Setup {
    gateway: Server,
    backend: Server,
    dropped: Dropped,
}

/// The backend in `backend_era`, mounted as `up`.
async fn setup(backend_era: ProtocolVersion) -> Setup {
    let me = Me::default();
    let dropped = Dropped::default();
    let backend = Server::builder(server_info!())
        .tool(chatter::TOOL)
        .tool(touch::TOOL)
        .tool(hold::TOOL)
        .prompt(greet::PROMPT)
        .resource(note::RESOURCE)
        .state(me.clone())
        .state(dropped.clone())
        .build()
        .unwrap();
    let _ = me.0.set(backend.clone());
    let link = backend
        .connect_client(
            Client::builder()
                .protocol_version(backend_era)
                .timeout(Some(WAIT)),
        )
        .await
        .unwrap();
    assert_eq!(link.protocol_version(), backend_era);
    let gateway = Server::builder(server_info!())
        .mount("up", link)
        .build()
        .unwrap();
    tokio::time::timeout(WAIT, gateway.mounted()).await.unwrap();
    Setup {
        gateway,
        backend,
        dropped,
    }
}

async fn client(gateway: &Server, era: ProtocolVersion) -> Client {
    let c = gateway
        .connect_client(Client::builder().protocol_version(era).timeout(Some(WAIT)))
        .await
        .unwrap();
    assert_eq!(c.protocol_version(), era);
    c
}

/// The next notification (within [`WAIT`]).
async fn next(notes: &mut Notifications) -> ServerNotification {
    tokio::time::timeout(WAIT, notes.next())
        .await
        .expect("a notification in time")
        .expect("the connection is open")
}

/// The log messages up to the first `error` one, as `[level, data]`.
async fn logs_to_error(notes: &mut Notifications) -> Vec<Value> {
    let mut seen = Vec::new();
    loop {
        if let ServerNotification::Log(m) = next(notes).await {
            let m = serde_json::to_value(&m).unwrap();
            seen.push(json!([m["level"], m["data"]]));
            if m["level"] == "error" {
                return seen;
            }
        }
    }
}

/// Skips to the acknowledgement of a `subscriptions/listen`.
async fn acknowledged(notes: &mut Notifications) {
    loop {
        if let ServerNotification::Other { method, .. } = next(notes).await
            && method == "notifications/subscriptions/acknowledged"
        {
            return;
        }
    }
}

fn complete_params(v: Value) -> CompleteRequestParams {
    serde_json::from_value(v).unwrap()
}

async fn scenario(client_era: ProtocolVersion, backend_era: ProtocolVersion) {
    let s = setup(backend_era).await;
    let c = client(&s.gateway, client_era).await;

    // What the gateway declares: the backend's, since it has nothing of its own.
    assert_eq!(
        serde_json::to_value(c.server_capabilities()).unwrap(),
        json!({
            "completions": {},
            "logging": {},
            "prompts": {"listChanged": true},
            "resources": {"listChanged": true, "subscribe": true},
            "tools": {"listChanged": true}
        })
    );

    // Completion of a mounted prompt's argument and template's variable, exact values.
    let r = c
        .complete(&complete_params(json!({
            "ref": {"type": "ref/prompt", "name": "up.greet"},
            "argument": {"name": "name", "value": "A"}
        })))
        .await
        .unwrap();
    assert_eq!(
        serde_json::to_value(&r.completion).unwrap(),
        json!({"values": ["Ada", "Alan"]})
    );
    let r = c
        .complete(&complete_params(json!({
            "ref": {"type": "ref/resource", "uri": "up+note://{id}"},
            "argument": {"name": "id", "value": "7"}
        })))
        .await
        .unwrap();
    assert_eq!(
        serde_json::to_value(&r.completion).unwrap(),
        json!({"values": ["7", "70"]})
    );
    let err = c
        .complete(&complete_params(json!({
            "ref": {"type": "ref/prompt", "name": "up.nope"},
            "argument": {"name": "name", "value": ""}
        })))
        .await
        .unwrap_err();
    assert_eq!(err.rpc().map(|e| e.code), Some(-32602), "{err}");

    // Logging at the level set: warning and above, not debug or info.
    let mut notes = c.notifications();
    c.set_level(LoggingLevel::Warning).await.unwrap();
    let r = c.call_tool("up.chatter", json!({})).await.unwrap();
    assert_eq!(r.content[0].as_text(), Some("said"));
    assert_eq!(
        logs_to_error(&mut notes).await,
        [json!(["warning", "warning"]), json!(["error", "error"])]
    );

    // A subscription: the update of the subscribed resource comes, under our URI.
    let _listener = if client_era.is_stateless() {
        let mut filter = SubscriptionFilter::new();
        filter.resource_subscriptions = Some(vec!["up+note://7".into()]);
        filter.tools_list_changed = Some(true);
        let listener = c.listen(filter).unwrap();
        acknowledged(&mut notes).await;
        Some(listener)
    } else {
        c.subscribe("up+note://7").await.unwrap();
        None
    };
    // Not subscribed: no notification for note 8; then note 7's.
    c.call_tool("up.touch", json!({"id": 8})).await.unwrap();
    c.call_tool("up.touch", json!({"id": 7})).await.unwrap();
    loop {
        match next(&mut notes).await {
            ServerNotification::ResourceUpdated(p) => {
                assert_eq!(p.uri, "up+note://7");
                break;
            }
            ServerNotification::Log(_) => {}
            other => panic!("unexpected {other:?}"),
        }
    }

    // The backend's list change reaches our client, and the new tool is served.
    s.backend.add_tool(late::TOOL).unwrap();
    loop {
        match next(&mut notes).await {
            ServerNotification::ToolsListChanged => break,
            ServerNotification::Log(_) | ServerNotification::ResourceUpdated(_) => {}
            other => panic!("unexpected {other:?}"),
        }
    }
    let r = c.call_tool("up.late", json!({})).await.unwrap();
    assert_eq!(r.content[0].as_text(), Some("late"));

    // Progress comes back; cancelling the call cancels the backend's handler.
    let (tx, mut first) = tokio::sync::mpsc::channel(4);
    let call = c
        .call_tool("up.hold", json!({}))
        .progress(move |p| {
            let _ = tx.try_send((p.progress, p.total, p.message));
        })
        .into_future();
    let running = tokio::spawn(call);
    assert_eq!(
        tokio::time::timeout(WAIT, first.recv()).await.unwrap(),
        Some((1.0, Some(2.0), Some("holding".to_owned())))
    );
    running.abort();
    tokio::time::timeout(WAIT, (s.dropped.0).1.notified())
        .await
        .unwrap();
    assert_eq!((s.dropped.0).0.load(Ordering::SeqCst), 1);
    c.close().await;
}

#[tokio::test]
async fn handshake_client_handshake_backend() {
    scenario(OLD, OLD).await;
}

#[tokio::test]
async fn handshake_client_stateless_backend() {
    scenario(OLD, NEW).await;
}

#[tokio::test]
async fn stateless_client_handshake_backend() {
    scenario(NEW, OLD).await;
}

#[tokio::test]
async fn stateless_client_stateless_backend() {
    scenario(NEW, NEW).await;
}

/// Two handshake-era sessions at two levels: each gets the backend's messages at its own
/// level (the backend is set to the more verbose one).
#[tokio::test]
async fn each_session_gets_the_messages_of_its_level() {
    let s = setup(OLD).await;
    let verbose = client(&s.gateway, OLD).await;
    let quiet = client(&s.gateway, OLD).await;
    let mut loud_notes = verbose.notifications();
    let mut quiet_notes = quiet.notifications();
    quiet.set_level(LoggingLevel::Warning).await.unwrap();
    verbose.set_level(LoggingLevel::Debug).await.unwrap();
    quiet.call_tool("up.chatter", json!({})).await.unwrap();
    assert_eq!(
        logs_to_error(&mut loud_notes).await,
        [
            json!(["debug", "debug"]),
            json!(["info", "info"]),
            json!(["warning", "warning"]),
            json!(["error", "error"])
        ]
    );
    assert_eq!(
        logs_to_error(&mut quiet_notes).await,
        [json!(["warning", "warning"]), json!(["error", "error"])]
    );
    // A session that set no level gets none of the backend's messages: the next message it
    // gets is the update it subscribed to, made after the backend logged.
    let silent = client(&s.gateway, OLD).await;
    let mut silent_notes = silent.notifications();
    silent.subscribe("up+note://7").await.unwrap();
    silent.call_tool("up.chatter", json!({})).await.unwrap();
    logs_to_error(&mut quiet_notes).await;
    silent
        .call_tool("up.touch", json!({"id": 7}))
        .await
        .unwrap();
    match next(&mut silent_notes).await {
        ServerNotification::ResourceUpdated(p) => assert_eq!(p.uri, "up+note://7"),
        other => panic!("unexpected {other:?}"),
    }
}

/// Subscriptions are held on the backend once, while a session holds them: the last session's
/// unsubscribe (or its end) releases it.
#[tokio::test]
async fn a_subscription_is_released_with_the_last_session() {
    let (link, seen) = recording_backend(json!({"resources": {"subscribe": true}})).await;
    let gateway = Server::builder(server_info!())
        .mount("up", link)
        .build()
        .unwrap();
    tokio::time::timeout(WAIT, gateway.mounted()).await.unwrap();
    let one = client(&gateway, OLD).await;
    let two = client(&gateway, OLD).await;
    one.subscribe("up+file:///a").await.unwrap();
    two.subscribe("up+file:///a").await.unwrap();
    one.unsubscribe("up+file:///a").await.unwrap();
    // A read waits until the backend has every change made before it.
    one.read_resource("up+file:///a").await.unwrap();
    assert_eq!(
        *seen.0.lock().unwrap(),
        [
            json!(["resources/subscribe", {"uri": "file:///a"}]),
            json!(["resources/read", {"uri": "file:///a"}])
        ]
    );
    two.close().await;
    drop(two);
    // The session's end released its hold: the backend is told, before the next read.
    wait_for(&seen, 3).await;
    assert_eq!(
        seen.0.lock().unwrap()[2],
        json!(["resources/unsubscribe", {"uri": "file:///a"}])
    );
}

/// What the recording backend saw, and a signal for each.
type Seen = Arc<(Mutex<Vec<Value>>, tokio::sync::Notify)>;

/// Waits until the recording backend saw `n` requests.
async fn wait_for(seen: &Seen, n: usize) {
    tokio::time::timeout(WAIT, async {
        while seen.0.lock().unwrap().len() < n {
            seen.1.notified().await;
        }
    })
    .await
    .unwrap();
}

/// A backend that declares only `capabilities` and one resource `file:///a`, recording every
/// request but `initialize`, the lists and `ping` as `[method, params]`.
async fn recording_backend(capabilities: Value) -> (Client, Seen) {
    let (ours, theirs) = memory::pair(64);
    let seen: Seen = Arc::default();
    let record = seen.clone();
    tokio::spawn(async move {
        let (mut rx, mut tx) = theirs.split();
        while let Some(Ok(Inbound::Message(text))) = rx.receive().await {
            let msg: Value = serde_json::from_str(&text).unwrap();
            let Some(id) = msg.get("id").cloned() else {
                continue;
            };
            let method = msg["method"].as_str().unwrap_or_default().to_owned();
            let mut params = msg["params"].clone();
            if let Some(p) = params.as_object_mut() {
                p.remove("_meta");
            }
            let result = match method.as_str() {
                "initialize" => json!({
                    "protocolVersion": "2025-11-25",
                    "capabilities": capabilities,
                    "serverInfo": {"name": "raw", "version": "1"}
                }),
                "resources/list" => {
                    json!({"resources": [{"uri": "file:///a", "name": "a"}]})
                }
                "resources/templates/list" => json!({"resourceTemplates": []}),
                "ping" => json!({}),
                _ => {
                    record.0.lock().unwrap().push(json!([method, params]));
                    record.1.notify_one();
                    if method == "resources/read" {
                        json!({"contents": [{"uri": "file:///a", "text": "A"}]})
                    } else {
                        json!({})
                    }
                }
            };
            let answer = json!({"jsonrpc": "2.0", "id": id, "result": result});
            if tx.send(answer.to_string().into_bytes()).await.is_err() {
                return;
            }
        }
    });
    let client = Client::builder()
        .protocol_version(OLD)
        .timeout(Some(WAIT))
        .connect(ours)
        .await
        .unwrap();
    (client, seen)
}

/// A backend that declares no logging, no completion, no subscriptions and no list changes:
/// neither does the
/// gateway, and a subscription to its resource is refused.
#[tokio::test]
async fn what_the_backend_does_not_declare_is_not_declared() {
    let (link, seen) = recording_backend(json!({"resources": {}})).await;
    let gateway = Server::builder(server_info!())
        .mount("up", link)
        .build()
        .unwrap();
    tokio::time::timeout(WAIT, gateway.mounted()).await.unwrap();
    for era in [OLD, NEW] {
        let c = client(&gateway, era).await;
        assert_eq!(
            serde_json::to_value(c.server_capabilities()).unwrap(),
            json!({"resources": {}}),
            "{era}"
        );
        let err = c
            .complete(&complete_params(json!({
                "ref": {"type": "ref/resource", "uri": "up+file:///a"},
                "argument": {"name": "x", "value": ""}
            })))
            .await
            .unwrap_err();
        assert_eq!(err.rpc().map(|e| e.code), Some(-32601), "{err}");
    }
    let c = client(&gateway, OLD).await;
    let err = c.subscribe("up+file:///a").await.unwrap_err();
    assert_eq!(
        err.rpc().map(|e| (e.code, e.message.as_str())),
        Some((
            -32602,
            "mounted server 'up' does not support resource subscriptions"
        ))
    );
    c.read_resource("up+file:///a").await.unwrap();
    assert_eq!(
        *seen.0.lock().unwrap(),
        [json!(["resources/read", {"uri": "file:///a"}])]
    );
}

/// Asks for a name, but gives up waiting (after 50 ms) and answers without one.
#[tool]
async fn impatient(ctx: Context) -> Result<String, ToolError> {
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    struct Name {
        #[allow(dead_code)]
        name: String,
    }
    let asked = ctx.elicit::<Name>("Your name?");
    match tokio::time::timeout(Duration::from_millis(50), asked).await {
        Ok(_) => Ok("answered".into()),
        Err(_) => Ok("gave up".into()),
    }
}

/// Never answers; says when its answer is no longer awaited.
struct NeverAnswers(Arc<tokio::sync::Notify>);

struct Told(Arc<tokio::sync::Notify>);

impl Drop for Told {
    fn drop(&mut self) {
        self.0.notify_one();
    }
}

impl mcp_runtime::client::ClientHandler for NeverAnswers {
    fn elicit(
        &self,
        _: mcp_runtime::protocol::ElicitRequestParams,
    ) -> mcp_runtime::client::BoxFuture<
        '_,
        Result<mcp_runtime::protocol::ElicitResult, mcp_runtime::protocol::ErrorObject>,
    > {
        let told = Told(Arc::clone(&self.0));
        Box::pin(async move {
            let _told = told;
            std::future::pending().await
        })
    }
}

/// The backend cancels its question: the gateway cancels the one it asked our client (our
/// client's handler is dropped), and the call goes on to its answer.
#[tokio::test]
async fn a_question_the_backend_cancels_is_cancelled_at_the_client() {
    let caps: mcp_runtime::protocol::ClientCapabilities =
        serde_json::from_value(json!({"elicitation": {"form": {}}})).unwrap();
    let backend = Server::builder(server_info!())
        .tool(impatient::TOOL)
        .build()
        .unwrap();
    let link = backend
        .connect_client(
            Client::builder()
                .protocol_version(OLD)
                .capabilities(caps.clone())
                .timeout(Some(WAIT)),
        )
        .await
        .unwrap();
    let gateway = Server::builder(server_info!())
        .mount("up", link)
        .build()
        .unwrap();
    tokio::time::timeout(WAIT, gateway.mounted()).await.unwrap();
    let told = Arc::new(tokio::sync::Notify::new());
    let c = gateway
        .connect_client(
            Client::builder()
                .protocol_version(OLD)
                .capabilities(caps)
                .handler(NeverAnswers(told.clone()))
                .timeout(Some(WAIT)),
        )
        .await
        .unwrap();
    let r = c.call_tool("up.impatient", json!({})).await.unwrap();
    assert_eq!(r.content[0].as_text(), Some("gave up"));
    tokio::time::timeout(WAIT, told.notified()).await.unwrap();
}
