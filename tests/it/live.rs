//! A live catalog: items registered and removed while clients are connected, `list_changed` and
//! `resources/updated` to handshake sessions and to stateless `subscriptions/listen` streams.

use serde_json::{Value, json};

use crate::fixtures::{self, fresh, handshake};
use crate::{error_message, messages_within, meta_with, only_text, result};

fn notification(method: &str) -> Value {
    json!({"jsonrpc": "2.0", "method": method, "params": {}})
}

#[tokio::test]
async fn a_tool_added_at_run_time_is_announced_listed_and_callable() {
    let server = mcp_runtime::Server::builder(mcp_runtime::server_info!())
        .tool(fixtures::echo::TOOL)
        .build()
        .unwrap();
    let mut client = server.connect_in_memory();
    client.initialize("2025-11-25").await;
    crate::ping_is_next(&mut client, 90).await; // the session is registered

    server.add_tool(fixtures::add::TOOL).unwrap();
    assert_eq!(
        client.recv().await.unwrap(),
        notification("notifications/tools/list_changed")
    );
    let list = result(&client.request("tools/list", Value::Null).await, json!(2));
    let names: Vec<&str> = list["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["add", "echo"]);
    let r = result(
        &client.call_tool("add", json!({"a": 1, "b": 1})).await,
        json!(3),
    );
    assert_eq!(only_text(&r), r#"{"total":2}"#);

    // A duplicate changes nothing and announces nothing.
    assert!(server.add_tool(fixtures::add::TOOL).is_err());
    assert!(server.remove_tool("add"));
    assert_eq!(
        client.recv().await.unwrap(),
        notification("notifications/tools/list_changed")
    );
    let r = client.call_tool("add", json!({"a": 1, "b": 1})).await;
    assert_eq!(error_message(&r, -32602, json!(4)), "unknown tool 'add'");
    assert!(!server.remove_tool("add"));
    assert_eq!(messages_within(&mut client, 100).await, Vec::<Value>::new());
}

#[tokio::test]
async fn prompts_and_resources_changes_are_announced() {
    let server = fixtures::server();
    let mut client = server.connect_in_memory();
    client.initialize("2025-06-18").await;
    crate::ping_is_next(&mut client, 90).await;
    assert!(server.remove_prompt("toned"));
    assert_eq!(
        client.recv().await.unwrap(),
        notification("notifications/prompts/list_changed")
    );
    assert!(server.remove_resource("test://items/{id}"));
    assert_eq!(
        client.recv().await.unwrap(),
        notification("notifications/resources/list_changed")
    );
    let list = result(
        &client
            .request("resources/templates/list", Value::Null)
            .await,
        json!(2),
    );
    assert_eq!(list, json!({"resourceTemplates": []}));
}

#[tokio::test]
async fn subscribers_hear_of_updates_until_they_unsubscribe() {
    let server = fixtures::server();
    let mut client = server.connect_in_memory();
    client.initialize("2025-11-25").await;
    result(
        &client
            .request("resources/subscribe", json!({"uri": "test://static"}))
            .await,
        json!(2),
    );
    server.notify_resource_updated("test://other");
    server.notify_resource_updated("test://static");
    assert_eq!(
        client.recv().await.unwrap(),
        json!({"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {"uri": "test://static"}})
    );
    result(
        &client
            .request("resources/unsubscribe", json!({"uri": "test://static"}))
            .await,
        json!(3),
    );
    server.notify_resource_updated("test://static");
    assert_eq!(messages_within(&mut client, 100).await, Vec::<Value>::new());
}

#[tokio::test]
async fn a_connection_without_a_session_hears_nothing() {
    let server = fixtures::server();
    let mut client = server.connect_in_memory();
    result(&client.stateless("tools/list", Value::Null).await, json!(1));
    server.remove_tool("echo");
    assert_eq!(messages_within(&mut client, 100).await, Vec::<Value>::new());
}

#[tokio::test]
async fn a_stateless_listener_gets_what_it_asked_for() {
    let server = fixtures::server();
    let mut client = server.connect_in_memory();
    let params = json!({
        "notifications": {"toolsListChanged": true, "resourceSubscriptions": ["test://static"]},
        "_meta": meta_with(Value::Null)
    });
    client.send(&json!({"jsonrpc": "2.0", "id": "sub-1", "method": "subscriptions/listen", "params": params})).await;
    let sub = json!({"io.modelcontextprotocol/subscriptionId": "sub-1"});
    assert_eq!(
        client.recv().await.unwrap(),
        json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged", "params": {
            "notifications": {"toolsListChanged": true, "resourceSubscriptions": ["test://static"]},
            "_meta": sub
        }})
    );
    server.remove_prompt("card"); // not asked for
    server.remove_tool("echo");
    assert_eq!(
        client.recv().await.unwrap(),
        json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": {"_meta": sub}})
    );
    server.notify_resource_updated("test://static");
    assert_eq!(
        client.recv().await.unwrap(),
        json!({"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {"_meta": sub, "uri": "test://static"}})
    );
    assert_eq!(messages_within(&mut client, 100).await, Vec::<Value>::new());
}

#[tokio::test]
async fn listen_needs_the_stateless_era() {
    let mut client = handshake("2025-11-25").await;
    let r = client
        .request(
            "subscriptions/listen",
            json!({"notifications": {"toolsListChanged": true}}),
        )
        .await;
    error_message(&r, -32602, json!(2));
    let mut client = fresh();
    let r = client
        .stateless("subscriptions/listen", json!({"notifications": 5}))
        .await;
    error_message(&r, -32602, json!(1));
}
