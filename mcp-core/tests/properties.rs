//! Property tests of the envelope parser, the echo helper and RFC 6570 URI templates.
//!
//! Each property runs 256 cases by default; set `PROPTEST_CASES` for a long run, e.g.
//! `PROPTEST_CASES=1000000 cargo test --release -p mcp-core --test properties`. Inputs that once
//! broke a property are kept as plain tests at the end.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use mcp_runtime_core::UriTemplate;
use mcp_runtime_core::jsonrpc::{
    self, ECHO_LIMIT, EnvelopeError, ErrorObject, Message, Parsed, RequestId, echo,
    parse_batch_or_message, parse_message,
};
use proptest::prelude::*;
use serde_json::{Value, json};

// ---------------------------------------------------------------------------------------------
// Strategies

/// Any JSON value, nested a few levels.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        any::<String>().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(any::<String>(), inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn json_object() -> impl Strategy<Value = Value> {
    prop::collection::btree_map(any::<String>(), json_value(), 0..6)
        .prop_map(|m| Value::Object(m.into_iter().collect()))
}

fn request_id() -> impl Strategy<Value = RequestId> {
    prop_oneof![
        any::<i64>().prop_map(RequestId::Number),
        any::<String>().prop_map(RequestId::String),
    ]
}

/// Text made of JSON and JSON-RPC tokens: close enough to messages to reach deep into the
/// parser, far enough to be mostly wrong.
fn json_like() -> impl Strategy<Value = String> {
    let token = prop::sample::select(vec![
        "{",
        "}",
        "[",
        "]",
        ":",
        ",",
        " ",
        "\"jsonrpc\"",
        "\"2.0\"",
        "\"1.0\"",
        "\"id\"",
        "\"method\"",
        "\"params\"",
        "\"result\"",
        "\"error\"",
        "\"code\"",
        "\"message\"",
        "\"ping\"",
        "\"tools/call\"",
        "null",
        "true",
        "false",
        "0",
        "-1",
        "1.5",
        "1e400",
        "18446744073709551616",
        "\"x\"",
        "\"\\ud800\"",
        "\"\\u0000\"",
        "\"\\\"",
        "\"é\"",
    ]);
    prop::collection::vec(token, 0..48).prop_map(|t| t.concat())
}

/// A valid message, as a JSON value.
fn message() -> impl Strategy<Value = Value> {
    let params = prop::option::of(prop_oneof![
        json_object(),
        prop::collection::vec(json_value(), 0..4).prop_map(Value::Array),
    ]);
    let id = || request_id().prop_map(|id| serde_json::to_value(id).unwrap());
    prop_oneof![
        (id(), any::<String>(), params.clone()).prop_map(|(id, method, params)| {
            let mut m = json!({"jsonrpc": "2.0", "id": id, "method": method});
            if let Some(p) = params {
                m["params"] = p;
            }
            m
        }),
        (any::<String>(), params).prop_map(|(method, params)| {
            let mut m = json!({"jsonrpc": "2.0", "method": method});
            if let Some(p) = params {
                m["params"] = p;
            }
            m
        }),
        (id(), json_value())
            .prop_map(|(id, result)| json!({"jsonrpc": "2.0", "id": id, "result": result})),
        (
            id(),
            any::<i32>(),
            any::<String>(),
            prop::option::of(json_value())
        )
            .prop_map(|(id, code, message, data)| {
                let mut e = json!({"code": code, "message": message});
                if let Some(d) = data {
                    e["data"] = d;
                }
                json!({"jsonrpc": "2.0", "id": id, "error": e})
            }),
    ]
}

/// The raw JSON of a parsed message's slice, as a value.
fn raw(r: &serde_json::value::RawValue) -> Value {
    serde_json::from_str(r.get()).unwrap()
}

/// Checks that `parsed` is the message `expected` (a JSON value). Both sides are read by the
/// same float parser (serde_json's is not exact to the last bit without `float_roundtrip`): the
/// envelope keeps the raw text, and that is what is compared.
fn same_message(parsed: &Message<'_>, expected: &Value) -> Result<(), TestCaseError> {
    let expected: &Value = &serde_json::from_str(&expected.to_string()).unwrap();
    let id = || serde_json::from_value::<RequestId>(expected["id"].clone()).unwrap();
    match parsed {
        Message::Request(r) => {
            prop_assert_eq!(&r.id, &id());
            prop_assert_eq!(&*r.method, expected["method"].as_str().unwrap());
            prop_assert_eq!(r.params.map(raw), expected.get("params").cloned());
        }
        Message::Notification(n) => {
            prop_assert!(expected.get("id").is_none());
            prop_assert_eq!(&*n.method, expected["method"].as_str().unwrap());
            prop_assert_eq!(n.params.map(raw), expected.get("params").cloned());
        }
        Message::Response(r) => {
            prop_assert_eq!(r.id.as_ref(), Some(&id()));
            match &r.outcome {
                Ok(result) => prop_assert_eq!(raw(result), expected["result"].clone()),
                Err(err) => {
                    let want: ErrorObject = serde_json::from_value(expected["error"].clone())
                        .expect("the generated error is an error object");
                    prop_assert_eq!(err, &want);
                }
            }
        }
    }
    Ok(())
}

/// Whatever the parser says about `text`, it says it without panicking, and its errors are the
/// JSON-RPC ones.
fn parses_without_panic(text: &str) -> Result<(), TestCaseError> {
    let check = |e: &EnvelopeError| {
        let code = e.to_error_object().code;
        assert!(code == -32700 || code == -32600, "{code}");
        if matches!(e, EnvelopeError::Parse) {
            assert!(e.id().is_none());
        }
    };
    match parse_batch_or_message(text) {
        Ok(Parsed::Single(_)) => {}
        Ok(Parsed::Batch(items)) => {
            prop_assert!(!items.is_empty());
            for item in &items {
                if let Err(e) = item {
                    check(e);
                }
            }
        }
        Err(e) => check(&e),
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// The envelope parser

proptest! {
    #[test]
    fn the_parser_never_panics_on_any_string(text in any::<String>()) {
        parses_without_panic(&text)?;
    }

    #[test]
    fn the_parser_never_panics_on_any_bytes_read_as_utf8(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        parses_without_panic(&String::from_utf8_lossy(&bytes))?;
    }

    #[test]
    fn the_parser_never_panics_on_json_like_text(text in json_like()) {
        parses_without_panic(&text)?;
        parses_without_panic(&format!("[{text}]"))?;
    }

    #[test]
    fn the_parser_never_panics_on_damaged_messages(
        msg in message(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<char>(), 0u8..3), 1..6),
    ) {
        let mut text: Vec<char> = msg.to_string().chars().collect();
        for (at, c, kind) in edits {
            if text.is_empty() {
                break;
            }
            let i = at.index(text.len());
            match kind {
                0 => {
                    text.remove(i);
                }
                1 => text.insert(i, c),
                _ => text[i] = c,
            }
        }
        parses_without_panic(&text.into_iter().collect::<String>())?;
    }

    #[test]
    fn valid_messages_round_trip(msg in message()) {
        let text = msg.to_string();
        let parsed = parse_message(&text).expect("a valid message parses");
        same_message(&parsed, &msg)?;
        // Pretty-printed, it is the same message.
        let pretty = serde_json::to_string_pretty(&msg).unwrap();
        same_message(&parse_message(&pretty).unwrap(), &msg)?;
        match parse_batch_or_message(&text).unwrap() {
            Parsed::Single(m) => same_message(&m, &msg)?,
            Parsed::Batch(_) => prop_assert!(false, "an object is not a batch"),
        }
    }

    #[test]
    fn batches_of_valid_messages_round_trip(msgs in prop::collection::vec(message(), 1..6)) {
        let text = Value::Array(msgs.clone()).to_string();
        let Parsed::Batch(items) = parse_batch_or_message(&text).unwrap() else {
            return Err(TestCaseError::fail("an array is a batch"));
        };
        prop_assert_eq!(items.len(), msgs.len());
        for (item, msg) in items.iter().zip(&msgs) {
            same_message(item.as_ref().unwrap(), msg)?;
        }
    }

    #[test]
    fn the_writers_produce_what_the_parser_reads(
        id in request_id(),
        method in any::<String>(),
        params in json_object(),
        result in json_value(),
        code in any::<i32>(),
        message in any::<String>(),
    ) {
        let params_text = params.to_string();
        let mut buf = Vec::new();
        jsonrpc::write_request(&mut buf, &id, &method, &params_text);
        let text = String::from_utf8(buf).unwrap();
        let expected = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        same_message(&parse_message(&text).unwrap(), &expected)?;

        let mut buf = Vec::new();
        jsonrpc::write_notification(&mut buf, &method, &params_text);
        let text = String::from_utf8(buf).unwrap();
        let expected = json!({"jsonrpc": "2.0", "method": method, "params": params});
        same_message(&parse_message(&text).unwrap(), &expected)?;

        let mut buf = Vec::new();
        jsonrpc::write_response(&mut buf, &id, &result.to_string());
        let text = String::from_utf8(buf).unwrap();
        let expected = json!({"jsonrpc": "2.0", "id": id, "result": result});
        same_message(&parse_message(&text).unwrap(), &expected)?;

        let mut buf = Vec::new();
        let err = ErrorObject::new(code, message.clone());
        jsonrpc::write_error(&mut buf, Some(&id), &err);
        let text = String::from_utf8(buf).unwrap();
        let expected = json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}});
        same_message(&parse_message(&text).unwrap(), &expected)?;
    }

    #[test]
    fn echo_keeps_short_inputs_and_shortens_long_ones_on_a_char_boundary(input in any::<String>(), repeat in 1usize..40) {
        let input = input.repeat(repeat);
        let shown = echo(&input).to_string();
        if input.len() <= ECHO_LIMIT {
            prop_assert_eq!(shown, input);
        } else {
            let suffix = format!("… ({} bytes)", input.len());
            prop_assert!(shown.ends_with(&suffix));
            let head = &shown[..shown.len() - suffix.len()];
            prop_assert!(input.starts_with(head));
            prop_assert!(head.len() <= ECHO_LIMIT && head.len() > ECHO_LIMIT - 4);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// URI templates

/// An operator, and whether it may only come last (it may span what follows).
const OPS: [(&str, bool); 6] = [
    ("", false),
    ("/", false),
    (".", false),
    (";", false),
    ("+", true),
    ("#", true),
];

/// Variable values that survive expansion and matching unchanged: no separators of any operator
/// (`/ . , ; = & ? #`), no `%` (kept as is by reserved expansion), not empty.
fn var_value() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9 _~é!@$'()*+:-]{1,10}"
}

/// A template the matcher can read back unambiguously, with values for its variables: a literal
/// head, then expressions each followed by a `/`-led literal, at most one spanning operator
/// (`+`, `#`) and query expressions only at the end. Returns the template, the values, and what
/// matching the expansion must give (prefixes applied; query variables may be left out).
fn round_trip_case()
-> impl Strategy<Value = (String, BTreeMap<String, String>, BTreeMap<String, String>)> {
    let expr = (0..OPS.len(), 1usize..3, prop::option::of(1usize..6));
    (
        "[a-z]{1,5}://[a-z]{1,5}",
        prop::collection::vec((expr, "/[a-z]{1,3}"), 1..4),
        prop::option::of(prop::collection::vec(prop::option::of(var_value()), 1..4)),
        prop::collection::vec(var_value(), 12),
    )
        .prop_map(|(head, exprs, query, values)| {
            let mut template = head;
            let mut vars = BTreeMap::new();
            let mut expected = BTreeMap::new();
            let mut n = 0;
            let last = exprs.len() - 1;
            for (i, ((op, count, prefix), literal)) in exprs.into_iter().enumerate() {
                let (op, spanning) = OPS[op];
                // Spanning operators only last; segment operators hold one variable each.
                let op = if spanning && i != last { "" } else { op };
                let count = if op.is_empty() || op == "+" || op == "#" {
                    count
                } else {
                    1
                };
                let names: Vec<String> = (0..count)
                    .map(|_| {
                        n += 1;
                        format!("v{n}")
                    })
                    .collect();
                let specs: Vec<String> = names
                    .iter()
                    .map(|name| match prefix {
                        Some(p) if count == 1 => format!("{name}:{p}"),
                        _ => name.clone(),
                    })
                    .collect();
                template.push_str(&format!("{{{op}{}}}", specs.join(",")));
                if !(i == last && (op == "+" || op == "#")) || query.is_none() {
                    template.push_str(&literal);
                }
                for name in names {
                    let value = values[n % values.len()].clone();
                    let kept: String = match prefix {
                        Some(p) if count == 1 => value.chars().take(p).collect(),
                        _ => value.clone(),
                    };
                    vars.insert(name.clone(), value);
                    expected.insert(name, kept);
                }
            }
            if let Some(query) = query {
                if template.contains('#') {
                    // A fragment takes the rest: no query after it.
                    return (template, vars, expected);
                }
                let names: Vec<String> = (0..query.len())
                    .map(|_| {
                        n += 1;
                        format!("v{n}")
                    })
                    .collect();
                template.push_str(&format!("{{?{}}}", names.join(",")));
                for (name, value) in names.into_iter().zip(query) {
                    if let Some(value) = value {
                        vars.insert(name.clone(), value.clone());
                        expected.insert(name, value);
                    }
                }
            }
            (template, vars, expected)
        })
}

/// Any template the grammar allows, valid or not in the details.
fn template_like() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        "[a-z:/._~-]{0,6}",
        "\\{[+#./;?&]?[a-zA-Z0-9_.%]{1,6}(:[0-9]{1,5}|\\*)?(,[a-zA-Z0-9_]{1,4}(:[0-9]{1,3}|\\*)?){0,2}\\}",
        "\\{[^}]{0,6}\\}?",
    ];
    prop::collection::vec(piece, 0..6).prop_map(|p| p.concat())
}

proptest! {
    #[test]
    fn parsing_any_text_never_panics_and_keeps_the_source(text in any::<String>()) {
        if let Ok(t) = UriTemplate::parse(&text) {
            prop_assert_eq!(t.as_str(), text.as_str());
        }
    }

    #[test]
    fn templates_the_grammar_allows_parse_expand_and_match_without_panic(
        template in template_like(),
        values in prop::collection::btree_map("[a-zA-Z0-9_.]{1,6}", any::<String>(), 0..6),
        uri in any::<String>(),
    ) {
        if let Ok(t) = UriTemplate::parse(&template) {
            prop_assert_eq!(t.to_string(), template.clone());
            prop_assert_eq!(UriTemplate::parse(&t.to_string()).unwrap(), t.clone());
            let expanded = t.expand(&values);
            let _ = t.match_uri(&expanded);
            let _ = t.match_uri(&uri);
        }
    }

    #[test]
    fn expanded_uris_match_back_to_their_values((template, vars, expected) in round_trip_case()) {
        let t = UriTemplate::parse(&template).expect("generated templates are valid");
        let names: Vec<&str> = t.variables().collect();
        prop_assert!(expected.keys().all(|k| names.contains(&k.as_str())));
        let uri = t.expand(&vars);
        let matched = t.match_uri(&uri);
        prop_assert_eq!(matched.as_ref(), Some(&expected), "{} expanded to {}", template, uri);
    }
}

// ---------------------------------------------------------------------------------------------
// Regressions and bounds

/// A hostile URI with no valid end used to cost time in proportion to the square of its length
/// (each possible end of `{id}` was decoded in turn): 100 KB took 7 s, 3 MB would take hours.
/// The matcher now skips ends that what follows cannot start at, and spends a bounded amount of
/// work per byte. The bound below is over a hundred times what the linear matcher needs even in
/// a debug build, and a hundredth of what the quadratic one needed.
#[test]
fn long_hostile_uris_match_in_linear_time() {
    let started = Instant::now();
    let long = "u".repeat(1024 * 1024);
    for (template, uri) in [
        ("gift://item/{id}", format!("gift://item/{long}/x")),
        ("file:///{+path}/meta", format!("file:///{long}")),
        ("a://{x}{y}", format!("a://{long}/")),
        ("a://{x}{/y}{.z}", format!("a://{long}?")),
        ("a://{x}/{y}", format!("a://{}", "/".repeat(1024 * 1024))),
    ] {
        let t = UriTemplate::parse(template).unwrap();
        assert_eq!(t.match_uri(&uri), None, "{template}");
    }
    // And what matches still matches, however long.
    let t = UriTemplate::parse("gift://item/{id}").unwrap();
    assert_eq!(
        t.match_uri(&format!("gift://item/{long}")).unwrap()["id"].len(),
        long.len()
    );
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
}
