//! Resources and resource templates: lists, reads, not-found per era, masked failures.

use serde_json::{Value, json};

use crate::fixtures::{fresh, handshake};
use crate::{error_message, result};

#[tokio::test]
async fn resources_and_templates_are_listed() {
    let mut client = handshake("2025-11-25").await;
    let list = result(
        &client.request("resources/list", Value::Null).await,
        json!(2),
    );
    assert_eq!(
        list,
        json!({"resources": [
            {"uri": "test://broken", "name": "broken_resource", "description": "A resource whose read fails internally"},
            {"uri": "test://static", "name": "static_text", "description": "A fixed text resource", "mimeType": "text/plain"}
        ]})
    );
    let list = result(
        &client
            .request("resources/templates/list", Value::Null)
            .await,
        json!(3),
    );
    assert_eq!(
        list,
        json!({"resourceTemplates": [
            {"uriTemplate": "test://items/{id}", "name": "item", "description": "One item by id (1 to 3 exist)", "mimeType": "application/json"}
        ]})
    );
}

#[tokio::test]
async fn a_fixed_resource_is_read() {
    let mut client = handshake("2025-11-25").await;
    let r = client
        .request("resources/read", json!({"uri": "test://static"}))
        .await;
    assert_eq!(
        r,
        json!({"jsonrpc": "2.0", "id": 2, "result": {"contents": [
            {"uri": "test://static", "mimeType": "text/plain", "text": "static content"}
        ]}})
    );
}

#[tokio::test]
async fn a_template_binds_its_variable() {
    let mut client = handshake("2025-11-25").await;
    let r = result(
        &client
            .request("resources/read", json!({"uri": "test://items/2"}))
            .await,
        json!(2),
    );
    assert_eq!(
        r,
        json!({"contents": [
            {"uri": "test://items/2", "mimeType": "application/json", "text": "{\"id\":2,\"name\":\"item 2\"}"}
        ]})
    );
}

#[tokio::test]
async fn not_found_is_32002_in_the_handshake_era() {
    let mut client = handshake("2025-11-25").await;
    for (n, uri) in ["test://items/9", "test://nowhere", ""]
        .into_iter()
        .enumerate()
    {
        let r = client.request("resources/read", json!({"uri": uri})).await;
        assert_eq!(
            r,
            json!({"jsonrpc": "2.0", "id": n + 2, "error": {
                "code": -32002, "message": format!("resource not found: {uri}"), "data": {"uri": uri}
            }}),
            "{uri}"
        );
    }
}

#[tokio::test]
async fn not_found_is_32602_with_the_uri_in_the_stateless_era() {
    let mut client = fresh();
    for (n, uri) in [
        "test://items/9",
        "test://nonexistent-resource-for-conformance-testing",
    ]
    .into_iter()
    .enumerate()
    {
        let r = client
            .stateless("resources/read", json!({"uri": uri}))
            .await;
        assert_eq!(
            r,
            json!({"jsonrpc": "2.0", "id": n + 1, "error": {
                "code": -32602, "message": format!("resource not found: {uri}"), "data": {"uri": uri}
            }}),
            "{uri}"
        );
    }
}

#[tokio::test]
async fn a_failing_read_is_masked() {
    let mut client = handshake("2025-11-25").await;
    let r = client
        .request("resources/read", json!({"uri": "test://broken"}))
        .await;
    let msg = error_message(&r, -32603, json!(2));
    assert!(msg.starts_with("internal error, id "), "{msg}");
    assert!(!r.to_string().contains("secret"), "{r}");
}

#[tokio::test]
async fn subscribe_and_unsubscribe_are_acknowledged() {
    let mut client = handshake("2025-11-25").await;
    for (n, method) in ["resources/subscribe", "resources/unsubscribe"]
        .into_iter()
        .enumerate()
    {
        let r = client
            .request(method, json!({"uri": "test://static"}))
            .await;
        assert_eq!(r, json!({"jsonrpc": "2.0", "id": n + 2, "result": {}}));
    }
}
