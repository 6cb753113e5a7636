//! A call's invalid arguments are told all at once, at most ten problems then a count, in the
//! order of the arguments (missing properties last): as an `isError` result from 2025-11-25 on
//! (the stateless era included) and as a -32602 error before, one message either way.

use mcp_runtime::prelude::*;
use serde_json::json;

use crate::fixtures::handshake;
use crate::{error_message, only_text, result};

/// Drafts a note.
#[tool(server = "it-problems")]
async fn draft(
    /// What to remember
    text: String,
    /// Characters to keep, at most 280
    #[arg(max = 280)]
    keep: Option<u32>,
) -> String {
    format!("{text} {keep:?}")
}

/// Rates twelve things from 1 to 5.
#[tool(server = "it-problems")]
#[allow(clippy::too_many_arguments)]
async fn survey(
    /// a
    #[arg(min = 1, max = 5)]
    a: u8,
    /// b
    #[arg(min = 1, max = 5)]
    b: u8,
    /// c
    c: u8,
    /// d
    d: u8,
    /// e
    e: u8,
    /// f
    f: u8,
    /// g
    g: u8,
    /// h
    h: u8,
    /// i
    i: u8,
    /// j
    j: u8,
    /// k
    k: String,
    /// l
    l: bool,
) -> String {
    format!("{a}{b}{c}{d}{e}{f}{g}{h}{i}{j}{k}{l}")
}

/// Writes a letter.
#[prompt(server = "it-problems")]
async fn letter(
    /// To whom
    to: String,
    /// From whom
    from: String,
    /// How many lines
    lines: Option<u8>,
) -> String {
    format!("{to} {from} {lines:?}")
}

fn server() -> Server {
    Server::builder(server_info!())
        .tool(draft::TOOL)
        .tool(survey::TOOL)
        .prompt(letter::PROMPT)
        .build()
        .unwrap()
}

/// The message of an invalid call of `tool` with `arguments` (JSON text, sent as written) at
/// `version` (`stateless` for 2026-07-28), checking the era's form: an `isError` result, or
/// -32602 before 2025-11-25.
async fn message(version: &str, tool: &str, arguments: &str) -> String {
    let mut client = server().connect_in_memory();
    let meta = if version == "stateless" {
        r#","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"0"}}"#
    } else {
        client.initialize(version).await;
        ""
    };
    client
        .send_raw(&format!(
            r#"{{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments}{meta}}}}}"#
        ))
        .await;
    let r = client.response(&json!(9)).await;
    if version < "2025-11-25" {
        return error_message(&r, -32602, json!(9));
    }
    let r = result(&r, json!(9));
    assert_eq!(r["isError"], true, "{r}");
    only_text(&r).to_owned()
}

const ERAS: [&str; 3] = ["2025-06-18", "2025-11-25", "stateless"];

#[tokio::test]
async fn one_problem_is_told_as_it_was() {
    for era in ERAS {
        assert_eq!(
            message(era, "draft", r#"{"text": "milk", "keep": 500}"#).await,
            "invalid arguments for tool 'draft': property 'keep': must be at most 280, got 500",
            "{era}"
        );
    }
}

#[tokio::test]
async fn two_problems_are_both_told_in_the_order_of_the_arguments() {
    for era in ERAS {
        assert_eq!(
            message(era, "draft", r#"{"text": 5, "keep": 500}"#).await,
            "invalid arguments for tool 'draft': 2 problems:\n\
             - property 'text': expected a string, got integer 5\n\
             - property 'keep': must be at most 280, got 500",
            "{era}"
        );
        assert_eq!(
            message(era, "draft", r#"{"keep": 500}"#).await,
            "invalid arguments for tool 'draft': 2 problems:\n\
             - property 'keep': must be at most 280, got 500\n\
             - missing required property 'text'",
            "{era}"
        );
    }
}

#[tokio::test]
async fn bounds_alone_are_all_told_in_the_order_of_the_arguments() {
    // The arguments parse; two generated bound checks fail: both are told, as written.
    let arguments = r#"{"b": 0, "a": 9, "c": 1, "d": 1, "e": 1, "f": 1, "g": 1, "h": 1,
        "i": 1, "j": 1, "k": "x", "l": true}"#;
    for era in ERAS {
        assert_eq!(
            message(era, "survey", arguments).await,
            "invalid arguments for tool 'survey': 2 problems:\n\
             - property 'b': must be between 1 and 5, got 0\n\
             - property 'a': must be between 1 and 5, got 9",
            "{era}"
        );
        assert_eq!(
            message(era, "survey", &arguments.replace(r#""b": 0"#, r#""b": 2"#)).await,
            "invalid arguments for tool 'survey': property 'a': must be between 1 and 5, got 9",
            "{era}"
        );
    }
}

#[tokio::test]
async fn twelve_problems_are_ten_told_and_two_counted() {
    let arguments = r#"{
        "l": "yes", "a": 9, "b": 0, "c": -1, "d": "x", "e": 300, "f": 1.5, "g": null,
        "h": [], "i": {}, "k": 7
    }"#;
    for era in ERAS {
        assert_eq!(
            message(era, "survey", arguments).await,
            "invalid arguments for tool 'survey': 12 problems:\n\
             - property 'l': expected a boolean, got string \"yes\"\n\
             - property 'a': must be between 1 and 5, got 9\n\
             - property 'b': must be between 1 and 5, got 0\n\
             - property 'c': expected a non-negative integer, got integer -1\n\
             - property 'd': expected a non-negative integer, got string \"x\"\n\
             - property 'e': integer 300 is out of range; expected an integer from 0 to 255\n\
             - property 'f': expected a non-negative integer, got floating point 1.5\n\
             - property 'g': expected a non-negative integer, got null\n\
             - property 'h': expected a non-negative integer, got an array\n\
             - property 'i': expected a non-negative integer, got an object\n\
             - and 2 more",
            "{era}"
        );
    }
}

#[tokio::test]
async fn valid_arguments_still_reach_the_tool() {
    let mut client = handshake("2025-11-25").await;
    let r = client
        .call_tool("paint", json!({"color": "blue", "coats": 3}))
        .await;
    assert_eq!(only_text(&result(&r, json!(2))), "3 plain coat(s) of Blue");
    let mut client = server().connect_in_memory();
    client.initialize("2025-11-25").await;
    let r = client
        .call_tool("draft", json!({"text": "milk", "keep": 280}))
        .await;
    assert_eq!(only_text(&result(&r, json!(2))), "milk Some(280)");
}

#[tokio::test]
async fn a_prompt_tells_every_missing_argument() {
    for (n, (arguments, expected)) in [
        (json!({}), "2 problems:\n- missing required argument 'to'\n- missing required argument 'from'"),
        (json!({"from": "Ann"}), "missing required argument 'to'"),
        // The other arguments are the prompt's to read: there may be more.
        (
            json!({"lines": "x"}),
            "at least 2 problems:\n- missing required argument 'to'\n- missing required argument 'from'",
        ),
        (
            json!({"to": "Bo", "from": "Ann", "lines": "x"}),
            "argument 'lines': cannot read \"x\" as a non-negative integer",
        ),
    ]
    .into_iter()
    .enumerate()
    {
        for era in ["2025-11-25", "stateless"] {
            let mut client = server().connect_in_memory();
            let params = json!({"name": "letter", "arguments": arguments});
            let r = if era == "stateless" {
                client.stateless("prompts/get", params).await
            } else {
                client.initialize(era).await;
                client.request("prompts/get", params).await
            };
            let id = json!(if era == "stateless" { 1 } else { 2 });
            assert_eq!(error_message(&r, -32602, id), expected, "{n} {era}");
        }
    }
}
