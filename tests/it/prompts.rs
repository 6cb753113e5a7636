//! Prompts: list, get, argument errors.

use serde_json::{Value, json};

use crate::fixtures::handshake;
use crate::{error_message, result};

#[tokio::test]
async fn prompts_are_listed_with_their_arguments() {
    let mut client = handshake("2025-11-25").await;
    let list = result(&client.request("prompts/list", Value::Null).await, json!(2));
    assert_eq!(
        list,
        json!({"prompts": [
            {
                "name": "card", "title": "Greeting card", "description": "Writes a greeting card",
                "arguments": [
                    {"name": "name", "description": "Who the card is for", "required": true},
                    {"name": "style", "description": "The style", "required": false}
                ]
            },
            {
                "name": "many", "description": "Picks one of 150 values",
                "arguments": [{"name": "pick", "description": "The value", "required": true}]
            },
            {
                "name": "toned", "description": "Refuses unknown tones",
                "arguments": [{"name": "tone", "description": "warm or cold", "required": true}]
            }
        ]})
    );
}

#[tokio::test]
async fn prompt_titles_are_left_out_before_2025_06_18() {
    let mut client = handshake("2025-03-26").await;
    let list = result(&client.request("prompts/list", Value::Null).await, json!(2));
    assert!(list["prompts"][0].get("title").is_none(), "{list}");
    assert_eq!(list["prompts"][0]["name"], "card");
}

#[tokio::test]
async fn a_prompt_is_rendered() {
    let mut client = handshake("2025-11-25").await;
    let r = client
        .request(
            "prompts/get",
            json!({"name": "card", "arguments": {"name": "Ann", "style": "funny"}}),
        )
        .await;
    assert_eq!(
        r,
        json!({"jsonrpc": "2.0", "id": 2, "result": {
            "description": "Writes a greeting card",
            "messages": [{"role": "user", "content": {"type": "text", "text": "Write a funny card for Ann."}}]
        }})
    );
    let r = result(
        &client
            .request(
                "prompts/get",
                json!({"name": "card", "arguments": {"name": "Bo"}}),
            )
            .await,
        json!(3),
    );
    assert_eq!(
        r["messages"][0]["content"]["text"],
        "Write a warm card for Bo."
    );
}

#[tokio::test]
async fn a_missing_required_argument_is_invalid_params() {
    let mut client = handshake("2025-11-25").await;
    for (n, params) in [
        json!({"name": "card"}),
        json!({"name": "card", "arguments": {}}),
        json!({"name": "card", "arguments": {"style": "warm"}}),
    ]
    .into_iter()
    .enumerate()
    {
        let r = client.request("prompts/get", params.clone()).await;
        let msg = error_message(&r, -32602, json!(n + 2));
        assert_eq!(msg, "missing required argument 'name'", "{params}");
    }
}

#[tokio::test]
async fn an_unknown_prompt_is_invalid_params() {
    let mut client = handshake("2025-11-25").await;
    let r = client.request("prompts/get", json!({"name": "nope"})).await;
    assert_eq!(error_message(&r, -32602, json!(2)), "unknown prompt 'nope'");
}

#[tokio::test]
async fn a_prompt_error_is_invalid_params_with_its_text() {
    let mut client = handshake("2025-11-25").await;
    let r = client
        .request(
            "prompts/get",
            json!({"name": "toned", "arguments": {"tone": "grumpy"}}),
        )
        .await;
    assert_eq!(error_message(&r, -32602, json!(2)), "unknown tone 'grumpy'");
    let r = result(
        &client
            .request(
                "prompts/get",
                json!({"name": "toned", "arguments": {"tone": "cold"}}),
            )
            .await,
        json!(3),
    );
    assert_eq!(
        r["messages"],
        json!([{"role": "user", "content": {"type": "text", "text": "Be cold."}}])
    );
}
