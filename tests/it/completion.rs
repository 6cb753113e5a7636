//! `completion/complete` for prompt arguments and resource template variables.

use serde_json::{Value, json};

use crate::fixtures::handshake;
use crate::{error_message, result};

async fn complete(params: Value) -> Value {
    let mut client = handshake("2025-11-25").await;
    client.request("completion/complete", params).await
}

#[tokio::test]
async fn a_prompt_argument_is_completed() {
    let r = complete(json!({"ref": {"type": "ref/prompt", "name": "card"}, "argument": {"name": "style", "value": "f"}})).await;
    assert_eq!(
        result(&r, json!(2)),
        json!({"completion": {"values": ["formal", "friendly", "funny"]}})
    );
}

#[tokio::test]
async fn more_than_100_values_are_trimmed_with_total_and_has_more() {
    let r = complete(json!({"ref": {"type": "ref/prompt", "name": "many"}, "argument": {"name": "pick", "value": "v"}})).await;
    let completion = &result(&r, json!(2))["completion"];
    let values = completion["values"].as_array().unwrap();
    assert_eq!(values.len(), 100);
    assert_eq!(
        (values[0].as_str(), values[99].as_str()),
        (Some("v000"), Some("v099"))
    );
    assert_eq!(
        (&completion["total"], &completion["hasMore"]),
        (&json!(150), &json!(true))
    );
    // Under the limit: no `total` or `hasMore`.
    let r = complete(json!({"ref": {"type": "ref/prompt", "name": "many"}, "argument": {"name": "pick", "value": "v14"}})).await;
    assert_eq!(
        result(&r, json!(2)),
        json!({"completion": {"values": ["v140", "v141", "v142", "v143", "v144", "v145", "v146", "v147", "v148", "v149"]}})
    );
}

#[tokio::test]
async fn the_hook_sees_the_other_arguments() {
    let r = complete(json!({
        "ref": {"type": "ref/prompt", "name": "card"},
        "argument": {"name": "style", "value": "f"},
        "context": {"arguments": {"name": "Bob"}}
    }))
    .await;
    assert_eq!(
        result(&r, json!(2))["completion"]["values"],
        json!(["funny"])
    );
}

#[tokio::test]
async fn a_template_variable_is_completed() {
    let r = complete(json!({"ref": {"type": "ref/resource", "uri": "test://items/{id}"}, "argument": {"name": "id", "value": "1"}})).await;
    assert_eq!(
        result(&r, json!(2))["completion"]["values"],
        json!(["1", "12"])
    );
}

#[tokio::test]
async fn an_argument_without_a_hook_completes_to_nothing() {
    let r = complete(json!({"ref": {"type": "ref/prompt", "name": "card"}, "argument": {"name": "name", "value": "A"}})).await;
    assert_eq!(result(&r, json!(2))["completion"]["values"], json!([]));
    let r = complete(json!({"ref": {"type": "ref/resource", "uri": "test://static"}, "argument": {"name": "x", "value": ""}})).await;
    assert_eq!(result(&r, json!(2))["completion"]["values"], json!([]));
}

#[tokio::test]
async fn unknown_references_are_invalid_params() {
    let r = complete(json!({"ref": {"type": "ref/prompt", "name": "nope"}, "argument": {"name": "x", "value": ""}})).await;
    assert_eq!(error_message(&r, -32602, json!(2)), "unknown prompt 'nope'");
    let r = complete(json!({"ref": {"type": "ref/resource", "uri": "test://what/{x}"}, "argument": {"name": "x", "value": ""}})).await;
    assert_eq!(
        error_message(&r, -32602, json!(2)),
        "unknown resource template 'test://what/{x}'"
    );
}
