//! Tool argument validation: messages that name the path and the expectation, reported as
//! `isError` results from 2025-11-25 on (SEP-1303) and as -32602 before, or as configured.

use mcp_runtime::ValidationErrors;
use serde_json::{Value, json};

use crate::fixtures::{self, handshake};
use crate::{error_message, only_text, result};

/// Each case: arguments of `paint`, and the message after "invalid arguments for tool 'paint': ".
fn cases() -> Vec<(Value, &'static str)> {
    vec![
        (json!({"color": "red"}), "missing required property 'coats'"),
        (json!({"coats": 1}), "missing required property 'color'"),
        (
            json!({"color": "red", "coats": "two"}),
            "property 'coats': expected a non-negative integer, got string \"two\"",
        ),
        (
            json!({"color": "red", "coats": -1}),
            "property 'coats': expected a non-negative integer, got integer -1",
        ),
        (
            json!({"color": "red", "coats": 1.5}),
            "property 'coats': expected a non-negative integer, got floating point 1.5",
        ),
        (
            json!({"color": "purple", "coats": 1}),
            "property 'color': 'purple' is not an allowed value; expected 'red', 'green', 'blue'",
        ),
        (
            json!({"color": 3, "coats": 1}),
            "property 'color': expected a string, got integer 3",
        ),
        (
            json!({"color": "red", "coats": 5}),
            "property 'coats': must be between 1 and 3, got 5",
        ),
        (
            json!({"color": "red", "coats": 0}),
            "property 'coats': must be between 1 and 3, got 0",
        ),
        (
            json!({"color": "red", "coats": 1, "finish": false}),
            "property 'finish': expected a string, got boolean false",
        ),
        (
            json!({"color": true, "coats": 1}),
            "property 'color': expected a string, got boolean true",
        ),
        // `arguments` that is not an object fails the `CallToolRequest` schema: -32602 in every
        // revision (tests/it/hostile.rs).
    ]
}

/// Calls `paint` with every case; returns the cases whose message differs, as
/// `(arguments, expected, actual)`, so that one run reports every mismatch.
async fn mismatches(
    client: &mut mcp_runtime::transport::memory::TestClient,
    first_id: usize,
    as_result: bool,
) -> Vec<(Value, String, String)> {
    let mut wrong = Vec::new();
    for (n, (arguments, expected)) in cases().into_iter().enumerate() {
        let r = client.call_tool("paint", arguments.clone()).await;
        let id = json!(first_id + n);
        let actual = if as_result {
            let r = result(&r, id);
            assert_eq!(r["isError"], true, "{arguments}: {r}");
            only_text(&r).to_owned()
        } else {
            error_message(&r, -32602, id)
        };
        let expected = format!("invalid arguments for tool 'paint': {expected}");
        if actual != expected {
            wrong.push((arguments, expected, actual));
        }
    }
    wrong
}

#[tokio::test]
async fn from_2025_11_25_invalid_arguments_are_tool_results() {
    let mut client = handshake("2025-11-25").await;
    assert_eq!(mismatches(&mut client, 2, true).await, []);
}

#[tokio::test]
async fn before_2025_11_25_invalid_arguments_are_invalid_params() {
    for version in ["2024-11-05", "2025-03-26", "2025-06-18"] {
        let mut client = handshake(version).await;
        assert_eq!(mismatches(&mut client, 2, false).await, [], "{version}");
    }
}

#[tokio::test]
async fn valid_arguments_pass_with_and_without_optionals() {
    let mut client = handshake("2025-11-25").await;
    let r = result(
        &client
            .call_tool("paint", json!({"color": "blue", "coats": 3}))
            .await,
        json!(2),
    );
    assert_eq!(only_text(&r), "3 plain coat(s) of Blue");
    let r = client
        .call_tool(
            "paint",
            json!({"color": "green", "coats": 1, "finish": "matte"}),
        )
        .await;
    assert_eq!(only_text(&result(&r, json!(3))), "1 matte coat(s) of Green");
    // `null` for an optional parameter means absent.
    let r = client
        .call_tool("paint", json!({"color": "red", "coats": 2, "finish": null}))
        .await;
    assert_eq!(only_text(&result(&r, json!(4))), "2 plain coat(s) of Red");
}

#[tokio::test]
async fn the_policy_can_force_tool_results() {
    let server = fixtures::builder()
        .validation_errors(ValidationErrors::ToolResult)
        .build()
        .unwrap();
    let mut client = server.connect_in_memory();
    client.initialize("2025-03-26").await;
    let r = result(&client.call_tool("echo", json!({})).await, json!(2));
    assert_eq!(
        r,
        json!({"content": [{"type": "text", "text": "invalid arguments for tool 'echo': missing required property 'text'"}], "isError": true})
    );
}

#[tokio::test]
async fn the_policy_can_force_protocol_errors() {
    let server = fixtures::builder()
        .validation_errors(ValidationErrors::ProtocolError)
        .build()
        .unwrap();
    let mut client = server.connect_in_memory();
    client.initialize("2025-11-25").await;
    let r = client.call_tool("echo", json!({})).await;
    assert_eq!(
        error_message(&r, -32602, json!(2)),
        "invalid arguments for tool 'echo': missing required property 'text'"
    );
    // And statelessly too.
    let r = client
        .stateless("tools/call", json!({"name": "echo", "arguments": {}}))
        .await;
    error_message(&r, -32602, json!(3));
}

#[tokio::test]
async fn schemas_state_what_validation_enforces() {
    let mut client = handshake("2025-11-25").await;
    let list = result(&client.request("tools/list", Value::Null).await, json!(2));
    let paint = list["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "paint")
        .unwrap()
        .clone();
    assert_eq!(
        paint["inputSchema"],
        json!({
            "type": "object",
            "properties": {
                "color": {"type": "string", "enum": ["red", "green", "blue"], "description": "The colour\n- red: Red\n- green: Green\n- blue: Blue"},
                "coats": {"type": "integer", "minimum": 1, "maximum": 3, "description": "How many coats"},
                "finish": {"type": "string", "description": "Finish, e.g. matte"}
            },
            "required": ["color", "coats"]
        })
    );
}
