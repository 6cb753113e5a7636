//! Composition (`ServerBuilder::mount`): a gateway mounting two servers, the real
//! `everything-server` binary spawned over stdio (prefix `ev`, handshake era) and a server of
//! this test over Streamable HTTP on loopback (prefix `live`, stateless era), used by our client
//! in both eras: lists, calls with progress, cancellation, a list change, elicitation relayed
//! through each mount, and a mount whose server dies while the other keeps serving.

use std::process::Stdio;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_runtime::client::{BoxFuture, Client, ClientHandler, ServerNotification};
use mcp_runtime::prelude::*;
use mcp_runtime::protocol::{
    ClientCapabilities, ElicitAction, ElicitRequestParams, ElicitResult, ErrorObject,
    ProtocolVersion, SubscriptionFilter,
};
use serde_json::json;

const BIN: &str = env!("CARGO_BIN_EXE_everything-server");
const WAIT: Duration = Duration::from_secs(20);

/// What the HTTP server's tools saw (shared with the test).
#[derive(Default, Clone)]
struct Probe(Arc<Seen>);

#[derive(Default)]
struct Seen {
    /// `wait_forever` calls whose future was dropped (cancelled).
    cancelled: AtomicUsize,
    released: tokio::sync::Notify,
}

struct Dropped(Probe);

impl Drop for Dropped {
    fn drop(&mut self) {
        self.0.0.cancelled.fetch_add(1, Ordering::SeqCst);
        self.0.0.released.notify_one();
    }
}

/// Reports progress 1 of 2, then waits until cancelled.
#[tool]
async fn wait_forever(ctx: Context, probe: State<Probe>) -> String {
    let _dropped = Dropped(Probe::clone(&probe.into_inner()));
    ctx.progress(1.0, Some(2.0), Some("waiting")).await;
    std::future::pending::<()>().await;
    "never".into()
}

/// Asks for a name and greets it.
#[tool]
async fn greet_asked(ctx: Context) -> Result<String, ToolError> {
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    struct Name {
        name: String,
    }
    match ctx.elicit::<Name>("Your name?").await? {
        Elicitation::Accept(n) => Ok(format!("Hello, {}!", n.name)),
        _ => Ok("Hello, stranger!".into()),
    }
}

/// Added while the gateway runs.
#[tool]
async fn late() -> &'static str {
    "late"
}

/// Our client's answers: the name "Ada" and the everything-server's user form.
struct Answers;

impl ClientHandler for Answers {
    fn elicit(
        &self,
        request: ElicitRequestParams,
    ) -> BoxFuture<'_, Result<ElicitResult, ErrorObject>> {
        let known = json!({"name": "Ada", "username": "ada", "email": "ada@example.com"});
        let schema = request.requested_schema.unwrap_or_default();
        let mut content = serde_json::Map::new();
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
}

fn caps() -> ClientCapabilities {
    serde_json::from_value(json!({"elicitation": {"form": {}}, "roots": {}})).unwrap()
}

/// The HTTP server on loopback (stopped when the returned handle drops).
async fn live_server(probe: Probe) -> (Server, String, tokio::task::JoinHandle<()>) {
    let server = Server::builder(server_info!())
        .tool(wait_forever::TOOL)
        .tool(greet_asked::TOOL)
        .state(probe)
        .build()
        .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let serving = server.clone();
    let task = tokio::spawn(async move {
        let _ = serving.serve_http_on(listener).await;
    });
    (server, url, task)
}

struct Gateway {
    server: Server,
    live: Server,
    ev: Client,
    probe: Probe,
    _http: tokio::task::JoinHandle<()>,
}

async fn gateway() -> Gateway {
    let mut command = mcp_runtime::tokio::process::Command::new(BIN);
    command
        .arg("stdio")
        .stderr(Stdio::null())
        .env_remove("RUST_LOG");
    let ev = Client::builder()
        .capabilities(caps())
        .protocol_version(ProtocolVersion::V2025_11_25)
        .timeout(Some(WAIT))
        .connect_stdio(command)
        .await
        .unwrap();
    let probe = Probe::default();
    let (live, url, http) = live_server(probe.clone()).await;
    let live_client = Client::builder()
        .capabilities(caps())
        .protocol_version(ProtocolVersion::V2026_07_28)
        .timeout(Some(WAIT))
        .connect_http(&url)
        .await
        .unwrap();
    let server = Server::builder(server_info!())
        .mount("ev", ev.clone())
        .mount("live", live_client)
        .build()
        .unwrap();
    tokio::time::timeout(WAIT, server.mounted()).await.unwrap();
    Gateway {
        server,
        live,
        ev,
        probe,
        _http: http,
    }
}

fn text(result: &mcp_runtime::protocol::CallToolResult) -> &str {
    result.content[0].as_text().expect("a text block")
}

async fn scenario(version: ProtocolVersion) {
    let g = gateway().await;
    let client = g
        .server
        .connect_client(
            Client::builder()
                .capabilities(caps())
                .handler(Answers)
                .protocol_version(version)
                .timeout(Some(WAIT)),
        )
        .await
        .unwrap();

    // Lists: both mounts, renamed, local order kept within each.
    let tools: Vec<String> = client
        .list_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name)
        .collect();
    assert_eq!(tools.len(), 42 + 2, "{tools:?}");
    assert_eq!(tools[0], "ev.confirm_delete");
    assert_eq!(&tools[42..], ["live.greet_asked", "live.wait_forever"]);
    let resources: Vec<String> = client
        .list_resources()
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.uri)
        .collect();
    assert!(
        resources.contains(&"ev+test://static-text".to_owned()),
        "{resources:?}"
    );
    // The 3 fixtures and the 10 skill files, forwarded as ordinary resources (a mount does not
    // forward `skills/*`).
    assert_eq!(resources.len(), 13);
    assert!(
        resources.contains(&"ev+skill://git-workflow/SKILL.md".to_owned()),
        "{resources:?}"
    );
    let templates = client.list_resource_templates().await.unwrap();
    assert_eq!(templates.len(), 1);
    assert!(
        templates[0].uri_template.starts_with("ev+"),
        "{:?}",
        templates[0]
    );
    assert_eq!(client.list_prompts().await.unwrap().len(), 5);

    // Calls, reads and gets are forwarded.
    let r = client
        .call_tool("ev.test_simple_text", json!({}))
        .await
        .unwrap();
    assert_eq!(text(&r), "This is a simple text response for testing.");
    let read = client.read_resource("ev+test://static-text").await.unwrap();
    let contents = serde_json::to_value(&read.contents).unwrap();
    assert_eq!(contents[0]["uri"], "ev+test://static-text");
    assert_eq!(
        contents[0]["text"],
        "This is the content of the static text resource."
    );
    let p = client
        .get_prompt(
            "ev.test_prompt_with_arguments",
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
        .call_tool("ev.no_such_tool", json!({}))
        .await
        .unwrap_err();
    assert_eq!(err.rpc().map(|e| e.code), Some(-32602), "{err}");

    // Progress comes back through the stdio mount.
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let r = client
        .call_tool("ev.test_tool_with_progress", json!({}))
        .progress(move |p| log.lock().unwrap().push((p.progress, p.total)))
        .await
        .unwrap();
    assert_eq!(text(&r), "Progress test completed");
    assert_eq!(
        *seen.lock().unwrap(),
        [
            (0.0, Some(100.0)),
            (50.0, Some(100.0)),
            (100.0, Some(100.0))
        ]
    );

    // Elicitation relayed: through the stdio mount (a request of the handshake era) and the
    // HTTP mount (an `input_required` round of the stateless era), to our client in its era.
    let r = client
        .call_tool("ev.test_elicitation", json!({"message": "Who?"}))
        .await
        .unwrap();
    assert_eq!(
        text(&r),
        "User response: accepted username=ada, email=ada@example.com"
    );
    let r = client
        .call_tool("live.greet_asked", json!({}))
        .await
        .unwrap();
    assert_eq!(text(&r), "Hello, Ada!");

    // Cancellation: the call is dropped after its first progress; the HTTP server's handler is
    // dropped too.
    let (tx, mut first) = tokio::sync::mpsc::channel(4);
    let call = client
        .call_tool("live.wait_forever", json!({}))
        .progress(move |p| {
            let _ = tx.try_send(p.progress);
        })
        .into_future();
    let running = tokio::spawn(call);
    assert_eq!(
        tokio::time::timeout(WAIT, first.recv()).await.unwrap(),
        Some(1.0)
    );
    running.abort();
    tokio::time::timeout(WAIT, g.probe.0.released.notified())
        .await
        .unwrap();
    assert_eq!(g.probe.0.cancelled.load(Ordering::SeqCst), 1);

    // A list change of the HTTP server reaches our client, with the new tool in the list.
    let mut notes = client.notifications();
    let _listener = version.is_stateless().then(|| {
        let mut filter = SubscriptionFilter::new();
        filter.tools_list_changed = Some(true);
        client.listen(filter).unwrap()
    });
    // The stateless era's listen stream is open once acknowledged.
    while version.is_stateless() {
        let note = tokio::time::timeout(WAIT, notes.next())
            .await
            .unwrap()
            .unwrap();
        if matches!(&note, ServerNotification::Other { method, .. }
            if method == "notifications/subscriptions/acknowledged")
        {
            break;
        }
    }
    g.live.add_tool(late::TOOL).unwrap();
    loop {
        let note = tokio::time::timeout(WAIT, notes.next())
            .await
            .unwrap()
            .unwrap();
        if note == ServerNotification::ToolsListChanged {
            break;
        }
    }
    let tools: Vec<String> = client
        .list_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name)
        .collect();
    assert_eq!(
        &tools[42..],
        ["live.greet_asked", "live.late", "live.wait_forever"]
    );
    let r = client.call_tool("live.late", json!({})).await.unwrap();
    assert_eq!(text(&r), "late");

    // The stdio server dies: its items fail with an error naming the mount; the rest serves.
    g.ev.close().await;
    let r = client
        .call_tool("ev.test_simple_text", json!({}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true));
    assert_eq!(
        text(&r),
        "mounted server 'ev' failed: the connection is closed"
    );
    let err = client
        .read_resource("ev+test://static-text")
        .await
        .unwrap_err();
    assert_eq!(
        err.rpc().map(|e| (e.code, e.message.as_str())),
        Some((
            -32603,
            "mounted server 'ev' failed: the connection is closed"
        ))
    );
    let r = client.call_tool("live.late", json!({})).await.unwrap();
    assert_eq!(text(&r), "late");
    client.close().await;
}

#[tokio::test]
async fn two_mounts_serve_a_handshake_era_client() {
    scenario(ProtocolVersion::V2025_11_25).await;
}

#[tokio::test]
async fn two_mounts_serve_a_stateless_era_client() {
    scenario(ProtocolVersion::V2026_07_28).await;
}

#[tokio::test]
async fn a_bad_prefix_is_refused_when_built() {
    let (server, _, _task) = live_server(Probe::default()).await;
    let client = server.connect_client(Client::builder()).await.unwrap();
    let err = Server::builder(server_info!())
        .mount("no spaces", client.clone())
        .build()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid configuration: mount prefix `no spaces` must be empty or 1-32 of A-Za-z0-9.- starting \
         with a letter"
    );
    let err = Server::builder(server_info!())
        .mount("a", client.clone())
        .mount("a", client)
        .build()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid configuration: mount prefix `a` is given twice"
    );
}

/// Dropping the last handle on a gateway ends its watcher and its mounted client, and so the
/// spawned server.
#[cfg(target_os = "linux")]
#[tokio::test]
async fn dropping_the_gateway_stops_a_spawned_server() {
    let dir = std::env::temp_dir().join(format!("mcp-compose-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pid_file = dir.join("pid");
    let mut command = mcp_runtime::tokio::process::Command::new("sh");
    command
        .arg("-c")
        .arg(format!(
            "echo $$ > '{}'; exec '{BIN}' stdio",
            pid_file.display()
        ))
        .stderr(Stdio::null());
    let ev = Client::builder()
        .timeout(Some(WAIT))
        .connect_stdio(command)
        .await
        .unwrap();
    let pid = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .to_owned();
    let running = || {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
            stat.rsplit(')')
                .next()
                .is_some_and(|s| !s.trim_start().starts_with('Z'))
        })
    };
    let gateway = Server::builder(server_info!())
        .mount("ev", ev)
        .build()
        .unwrap();
    tokio::time::timeout(WAIT, gateway.mounted()).await.unwrap();
    assert!(running());
    drop(gateway);
    let stopped = async {
        while running() {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    tokio::time::timeout(WAIT, stopped)
        .await
        .expect("the spawned server is stopped");
    std::fs::remove_dir_all(&dir).unwrap();
}
