//! Unknown argument properties: refused by default with an invalid-arguments error naming them
//! and the allowed ones (an `isError` result from 2025-11-25 on, -32602 before), accepted per
//! tool with `#[tool(allow_unknown_args)]` or server-wide with `.allow_unknown_args(true)`; the
//! strict schema profile says `additionalProperties: false`, the portable one does not.

use mcp_runtime::SchemaProfile;
use mcp_runtime::prelude::*;
use serde_json::{Value, json};

use crate::{error_message, only_text, result};

/// Lists tasks.
#[tool(server = "it-unknown")]
async fn tasks(
    /// How many
    limit: Option<u32>,
    /// Lowest priority shown
    priority: Option<u8>,
) -> String {
    format!("{limit:?} {priority:?}")
}

/// Lists tasks, accepting anything extra.
#[tool(server = "it-unknown", allow_unknown_args)]
async fn lenient(
    /// How many
    limit: Option<u32>,
) -> String {
    format!("{limit:?}")
}

/// Lists tasks, refusing anything extra whatever the server says.
#[tool(server = "it-unknown", allow_unknown_args = false)]
async fn strict(
    /// How many
    limit: Option<u32>,
) -> String {
    format!("{limit:?}")
}

/// Takes nothing.
#[tool(server = "it-unknown")]
async fn ping() -> String {
    "pong".into()
}

fn builder() -> mcp_runtime::ServerBuilder {
    Server::builder(server_info!())
        .tool(tasks::TOOL)
        .tool(lenient::TOOL)
        .tool(strict::TOOL)
        .tool(ping::TOOL)
}

async fn client(
    builder: mcp_runtime::ServerBuilder,
    version: &str,
) -> mcp_runtime::transport::memory::TestClient {
    let mut client = builder.build().unwrap().connect_in_memory();
    client.initialize(version).await;
    client
}

#[track_caller]
fn error_text(response: &Value, id: i64) -> String {
    let r = result(response, json!(id));
    assert_eq!(r["isError"], true, "{r}");
    only_text(&r).to_owned()
}

#[tokio::test]
async fn a_misspelt_property_is_refused_naming_it_and_the_allowed_ones() {
    let mut client = client(builder(), "2025-11-25").await;
    let r = client.call_tool("tasks", json!({"limt": 5})).await;
    assert_eq!(
        error_text(&r, 2),
        "invalid arguments for tool 'tasks': unknown property 'limt' (did you mean 'limit'?); allowed properties are 'limit', 'priority'"
    );
    let r = client
        .call_tool("tasks", json!({"limit": 5, "priorty": 1, "sort": "asc"}))
        .await;
    assert_eq!(
        error_text(&r, 3),
        "invalid arguments for tool 'tasks': unknown properties 'priorty' (did you mean 'priority'?), 'sort'; allowed properties are 'limit', 'priority'"
    );
    let r = client.call_tool("ping", json!({"verbose": true})).await;
    assert_eq!(
        error_text(&r, 4),
        "invalid arguments for tool 'ping': unknown property 'verbose'; this tool takes no arguments"
    );
    // Known properties only: the call runs.
    let r = client
        .call_tool("tasks", json!({"limit": 5, "priority": 1}))
        .await;
    assert_eq!(only_text(&result(&r, json!(5))), "Some(5) Some(1)");
}

#[tokio::test]
async fn before_2025_11_25_the_refusal_is_a_protocol_error() {
    let mut client = client(builder(), "2025-06-18").await;
    let r = client.call_tool("tasks", json!({"limt": 5})).await;
    assert_eq!(
        error_message(&r, -32602, json!(2)),
        "invalid arguments for tool 'tasks': unknown property 'limt' (did you mean 'limit'?); allowed properties are 'limit', 'priority'"
    );
    // And statelessly it is a result, as every argument error.
    let r = client
        .stateless(
            "tools/call",
            json!({"name": "tasks", "arguments": {"limt": 5}}),
        )
        .await;
    let r = result(&r, json!(3));
    assert_eq!(r["isError"], true, "{r}");
}

#[tokio::test]
async fn a_tool_or_the_server_may_accept_unknown_properties() {
    let mut client = client(builder(), "2025-11-25").await;
    let r = client
        .call_tool("lenient", json!({"limit": 2, "extra": [1]}))
        .await;
    assert_eq!(only_text(&result(&r, json!(2))), "Some(2)");

    let mut client = client_allowing().await;
    let r = client
        .call_tool("tasks", json!({"limit": 2, "extra": [1]}))
        .await;
    assert_eq!(only_text(&result(&r, json!(2))), "Some(2) None");
    // `allow_unknown_args = false` wins over the server.
    let r = client.call_tool("strict", json!({"extra": 1})).await;
    assert_eq!(
        error_text(&r, 3),
        "invalid arguments for tool 'strict': unknown property 'extra'; allowed properties are 'limit'"
    );
}

async fn client_allowing() -> mcp_runtime::transport::memory::TestClient {
    client(builder().allow_unknown_args(true), "2025-11-25").await
}

async fn schemas(profile: SchemaProfile, allow: bool) -> Vec<(String, Value)> {
    let mut client = client(
        builder().schema_profile(profile).allow_unknown_args(allow),
        "2025-11-25",
    )
    .await;
    let list = result(&client.request("tools/list", Value::Null).await, json!(2));
    list["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["name"].as_str().unwrap().to_owned(),
                t["inputSchema"]
                    .get("additionalProperties")
                    .cloned()
                    .unwrap_or(Value::Null),
            )
        })
        .collect()
}

#[tokio::test]
async fn only_the_strict_profile_says_additional_properties_false() {
    assert_eq!(
        schemas(SchemaProfile::Strict2020_12, false).await,
        [
            ("lenient".to_owned(), Value::Null),
            ("ping".to_owned(), json!(false)),
            ("strict".to_owned(), json!(false)),
            ("tasks".to_owned(), json!(false)),
        ]
    );
    assert_eq!(
        schemas(SchemaProfile::Strict2020_12, true).await,
        [
            ("lenient".to_owned(), Value::Null),
            ("ping".to_owned(), Value::Null),
            ("strict".to_owned(), json!(false)),
            ("tasks".to_owned(), Value::Null),
        ]
    );
    let portable = schemas(SchemaProfile::Portable, false).await;
    assert!(portable.iter().all(|(_, a)| a.is_null()), "{portable:?}");
}
