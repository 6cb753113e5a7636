//! JSON-RPC envelope errors: -32700, -32600, -32601, and what the server ignores.

use serde_json::{Value, json};

use crate::fixtures::{fresh, handshake};
use crate::{error_message, messages_within, ping_is_next, result};

#[tokio::test]
async fn bad_json_is_a_parse_error_with_a_null_id_and_serving_goes_on() {
    let mut client = handshake("2025-11-25").await;
    for (n, text) in [
        r#"{"jsonrpc":"2.0","id":1,"method":"#,
        "{oops",
        "[1,2",
        "\u{1}",
        r#"{"id":3}}"#,
    ]
    .into_iter()
    .enumerate()
    {
        client.send_raw(text).await;
        let reply = client.recv().await.unwrap();
        assert_eq!(
            reply,
            json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "Parse error"}}),
            "{text}"
        );
        ping_is_next(&mut client, 100 + n as i64).await;
    }
}

#[tokio::test]
async fn a_request_with_a_null_id_is_invalid() {
    let mut client = handshake("2025-11-25").await;
    client
        .send_raw(r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#)
        .await;
    let msg = error_message(&client.recv().await.unwrap(), -32600, Value::Null);
    assert!(msg.starts_with("Invalid request: "), "{msg}");
    ping_is_next(&mut client, 5).await;
}

#[tokio::test]
async fn a_fractional_id_is_invalid_and_not_echoed() {
    let mut client = handshake("2025-11-25").await;
    client
        .send_raw(r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#)
        .await;
    let msg = error_message(&client.recv().await.unwrap(), -32600, Value::Null);
    assert_eq!(
        msg,
        "Invalid request: `id` must be a string or an integer, not a fraction or an exponent"
    );
}

#[tokio::test]
async fn an_id_outside_i64_is_invalid_with_the_right_reason() {
    let mut client = handshake("2025-11-25").await;
    client
        .send_raw(r#"{"jsonrpc":"2.0","id":18446744073709551615,"method":"ping"}"#)
        .await;
    let msg = error_message(&client.recv().await.unwrap(), -32600, Value::Null);
    assert_eq!(
        msg,
        "Invalid request: `id` is an integer outside the signed 64-bit range"
    );
    client
        .send_raw(r#"{"jsonrpc":"2.0","id":1e3,"method":"ping"}"#)
        .await;
    let msg = error_message(&client.recv().await.unwrap(), -32600, Value::Null);
    assert_eq!(
        msg,
        "Invalid request: `id` must be a string or an integer, not a fraction or an exponent"
    );
    ping_is_next(&mut client, 6).await;
}

#[tokio::test]
async fn positional_params_are_invalid_params() {
    let mut client = handshake("2025-11-25").await;
    client
        .send_raw(
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":["echo",{"text":"x"}]}"#,
        )
        .await;
    let msg = error_message(&client.recv().await.unwrap(), -32602, json!(7));
    assert_eq!(msg, "invalid params: `params` must be an object");
    client
        .send_raw(r#"{"jsonrpc":"2.0","id":8,"method":"tools/list","params":[]}"#)
        .await;
    let msg = error_message(&client.recv().await.unwrap(), -32602, json!(8));
    assert_eq!(msg, "invalid params: `params` must be an object");
}

#[tokio::test]
async fn an_id_of_a_wrong_type_is_invalid() {
    let mut client = handshake("2025-11-25").await;
    for text in [
        r#"{"jsonrpc":"2.0","id":true,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#,
    ] {
        client.send_raw(text).await;
        let msg = error_message(&client.recv().await.unwrap(), -32600, Value::Null);
        assert_eq!(
            msg, "Invalid request: `id` must be a string or an integer",
            "{text}"
        );
    }
}

#[tokio::test]
async fn a_missing_or_wrong_jsonrpc_member_is_invalid_with_the_id_echoed() {
    let mut client = handshake("2025-11-25").await;
    client.send_raw(r#"{"id":7,"method":"ping"}"#).await;
    error_message(&client.recv().await.unwrap(), -32600, json!(7));
    client
        .send_raw(r#"{"jsonrpc":"1.0","id":"abc","method":"ping"}"#)
        .await;
    error_message(&client.recv().await.unwrap(), -32600, json!("abc"));
    client
        .send_raw(r#"{"jsonrpc":2.0,"id":8,"method":"ping"}"#)
        .await;
    error_message(&client.recv().await.unwrap(), -32600, json!(8));
    ping_is_next(&mut client, 9).await;
}

#[tokio::test]
async fn a_message_that_is_not_an_object_is_invalid() {
    let mut client = handshake("2025-11-25").await;
    for text in ["42", r#""ping""#, "null", "true"] {
        client.send_raw(text).await;
        let msg = error_message(&client.recv().await.unwrap(), -32600, Value::Null);
        assert_eq!(
            msg, "Invalid request: a message must be a JSON object",
            "{text}"
        );
    }
}

#[tokio::test]
async fn a_method_that_is_not_a_string_is_invalid_with_the_id_echoed() {
    let mut client = handshake("2025-11-25").await;
    client
        .send_raw(r#"{"jsonrpc":"2.0","id":4,"method":12}"#)
        .await;
    error_message(&client.recv().await.unwrap(), -32600, json!(4));
}

#[tokio::test]
async fn an_unknown_method_is_not_found() {
    let mut client = handshake("2025-11-25").await;
    let r = client.request("tools/frobnicate", json!({})).await;
    assert_eq!(
        r,
        json!({"jsonrpc": "2.0", "id": 2, "error": {"code": -32601, "message": "Method not found: tools/frobnicate"}})
    );
    // String ids are echoed as strings.
    client
        .send_raw(r#"{"jsonrpc":"2.0","id":"x-1","method":"sampling/createMessage"}"#)
        .await;
    error_message(&client.recv().await.unwrap(), -32601, json!("x-1"));
}

#[tokio::test]
async fn notifications_and_responses_are_never_answered() {
    let mut client = handshake("2025-11-25").await;
    client
        .notify("notifications/unknown", json!({"x": 1}))
        .await;
    client
        .notify("notifications/roots/list_changed", Value::Null)
        .await;
    client
        .notify("notifications/cancelled", json!({"requestId": 12345}))
        .await;
    client
        .notify(
            "notifications/cancelled",
            json!({"requestId": {"not": "an id"}}),
        )
        .await;
    client
        .send_raw(r#"{"jsonrpc":"2.0","id":99,"result":{}}"#)
        .await;
    client
        .send_raw(r#"{"jsonrpc":"2.0","id":98,"error":{"code":-1,"message":"no"}}"#)
        .await;
    ping_is_next(&mut client, 3).await;
    assert_eq!(messages_within(&mut client, 100).await, Vec::<Value>::new());
}

#[tokio::test]
async fn a_notification_with_params_of_a_wrong_shape_is_an_invalid_request() {
    let mut client = handshake("2025-11-25").await;
    client
        .send_raw(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":"garbage"}"#)
        .await;
    let msg = error_message(&client.recv().await.unwrap(), -32600, Value::Null);
    assert_eq!(
        msg,
        "Invalid request: `params` must be an object or an array"
    );
    ping_is_next(&mut client, 3).await;
}

#[tokio::test]
async fn ids_may_be_strings_negative_or_large() {
    let mut client = handshake("2025-11-25").await;
    for id in [
        json!("req-1"),
        json!(-5),
        json!(0),
        json!(i64::MAX),
        json!(""),
    ] {
        client
            .send(&json!({"jsonrpc": "2.0", "id": id, "method": "ping"}))
            .await;
        assert_eq!(
            client.recv().await.unwrap(),
            json!({"jsonrpc": "2.0", "id": id, "result": {}})
        );
    }
}

#[tokio::test]
async fn bad_params_shapes_are_invalid_params() {
    let mut client = handshake("2025-11-25").await;
    let cases = [
        ("tools/call", json!({"arguments": {}})),
        ("tools/call", json!({"name": 5})),
        ("resources/read", json!({})),
        ("resources/read", json!({"uri": ["x"]})),
        ("prompts/get", json!({"name": "card", "arguments": "Ann"})),
        ("tools/list", json!({"cursor": 3})),
        (
            "completion/complete",
            json!({"ref": {"type": "ref/tool", "name": "x"}}),
        ),
        ("logging/setLevel", json!({"level": "loud"})),
    ];
    for (method, params) in cases {
        let r = client.request(method, params.clone()).await;
        let id = r["id"].clone();
        let msg = error_message(&r, -32602, id);
        assert!(
            msg.starts_with("invalid params: "),
            "{method} {params}: {msg}"
        );
        assert!(!msg.contains("line 1"), "serde positions leak: {msg}");
    }
    ping_is_next(&mut client, 1000).await;
}

#[tokio::test]
async fn a_tools_call_without_params_is_invalid_params() {
    let mut client = handshake("2025-11-25").await;
    let r = client.request("tools/call", Value::Null).await;
    assert_eq!(
        error_message(&r, -32602, json!(2)),
        "invalid params: missing field `name`"
    );
}

#[tokio::test]
async fn the_first_message_may_be_garbage() {
    let mut client = fresh();
    client.send_raw("not json").await;
    error_message(&client.recv().await.unwrap(), -32700, Value::Null);
    let init = client.initialize("2025-11-25").await;
    assert_eq!(result(&init, json!(1))["protocolVersion"], "2025-11-25");
}
