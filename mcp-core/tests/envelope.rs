//! The JSON-RPC envelope: every classification rule, with the exact code and id answered.

use std::borrow::Cow;

use mcp_runtime_core::ErrorObject;
use mcp_runtime_core::jsonrpc::{
    EnvelopeError, Message, Parsed, RequestId, error_codes, parse_batch_or_message, parse_message,
    write_error, write_notification, write_request, write_response,
};

/// Asserts `text` is rejected with `code` and answered with `id`.
fn rejected(text: &str, code: i32, id: Option<RequestId>) {
    let err = parse_message(text).expect_err(text);
    assert_eq!(err.to_error_object().code, code, "code for {text}: {err}");
    assert_eq!(err.id(), id.as_ref(), "id for {text}");
}

fn n(id: i64) -> Option<RequestId> {
    Some(RequestId::Number(id))
}

#[test]
fn requests_and_notifications() {
    let Message::Request(r) = parse_message(
        r#" {"jsonrpc":"2.0","id":"a-1","method":"tools/call","params":{"name":"x"}} "#,
    )
    .unwrap() else {
        panic!("not a request")
    };
    assert_eq!(r.id, RequestId::String("a-1".into()));
    assert!(matches!(r.method, Cow::Borrowed("tools/call")));
    assert_eq!(r.params.unwrap().get(), r#"{"name":"x"}"#);

    let Message::Request(r) =
        parse_message(r#"{"jsonrpc":"2.0","id":-5,"method":"ping"}"#).unwrap()
    else {
        panic!()
    };
    assert_eq!(r.id, RequestId::Number(-5));
    assert!(r.params.is_none());

    // Escapes in the method name are decoded into an owned string.
    let Message::Notification(note) =
        parse_message(r#"{"jsonrpc":"2.0","method":"notifications\/initialized","params":[]}"#)
            .unwrap()
    else {
        panic!()
    };
    assert_eq!(note.method, "notifications/initialized");
    assert!(matches!(note.method, Cow::Owned(_)));
    assert_eq!(note.params.unwrap().get(), "[]");

    // Unknown members are ignored.
    let msg = parse_message(r#"{"jsonrpc":"2.0","id":1,"method":"ping","extra":{"a":[1]}}"#);
    assert_eq!(msg.unwrap().method(), Some("ping"));
}

#[test]
fn responses() {
    let Message::Response(r) =
        parse_message(r#"{"jsonrpc":"2.0","id":3,"result":{"roots":[]}}"#).unwrap()
    else {
        panic!()
    };
    assert_eq!(r.id, n(3));
    assert_eq!(r.outcome.unwrap().get(), r#"{"roots":[]}"#);

    let Message::Response(r) = parse_message(
        r#"{"jsonrpc":"2.0","id":"s","error":{"code":-32601,"message":"nope","data":[1]}}"#,
    )
    .unwrap() else {
        panic!()
    };
    assert_eq!(r.id, Some(RequestId::from("s")));
    let err = r.outcome.unwrap_err();
    assert_eq!(err.code, -32601);
    assert_eq!(err.data, Some(serde_json::json!([1])));

    // An error about an unreadable request may have a null or absent id.
    for text in [
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#,
        r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}"#,
    ] {
        let Message::Response(r) = parse_message(text).unwrap() else {
            panic!()
        };
        assert_eq!(r.id, None);
        assert!(r.outcome.is_err());
    }
}

#[test]
fn parse_errors() {
    for text in [
        "",
        "   ",
        "{",
        "{\"jsonrpc\":",
        "nul",
        "[1,",
        "{\"a\":1} trailing",
        "\u{1F600}",
    ] {
        let err = parse_message(text).expect_err(text);
        assert_eq!(err, EnvelopeError::Parse, "{text:?}");
        assert_eq!(err.to_error_object().code, error_codes::PARSE_ERROR);
        assert_eq!(err.id(), None);
    }
    // A data problem followed by broken JSON is still a parse error.
    assert_eq!(
        parse_message(r#"{"id":1,"id":2,"#).unwrap_err(),
        EnvelopeError::Parse
    );
}

#[test]
fn invalid_requests() {
    use error_codes::INVALID_REQUEST as INV;
    // Not an object.
    rejected("42", INV, None);
    rejected(r#""ping""#, INV, None);
    rejected("null", INV, None);
    rejected(r#"[{"jsonrpc":"2.0","method":"ping"}]"#, INV, None);
    // `jsonrpc` missing or wrong, with the id kept.
    rejected(r#"{"id":1,"method":"ping"}"#, INV, n(1));
    rejected(r#"{"jsonrpc":"1.0","id":2,"method":"ping"}"#, INV, n(2));
    rejected(
        r#"{"jsonrpc":2.0,"id":"x","method":"ping"}"#,
        INV,
        Some(RequestId::from("x")),
    );
    rejected(r#"{"jsonrpc":null,"id":4,"method":"ping"}"#, INV, n(4));
    // Bad ids are never echoed.
    rejected(r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#, INV, None);
    rejected(r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#, INV, None);
    rejected(r#"{"jsonrpc":"2.0","id":1e3,"method":"ping"}"#, INV, None);
    rejected(r#"{"jsonrpc":"2.0","id":true,"method":"ping"}"#, INV, None);
    rejected(
        r#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#,
        INV,
        None,
    );
    rejected(r#"{"jsonrpc":"2.0","id":[1],"method":"ping"}"#, INV, None);
    rejected(
        r#"{"jsonrpc":"2.0","id":99999999999999999999,"method":"ping"}"#,
        INV,
        None,
    );
    // Method not a string.
    rejected(r#"{"jsonrpc":"2.0","id":5,"method":7}"#, INV, n(5));
    rejected(r#"{"jsonrpc":"2.0","id":5,"method":null}"#, INV, n(5));
    // Params neither object nor array.
    rejected(
        r#"{"jsonrpc":"2.0","id":6,"method":"ping","params":"x"}"#,
        INV,
        n(6),
    );
    rejected(
        r#"{"jsonrpc":"2.0","id":6,"method":"ping","params":3}"#,
        INV,
        n(6),
    );
    rejected(
        r#"{"jsonrpc":"2.0","id":6,"method":"ping","params":null}"#,
        INV,
        n(6),
    );
    rejected(
        r#"{"jsonrpc":"2.0","method":"note","params":true}"#,
        INV,
        None,
    );
    // Both result and error, or method and result.
    rejected(
        r#"{"jsonrpc":"2.0","id":7,"result":{},"error":{"code":1,"message":"m"}}"#,
        INV,
        n(7),
    );
    rejected(
        r#"{"jsonrpc":"2.0","id":8,"method":"ping","result":{}}"#,
        INV,
        n(8),
    );
    // Neither method nor result/error.
    rejected(r#"{"jsonrpc":"2.0","id":9}"#, INV, n(9));
    rejected(r#"{"jsonrpc":"2.0"}"#, INV, None);
    rejected("{}", INV, None);
    // A result needs a real id; an error object needs code and message.
    rejected(r#"{"jsonrpc":"2.0","result":{}}"#, INV, None);
    rejected(r#"{"jsonrpc":"2.0","id":null,"result":{}}"#, INV, None);
    rejected(
        r#"{"jsonrpc":"2.0","id":10,"error":{"message":"m"}}"#,
        INV,
        n(10),
    );
    rejected(r#"{"jsonrpc":"2.0","id":10,"error":"bad"}"#, INV, n(10));
    // Duplicate members.
    rejected(
        r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}"#,
        INV,
        None,
    );

    let err = parse_message(r#"{"jsonrpc":"2.0","id":5,"method":7}"#).unwrap_err();
    let obj = err.to_error_object();
    assert!(obj.message.contains("method"), "{}", obj.message);
}

#[test]
fn batches() {
    let Parsed::Single(Message::Request(_)) =
        parse_batch_or_message(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#).unwrap()
    else {
        panic!()
    };
    let Parsed::Batch(items) = parse_batch_or_message(
        r#" [{"jsonrpc":"2.0","id":1,"method":"ping"},
            {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}},
            {"jsonrpc":"2.0","id":2,"result":{}},
            {"id":3,"method":"ping"},
            "x"] "#,
    )
    .unwrap() else {
        panic!()
    };
    assert_eq!(items.len(), 5);
    assert!(matches!(items[0], Ok(Message::Request(_))));
    assert!(matches!(items[1], Ok(Message::Notification(_))));
    assert!(matches!(items[2], Ok(Message::Response(_))));
    let err = items[3].as_ref().unwrap_err();
    assert_eq!(
        (err.to_error_object().code, err.id()),
        (-32600, n(3).as_ref())
    );
    assert_eq!(items[4].as_ref().unwrap_err().id(), None);

    let err = parse_batch_or_message("[]").unwrap_err();
    assert_eq!((err.to_error_object().code, err.id()), (-32600, None));
    assert_eq!(
        parse_batch_or_message("[{").unwrap_err(),
        EnvelopeError::Parse
    );
    assert_eq!(
        parse_batch_or_message("{").unwrap_err(),
        EnvelopeError::Parse
    );
}

#[test]
fn writers_produce_parseable_lines() {
    let mut buf = Vec::new();
    write_response(&mut buf, &RequestId::from("q\"1"), r#"{"ok":true}"#);
    assert_eq!(
        std::str::from_utf8(&buf).unwrap(),
        r#"{"jsonrpc":"2.0","id":"q\"1","result":{"ok":true}}"#
    );
    let text = String::from_utf8(buf.clone()).unwrap();
    let Message::Response(r) = parse_message(&text).unwrap() else {
        panic!()
    };
    assert_eq!(r.id, Some(RequestId::from("q\"1")));

    buf.clear();
    write_error(
        &mut buf,
        Some(&RequestId::Number(4)),
        &ErrorObject::method_not_found("x/y"),
    );
    assert_eq!(
        std::str::from_utf8(&buf).unwrap(),
        r#"{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"Method not found: x/y"}}"#
    );

    buf.clear();
    write_notification(
        &mut buf,
        "notifications/progress",
        r#"{"progressToken":1,"progress":1}"#,
    );
    let text = String::from_utf8(buf.clone()).unwrap();
    assert!(matches!(
        parse_message(&text).unwrap(),
        Message::Notification(_)
    ));
    assert!(!text.ends_with('\n'));

    buf.clear();
    write_request(
        &mut buf,
        &RequestId::Number(i64::MIN),
        "sampling/createMessage",
        "{}",
    );
    let text = String::from_utf8(buf).unwrap();
    let Message::Request(r) = parse_message(&text).unwrap() else {
        panic!()
    };
    assert_eq!(r.id, RequestId::Number(i64::MIN));
}

#[test]
fn error_object_constructors() {
    assert_eq!(ErrorObject::parse_error().code, -32700);
    assert_eq!(ErrorObject::invalid_request("x").code, -32600);
    assert_eq!(ErrorObject::method_not_found("x").code, -32601);
    assert_eq!(ErrorObject::invalid_params("x").code, -32602);
    assert_eq!(ErrorObject::internal("x").code, -32603);
    assert_eq!(
        ErrorObject::resource_not_found("file:///a").data.unwrap()["uri"],
        "file:///a"
    );
    let e = ErrorObject::unsupported_protocol_version("1999-01-01", ["2026-07-28"]);
    assert_eq!(e.code, error_codes::UNSUPPORTED_PROTOCOL_VERSION);
    assert_eq!(e.data.unwrap()["supported"][0], "2026-07-28");
    assert_eq!(
        [
            error_codes::RESOURCE_NOT_FOUND,
            error_codes::URL_ELICITATION_REQUIRED,
            error_codes::HEADER_MISMATCH,
            error_codes::MISSING_REQUIRED_CLIENT_CAPABILITY,
        ],
        [-32002, -32042, -32020, -32021]
    );
}

#[test]
fn request_ids() {
    assert_eq!(
        serde_json::from_str::<RequestId>("7").unwrap(),
        RequestId::Number(7)
    );
    assert_eq!(
        serde_json::from_str::<RequestId>(r#""7""#).unwrap(),
        RequestId::from("7")
    );
    for bad in ["null", "1.0", "true", "{}", "[]", "18446744073709551615"] {
        assert!(serde_json::from_str::<RequestId>(bad).is_err(), "{bad}");
    }
    assert_eq!(
        serde_json::to_string(&RequestId::from("a")).unwrap(),
        r#""a""#
    );
    assert_eq!(RequestId::from("a").to_string(), "a");
}
