//! Property tests of argument validation: any JSON value as a tool's `arguments` gets an answer,
//! never a panic or a hang, and that answer is the tool's result, an `isError` result naming the
//! property at fault, or -32602 when `arguments` is not an object.
//!
//! 256 cases per property by default; `PROPTEST_CASES=1000000 cargo test --release -p mcp-tests
//! --test it properties` for a long run.

use std::cell::RefCell;

use mcp_runtime::transport::memory::TestClient;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::fixtures::Color;

/// A stop of a trip.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Stop {
    /// The city
    pub city: String,
    /// Nights there
    pub nights: Option<u8>,
}

/// Plans a trip.
#[mcp_runtime::tool(server = "props")]
async fn trip(
    /// The stops, in order
    stops: Vec<Stop>,
    /// How many travel
    #[arg(min = 1, max = 9)]
    travellers: u8,
    /// The colour of the luggage
    luggage: Option<Color>,
) -> String {
    let nights: u32 = stops.iter().map(|s| u32::from(s.nights.unwrap_or(1))).sum();
    let cities = stops.iter().filter(|s| !s.city.is_empty()).count();
    let colour = luggage.map_or("no", |c| match c {
        Color::Red => "red",
        Color::Green => "green",
        Color::Blue => "blue",
    });
    format!(
        "{} stop(s) for {travellers}: {cities} named, {nights} night(s), {colour} luggage",
        stops.len()
    )
}

/// Any JSON value, nested a few levels.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        any::<String>().prop_map(Value::String),
        prop::sample::select(vec!["red", "green", "blue", "purple", ""])
            .prop_map(|s| Value::String(s.into())),
    ];
    leaf.prop_recursive(4, 24, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::btree_map("[a-z]{1,8}", inner, 0..5)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Objects whose keys are mostly the tool's own, with any values: the cases that reach deep
/// into validation.
fn near_miss(keys: &'static [&'static str]) -> impl Strategy<Value = Value> {
    let key = prop_oneof![
        4 => prop::sample::select(keys),
        1 => Just("other"),
    ];
    prop::collection::btree_map(key, json_value(), 0..5)
        .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()))
}

/// A `stops` array of objects with the right keys and any values.
fn stops() -> impl Strategy<Value = Value> {
    let stop = prop::collection::btree_map(
        prop::sample::select(&["city", "nights", "other"][..]),
        json_value(),
        0..3,
    )
    .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()));
    // Any other value too, arrays longer than the struct has fields included (see
    // `a_struct_given_as_a_long_array_is_named`, found by the long run).
    prop::collection::vec(prop_oneof![4 => stop, 1 => json_value()], 0..4).prop_map(Value::Array)
}

/// What a call with any arguments may get back; anything else fails the property.
fn check(tool: &str, arguments: &Value, reply: &Value) -> Result<(), TestCaseError> {
    prop_assert_eq!(&reply["jsonrpc"], "2.0", "{}", reply);
    if let Some(err) = reply.get("error") {
        // Only `arguments` that is not an object (nor null) is a protocol error.
        prop_assert!(!arguments.is_object() && !arguments.is_null(), "{}", reply);
        prop_assert_eq!(&err["code"], -32602);
        let message = err["message"].as_str().unwrap();
        prop_assert!(
            message.starts_with("invalid params: `arguments` must be an object, got "),
            "{}",
            message
        );
        return Ok(());
    }
    let result = &reply["result"];
    let text = result["content"][0]["text"].as_str().unwrap_or_default();
    if result["isError"] == true {
        let prefix = format!("invalid arguments for tool '{tool}': ");
        prop_assert!(text.starts_with(&prefix), "{}", text);
        // The message names the property at fault.
        prop_assert!(
            text.contains("property '") || text.contains("properties '"),
            "{} for {}",
            text,
            arguments
        );
        prop_assert!(text.len() < 2048, "{} bytes", text.len());
    } else {
        prop_assert!(arguments.is_object(), "{} accepted {}", tool, arguments);
        prop_assert!(
            text.ends_with(" coat(s) of Red")
                || text.ends_with(" coat(s) of Green")
                || text.ends_with(" coat(s) of Blue")
                || text.contains(" stop(s) for "),
            "{}",
            text
        );
    }
    Ok(())
}

/// Runs `strategy`'s cases against `tool` through one in-memory session.
fn run(tool: &'static str, strategy: impl Strategy<Value = Value>) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let server = crate::fixtures::builder().tool(trip::TOOL).build().unwrap();
    let client: RefCell<TestClient> = RefCell::new(rt.block_on(async {
        let mut c = server.connect_in_memory();
        c.initialize("2025-11-25").await;
        c
    }));
    let mut runner = TestRunner::new(Config::default());
    let outcome = runner.run(&strategy, |arguments| {
        let reply = rt.block_on(client.borrow_mut().call_tool(tool, arguments.clone()));
        check(tool, &arguments, &reply)
    });
    if let Err(e) = outcome {
        panic!("{e}");
    }
}

#[test]
fn any_json_as_arguments_is_answered_and_failures_name_a_property() {
    run("paint", json_value());
    run("trip", json_value());
}

#[test]
fn near_miss_arguments_are_answered_and_failures_name_a_property() {
    run("paint", near_miss(&["color", "coats", "finish"]));
    let trip_args = (
        stops(),
        prop::option::of(json_value()),
        prop::option::of(json_value()),
    )
        .prop_map(|(stops, travellers, luggage)| {
            let mut args = json!({"stops": stops});
            if let Some(t) = travellers {
                args["travellers"] = t;
            }
            if let Some(l) = luggage {
                args["luggage"] = l;
            }
            args
        });
    run("trip", trip_args);
}

/// Found by the long run (`{"stops":[["",null,null]]}`): serde reads a struct from an array, and
/// one element too many is a "syntax" error without a path, which the validation messages take
/// for invalid JSON. The arguments are valid JSON; the message must name `stops`.
#[tokio::test]
async fn a_struct_given_as_a_long_array_is_named() {
    let server = crate::fixtures::builder().tool(trip::TOOL).build().unwrap();
    let mut client = server.connect_in_memory();
    client.initialize("2025-11-25").await;
    let reply = client
        .call_tool(
            "trip",
            json!({"stops": [["", null, null]], "travellers": 1}),
        )
        .await;
    let text = reply["result"]["content"][0]["text"].as_str().unwrap();
    assert_eq!(reply["result"]["isError"], true, "{reply}");
    assert!(text.contains("property 'stops"), "{text}");
    assert!(!text.contains("not valid JSON"), "{text}");
}
