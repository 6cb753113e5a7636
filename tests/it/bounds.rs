//! Bounds on what clients can make the server hold: calls waiting for the client's answers (per
//! session and server-wide, released at once when the connection closes) and
//! `subscriptions/listen` streams (refused before any acknowledgement).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use mcp_runtime::prelude::*;
use mcp_runtime::transport::memory::TestClient;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::{error_message, messages_within, meta_with, only_text, result};

/// What an elicitation form asks.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Name {
    /// Your name
    pub name: String,
}

/// How each `ask_name` call ended, by key.
static OUTCOMES: Mutex<Option<HashMap<String, String>>> = Mutex::new(None);

fn record(key: &str, outcome: &str) {
    OUTCOMES
        .lock()
        .unwrap()
        .get_or_insert_with(HashMap::new)
        .insert(key.to_owned(), outcome.to_owned());
}

fn outcome(key: &str) -> Option<String> {
    OUTCOMES.lock().unwrap().as_ref()?.get(key).cloned()
}

/// Asks the user's name and records how that ended.
#[mcp_runtime::tool(server = "bounds")]
async fn ask_name(ctx: Context, key: String) -> String {
    let text = match ctx.elicit::<Name>("Your name?").await {
        Ok(Elicitation::Accept(n)) => format!("hello {}", n.name),
        Ok(other) => format!("{other:?}"),
        Err(e) => e.to_string(),
    };
    record(&key, &text);
    text
}

fn server(per_session: usize, total: usize) -> mcp_runtime::Server {
    crate::fixtures::builder()
        .tool(ask_name::TOOL)
        .max_client_requests(per_session, total)
        .build()
        .unwrap()
}

/// A 2025-11-25 session of a client that can answer form elicitations.
async fn elicit_client(server: &mcp_runtime::Server) -> TestClient {
    let mut client = server.connect_in_memory();
    let init = client
        .request(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {"elicitation": {}},
                   "clientInfo": {"name": "bounds", "version": "1"}}),
        )
        .await;
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25", "{init}");
    client
        .notify("notifications/initialized", Value::Null)
        .await;
    client
}

fn ask(id: i64, key: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": "ask_name", "arguments": {"key": key}}})
}

/// Sends `ask_name` and returns the elicitation request it causes.
async fn ask_and_get_elicitation(client: &mut TestClient, id: i64, key: &str) -> Value {
    client.send(&ask(id, key)).await;
    let req = client.recv().await.expect("an elicitation request");
    assert_eq!(req["method"], "elicitation/create", "{req}");
    req
}

const BUSY: &str = "too many requests to the client are waiting for answers";

#[tokio::test]
async fn calls_waiting_for_the_client_are_bounded_per_session() {
    let server = server(2, 100);
    let mut client = elicit_client(&server).await;
    let first = ask_and_get_elicitation(&mut client, 10, "session-1").await;
    ask_and_get_elicitation(&mut client, 11, "session-2").await;
    // The third is refused at once, without a request to the client.
    client.send(&ask(12, "session-3")).await;
    let r = client.recv().await.unwrap();
    assert_eq!(only_text(&result(&r, json!(12))), BUSY);
    // Answering one makes room again.
    client
        .send(&json!({"jsonrpc": "2.0", "id": first["id"], "result": {"action": "accept", "content": {"name": "Ada"}}}))
        .await;
    let r = client.response(&json!(10)).await;
    assert_eq!(only_text(&result(&r, json!(10))), "hello Ada");
    ask_and_get_elicitation(&mut client, 13, "session-4").await;
}

#[tokio::test]
async fn calls_waiting_for_the_client_are_bounded_server_wide() {
    let server = server(8, 2);
    let mut a = elicit_client(&server).await;
    let mut b = elicit_client(&server).await;
    ask_and_get_elicitation(&mut a, 20, "wide-1").await;
    ask_and_get_elicitation(&mut b, 21, "wide-2").await;
    // Each session is far below its own bound, but the server holds its maximum.
    for client in [&mut a, &mut b] {
        client.send(&ask(22, "wide-3")).await;
        let r = client.recv().await.unwrap();
        assert_eq!(only_text(&result(&r, json!(22))), BUSY);
    }
    // A closed session gives its places back.
    drop(a);
    let deadline = Instant::now() + Duration::from_secs(5);
    while outcome("wide-1").is_none() && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    ask_and_get_elicitation(&mut b, 23, "wide-4").await;
}

#[tokio::test]
async fn closing_the_connection_releases_waiting_calls_at_once() {
    let server = server(32, 4096);
    let mut client = elicit_client(&server).await;
    ask_and_get_elicitation(&mut client, 30, "closed-1").await;
    ask_and_get_elicitation(&mut client, 31, "closed-2").await;
    let closed = Instant::now();
    drop(client);
    // The waiting handlers hear it at once: not after the drain timeout (10 s), nor after the
    // client-request timeout (2 min). One second is a tenth of the drain timeout.
    while (outcome("closed-1").is_none() || outcome("closed-2").is_none())
        && closed.elapsed() < Duration::from_secs(10)
    {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let took = closed.elapsed();
    assert_eq!(
        outcome("closed-1").as_deref(),
        Some("the client is not reachable")
    );
    assert_eq!(
        outcome("closed-2").as_deref(),
        Some("the client is not reachable")
    );
    assert!(took < Duration::from_secs(1), "released after {took:?}");
}

#[tokio::test]
async fn a_listener_over_the_maximum_gets_one_error_and_no_acknowledgement() {
    let server = crate::fixtures::builder().max_listeners(1).build().unwrap();
    let mut client = server.connect_in_memory();
    let listen = |id: &str| {
        json!({"jsonrpc": "2.0", "id": id, "method": "subscriptions/listen", "params": {
            "notifications": {"toolsListChanged": true}, "_meta": meta_with(Value::Null)
        }})
    };
    client.send(&listen("sub-1")).await;
    let ack = client.recv().await.unwrap();
    assert_eq!(
        ack["method"], "notifications/subscriptions/acknowledged",
        "{ack}"
    );
    client.send(&listen("sub-2")).await;
    let refused = client.recv().await.unwrap();
    assert_eq!(
        error_message(&refused, -32603, json!("sub-2")),
        "too many open subscriptions"
    );
    // Nothing else for the refused listener: no acknowledgement before or after its error, and
    // a change reaches only the accepted one.
    server.remove_tool("echo");
    let rest = messages_within(&mut client, 300).await;
    assert_eq!(
        rest,
        [
            json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed",
                "params": {"_meta": {"io.modelcontextprotocol/subscriptionId": "sub-1"}}})
        ]
    );
    // Once the first stream ends (cancelled), there is room again.
    client
        .notify("notifications/cancelled", json!({"requestId": "sub-1"}))
        .await;
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        client.send(&listen("sub-3")).await;
        let got = client.recv().await.unwrap();
        if got["method"] == "notifications/subscriptions/acknowledged" {
            break;
        }
        assert_eq!(got["id"], "sub-3", "{got}");
        assert!(
            Instant::now() < deadline,
            "the first listener was not removed"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}
