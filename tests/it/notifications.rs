//! Server-to-client notifications: logging (`notifications/message`) and progress.

use serde_json::{Value, json};

use crate::fixtures::{fresh, handshake};
use crate::{meta_with, only_text, result};

fn log(level: &str, logger: Option<&str>, data: Value) -> Value {
    let mut params = json!({"level": level, "data": data});
    if let Some(logger) = logger {
        params["logger"] = json!(logger);
    }
    json!({"jsonrpc": "2.0", "method": "notifications/message", "params": params})
}

#[tokio::test]
async fn set_level_gates_log_messages_of_the_session() {
    let mut client = handshake("2025-11-25").await;
    let r = client
        .request("logging/setLevel", json!({"level": "debug"}))
        .await;
    assert_eq!(r, json!({"jsonrpc": "2.0", "id": 2, "result": {}}));
    let r = result(&client.call_tool("chatty", json!({})).await, json!(3));
    assert_eq!(only_text(&r), "logged");
    assert_eq!(
        client.notifications(),
        [
            log("debug", None, json!("debug detail")),
            log("info", None, json!("info message")),
            log("warning", Some("gifts"), json!({"low": "stock"}))
        ]
    );

    client
        .request("logging/setLevel", json!({"level": "warning"}))
        .await;
    client.call_tool("chatty", json!({})).await;
    assert_eq!(
        client.notifications(),
        [log("warning", Some("gifts"), json!({"low": "stock"}))]
    );

    client
        .request("logging/setLevel", json!({"level": "emergency"}))
        .await;
    client.call_tool("chatty", json!({})).await;
    assert_eq!(client.notifications(), Vec::<Value>::new());
}

#[tokio::test]
async fn the_default_session_level_is_info() {
    let mut client = handshake("2025-11-25").await;
    client.call_tool("chatty", json!({})).await;
    assert_eq!(
        client.notifications(),
        [
            log("info", None, json!("info message")),
            log("warning", Some("gifts"), json!({"low": "stock"}))
        ]
    );
}

#[tokio::test]
async fn stateless_requests_log_only_at_the_level_in_their_meta() {
    let mut client = fresh();
    let r = result(
        &client
            .stateless("tools/call", json!({"name": "chatty"}))
            .await,
        json!(1),
    );
    assert_eq!(only_text(&r), "logged");
    assert_eq!(client.notifications(), Vec::<Value>::new());

    let params = json!({"name": "chatty", "_meta": meta_with(json!({"io.modelcontextprotocol/logLevel": "info"}))});
    client.request("tools/call", params).await;
    assert_eq!(
        client.notifications(),
        [
            log("info", None, json!("info message")),
            log("warning", Some("gifts"), json!({"low": "stock"}))
        ]
    );
}

fn progress(token: Value, n: u32, total: u32, message: Option<&str>) -> Value {
    // Progress values are numbers that may be fractional: sent as floats.
    let mut params =
        json!({"progressToken": token, "progress": f64::from(n), "total": f64::from(total)});
    if let Some(m) = message {
        params["message"] = json!(m);
    }
    json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": params})
}

#[tokio::test]
async fn progress_is_sent_only_when_a_token_was_given() {
    let mut client = handshake("2025-11-25").await;
    let r = result(&client.call_tool("count", json!({"n": 3})).await, json!(2));
    assert_eq!(only_text(&r), "counted to 3");
    assert_eq!(client.notifications(), Vec::<Value>::new());

    for token in [json!("tok-1"), json!(7)] {
        let params =
            json!({"name": "count", "arguments": {"n": 3}, "_meta": {"progressToken": token}});
        let r = client.request("tools/call", params).await;
        assert_eq!(only_text(&r["result"]), "counted to 3");
        assert_eq!(
            client.notifications(),
            [
                progress(token.clone(), 1, 3, Some("step 1")),
                progress(token.clone(), 2, 3, Some("step 2")),
                progress(token.clone(), 3, 3, Some("step 3"))
            ]
        );
    }
}

#[tokio::test]
async fn progress_messages_are_left_out_for_2024_11_05() {
    let mut client = handshake("2024-11-05").await;
    let params = json!({"name": "count", "arguments": {"n": 2}, "_meta": {"progressToken": "t"}});
    client.request("tools/call", params).await;
    assert_eq!(
        client.notifications(),
        [
            progress(json!("t"), 1, 2, None),
            progress(json!("t"), 2, 2, None)
        ]
    );
}

#[tokio::test]
async fn progress_works_statelessly() {
    let mut client = fresh();
    let params = json!({"name": "count", "arguments": {"n": 1}, "_meta": meta_with(json!({"progressToken": "s"}))});
    let r = client.request("tools/call", params).await;
    assert_eq!(result(&r, json!(1))["resultType"], "complete");
    assert_eq!(
        client.notifications(),
        [progress(json!("s"), 1, 1, Some("step 1"))]
    );
}
