//! Hostile input over the in-memory transport (the stream path stdio takes, without the pipe), in
//! both eras: every case gets its exact answer (or none), and the connection keeps serving
//! (a `ping` after each case is answered). The table of every case, with the HTTP and spawned
//! stdio ones, is `docs/hostile-inputs.md`.

use std::time::Duration;

use mcp_runtime::transport::memory::{self, TestClient};
use mcp_runtime::transport::{Inbound, Inbox, Outbox, Transport};
use serde_json::{Value, json};

use crate::fixtures::{fresh, handshake, started};
use crate::{error_message, meta_with, only_text, result};

/// The two eras a connection can be in.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Era {
    /// A 2025-11-25 session.
    Handshake,
    /// No session; every request carries `_meta` (2026-07-28).
    Stateless,
}

async fn client(era: Era) -> TestClient {
    match era {
        Era::Handshake => handshake("2025-11-25").await,
        Era::Stateless => fresh(),
    }
}

/// A request's text in `era`: stateless requests carry the `_meta` of 2026-07-28.
fn request(era: Era, id: Value, method: &str, mut params: Value) -> String {
    if era == Era::Stateless {
        params["_meta"] = meta_with(Value::Null);
    }
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

/// What a case must get back.
enum Expect {
    /// Exactly this error (code, id, message), and nothing else.
    Error(i64, Value, String),
    /// A tool result with this text (`isError` as given), for this id.
    Text(Value, &'static str, bool),
    /// No answer at all.
    Nothing,
}

/// Sends `text`, then a ping; checks what came back before the ping's answer.
async fn check(client: &mut TestClient, era: Era, name: &str, text: &str, expect: Expect) {
    client.send_raw(text).await;
    client
        .send(&json!({"jsonrpc": "2.0", "id": "after", "method": "ping"}))
        .await;
    let mut got = Vec::new();
    loop {
        let msg = client
            .recv()
            .await
            .unwrap_or_else(|| panic!("{era:?} {name}: the server stopped answering"));
        if msg["id"] == "after" {
            assert_eq!(msg, json!({"jsonrpc": "2.0", "id": "after", "result": {}}));
            break;
        }
        got.push(msg);
    }
    match expect {
        Expect::Nothing => assert_eq!(got, Vec::<Value>::new(), "{era:?} {name}"),
        Expect::Error(code, id, message) => {
            assert_eq!(got.len(), 1, "{era:?} {name}: {got:?}");
            assert_eq!(error_message(&got[0], code, id), message, "{era:?} {name}");
        }
        Expect::Text(id, text, is_error) => {
            assert_eq!(got.len(), 1, "{era:?} {name}: {got:?}");
            let r = result(&got[0], id);
            assert_eq!(only_text(&r), text, "{era:?} {name}");
            assert_eq!(
                r.get("isError") == Some(&json!(true)),
                is_error,
                "{era:?} {name}"
            );
        }
    }
}

fn err(code: i64, id: Value, message: &str) -> Expect {
    Expect::Error(code, id, message.to_owned())
}

const MB3: usize = 3 * 1024 * 1024;

/// What an error shows of an input of `len` bytes, `shown` being its first 256.
fn shortened(shown: &str, len: usize) -> String {
    assert_eq!(shown.len(), 256);
    format!("{shown}… ({len} bytes)")
}

#[tokio::test]
async fn malformed_envelopes_get_their_json_rpc_error_and_serving_goes_on() {
    for era in [Era::Handshake, Era::Stateless] {
        let mut c = client(era).await;
        let parse = || err(-32700, Value::Null, "Parse error");
        let cases = [
            (
                "truncated JSON",
                r#"{"jsonrpc":"2.0","id":1,"method":"#.to_owned(),
                parse(),
            ),
            (
                "trailing garbage",
                r#"{"jsonrpc":"2.0","id":1,"method":"ping"} x"#.to_owned(),
                parse(),
            ),
            ("100k unclosed brackets", "[".repeat(100_000), parse()),
            ("100k unclosed braces", "{\"a\":".repeat(100_000), parse()),
            (
                "empty object",
                "{}".to_owned(),
                err(-32600, Value::Null, "Invalid request: `jsonrpc` is missing"),
            ),
            (
                "empty batch",
                "[]".to_owned(),
                err(-32600, Value::Null, "Invalid request: an empty batch"),
            ),
            (
                "batch outside 2025-03-26",
                r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#.to_owned(),
                err(
                    -32600,
                    Value::Null,
                    "JSON-RPC batches are only accepted in protocol revision 2025-03-26",
                ),
            ),
            (
                "a bare number",
                "5".to_owned(),
                err(
                    -32600,
                    Value::Null,
                    "Invalid request: a message must be a JSON object",
                ),
            ),
            (
                "jsonrpc 1.0",
                r#"{"jsonrpc":"1.0","id":18,"method":"ping"}"#.to_owned(),
                err(
                    -32600,
                    json!(18),
                    "Invalid request: `jsonrpc` must be \"2.0\"",
                ),
            ),
            (
                "method not a string",
                r#"{"jsonrpc":"2.0","id":19,"method":5}"#.to_owned(),
                err(
                    -32600,
                    json!(19),
                    "Invalid request: `method` must be a string",
                ),
            ),
            (
                "params a string",
                r#"{"jsonrpc":"2.0","id":8,"method":"ping","params":"x"}"#.to_owned(),
                err(
                    -32600,
                    json!(8),
                    "Invalid request: `params` must be an object or an array",
                ),
            ),
        ];
        for (name, text, expect) in cases {
            check(&mut c, era, name, &text, expect).await;
        }
    }
}

#[tokio::test]
async fn odd_ids_are_refused_without_being_guessed_or_echoed_wrongly() {
    let fraction =
        "Invalid request: `id` must be a string or an integer, not a fraction or an exponent";
    let not_id = "Invalid request: `id` must be a string or an integer";
    for era in [Era::Handshake, Era::Stateless] {
        let mut c = client(era).await;
        let ping = |id: &str| format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#);
        let cases = [
            ("float id", ping("1.5"), err(-32600, Value::Null, fraction)),
            (
                "exponent id",
                ping("1e400"),
                err(-32600, Value::Null, fraction),
            ),
            (
                "id past i64",
                ping("99999999999999999999999"),
                err(
                    -32600,
                    Value::Null,
                    "Invalid request: `id` is an integer outside the signed 64-bit range",
                ),
            ),
            (
                "null id",
                ping("null"),
                err(
                    -32600,
                    Value::Null,
                    "Invalid request: `id` must not be null",
                ),
            ),
            (
                "object id",
                ping(r#"{"a":1}"#),
                err(-32600, Value::Null, not_id),
            ),
            ("boolean id", ping("true"), err(-32600, Value::Null, not_id)),
            (
                "1000-deep array id",
                ping(&format!("{}1{}", "[".repeat(1000), "]".repeat(1000))),
                err(-32600, Value::Null, not_id),
            ),
            (
                "lone surrogate escape in a string id",
                ping(r#""\ud800""#),
                err(
                    -32600,
                    Value::Null,
                    "Invalid request: `id` is not a valid string",
                ),
            ),
        ];
        for (name, text, expect) in cases {
            check(&mut c, era, name, &text, expect).await;
        }
        // Odd but valid ids are echoed exactly as sent.
        for id in [
            json!(""),
            json!("a\u{0}b"),
            json!(-9223372036854775808i64),
            json!("x".repeat(100_000)),
        ] {
            c.send_raw(&ping(&id.to_string())).await;
            assert_eq!(
                c.recv().await.unwrap(),
                json!({"jsonrpc": "2.0", "id": id, "result": {}}),
                "{era:?}"
            );
        }
    }
}

#[tokio::test]
async fn unknown_methods_and_wrong_params_are_protocol_errors() {
    for era in [Era::Handshake, Era::Stateless] {
        let mut c = client(era).await;
        let long_method = format!("tools/{}", "m".repeat(65_530));
        let cases = [
            (
                "unknown method",
                request(era, json!(1), "tools/frobnicate", json!({})),
                err(-32601, json!(1), "Method not found: tools/frobnicate"),
            ),
            (
                "64 KB method name",
                request(era, json!(2), &long_method, json!({})),
                err(
                    -32601,
                    json!(2),
                    &format!(
                        "Method not found: {}",
                        shortened(&long_method[..256], 65_536)
                    ),
                ),
            ),
            (
                "tool name a number",
                request(era, json!(3), "tools/call", json!({"name": 5})),
                err(
                    -32602,
                    json!(3),
                    "invalid params: invalid type: integer `5`, expected a string",
                ),
            ),
            (
                "tools/call without a name",
                request(era, json!(4), "tools/call", json!({"arguments": {}})),
                err(-32602, json!(4), "invalid params: missing field `name`"),
            ),
            (
                "list cursor not a cursor",
                request(era, json!(5), "tools/list", json!({"cursor": "p999"})),
                err(-32602, json!(5), "invalid cursor"),
            ),
        ];
        for (name, text, expect) in cases {
            check(&mut c, era, name, &text, expect).await;
        }
    }
    // Positional params cannot carry `_meta`: a session is needed to say what they are.
    let mut c = client(Era::Handshake).await;
    let text = r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":[1]}"#;
    let expect = err(
        -32602,
        json!(9),
        "invalid params: `params` must be an object",
    );
    check(&mut c, Era::Handshake, "positional params", text, expect).await;
}

#[tokio::test]
async fn arguments_that_are_not_an_object_are_invalid_params_in_every_revision() {
    for version in [
        "2024-11-05",
        "2025-03-26",
        "2025-06-18",
        "2025-11-25",
        "stateless",
    ] {
        let (mut c, era) = match version {
            "stateless" => (fresh(), Era::Stateless),
            v => (handshake(v).await, Era::Handshake),
        };
        for (n, (arguments, got)) in [
            (json!([1, 2]), "an array"),
            (json!("x"), "a string"),
            (json!(5), "a number"),
            (json!(-0.5), "a number"),
            (json!(true), "a boolean"),
            (json!(false), "a boolean"),
        ]
        .into_iter()
        .enumerate()
        {
            let id = json!(n);
            let text = request(
                era,
                id.clone(),
                "tools/call",
                json!({"name": "echo", "arguments": arguments}),
            );
            let message = format!("invalid params: `arguments` must be an object, got {got}");
            check(
                &mut c,
                era,
                version,
                &text,
                Expect::Error(-32602, id, message),
            )
            .await;
        }
        // The check comes before the tool is looked up: the request is malformed either way.
        let text = request(
            era,
            json!(10),
            "tools/call",
            json!({"name": "no-such-tool", "arguments": [1]}),
        );
        let message = "invalid params: `arguments` must be an object, got an array";
        check(&mut c, era, version, &text, err(-32602, json!(10), message)).await;
        // `null` counts as absent: the tool's own validation speaks (an `isError` result from
        // 2025-11-25 on).
        if version == "2025-11-25" || version == "stateless" {
            let text = request(
                era,
                json!(11),
                "tools/call",
                json!({"name": "echo", "arguments": null}),
            );
            let expect = Expect::Text(
                json!(11),
                "invalid arguments for tool 'echo': missing required property 'text'",
                true,
            );
            check(&mut c, era, version, &text, expect).await;
        }
    }
}

#[tokio::test]
async fn huge_inputs_are_echoed_shortened_with_their_length() {
    let name = "n".repeat(MB3);
    let uri = format!("test://{}", "u".repeat(MB3 - 7));
    for era in [Era::Handshake, Era::Stateless] {
        let mut c = client(era).await;
        let unknown_tool = format!("unknown tool '{}'", shortened(&name[..256], MB3));
        let text = request(
            era,
            json!(1),
            "tools/call",
            json!({"name": name, "arguments": {}}),
        );
        check(
            &mut c,
            era,
            "3 MB tool name",
            &text,
            Expect::Error(-32602, json!(1), unknown_tool),
        )
        .await;

        let unknown_prompt = format!("unknown prompt '{}'", shortened(&name[..256], MB3));
        let text = request(era, json!(2), "prompts/get", json!({"name": name}));
        check(
            &mut c,
            era,
            "3 MB prompt name",
            &text,
            Expect::Error(-32602, json!(2), unknown_prompt),
        )
        .await;

        let text = request(
            era,
            json!(3),
            "completion/complete",
            json!({
                "ref": {"type": "ref/resource", "uri": uri}, "argument": {"name": "id", "value": ""}
            }),
        );
        let message = format!(
            "unknown resource template '{}'",
            shortened(&uri[..256], MB3)
        );
        check(
            &mut c,
            era,
            "3 MB completion ref",
            &text,
            Expect::Error(-32602, json!(3), message),
        )
        .await;

        // The URI comes back once in the message and once in `data`, each shortened.
        c.send_raw(&request(
            era,
            json!(4),
            "resources/read",
            json!({"uri": uri}),
        ))
        .await;
        let reply = c.recv().await.unwrap();
        let code = if era == Era::Stateless {
            -32602
        } else {
            -32002
        };
        let shown = shortened(&uri[..256], MB3);
        assert_eq!(
            error_message(&reply, code, json!(4)),
            format!("resource not found: {shown}")
        );
        assert_eq!(reply["error"]["data"], json!({"uri": shown}));
        assert!(
            reply.to_string().len() < 1024,
            "{} bytes",
            reply.to_string().len()
        );
    }
}

#[tokio::test]
async fn broken_meta_of_stateless_requests_is_refused_with_a_reason() {
    let version_key = "io.modelcontextprotocol/protocolVersion";
    let caps_key = "io.modelcontextprotocol/clientCapabilities";
    let huge_version = "9".repeat(MB3);
    // serde's message for an unknown log level, which repeats the value.
    let level = "l".repeat(MB3);
    let level_msg_len = "unknown variant ``, expected one of `debug`, `info`, `notice`, `warning`, `error`, `critical`, `alert`, `emergency`".len() + MB3;
    let level_shown = format!("unknown variant `{}", &level[..256 - 17]);
    for era in [Era::Handshake, Era::Stateless] {
        let mut c = client(era).await;
        let list = |id: i64, meta: Value| {
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/list", "params": {"_meta": meta}})
                .to_string()
        };
        let cases = [
            (
                "`_meta` a number",
                list(1, json!(5)),
                err(
                    -32602,
                    json!(1),
                    "invalid `_meta`: invalid type: integer `5`, expected struct RequestMeta",
                ),
            ),
            (
                "protocol version a number",
                list(2, json!({version_key: 5, caps_key: {}})),
                err(
                    -32602,
                    json!(2),
                    "invalid `_meta`: invalid type: integer `5`, expected a string",
                ),
            ),
            (
                "no client capabilities",
                list(3, json!({version_key: "2026-07-28"})),
                err(
                    -32602,
                    json!(3),
                    "missing required `_meta[\"io.modelcontextprotocol/clientCapabilities\"]`",
                ),
            ),
            (
                "3 MB log level",
                list(
                    4,
                    json!({version_key: "2026-07-28", caps_key: {}, "io.modelcontextprotocol/logLevel": level}),
                ),
                err(
                    -32602,
                    json!(4),
                    &format!(
                        "invalid `_meta`: {}",
                        shortened(&level_shown, level_msg_len)
                    ),
                ),
            ),
        ];
        for (name, text, expect) in cases {
            check(&mut c, era, name, &text, expect).await;
        }
        for (id, requested) in [(5, "1999-01-01"), (6, huge_version.as_str())] {
            c.send_raw(&list(id, json!({version_key: requested, caps_key: {}})))
                .await;
            let reply = c.recv().await.unwrap();
            let shown = if requested.len() > 256 {
                shortened(&requested[..256], MB3)
            } else {
                requested.to_owned()
            };
            assert_eq!(
                error_message(&reply, -32022, json!(id)),
                format!(
                    "unsupported protocol version {shown:?}; this server speaks 2026-07-28 statelessly and 2024-11-05 to 2025-11-25 through `initialize`"
                )
            );
            assert_eq!(
                reply["error"]["data"],
                json!({"supported": ["2026-07-28"], "requested": shown})
            );
        }
    }
}

#[tokio::test]
async fn tampered_request_state_is_refused() {
    let mut c = fresh();
    let call = |id: i64, state: &str| {
        request(
            Era::Stateless,
            json!(id),
            "tools/call",
            json!({
                "name": "echo", "arguments": {"text": "x"}, "requestState": state
            }),
        )
    };
    let cases = [
        (
            "no seal",
            1,
            "abc".to_owned(),
            "invalid requestState: malformed",
        ),
        (
            "forged seal",
            2,
            "e30.AAAA".to_owned(),
            "invalid requestState: integrity check failed",
        ),
        (
            "not base64",
            3,
            "***.***".to_owned(),
            "invalid requestState: malformed",
        ),
        (
            "3 MB state",
            4,
            "A".repeat(MB3),
            "invalid requestState: malformed",
        ),
    ];
    for (name, id, state, message) in cases {
        check(
            &mut c,
            Era::Stateless,
            name,
            &call(id, &state),
            err(-32602, json!(id), message),
        )
        .await;
    }
    let text = request(
        Era::Stateless,
        json!(5),
        "tools/call",
        json!({
            "name": "echo", "arguments": {"text": "x"}, "inputResponses": [1]
        }),
    );
    // Answers without the state of the round that asked for them answer no round: refused
    // before their shape is looked at.
    let expect = err(
        -32602,
        json!(5),
        "`inputResponses` without the `requestState` of the round that asked for them",
    );
    check(
        &mut c,
        Era::Stateless,
        "inputResponses an array",
        &text,
        expect,
    )
    .await;
}

#[tokio::test]
async fn stray_responses_and_cancellations_are_ignored() {
    for era in [Era::Handshake, Era::Stateless] {
        let mut c = client(era).await;
        let cases = [
            (
                "response to an unknown server request",
                r#"{"jsonrpc":"2.0","id":"s-999","result":{}}"#,
            ),
            (
                "response with an integer id",
                r#"{"jsonrpc":"2.0","id":5,"result":{"x":1}}"#,
            ),
            (
                "error response with a null id",
                r#"{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"x"}}"#,
            ),
            (
                "response id like ours but huge",
                r#"{"jsonrpc":"2.0","id":"s-99999999999999999999999","result":{}}"#,
            ),
            (
                "cancel an unknown id",
                r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":424242}}"#,
            ),
            (
                "cancel with an object id",
                r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{"x":1}}}"#,
            ),
            (
                "cancel without params",
                r#"{"jsonrpc":"2.0","method":"notifications/cancelled"}"#,
            ),
            (
                "unknown notification",
                r#"{"jsonrpc":"2.0","method":"notifications/frobnicated","params":[1]}"#,
            ),
        ];
        for (name, text) in cases {
            check(&mut c, era, name, text, Expect::Nothing).await;
        }
    }
}

#[tokio::test]
async fn a_duplicate_id_in_flight_is_refused_in_the_stateless_era_too() {
    let mut c = fresh();
    let sleepy = request(
        Era::Stateless,
        json!(40),
        "tools/call",
        json!({
            "name": "sleepy", "arguments": {"ms": 300, "key": "hostile-dup"}
        }),
    );
    c.send_raw(&sleepy).await;
    started("hostile-dup").await;
    let echo = request(
        Era::Stateless,
        json!(40),
        "tools/call",
        json!({"name": "echo", "arguments": {"text": "dup"}}),
    );
    c.send_raw(&echo).await;
    let refused = c.recv().await.unwrap();
    assert_eq!(
        error_message(&refused, -32600, json!(40)),
        "a request with this id is already in flight"
    );
    let done = c.recv().await.unwrap();
    assert_eq!(only_text(&result(&done, json!(40))), "slept 300 ms");
}

#[tokio::test]
async fn deep_nesting_inside_arguments_neither_crashes_nor_stops_serving() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    for era in [Era::Handshake, Era::Stateless] {
        let mut c = client(era).await;
        let meta = if era == Era::Stateless {
            format!(",\"_meta\":{}", meta_with(Value::Null))
        } else {
            String::new()
        };
        // An unknown property nested 100k deep is refused by name (unknown arguments are refused
        // by default), without recursing into it.
        let text = format!(
            r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"x","deep":{deep}}}{meta}}}}}"#
        );
        check(
            &mut c,
            era,
            "100k-deep unknown property",
            &text,
            Expect::Text(
                json!(7),
                "invalid arguments for tool 'echo': unknown property 'deep'; allowed properties are 'text'",
                true,
            ),
        )
        .await;
        // Nested 100k deep where a string is expected: refused (serde's depth limit), not a crash.
        let text = format!(
            r#"{{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{{"name":"echo","arguments":{{"text":{deep}}}{meta}}}}}"#
        );
        check(&mut c, era, "100k-deep value", &text, Expect::Text(json!(8), "invalid arguments for tool 'echo': property 'text': expected a string, got an array", true)).await;
    }
}

/// Bytes that are not UTF-8, sent through a raw in-memory pair (the test client sends `&str`).
#[tokio::test]
async fn a_message_that_is_not_utf8_is_a_parse_error_and_serving_goes_on() {
    let server = crate::fixtures::server();
    let (server_end, client_end) = memory::pair(16);
    tokio::spawn(async move { server.serve(server_end).await });
    let (mut rx, mut tx) = client_end.split();
    let mut exchange = async |bytes: &[u8]| -> Value {
        tx.send(bytes.to_vec()).await.unwrap();
        let got = tokio::time::timeout(Duration::from_secs(10), rx.receive())
            .await
            .expect("an answer")
            .expect("the connection is open")
            .unwrap();
        let Inbound::Message(text) = got else {
            panic!("{got:?}")
        };
        serde_json::from_str(&text).unwrap()
    };
    // A lone surrogate half encoded in UTF-8 (CESU-8) inside a string id: it used to be
    // replaced by U+FFFD and the request answered with an id the client never sent.
    let reply =
        exchange(b"{\"jsonrpc\":\"2.0\",\"id\":\"\xed\xa0\x80\",\"method\":\"ping\"}").await;
    assert_eq!(
        reply,
        json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "Parse error: the message is not valid UTF-8 (byte 23)"}})
    );
    let reply = exchange(b"\xff\xfe{}").await;
    assert_eq!(
        reply["error"]["message"],
        "Parse error: the message is not valid UTF-8 (byte 0)"
    );
    let reply = exchange(b"{\"jsonrpc\":\"2.0\",\"id\":\"caf\xc3\xa9\",\"method\":\"ping\"}").await;
    assert_eq!(reply, json!({"jsonrpc": "2.0", "id": "café", "result": {}}));
}
